"""The options the group tools share (kafka-consumer-groups, -share-groups, -streams-groups), declared once.

Each tool's module (kcli.cli.consumer_groups, share_groups, streams_groups) lists them where they
stand in its --help; a tool module imports no other tool's module (tests/test_cli_tools.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

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
