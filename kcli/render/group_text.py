"""What the group tools' text shares (kafka-consumer-groups.sh, kafka-share-groups.sh,
kafka-streams-groups.sh): Java's `%-Ns`, the missing value, and the --list table of the share and
streams tools."""

from __future__ import annotations

from collections.abc import Sequence

from kcli.ops.groups.model import MISSING, GroupListing, GroupState

# A line of text output: (True, line) goes to stderr, (False, line) to stdout.
Line = tuple[bool, str]


def pad(value: object, width: int) -> str:
    """Java's %-Ns."""
    return f"{value!s:<{width}}"


def or_missing(value: object | None) -> str:
    return MISSING if value is None else str(value)


def list_lines(groups: Sequence[GroupListing], *, with_state: bool) -> list[str]:
    """Group ids, or (--state) the GROUP STATE table."""
    if not with_state:
        return [g.group_id for g in groups]
    width = max([15, *(len(g.group_id) for g in groups)])
    return [f"{pad('GROUP', width)} STATE"] + [
        f"{pad(g.group_id, width)} {g.state or GroupState.UNKNOWN}" for g in groups
    ]
