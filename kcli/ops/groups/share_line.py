"""`kcli share-groups`: the command line as kafka-share-groups.sh reads it (KIP-932), checked in its order.

The options are those of kafka-consumer-groups less the ones share groups lack (--shift-by,
--by-duration, --type, --validate-regex), so the line is a ConsumerGroupsLine; `check` is
ShareGroupCommandOptions.checkArgs of Kafka 4.4, then ShareGroupCommand.main's one-action check.
Unlike kafka-consumer-groups it lists option names sorted, and requires --dry-run or --execute.
"""

from __future__ import annotations

from kcli.errors import UsageError
from kcli.ops.groups.consumer_line import Action, ConsumerGroupsLine, parse_list, refuse_unavailable
from kcli.ops.groups.model import STATES_FOR_TYPE, GroupState, GroupType

SHARE_ACTIONS = (Action.LIST, Action.DESCRIBE, Action.DELETE, Action.RESET_OFFSETS, Action.DELETE_OFFSETS)
SHARE_SPECS = ("to-offset", "to-datetime", "to-earliest", "to-latest", "to-current", "from-file")


def _sorted(*names: str) -> str:
    return ", ".join(f"[{name}]" for name in sorted(names))


def check_available(line: ConsumerGroupsLine) -> None:
    describe, list_ = line.has(Action.DESCRIBE), line.has(Action.LIST)
    refuse_unavailable(
        (
            ("members", line.members, describe),
            ("offsets", line.offsets, describe),
            ("state", line.state is not None, describe or list_),
            ("verbose", line.verbose, describe),
        )
    )


def check(line: ConsumerGroupsLine) -> None:
    """Refuse what kafka-share-groups.sh refuses after --bootstrap-server, in its order."""
    has_group, topics = bool(line.groups), bool(line.topics)
    if line.has(Action.DESCRIBE):
        if not has_group and not line.all_groups:
            raise UsageError(
                f"Option [describe] takes one of these options: {_sorted('group', 'all-groups')}"
            )
        if line.members + line.offsets + (line.state is not None) > 1:
            raise UsageError(
                f"Option [describe] takes at most one of these options: {_sorted('members', 'offsets', 'state')}"
            )
        if line.state:
            raise UsageError("Option [describe] does not take a value for [state]")
    if line.has(Action.DELETE):
        if not has_group and not line.all_groups:
            raise UsageError("Option [delete] takes the options [group] or [all-groups].")
        if has_group and line.all_groups:
            raise UsageError("Option [delete] takes either [group] or [all-groups], not both.")
        if topics or line.all_topics:
            raise UsageError("Option [delete] does not take the options [topic] or [all-topics].")
    if line.has(Action.DELETE_OFFSETS) and (not has_group or not topics):
        raise UsageError(f"Option [delete-offsets] takes the following options: {_sorted('group', 'topic')}")
    if line.has(Action.RESET_OFFSETS):
        _check_reset(line)
    if has_group and line.all_groups:
        raise UsageError('Option "[group]" can\'t be used with option "[all-groups]"')
    if has_group and line.has(Action.LIST):
        raise UsageError('Option "[group]" can\'t be used with option "[list]"')
    for action in (Action.LIST, Action.DESCRIBE):
        if topics and line.has(action):
            raise UsageError(f'Option "[topic]" can\'t be used with option "[{action.value}]"')
    if len(line.actions) != 1 or not line.actions <= set(SHARE_ACTIONS):
        raise UsageError(
            "Command must include exactly one action: "
            + ", ".join(f"--{a.value}" for a in SHARE_ACTIONS)
            + "."
        )


def _check_reset(line: ConsumerGroupsLine) -> None:
    if line.dry_run and line.execute:
        raise UsageError("Option [reset-offsets] only accepts one of [execute] and [dry-run]")
    if not line.dry_run and not line.execute:
        raise UsageError("Option [reset-offsets] takes the option: [execute] or [dry-run]")
    if not line.groups:
        raise UsageError("Option [reset-offsets] takes the option: [group]")
    scopes = {
        "topic": bool(line.topics),
        "all-topics": line.all_topics,
        "from-file": "from-file" in line.specs,
    }
    if not any(scopes.values()):
        raise UsageError(f"Option [reset-offsets] takes one of these options: {_sorted(*scopes)}")
    for scope, on in scopes.items():
        other = next((name for name, also in scopes.items() if also and name != scope), None)
        if on and other is not None:
            raise UsageError(f'Option "[{scope}]" can\'t be used with option "[{other}]"')
    specs = [spec for spec in SHARE_SPECS if spec in line.specs]
    if not specs:
        raise UsageError(f"Option [reset-offsets] takes one of these options: {_sorted(*SHARE_SPECS)}")
    if len(specs) > 1:
        raise UsageError(f'Option "[{specs[0]}]" can\'t be used with option "[{specs[1]}]"')


def share_states(text: str) -> list[GroupState]:
    """--state's list: the states of share groups (Stable, Dead, Empty)."""
    return parse_list(text, GroupState.parse, STATES_FOR_TYPE[GroupType.SHARE], "state", "states")
