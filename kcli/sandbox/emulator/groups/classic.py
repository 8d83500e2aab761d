"""A classic group and its members: the state the JoinGroup/SyncGroup protocol moves (Kafka's ClassicGroup).

Behavior:
- States Empty, PreparingRebalance, CompletingRebalance, Stable and Dead, with Kafka's allowed
  transitions; each transition stamps the state's time (GroupMetadataValue.currentStateTimestamp).
- A member is awaiting its join (a parked JoinGroup reply) or its sync; a dynamic member first
  joins as pending (KIP-394: JoinGroup v4+ answers MEMBER_ID_REQUIRED with its id); a static member
  (KIP-345) is found by its group.instance.id, and a new instance replaces the old member id.
- The protocol of a generation is the one every member supports that most members list first; the
  leader is the first member to join, and a new one is elected among the rejoined when it does not.
"""

from __future__ import annotations

import enum
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups.model import CoordinatorError, Reply
from kcli.sandbox.emulator.groups.records import CoordinatorRecord, classic_member, group_metadata

CONSUMER_PROTOCOL_TYPE = "consumer"


class ClassicState(enum.Enum):
    """ClassicGroupState, with the names Kafka lists and describes."""

    EMPTY = "Empty"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"


S = ClassicState
_PREVIOUS = {
    S.PREPARING_REBALANCE: {S.STABLE, S.COMPLETING_REBALANCE, S.EMPTY},
    S.COMPLETING_REBALANCE: {S.PREPARING_REBALANCE},
    S.STABLE: {S.COMPLETING_REBALANCE},
    S.DEAD: {S.STABLE, S.PREPARING_REBALANCE, S.COMPLETING_REBALANCE, S.EMPTY, S.DEAD},
    S.EMPTY: {S.PREPARING_REBALANCE},
}

Protocols = tuple[tuple[str, bytes], ...]  # (name, metadata) in the member's order of preference


@dataclass(slots=True, kw_only=True)
class JoinAnswer:
    """What a JoinGroup answers (JoinGroupResponseData's fields)."""

    error: ErrorCode = ErrorCode.none
    member_id: str = ""
    generation_id: int = -1
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader: str = ""
    skip_assignment: bool = False
    members: tuple[
        tuple[str, str | None, bytes], ...
    ] = ()  # (member id, instance id, metadata): the leader's


@dataclass(slots=True, kw_only=True)
class SyncAnswer:
    """What a SyncGroup answers."""

    error: ErrorCode = ErrorCode.none
    protocol_type: str | None = None
    protocol_name: str | None = None
    assignment: bytes = b""


@dataclass(slots=True, kw_only=True)
class ClassicMember:
    """One member of a classic group (ClassicGroupMember)."""

    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    session_timeout_ms: int
    protocol_type: str
    protocols: Protocols
    assignment: bytes = b""
    join_reply: Reply[JoinAnswer] | None = None
    sync_reply: Reply[SyncAnswer] | None = None
    is_new: bool = False

    @property
    def awaiting_join(self) -> bool:
        return self.join_reply is not None

    @property
    def awaiting_sync(self) -> bool:
        return self.sync_reply is not None

    def metadata(self, protocol: str | None) -> bytes:
        for name, metadata in self.protocols:
            if name == protocol:
                return metadata
        raise ValueError(f"member {self.member_id} does not support protocol {protocol}")

    def satisfied_heartbeat(self) -> bool:
        """A member awaiting a rebalance needs no heartbeat; a new one, not yet joined, does."""
        return not self.is_new and (self.awaiting_join or self.awaiting_sync)

    def vote(self, candidates: set[str]) -> str:
        return next(name for name, _ in self.protocols if name in candidates)


