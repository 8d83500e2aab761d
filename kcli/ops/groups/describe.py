"""What `consumer-groups --describe` shows of a group: its offset rows, members and state, and lag.

Pure: descriptions, committed offsets and log end offsets come in as values
(kcli.workflows.groups reads them).

Behavior (ConsumerGroupCommand.collectGroupsOffsets of Kafka 4.4):
- one row per partition assigned to a member with partitions, members with the most partitions
  first; then a row per partition with a committed offset that no member holds, with `-` for the
  member; each set sorted by topic and partition (Kafka 4.0: in the order of a Java HashMap of them);
- a member's partition without a committed offset has no CURRENT-OFFSET and no LAG; a partition
  without a leader has no LOG-END-OFFSET;
- lag is LOG-END-OFFSET - CURRENT-OFFSET; kcli adds it up per group and per topic, and (with
  --time-lag) the age of the record at the committed offset.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from kcli.ops.groups.model import CommittedOffset, GroupDescription, GroupState, Member
from kcli.ops.reassign.model import TopicPartition


@dataclass(frozen=True, slots=True, kw_only=True)
class OffsetRow:
    """One row of --describe --offsets (PartitionAssignmentState)."""

    group: str
    topic: str | None
    partition: int | None
    offset: int | None = None
    log_end_offset: int | None = None
    leader_epoch: int | None = None
    consumer_id: str | None = None
    host: str | None = None
    client_id: str | None = None
    time_lag_ms: int | None = None  # --time-lag: now minus the timestamp of the record at `offset`

    @property
    def lag(self) -> int | None:
        if self.offset is None or self.offset == -1 or self.log_end_offset is None:
            return None
        return self.log_end_offset - self.offset

    @property
    def key(self) -> TopicPartition | None:
        if self.topic is None or self.partition is None:
            return None
        return TopicPartition(self.topic, self.partition)


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupOffsets:
    """A described group with its offset rows (rows empty: nothing to show for it)."""

    description: GroupDescription
    rows: tuple[OffsetRow, ...] = ()

    @property
    def group_id(self) -> str:
        return self.description.group_id

    @property
    def state(self) -> GroupState:
        return self.description.state

    @property
    def total_lag(self) -> int:
        return sum(row.lag or 0 for row in self.rows)

    @property
    def max_time_lag_ms(self) -> int | None:
        ages = [row.time_lag_ms for row in self.rows if row.time_lag_ms is not None]
        return max(ages) if ages else None

    def lag_by_topic(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.rows:
            if row.topic is not None:
                out[row.topic] = out.get(row.topic, 0) + (row.lag or 0)
        return dict(sorted(out.items()))


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionFacts:
    """What the rows need from the cluster: log end offsets (None: no leader or unknown)."""

    log_end: Mapping[TopicPartition, int | None] = field(default_factory=dict)
    time_lag_ms: Mapping[TopicPartition, int] = field(default_factory=dict)


def partitions_to_read(
    description: GroupDescription, committed: Mapping[TopicPartition, CommittedOffset]
) -> set[TopicPartition]:
    """Every partition a row will show: the members' assignments and the committed ones."""
    wanted = set(committed)
    for member in description.members:
        wanted.update(member.assignment)
    return wanted


def offset_rows(
    description: GroupDescription,
    committed: Mapping[TopicPartition, CommittedOffset],
    facts: PartitionFacts,
    *,
    hash_order: bool = False,
) -> tuple[OffsetRow, ...]:
    """The rows of one group, in Kafka's order (see the module doc; `hash_order`: Kafka 4.0's)."""
    from kcli.ops.groups.java_order import partitions_in_hash_order

    order = partitions_in_hash_order if hash_order else sorted

    group = description.group_id
    holders = sorted(
        (m for m in description.members if m.assignment), key=lambda m: len(set(m.assignment)), reverse=True
    )
    rows: list[OffsetRow] = []
    assigned: set[TopicPartition] = set()
    for member in holders:
        partitions = order(sorted(set(member.assignment)))
        assigned.update(partitions)
        rows.extend(_row(group, tp, committed, facts, member) for tp in partitions)
    unassigned = order(sorted(tp for tp in committed if tp not in assigned))
    rows.extend(_row(group, tp, committed, facts, None) for tp in unassigned)
    return tuple(rows)


def _row(
    group: str,
    tp: TopicPartition,
    committed: Mapping[TopicPartition, CommittedOffset],
    facts: PartitionFacts,
    member: Member | None,
) -> OffsetRow:
    offset = committed.get(tp)
    return OffsetRow(
        group=group,
        topic=tp.topic,
        partition=tp.partition,
        offset=offset.offset if offset is not None else None,
        leader_epoch=offset.leader_epoch if offset is not None else None,
        log_end_offset=facts.log_end.get(tp),
        consumer_id=member.member_id if member else None,
        host=member.host if member else None,
        client_id=member.client_id if member else None,
        time_lag_ms=facts.time_lag_ms.get(tp),
    )
