"""`kcli consumer-groups`: kafka-consumer-groups.sh, option for option, plus lag a CI job can fail on.

kcli consumer-groups -b HOST:9092 --list --state
kcli consumer-groups -b HOST:9092 --describe --group orders --time-lag --fail-on-lag 10000
kcli consumer-groups -b HOST:9092 --reset-offsets --group orders --topic orders --to-datetime 2024-05-01T00:00:00.000 --execute

Beyond the original: `-o json`/`-o table`, lag summed per group and topic, `--time-lag` (the age of
the record at the committed offset), `--fail-on-lag N` and `--fail-on-time-lag D` (exit 1),
`--watch` (lag over time), and a reset that writes a rollback file before it changes anything and
reads the offsets back after. No confirmation is asked where kafka-consumer-groups asks none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcli.cli.argv import JOPT_CONTEXT
from kcli.cli.common import OutputOpt, guarded
from kcli.cli.connection_options import BootstrapServerOpt, CommandConfigOpt, ProfileOpt
from kcli.cli.version import VersionOpt
from kcli.render import OutputFormat

_A, _S, _R, _K = "Actions", "Scope", "Reset specifications", "Beyond kafka-consumer-groups"


def _flag(name: str, help: str, panel: str | None = None) -> object:
    return typer.Option(name, help=help, rich_help_panel=panel)


ListOpt = Annotated[bool, _flag("--list", "List all consumer groups.", _A)]
DescribeOpt = Annotated[
    bool, _flag("--describe", "Describe groups: offsets and lag (default), --members or --state.", _A)
]
DeleteOpt = Annotated[bool, _flag("--delete", "Delete one or more consumer groups.", _A)]
ResetOpt = Annotated[
    bool, _flag("--reset-offsets", "Reset offsets of inactive groups (dry run unless --execute).", _A)
]
DeleteOffsetsOpt = Annotated[
    bool, _flag("--delete-offsets", "Delete offsets of a group, for the topics given.", _A)
]
RegexOpt = Annotated[
    str | None,
    typer.Option("--validate-regex", help="Validate a regular expression (RE2 syntax).", rich_help_panel=_A),
]
GroupOpt = Annotated[
    list[str] | None, typer.Option("--group", help="The consumer group id (repeatable).", rich_help_panel=_S)
]
AllGroupsOpt = Annotated[bool, _flag("--all-groups", "Apply to all consumer groups.", _S)]
TopicOpt = Annotated[
    list[str] | None,
    typer.Option("--topic", help="A topic, or topic:0,1,2 (repeatable).", rich_help_panel=_S),
]
AllTopicsOpt = Annotated[bool, _flag("--all-topics", "Apply to all topics (the group's committed ones).", _S)]
MembersOpt = Annotated[bool, _flag("--members", "With --describe: the group's members.")]
VerboseOpt = Annotated[bool, _flag("--verbose", "With --describe: more columns (epochs, assignments).")]
OffsetsOpt = Annotated[bool, _flag("--offsets", "With --describe: offsets and lag (the default).")]
StateOpt = Annotated[
    str | None,
    typer.Option(
        "--state",
        help="--describe: the group's state; --list: with states, or of these states (stable,empty).",
    ),
]
TypeOpt = Annotated[
    str | None, typer.Option("--type", help="With --list: with types, or of these types (classic,consumer).")
]
TimeoutOpt = Annotated[
    str | None, typer.Option("--timeout", help="Milliseconds to wait for the cluster (default 30000).")
]
DryRunOpt = Annotated[bool, _flag("--dry-run", "Show the new offsets without changing them (the default).")]
ExecuteOpt = Annotated[bool, _flag("--execute", "Change the offsets (a rollback file is written first).")]
ExportOpt = Annotated[bool, _flag("--export", "Print the new offsets as CSV (for --from-file).")]
ToOffsetOpt = Annotated[
    list[str] | None, typer.Option("--to-offset", help="Reset to this offset.", rich_help_panel=_R)
]
FromFileOpt = Annotated[
    list[str] | None,
    typer.Option("--from-file", help="Reset to the offsets of a CSV file.", rich_help_panel=_R),
]
ToDatetimeOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--to-datetime", help="Reset to the offsets at YYYY-MM-DDThh:mm:ss.sss[zone].", rich_help_panel=_R
    ),
]
ByDurationOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--by-duration", help="Reset to the offsets this long ago (PnDTnHnMnS).", rich_help_panel=_R
    ),
]
ToEarliestOpt = Annotated[bool, _flag("--to-earliest", "Reset to the earliest offsets.", _R)]
ToLatestOpt = Annotated[bool, _flag("--to-latest", "Reset to the latest offsets.", _R)]
ToCurrentOpt = Annotated[bool, _flag("--to-current", "Reset to the current offsets.", _R)]
ShiftByOpt = Annotated[
    list[str] | None,
    typer.Option("--shift-by", help="Shift the current offsets by N (+/-).", rich_help_panel=_R),
]
TimeLagOpt = Annotated[
    bool, _flag("--time-lag", "With --describe: the age of the record at each committed offset.", _K)
]
FailOnLagOpt = Annotated[
    int | None,
    typer.Option(
        "--fail-on-lag",
        min=0,
        help="With --describe: exit 1 when a partition's lag exceeds N records.",
        rich_help_panel=_K,
    ),
]
FailOnTimeLagOpt = Annotated[
    str | None,
    typer.Option(
        "--fail-on-time-lag",
        help="With --describe: exit 1 when a partition is further behind than this (30s, 5m, PT1H).",
        rich_help_panel=_K,
    ),
]
WatchOpt = Annotated[
    bool, _flag("--watch", "With --describe: refresh the lag until Ctrl-C, with its trend.", _K)
]
IntervalOpt = Annotated[
    float, typer.Option("--interval", min=0.5, help="Seconds between --watch refreshes.", rich_help_panel=_K)
]
CountOpt = Annotated[
    int | None,
    typer.Option("--count", min=1, help="With --watch: stop after this many refreshes.", rich_help_panel=_K),
]
RollbackOpt = Annotated[Path | None, typer.Option("--rollback-file", help="Where --execute saves the offsets before the reset (default: $XDG_STATE_HOME/kcli/rollback/).", rich_help_panel=_K)]  # fmt: skip


def register(app: typer.Typer) -> None:
    """Add this tool's command to the root app."""

    @app.command("consumer-groups", no_args_is_help=True, context_settings=JOPT_CONTEXT)
    @guarded
    def consumer_groups(
        ctx: typer.Context,
        list_: ListOpt = False,
        describe: DescribeOpt = False,
        delete: DeleteOpt = False,
        reset_offsets: ResetOpt = False,
        delete_offsets: DeleteOffsetsOpt = False,
        validate_regex: RegexOpt = None,
        group: GroupOpt = None,
        all_groups: AllGroupsOpt = False,
        topic: TopicOpt = None,
        all_topics: AllTopicsOpt = False,
        members: MembersOpt = False,
        verbose: VerboseOpt = False,
        offsets: OffsetsOpt = False,
        state: StateOpt = None,
        type_: TypeOpt = None,
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
        time_lag: TimeLagOpt = False,
        fail_on_lag: FailOnLagOpt = None,
        fail_on_time_lag: FailOnTimeLagOpt = None,
        watch: WatchOpt = False,
        interval: IntervalOpt = 5.0,
        count: CountOpt = None,
        rollback_file: RollbackOpt = None,
        bootstrap_server: BootstrapServerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        output: OutputOpt = OutputFormat.text,
        version: VersionOpt = False,
    ) -> None:
        """List, describe, delete consumer groups and reset their offsets (kafka-consumer-groups.sh)."""
        from kcli.ops.groups.consumer_line import Action, ConsumerGroupsLine

        flags = {
            Action.LIST: list_,
            Action.DESCRIBE: describe,
            Action.DELETE: delete,
            Action.RESET_OFFSETS: reset_offsets,
            Action.DELETE_OFFSETS: delete_offsets,
            Action.VALIDATE_REGEX: validate_regex is not None,
        }
        specs = {
            "to-offset": tuple(to_offset or ()),
            "to-datetime": tuple(to_datetime or ()),
            "by-duration": tuple(by_duration or ()),
            "to-earliest": ("",) if to_earliest else (),
            "to-latest": ("",) if to_latest else (),
            "to-current": ("",) if to_current else (),
            "shift-by": tuple(shift_by or ()),
            "from-file": tuple(from_file or ()),
        }
        line = ConsumerGroupsLine(
            actions=frozenset(a for a, on in flags.items() if on),
            validate_regex=validate_regex,
            groups=tuple(group or ()),
            all_groups=all_groups,
            topics=tuple(topic or ()),
            all_topics=all_topics,
            members=members,
            verbose=verbose,
            offsets=offsets,
            state=state,
            type=type_,
            timeout=timeout,
            dry_run=dry_run,
            execute=execute,
            export=export,
            specs={name: values for name, values in specs.items() if values},
        )
        from kcli.cli.consumer_groups_run import Extras, run

        extras = Extras(
            time_lag=time_lag,
            fail_on_lag=fail_on_lag,
            fail_on_time_lag=fail_on_time_lag,
            watch=watch,
            interval=interval,
            count=count,
            rollback_file=rollback_file,
        )
        run(ctx, line, extras, (bootstrap_server, command_config, profile), output)
