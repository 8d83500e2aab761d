"""A KIP-848 consumer group and its members, as its records build them (Kafka's ConsumerGroup).

Behavior:
- The group epoch (ConsumerGroupMetadata) moves when a subscription or the subscribed topics'
  metadata changes; the target assignment (TargetAssignmentMember per member, TargetAssignmentMetadata
  with its epoch) is computed for a group epoch; each member reconciles towards it at its own member
  epoch (CurrentMemberAssignment), revoking before it is given partitions another member still owns.
- The group is Empty without members, Assigning while the target lags the group epoch, Reconciling
  while a member has not reached the target, else Stable.
- An assigned partition remembers the epoch it was assigned at: a commit with an older member epoch
  is accepted for it (KIP-1251) but not for a partition assigned later.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from kcli.sandbox.emulator.groups import generated_records as G

Assignment = Mapping[uuid.UUID, Mapping[int, int]]  # topic id -> partition -> the epoch it was assigned at
Target = Mapping[uuid.UUID, frozenset[int]]

LEAVE_GROUP_MEMBER_EPOCH = -1
LEAVE_GROUP_STATIC_MEMBER_EPOCH = -2


class MemberState(enum.IntEnum):
    """A member's reconciliation state (ConsumerGroupCurrentMemberAssignmentValue.State)."""

    STABLE = 0
    UNREVOKED_PARTITIONS = 1
    UNRELEASED_PARTITIONS = 2
    UNKNOWN = 127


class ConsumerState(enum.Enum):
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    STABLE = "Stable"


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsumerMember:
    """One member (immutable: a change is a new value, compared to the old to write its records)."""

    member_id: str
    instance_id: str | None = None
    rack_id: str | None = None
    client_id: str = ""
    client_host: str = ""
    subscribed_topic_names: tuple[str, ...] = ()
    subscribed_topic_regex: str | None = None
    rebalance_timeout_ms: int = -1
    server_assignor: str | None = None
    classic: object | None = None  # ClassicMemberMetadata of a classic-protocol member (not served)
    member_epoch: int = 0
    previous_member_epoch: int = 0
    state: MemberState = MemberState.STABLE
    assigned: Assignment = field(default_factory=dict)
    pending_revocation: Assignment = field(default_factory=dict)

    @property
    def uses_classic_protocol(self) -> bool:
        return self.classic is not None

    def is_reconciled_to(self, epoch: int) -> bool:
        return self.state is MemberState.STABLE and self.member_epoch == epoch

    def assignment_epoch(self, topic_id: uuid.UUID, partition: int) -> int | None:
        epochs = self.assigned.get(topic_id, {})
        if partition in epochs:
            return epochs[partition]
        return self.pending_revocation.get(topic_id, {}).get(partition)

    def subscription_fields(self) -> tuple[object, ...]:
        return (
            self.instance_id,
            self.rack_id,
            self.client_id,
            self.client_host,
            self.subscribed_topic_names,
            self.subscribed_topic_regex,
            self.rebalance_timeout_ms,
            self.server_assignor,
        )

    def assignment_fields(self) -> tuple[object, ...]:
        return (
            self.member_epoch,
            self.previous_member_epoch,
            self.state,
            self.assigned,
            self.pending_revocation,
        )


