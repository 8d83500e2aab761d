"""`kcli streams-groups`: kafka-streams-groups.sh (KIP-1071, Kafka 4.1+), option for option.

kcli streams-groups -b HOST:9092 --list --state
kcli streams-groups -b HOST:9092 --describe --group my-streams-app --members --verbose
kcli streams-groups -b HOST:9092 --reset-offsets --group my-streams-app --all-input-topics --to-earliest --execute
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, guarded
from kcli.cli.connection_options import BootstrapServerOpt, CommandConfigOpt, ProfileOpt
from kcli.cli.group_options import (
    AllGroupsOpt,
    ByDurationOpt,
    DeleteOffsetsOpt,
    DeleteOpt,
    DescribeOpt,
    DryRunOpt,
    ExecuteOpt,
    ExportOpt,
    FromFileOpt,
    MembersOpt,
    OffsetsOpt,
    RollbackOpt,
    ShiftByOpt,
    TimeoutOpt,
    ToCurrentOpt,
    ToDatetimeOpt,
    ToEarliestOpt,
    ToLatestOpt,
    ToOffsetOpt,
    VerboseOpt,
)
from kcli.cli.version import VersionOpt
from kcli.render import OutputFormat

_A, _S = "Actions", "Scope"
ListOpt = Annotated[bool, typer.Option("--list", help="List all streams groups.", rich_help_panel=_A)]
ResetOpt = Annotated[
    bool,
    typer.Option(
        "--reset-offsets",
        help="Reset the input-topic offsets of inactive streams groups.",
        rich_help_panel=_A,
    ),
]
GroupOpt = Annotated[
    list[str] | None,
    typer.Option("--group", help="The streams group id (application.id; repeatable).", rich_help_panel=_S),
]
InputTopicOpt = Annotated[
    list[str] | None,
    typer.Option("--input-topic", help="An input topic, or topic:0,1,2 (repeatable).", rich_help_panel=_S),
]
AllInputTopicsOpt = Annotated[
    bool,
    typer.Option("--all-input-topics", help="Every input topic of the group's topology.", rich_help_panel=_S),
]
StateOpt = Annotated[
    str | None,
    typer.Option("--state", help="--describe: the group's state; --list: with states, or of these."),
]
TopologyOpt = Annotated[
    bool, typer.Option("--topology", help="With --describe: the topology the brokers recorded (Kafka 4.4).")
]
DeleteInternalOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--delete-internal-topic",
        help="With --reset-offsets --execute: delete this internal topic (repeatable).",
    ),
]
DeleteAllInternalOpt = Annotated[
    bool,
    typer.Option(
        "--delete-all-internal-topics",
        help="Delete the group's internal topics too (--delete, or --reset-offsets --execute).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("streams-groups", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def streams_groups(
        ctx: typer.Context,
        list_: ListOpt = False,
        describe: DescribeOpt = False,
        delete: DeleteOpt = False,
        reset_offsets: ResetOpt = False,
        delete_offsets: DeleteOffsetsOpt = False,
        group: GroupOpt = None,
        all_groups: AllGroupsOpt = False,
        input_topic: InputTopicOpt = None,
        all_input_topics: AllInputTopicsOpt = False,
        members: MembersOpt = False,
        offsets: OffsetsOpt = False,
        state: StateOpt = None,
        topology: TopologyOpt = False,
        verbose: VerboseOpt = False,
        timeout: TimeoutOpt = None,
        dry_run: DryRunOpt = False,
        execute: ExecuteOpt = False,
        export: ExportOpt = False,
        to_offset: ToOffsetOpt = None,
        from_file: FromFileOpt = None,
        to_datetime: ToDatetimeOpt = None,
        by_duration: ByDurationOpt = None,
        to_earliest: ToEarliestOpt = False,
        to_latest: ToLatestOpt = False,
        to_current: ToCurrentOpt = False,
        shift_by: ShiftByOpt = None,
        delete_internal_topic: DeleteInternalOpt = None,
        delete_all_internal_topics: DeleteAllInternalOpt = False,
        rollback_file: RollbackOpt = None,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """List, describe, delete streams groups and reset their offsets (kafka-streams-groups.sh)."""
        from kcli.cli.streams_groups_run import run
        from kcli.ops.groups.consumer_line import ConsumerGroupsLine
        from kcli.ops.groups.streams_line import StreamsOptions

        line = ConsumerGroupsLine.of(ctx.params, topic="input_topic")
        extra = StreamsOptions(
            topology=topology,
            delete_internal_topics=tuple(delete_internal_topic or ()),
            delete_all_internal_topics=delete_all_internal_topics,
        )
        run(ctx, line, extra, (bootstrap_server, command_config, profile), output, rollback_file)
