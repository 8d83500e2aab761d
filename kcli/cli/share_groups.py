"""`kcli share-groups`: kafka-share-groups.sh (KIP-932), option for option.

kcli share-groups -b HOST:9092 --list --state
kcli share-groups -b HOST:9092 --describe --group my-share-group --members --verbose
kcli share-groups -b HOST:9092 --reset-offsets --group my-share-group --topic orders --to-latest --execute
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, guarded
from kcli.cli.connection_options import BootstrapServerOpt, CommandConfigOpt, ProfileOpt
from kcli.cli.group_options import (
    AllGroupsOpt,
    AllTopicsOpt,
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

ListOpt = Annotated[bool, typer.Option("--list", help="List all share groups.", rich_help_panel="Actions")]
ResetOpt = Annotated[
    bool,
    typer.Option(
        "--reset-offsets",
        help="Reset the start offsets of an inactive share group.",
        rich_help_panel="Actions",
    ),
]
GroupOpt = Annotated[
    list[str] | None,
    typer.Option("--group", help="The share group id (repeatable).", rich_help_panel="Scope"),
]
TopicOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--topic", help="A topic (--reset-offsets: or topic:0,1,2; repeatable).", rich_help_panel="Scope"
    ),
]
StateOpt = Annotated[
    str | None,
    typer.Option(
        "--state",
        help="--describe: the group's state; --list: with states, or of these (Empty, Stable, Dead).",
    ),
]


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("share-groups", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def share_groups(
        ctx: typer.Context,
        list_: ListOpt = False,
        describe: DescribeOpt = False,
        delete: DeleteOpt = False,
        reset_offsets: ResetOpt = False,
        delete_offsets: DeleteOffsetsOpt = False,
        group: GroupOpt = None,
        all_groups: AllGroupsOpt = False,
        topic: TopicOpt = None,
        all_topics: AllTopicsOpt = False,
        members: MembersOpt = False,
        offsets: OffsetsOpt = False,
        state: StateOpt = None,
        verbose: VerboseOpt = False,
        timeout: TimeoutOpt = None,
        dry_run: DryRunOpt = False,
        execute: ExecuteOpt = False,
        export: ExportOpt = False,
        to_offset: ToOffsetOpt = None,
        from_file: FromFileOpt = None,
        to_datetime: ToDatetimeOpt = None,
        to_earliest: ToEarliestOpt = False,
        to_latest: ToLatestOpt = False,
        to_current: ToCurrentOpt = False,
        rollback_file: RollbackOpt = None,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """List, describe, delete share groups and reset their offsets (kafka-share-groups.sh)."""
        from kcli.cli.share_groups_run import run
        from kcli.ops.groups.consumer_line import ConsumerGroupsLine

        line = ConsumerGroupsLine.of(ctx.params)
        run(ctx, line, (bootstrap_server, command_config, profile), output, rollback_file)