@dataclass(slots=True, kw_only=True)
class ConsumerGroup:
    """A consumer group: epochs, members, the target assignment and who owns which partition."""

    group_id: str
    group_epoch: int = 0
    metadata_hash: int = 0
    assignment_epoch: int = -1
    assignment_timestamp: int = 0
    members: dict[str, ConsumerMember] = field(default_factory=dict)
    static_members: dict[str, str] = field(default_factory=dict)
    target: dict[str, Target] = field(default_factory=dict)
    owners: dict[uuid.UUID, dict[int, int]] = field(default_factory=dict)  # partition -> owning member epoch
    has_subscription_metadata_record: bool = False
    resolved_regexes: dict[str, frozenset[str]] = field(default_factory=dict)
    metadata_refresh_deadline: int = 0

    type_name = "Consumer"
    protocol_type = "consumer"

    @property
    def state(self) -> ConsumerState:
        if not self.members:
            return ConsumerState.EMPTY
        if self.group_epoch > self.assignment_epoch:
            return ConsumerState.ASSIGNING
        if any(not m.is_reconciled_to(self.assignment_epoch) for m in self.members.values()):
            return ConsumerState.RECONCILING
        return ConsumerState.STABLE

    @property
    def is_empty(self) -> bool:
        return not self.members

    def member(self, member_id: str, *, create: bool = False) -> ConsumerMember | None:
        existing = self.members.get(member_id)
        if existing is None and create:
            return ConsumerMember(member_id=member_id)
        return existing

    def static_member(self, instance_id: str | None) -> ConsumerMember | None:
        if instance_id is None:
            return None
        member_id = self.static_members.get(instance_id)
        return None if member_id is None else self.members.get(member_id)

    def partition_epoch(self, topic_id: uuid.UUID, partition: int) -> int:
        return self.owners.get(topic_id, {}).get(partition, -1)

    def update_member(self, member: ConsumerMember) -> None:
        old = self.members.get(member.member_id)
        if old is not None:
            self._owned(old, remove=True)
            if old.instance_id is not None and old.instance_id != member.instance_id:
                self.static_members.pop(old.instance_id, None)
        self.members[member.member_id] = member
        if member.instance_id is not None:
            self.static_members[member.instance_id] = member.member_id
        self._owned(member, remove=False)

    def remove_member(self, member_id: str) -> None:
        old = self.members.pop(member_id, None)
        if old is None:
            return
        self._owned(old, remove=True)
        if old.instance_id is not None and self.static_members.get(old.instance_id) == member_id:
            del self.static_members[old.instance_id]

    def _owned(self, member: ConsumerMember, *, remove: bool) -> None:
        for assignment in (member.assigned, member.pending_revocation):
            for topic_id, partitions in assignment.items():
                owned = self.owners.setdefault(topic_id, {})
                for partition in partitions:
                    if remove:
                        if owned.get(partition) == member.member_epoch:
                            del owned[partition]
                    else:
                        owned[partition] = member.member_epoch
                if not owned:
                    del self.owners[topic_id]

    def subscribed_topics(self, members: Mapping[str, ConsumerMember] | None = None) -> set[str]:
        topics: set[str] = set()
        for member in (self.members if members is None else members).values():
            topics.update(member.subscribed_topic_names)
            if member.subscribed_topic_regex:
                topics.update(self.resolved_regexes.get(member.subscribed_topic_regex, ()))
        return topics

    def is_subscribed_to(self, topic: str) -> bool:
        return topic in self.subscribed_topics()

    def preferred_assignor(self, members: Mapping[str, ConsumerMember] | None = None) -> str | None:
        counts: dict[str, int] = {}
        for member in (self.members if members is None else members).values():
            if member.server_assignor is not None:
                counts[member.server_assignor] = counts.get(member.server_assignor, 0) + 1
        return max(counts.items(), key=lambda item: item[1])[0] if counts else None

    # ---------------------------------------------------------------- replay

    def replay_member_metadata(
        self, member_id: str, value: G.ConsumerGroupMemberMetadataValueV0 | None
    ) -> None:
        if value is None:
            self.remove_member(member_id)
            return
        old = self.member(member_id, create=True)
        assert old is not None
        self.update_member(
            replace(
                old,
                instance_id=value.instance_id,
                rack_id=value.rack_id,
                client_id=value.client_id,
                client_host=value.client_host,
                subscribed_topic_names=tuple(value.subscribed_topic_names),
                subscribed_topic_regex=value.subscribed_topic_regex,
                rebalance_timeout_ms=int(value.rebalance_timeout_ms),
                server_assignor=value.server_assignor,
                classic=value.classic_member_metadata,
            )
        )

    def replay_current_assignment(
        self, member_id: str, value: G.ConsumerGroupCurrentMemberAssignmentValueV0 | None
    ) -> None:
        if value is None:
            old = self.members.get(member_id)
            if old is not None:
                self.update_member(
                    replace(
                        old,
                        member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
                        previous_member_epoch=LEAVE_GROUP_MEMBER_EPOCH,
                        assigned={},
                        pending_revocation={},
                    )
                )
            return
        old = self.member(member_id, create=True)
        assert old is not None
        epoch = int(value.member_epoch)
        self.update_member(
            replace(
                old,
                member_epoch=epoch,
                previous_member_epoch=int(value.previous_member_epoch),
                state=MemberState(int(value.state)),
                assigned=_assignment(value.assigned_partitions, epoch),
                pending_revocation=_assignment(value.partitions_pending_revocation, epoch),
            )
        )

    def replay_target(
        self, member_id: str, value: G.ConsumerGroupTargetAssignmentMemberValueV0 | None
    ) -> None:
        if value is None:
            self.target.pop(member_id, None)
        else:
            self.target[member_id] = {
                tp.topic_id: frozenset(int(p) for p in tp.partitions) for tp in value.topic_partitions
            }


def _assignment(topics: tuple[G.TopicPartitions, ...], default_epoch: int) -> dict[uuid.UUID, dict[int, int]]:
    out: dict[uuid.UUID, dict[int, int]] = {}
    for tp in topics:
        partitions = [int(p) for p in tp.partitions]
        epochs = tp.assignment_epochs
        if epochs is not None and len(epochs) == len(partitions):
            out[tp.topic_id] = {p: int(e) for p, e in zip(partitions, epochs, strict=True)}
        else:
            out[tp.topic_id] = dict.fromkeys(partitions, max(default_epoch, 0))
    return out
