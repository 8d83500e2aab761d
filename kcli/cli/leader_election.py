"""`kcli leader-election`: kafka-leader-election.sh, and --dry-run: the partitions not led by their
preferred replica (what a preferred election would move), without electing.

kcli leader-election -b HOST:9092 --election-type preferred --all-topic-partitions
kcli leader-election -b HOST:9092 --election-type preferred --topic orders --partition 0
kcli leader-election -b HOST:9092 --election-type preferred --all-topic-partitions --dry-run
"""

from __future__ import annotations

from pathlib import Path
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
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.cli.connection_options import ConnectionArgs
    from kcli.client.config import ClientConfig
    from kcli.env import Env
    from kcli.ops.leader_election import ElectionType
    from kcli.ops.reassign.model import TopicPartition

    Scope = list[TopicPartition] | None  # the partitions to elect (None: every partition)

NO_CONTROLLERS = (
    "bootstrap-controller is not a recognized option of kafka-leader-election: elections are asked "
    "of brokers (which forward them to the controller); use --bootstrap-server"
)
MISSING = "Missing required option(s):"


def _opt(name: str, text: str, metavar: str | None = None) -> object:
    return typer.Option(name, help=text, metavar=metavar)


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""

    @app.command("leader-election", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def leader_election(
        ctx: typer.Context,
        election_type: Annotated[
            str | None,
            _opt("--election-type", "preferred (the first replica leads) or unclean (no leader now)."),
        ] = None,
        topic: Annotated[
            str | None, _opt("--topic", "The topic of the one partition to elect (with --partition).")
        ] = None,
        partition: Annotated[str | None, _opt("--partition", "The partition of --topic.", "<int>")] = None,
        all_topic_partitions: Annotated[
            bool, _opt("--all-topic-partitions", "Every partition the election type applies to.")
        ] = False,
        path_to_json_file: Annotated[
            Path | None,
            _opt(
                "--path-to-json-file", 'The partitions: {"partitions": [{"topic": "foo", "partition": 1}]}.'
            ),
        ] = None,
        dry_run: Annotated[
            bool, _opt("--dry-run", "List the partitions not led by their preferred replica; elect nothing.")
        ] = False,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        admin_config: Annotated[
            Path | None, _opt("--admin.config", "(deprecated) The same as --command-config.")
        ] = None,
        bootstrap_controller: NoControllerOpt = None,
        version: VersionOpt = False,
        output: OutputOpt = OutputFormat.text,
    ) -> None:
        """Elect partition leaders: preferred or unclean (kafka-leader-election.sh)."""
        from kcli.ops import leader_election as rules
        from kcli.ops.reassign.model import TopicPartition
        from kcli.ops.topic_command import java_int

        env = env_of(ctx)
        if bootstrap_controller is not None:
            raise UsageError(NO_CONTROLLERS)
        kind = None if election_type is None else rules.election_type(election_type)
        number = None if partition is None else java_int(partition, "partition")
        config = _config(
            connection_args(bootstrap_server, None, command_config or admin_config, profile), env, kind
        )
        rules.check_options(
            {
                "election-type": kind is not None,
                "admin.config": admin_config is not None,
                "command-config": command_config is not None,
                "topic": topic is not None,
                "partition": partition is not None,
                "all-topic-partitions": all_topic_partitions,
                "path-to-json-file": path_to_json_file is not None,
            }
        )
        refuse_stray(ctx.args)
        assert kind is not None
        partitions: list[TopicPartition] | None = None
        if path_to_json_file is not None:
            partitions = rules.parse_election_file(_read(path_to_json_file), str(path_to_json_file))
        elif topic is not None:
            assert number is not None
            partitions = [TopicPartition(topic, number)]
        if admin_config is not None and output is OutputFormat.text:
            env.out(rules.ADMIN_CONFIG_DEPRECATED)
        if dry_run:
            _report(env, output, config, kind, partitions)
        else:
            _elect(env, output, config, kind, partitions)


def _read(path: Path) -> str:
    from kcli.files import DOCUMENT_LIMIT, read_text

    try:
        return read_text(path, what="election JSON file", limit=DOCUMENT_LIMIT)
    except OSError as error:
        raise UsageError(f"Unable to read file {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise UsageError(f"Unable to read file {path}: not UTF-8 text") from None


def _config(args: ConnectionArgs, env: Env, kind: ElectionType | None) -> ClientConfig:
    from kcli.cli.connection_options import client_config
    from kcli.kafka import EndpointType

    try:
        config = client_config(args, env, missing_bootstrap=f"{MISSING} bootstrap-server")
    except UsageError as error:
        if kind is None and error.message.startswith(MISSING):
            raise UsageError(
                error.message.replace("bootstrap-server.", "bootstrap-server, election-type.", 1)
            ) from None
        raise
    if config.endpoint_type is EndpointType.CONTROLLERS:
        raise UsageError(NO_CONTROLLERS)
    return config


def _elect(
    env: Env, output: OutputFormat, config: ClientConfig, kind: ElectionType, partitions: Scope
) -> None:
    from kcli.render import emit
    from kcli.render import leader_election as view
    from kcli.workflows.leader_election import elect

    report = run_admin(config, lambda admin: elect(admin, kind, partitions))
    emit(env, output, report, text=view.text_lines, json_value=view.json_value)
    report.check()


def _report(
    env: Env, output: OutputFormat, config: ClientConfig, kind: ElectionType, partitions: Scope
) -> None:
    from kcli.render import emit
    from kcli.render import leader_election as view
    from kcli.workflows.leader_election import report

    states, missing = run_admin(config, lambda admin: report(admin, kind, partitions))
    emit(env, output, (states, missing, kind), text=view.report_lines, json_value=view.report_json)
