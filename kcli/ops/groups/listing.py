"""`kcli groups --list`: kafka-groups.sh's filters (GroupsCommand, Kafka 4.4), pure.

- --group-type T: groups of that type (classic, consumer, share, streams), and of --protocol P too;
- --protocol P alone: groups whose protocol type is P;
- --consumer: every kind of consumer group: type consumer, or protocol type `consumer` or none
  (classic and simple consumer groups); --share, --streams: groups of that type.
At most one of --consumer, --share, --streams, and none of them with --group-type or --protocol.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.ops.groups.model import GroupListing, GroupType


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupFilter:
    group_type: GroupType | None = None
    protocol: str | None = None
    consumer: bool = False
    share: bool = False
    streams: bool = False

    def allows(self, group: GroupListing) -> bool:
        if self.group_type is not None:
            return group.type is self.group_type and (
                self.protocol is None or group.protocol_type == self.protocol
            )
        if self.protocol is not None:
            return group.protocol_type == self.protocol
        if self.consumer:
            return group.protocol_type in ("consumer", "") or group.type is GroupType.CONSUMER
        if self.share:
            return group.type is GroupType.SHARE
        if self.streams:
            return group.type is GroupType.STREAMS
        return True


def group_filter(
    *, group_type: str | None, protocol: str | None, consumer: bool, share: bool, streams: bool
) -> GroupFilter:
    """The filter of a `groups --list` line, checked as GroupsCommandOptions checks it."""
    kind = None
    if group_type is not None:
        kind = GroupType.parse(group_type)
        if kind is GroupType.UNKNOWN:
            raise UsageError("--group-type must be a valid group type.")
    given = {
        "consumer": consumer,
        "group-type": group_type is not None,
        "protocol": protocol is not None,
        "share": share,
        "streams": streams,
    }
    for used, others in (
        ("consumer", ("group-type", "protocol", "share", "streams")),
        ("share", ("consumer", "group-type", "protocol", "streams")),
        ("streams", ("consumer", "group-type", "protocol", "share")),
    ):
        if given[used]:
            clash = next((o for o in others if given[o]), None)
            if clash is not None:
                raise UsageError(f'Option "[{used}]" can\'t be used with option "[{clash}]"')
    return GroupFilter(group_type=kind, protocol=protocol, consumer=consumer, share=share, streams=streams)


def group_lines(groups: Sequence[GroupListing]) -> list[str]:
    """printGroupDetails: GROUP TYPE PROTOCOL, every column as wide as the longest value (at least 20)."""
    rows = [(g.group_id, "" if g.type is None else str(g.type), g.protocol_type) for g in groups]
    width = max([20, *(len(item) for row in rows for item in row)])
    out = [f"{'GROUP':<{width}} {'TYPE':<{width}} {'PROTOCOL':<{width}}"]
    out += ["".join(f"{item:<{width}} " for item in row) for row in rows]
    return out