@dataclass(slots=True, kw_only=True)
class ClassicGroup:
    """A classic group: members, generation, protocol and leader."""

    group_id: str
    state: ClassicState = S.EMPTY
    previous_state: ClassicState = S.DEAD
    state_timestamp: int | None = None
    generation_id: int = 0
    protocol_type: str | None = None
    protocol_name: str | None = None
    leader_id: str | None = None
    members: dict[str, ClassicMember] = field(default_factory=dict)
    static_members: dict[str, str] = field(default_factory=dict)  # instance id -> member id
    pending_join: set[str] = field(default_factory=set)
    pending_sync: set[str] = field(default_factory=set)
    awaiting_joins: int = 0
    supported: dict[str, int] = field(default_factory=dict)  # protocol name -> members listing it
    subscribed_topics: set[str] | None = None
    new_member_added: bool = False

    type_name = "Classic"

    # ---------------------------------------------------------------- state

    def transition(self, state: ClassicState, now_ms: int) -> None:
        if self.state not in _PREVIOUS[state]:
            raise RuntimeError(f"group {self.group_id}: {self.state.value} cannot become {state.value}")
        self.previous_state, self.state = self.state, state
        self.state_timestamp = now_ms

    def is_(self, *states: ClassicState) -> bool:
        return self.state in states

    @property
    def is_empty(self) -> bool:
        return self.state is S.EMPTY

    def can_rebalance(self) -> bool:
        return self.state in _PREVIOUS[S.PREPARING_REBALANCE]

    def uses_consumer_protocol(self) -> bool:
        return self.protocol_type == CONSUMER_PROTOCOL_TYPE

    def is_simple(self) -> bool:
        """A group of offsets only (commits of consumers that assign themselves partitions)."""
        return self.protocol_type is None and self.is_empty and not self.pending_join

    # ---------------------------------------------------------------- members

    def is_leader(self, member_id: str) -> bool:
        return self.leader_id == member_id

    def add(self, member: ClassicMember, reply: Reply[JoinAnswer] | None = None) -> None:
        if member.instance_id is not None:
            if member.instance_id in self.static_members:
                raise RuntimeError(f"static member {member.instance_id} is already in group {self.group_id}")
            self.static_members[member.instance_id] = member.member_id
        if not self.members:
            self.protocol_type = member.protocol_type
        if self.leader_id is None:
            self.leader_id = member.member_id
        self.members[member.member_id] = member
        self._count(member, 1)
        member.join_reply = reply
        if reply is not None:
            self.awaiting_joins += 1
        self.pending_join.discard(member.member_id)

    def remove(self, member_id: str) -> None:
        member = self.members.pop(member_id, None)
        if member is not None:
            self._count(member, -1)
            if member.awaiting_join:
                self.awaiting_joins -= 1
            if member.instance_id is not None:
                self.static_members.pop(member.instance_id, None)
        if self.is_leader(member_id):
            self.leader_id = next(iter(self.members), None)
        self.pending_join.discard(member_id)
        self.pending_sync.discard(member_id)

    def _count(self, member: ClassicMember, step: int) -> None:
        for name, _ in member.protocols:
            self.supported[name] = self.supported.get(name, 0) + step

    def update(
        self,
        member: ClassicMember,
        protocols: Protocols,
        rebalance_timeout_ms: int,
        session_timeout_ms: int,
        reply: Reply[JoinAnswer] | None,
    ) -> None:
        self._count(member, -1)
        member.protocols = protocols
        self._count(member, 1)
        member.rebalance_timeout_ms = rebalance_timeout_ms
        member.session_timeout_ms = session_timeout_ms
        if reply is not None and not member.awaiting_join:
            self.awaiting_joins += 1
        elif reply is None and member.awaiting_join:
            self.awaiting_joins -= 1
        member.join_reply = reply

    def replace_static(self, instance_id: str, old_id: str, new_id: str) -> ClassicMember:
        """Give a static member a new member id; the old id's parked replies are fenced."""
        old = self.members.pop(old_id)
        self.complete_join(old, JoinAnswer(error=ErrorCode.fenced_instance_id, member_id=old_id))
        self.complete_sync(old, SyncAnswer(error=ErrorCode.fenced_instance_id))
        new = ClassicMember(
            member_id=new_id,
            instance_id=old.instance_id,
            client_id=old.client_id,
            client_host=old.client_host,
            rebalance_timeout_ms=old.rebalance_timeout_ms,
            session_timeout_ms=old.session_timeout_ms,
            protocol_type=old.protocol_type,
            protocols=old.protocols,
            assignment=old.assignment,
        )
        self.members[new_id] = new
        if self.is_leader(old_id):
            self.leader_id = new_id
        self.static_members[instance_id] = new_id
        return new

    def validate_member(self, member_id: str, instance_id: str | None) -> None:
        """UNKNOWN_MEMBER_ID or FENCED_INSTANCE_ID unless the ids name a member of the group."""
        if instance_id is not None:
            existing = self.static_members.get(instance_id)
            if existing is None:
                raise CoordinatorError(ErrorCode.unknown_member_id)
            if existing != member_id:
                raise CoordinatorError(ErrorCode.fenced_instance_id)
        if member_id not in self.members:
            raise CoordinatorError(ErrorCode.unknown_member_id)

    def all_joined(self) -> bool:
        return len(self.members) == self.awaiting_joins and not self.pending_join

    def not_yet_rejoined(self) -> list[ClassicMember]:
        return [m for m in self.members.values() if not m.awaiting_join]

    def rebalance_timeout_ms(self) -> int:
        return max((m.rebalance_timeout_ms for m in self.members.values()), default=0)

    def elect_joined_leader(self) -> bool:
        """Keep a leader that rejoined, else make the first rejoined member leader (False: none did)."""
        if self.leader_id is None:
            return False
        if self.members[self.leader_id].awaiting_join:
            return True
        for member in self.members.values():
            if member.awaiting_join:
                self.leader_id = member.member_id
                return True
        return False

    @staticmethod
    def new_member_id(client_id: str, instance_id: str | None) -> str:
        return f"{instance_id if instance_id is not None else client_id}-{uuid.uuid4()}"

    # ---------------------------------------------------------------- protocols

    def supports(self, protocol_type: str, names: Iterable[str]) -> bool:
        names = set(names)
        if self.is_empty:
            return bool(protocol_type) and bool(names)
        return self.protocol_type == protocol_type and any(
            self.supported.get(name, 0) == len(self.members) for name in names
        )

    def select_protocol(self) -> str:
        candidates = {name for name, count in self.supported.items() if count == len(self.members)}
        votes: dict[str, int] = {}
        for member in self.members.values():
            choice = member.vote(candidates)
            votes[choice] = votes.get(choice, 0) + 1
        return max(votes.items(), key=lambda item: item[1])[0]

    def init_next_generation(self, now_ms: int) -> None:
        self.generation_id += 1
        if self.members:
            self.protocol_name = self.select_protocol()
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition(S.COMPLETING_REBALANCE, now_ms)
        else:
            self.protocol_name = None
            self.subscribed_topics = self.compute_subscribed_topics()
            self.transition(S.EMPTY, now_ms)
        self.pending_sync.clear()

    def compute_subscribed_topics(self) -> set[str] | None:
        """The topics the members subscribe to (consumer protocol only; None when unknown)."""
        if self.protocol_type != CONSUMER_PROTOCOL_TYPE:
            return None
        if not self.members:
            return set()
        if self.protocol_name is None:
            return None
        from kcli.sandbox.emulator.groups.consumer_protocol import ProtocolError, subscription_topics

        topics: set[str] = set()
        try:
            for member in self.members.values():
                topics.update(subscription_topics(member.metadata(self.protocol_name)))
        except ProtocolError:
            return None
        return topics

    def is_subscribed_to(self, topic: str) -> bool:
        if self.subscribed_topics is not None:
            return topic in self.subscribed_topics
        return self.uses_consumer_protocol()

    def leader_view(self) -> tuple[tuple[str, str | None, bytes], ...]:
        """The members and their metadata of the selected protocol, as the leader gets them."""
        return tuple(
            (m.member_id, m.instance_id, m.metadata(self.protocol_name)) for m in self.members.values()
        )

    # ---------------------------------------------------------------- replies

    def complete_join(self, member: ClassicMember, answer: JoinAnswer) -> bool:
        if member.join_reply is None:
            return False
        reply, member.join_reply = member.join_reply, None
        self.awaiting_joins -= 1
        reply.settle(answer)
        return True

    def complete_sync(self, member: ClassicMember, answer: SyncAnswer) -> bool:
        if member.sync_reply is None:
            return False
        reply, member.sync_reply = member.sync_reply, None
        reply.settle(answer)
        return True

    def answer_for(self, member_id: str, **values: Any) -> JoinAnswer:
        """A successful JoinGroup answer of the current generation."""
        return JoinAnswer(
            member_id=member_id,
            generation_id=self.generation_id,
            protocol_type=self.protocol_type,
            protocol_name=self.protocol_name,
            leader=self.leader_id or "",
            **values,
        )


