"""`kcli client-metrics`: kafka-client-metrics.sh (--list, --describe, --alter, --delete; KIP-714).

kcli client-metrics -b HOST:9092 --list
kcli client-metrics -b HOST:9092 --alter --name basic --metrics org.apache.kafka.producer. --interval 5000
kcli client-metrics -b HOST:9092 --describe --name basic

A subscription is a config resource of the brokers (`kcli configs --entity-type client-metrics` reads it
too); kafka-client-metrics.sh has no --bootstrap-controller, and the controllers list no subscriptions.
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT, refuse_stray
from kcli.cli.common import OutputOpt, env_of, guarded, run_admin
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.version import VersionOpt
from kcli.errors import UsageError
from kcli.render import OutputFormat

_A = "Actions"
ONLY_BROKERS = "client-metrics subscriptions are the brokers' configs: use --bootstrap-server, not --bootstrap-controller"
SELECTORS = "client_id, client_instance_id, client_software_name, client_software_version, client_source_address, client_source_port"


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("client-metrics", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def client_metrics(
        ctx: typer.Context,
        alter: Annotated[
            bool,
            typer.Option(
                "--alter", help="Alter (or create) a client metrics subscription.", rich_help_panel=_A
            ),
        ] = False,
        delete: Annotated[
            bool, typer.Option("--delete", help="Delete a client metrics subscription.", rich_help_panel=_A)
        ] = False,
        describe: Annotated[
            bool,
            typer.Option(
                "--describe", help="Show the configs of the subscriptions (or of --name).", rich_help_panel=_A
            ),
        ] = False,
        list_: Annotated[
            bool, typer.Option("--list", help="List the client metrics subscriptions.", rich_help_panel=_A)
        ] = False,
        name: Annotated[str | None, typer.Option("--name", help="Name of the subscription.")] = None,
        generate_name: Annotated[
            bool, typer.Option("--generate-name", help="With --alter: a random Uuid as the name.")
        ] = False,
        interval: Annotated[
            str | None,
            typer.Option(
                "--interval", help="Metrics push interval in milliseconds (empty: back to the default)."
            ),
        ] = None,
        match: Annotated[
            list[str] | None,
            typer.Option(
                "--match", help=f"Client selectors 'k1=v1,k2=v2' (regular expressions) of: {SELECTORS}."
            ),
        ] = None,
        metrics: Annotated[
            list[str] | None,
            typer.Option(
                "--metrics", help="Telemetry metric name prefixes 'm1,m2' (* for every metric; empty: none)."
            ),
        ] = None,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Manage client metrics subscriptions: which metrics clients push, how often (kafka-client-metrics.sh)."""
        from kcli.ops.client_metrics import Action, Given, action_of, plan
        from kcli.render import client_metrics as view
        from kcli.render import emit
        from kcli.workflows import client_metrics as flow

        connection = connection_args(bootstrap_server, bootstrap_controller, command_config, profile)
        env = env_of(ctx)
        if connection.bootstrap_controller:
            raise UsageError(ONLY_BROKERS)
        given = Given(
            alter=alter,
            delete=delete,
            describe=describe,
            list_=list_,
            bootstrap_server=True,  # checked by client_config: a flag, --command-config, a profile, env
            name=name,
            generate_name=generate_name,
            interval=interval,
            match=match,
            metrics=metrics,
        )
        action_of(given)
        config = client_config(connection, env, missing_bootstrap="--bootstrap-server must be specified.")
        request = plan(given)
        refuse_stray(ctx.args)
        if request.action is Action.LIST:
            names = run_admin(config, flow.names)
            emit(env, output, names, text=view.list_lines, json_value=view.list_json)
        elif request.action is Action.DESCRIBE:
            described = run_admin(config, lambda admin: flow.describe(admin, request.name))
            emit(
                env,
                output,
                described,
                text=view.describe_lines,
                json_value=view.describe_json,
                table=view.describe_table,
            )
        elif request.action is Action.ALTER:
            changed = run_admin(config, lambda admin: flow.alter(admin, request))
            emit(env, output, changed, text=view.altered_lines, json_value=view.changed_json)
        else:
            assert request.name is not None
            deleted = run_admin(config, lambda admin: flow.delete(admin, request.name or ""))
            emit(env, output, deleted, text=view.deleted_lines, json_value=view.changed_json)
