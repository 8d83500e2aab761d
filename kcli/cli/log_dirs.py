"""`kcli log-dirs`: kafka-log-dirs.sh --describe, its JSON line as Kafka prints it, and a table of sizes.

kcli log-dirs -b HOST:9092 --describe                                 # Kafka's three lines
kcli log-dirs -b HOST:9092 --describe --broker-list 1,2 --topic-list orders
kcli log-dirs -b HOST:9092 --describe -o table --by broker            # sizes, space, skew per broker
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapServerOpt,
    CommandConfigOpt,
    NoControllerOpt,
    ProfileOpt,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import UsageError
from kcli.ops.log_dirs import GroupBy
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.cli.connection_options import ConnectionArgs
    from kcli.client.config import ClientConfig
    from kcli.env import Env

CLIENT_ID = "log-dirs-tool"
NO_CONTROLLERS = (
    "bootstrap-controller is not a recognized option of kafka-log-dirs: log dirs are described by "
    "brokers; use --bootstrap-server"
)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("log-dirs", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def log_dirs(
        ctx: typer.Context,
        describe: Annotated[
            bool, typer.Option("--describe", help="Describe the log dirs of the brokers (required).")
        ] = False,
        broker_list: Annotated[
            str, typer.Option("--broker-list", help='Brokers to ask: "0,1,2" (default: every broker).')
        ] = "",
        topic_list: Annotated[
            str, typer.Option("--topic-list", help='Topics to show: "topic1,topic2" (default: every topic).')
        ] = "",
        by: Annotated[
            GroupBy, typer.Option("--by", help="With -o table: one row per broker, log dir or topic.")
        ] = GroupBy.DIR,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        bootstrap_controller: NoControllerOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Describe the log dirs of brokers: replicas and their sizes (kafka-log-dirs.sh)."""
        from kcli.ops.log_dirs import parse_broker_list, parse_topic_list
        from kcli.render import emit
        from kcli.render import log_dirs as view
        from kcli.workflows.log_dirs import describe as read

        env = env_of(ctx)
        if bootstrap_controller is not None:
            raise UsageError(NO_CONTROLLERS)
        config = _config(connection_args(bootstrap_server, None, command_config, profile), env)
        if not describe:
            raise UsageError('Missing required argument "[describe]"')
        refuse_stray(ctx.args)
        topics = parse_topic_list(topic_list)
        brokers = parse_broker_list(broker_list)

        def querying() -> None:
            if output is OutputFormat.text:
                env.out(view.QUERYING)
                env.stdout.flush()

        described = run_admin(
            config, lambda admin: read(admin, brokers=brokers, topics=topics, on_query=querying)
        )
        emit(
            env,
            output,
            described,
            text=view.text_lines,
            json_value=view.json_value,
            table=lambda d: view.table(d, by),
        )


def _config(args: ConnectionArgs, env: Env) -> ClientConfig:
    import dataclasses

    from kcli.cli.connection_options import client_config
    from kcli.kafka import EndpointType

    config = client_config(
        args, env, missing_bootstrap='Missing required argument "[bootstrap-server]"'
    )
    if config.endpoint_type is EndpointType.CONTROLLERS:
        raise UsageError(NO_CONTROLLERS)
    if "client.id" not in config.properties:
        config = dataclasses.replace(config, client_id=CLIENT_ID)
    return config