# ---------------------------------------------------------------- records


def empty_record(group: ClassicGroup) -> CoordinatorRecord:
    """A new group, written so that it exists (newEmptyGroupMetadataRecord)."""
    timestamp = group.state_timestamp if group.state_timestamp is not None else -1
    return group_metadata(
        group.group_id,
        protocol_type="",
        generation=0,
        protocol=None,
        leader=None,
        state_timestamp=timestamp,
        members=[],
    )


def metadata_record(group: ClassicGroup, assignment: dict[str, bytes]) -> CoordinatorRecord:
    """The group and its members with their assignment (a GroupMetadataValue)."""
    members = [
        classic_member(
            member_id=m.member_id,
            instance_id=m.instance_id,
            client_id=m.client_id,
            client_host=m.client_host,
            rebalance_timeout=m.rebalance_timeout_ms,
            session_timeout=m.session_timeout_ms,
            subscription=m.metadata(group.protocol_name),
            assignment=assignment[m.member_id],
        )
        for m in group.members.values()
    ]
    return group_metadata(
        group.group_id,
        protocol_type=group.protocol_type or "",
        generation=group.generation_id,
        protocol=group.protocol_name,
        leader=group.leader_id,
        state_timestamp=group.state_timestamp if group.state_timestamp is not None else -1,
        members=members,
    )
