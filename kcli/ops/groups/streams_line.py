"""`kcli streams-groups`: the command line as kafka-streams-groups.sh reads it (KIP-1071), checked in its order.

The line is a ConsumerGroupsLine (its `topics` are the --input-topic values, `all_topics` is
--all-input-topics) with the streams-only options beside it (StreamsOptions); `check` is
StreamsGroupCommandOptions.checkArgs of Kafka 4.4, then StreamsGroupCommand's one-action check.
Option names in its lists are sorted, as that tool sorts them.
"""

from __future__ import annotations

from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.ops.groups.consumer_line import (
    RESET_SPECS,
    Action,
    ConsumerGroupsLine,
    parse_list,
    refuse_unavailable,
)
from kcli.ops.groups.model import STATES_FOR_TYPE, GroupState, GroupType

STREAMS_ACTIONS = (Action.LIST, Action.DESCRIBE, Action.DELETE, Action.RESET_OFFSETS, Action.DELETE_OFFSETS)


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsOptions:
    topology: bool = False
    delete_internal_topics: tuple[str, ...] = ()
    delete_all_internal_topics: bool = False


def _sorted(*names: str) -> str:
    return ", ".join(f"[{name}]" for name in sorted(names))


def check_available(line: ConsumerGroupsLine, extra: StreamsOptions) -> None:
    describe = line.has(Action.DESCRIBE)
    refuse_unavailable(
        (
            ("state", line.state is not None, describe or line.has(Action.LIST)),
            ("members", line.members, describe),
            ("offsets", line.offsets, describe),
            ("topology", extra.topology, describe),
            ("verbose", line.verbose, describe),
        )
    )


def check(line: ConsumerGroupsLine, extra: StreamsOptions) -> None:
    """Refuse what kafka-streams-groups.sh refuses after --bootstrap-server, in its order."""
    has_group, inputs = bool(line.groups), bool(line.topics) or line.all_topics
    if line.has(Action.DESCRIBE):
        if not has_group and not line.all_groups:
            raise UsageError(
                f"Option [describe] takes one of these options: {_sorted('group', 'all-groups')}"
            )
        if line.members + line.offsets + (line.state is not None) + extra.topology > 1:
            raise UsageError(
                "Option [describe] takes at most one of these options: "
                + _sorted("members", "offsets", "state", "topology")
            )
        if line.state:
            raise UsageError("Option [describe] does not take a value for [state]")
    if line.has(Action.DELETE):
        if not has_group and not line.all_groups:
            raise UsageError(f"Option [delete] takes one of these options: {_sorted('group', 'all-groups')}")
        if inputs:
            raise UsageError(
                "Kafka Streams does not support topic-specific offset deletion from a streams group."
            )
    if line.has(Action.DELETE_OFFSETS):
        if not inputs or not has_group:
            raise UsageError(
                "Option [delete-offsets] takes the [group] and one of these options: "
                + _sorted("input-topic", "all-input-topics")
            )
        if len(line.groups) > 1:
            raise UsageError(
                f"Option [delete-offsets] supports only one [group] at a time, but found: [{', '.join(line.groups)}]"
            )
    if line.has(Action.RESET_OFFSETS):
        _check_reset(line)
    _check_internal_topics(line, extra)
    if (line.dry_run or line.execute) and not line.has(Action.RESET_OFFSETS):
        raise UsageError("Only Option [reset-offsets] accepts [execute] or [dry-run]")
    if has_group and line.all_groups:
        raise UsageError('Option "[group]" can\'t be used with option "[all-groups]"')
    if has_group and line.has(Action.LIST):
        raise UsageError('Option "[group]" can\'t be used with option "[list]"')
    for action in (Action.LIST, Action.DESCRIBE, Action.DELETE):
        if line.topics and line.has(action):
            raise UsageError(f'Option "[input-topic]" can\'t be used with option "[{action.value}]"')
    if len(line.actions) != 1 or not line.actions <= set(STREAMS_ACTIONS):
        raise UsageError(
            "Command must include exactly one action: --list, --describe, --delete, --reset-offsets, or --delete-offsets."
        )


def _check_reset(line: ConsumerGroupsLine) -> None:
    if line.dry_run and line.execute:
        raise UsageError("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
    if not line.dry_run and not line.execute:
        raise UsageError("Option [reset-offsets] takes the option: [execute] or [dry-run]")
    if not line.groups and not line.all_groups:
        raise UsageError(
            f"Option [reset-offsets] takes one of these options: {_sorted('group', 'all-groups')}"
        )
    given = [spec for spec in RESET_SPECS if spec in line.specs]
    if len(given) > 1:
        raise UsageError(f'Option "[{given[0]}]" can\'t be used with option "[{given[1]}]"')


def _check_internal_topics(line: ConsumerGroupsLine, extra: StreamsOptions) -> None:
    reset, delete = line.has(Action.RESET_OFFSETS), line.has(Action.DELETE)
    if extra.delete_all_internal_topics:
        if not reset and not delete:
            raise UsageError(
                f"Option [delete-all-internal-topics] takes one of these options: {_sorted('reset-offsets', 'delete')}"
            )
        if reset and not line.execute:
            raise UsageError(
                "Option [delete-all-internal-topics] takes [execute] when [reset-offsets] is used."
            )
    elif extra.delete_internal_topics and (not reset or not line.execute):
        raise UsageError("Option [delete-internal-topic] takes [reset-offsets] when [execute] is used.")


def streams_states(text: str) -> list[GroupState]:
    """--state's list: the states of streams groups."""
    return parse_list(text, GroupState.parse, STATES_FOR_TYPE[GroupType.STREAMS], "state", "states")
