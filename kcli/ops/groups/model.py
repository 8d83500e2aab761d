"""The values the group tools work with: group types and states, listings, descriptions, offsets.

Pure: the client layer (kcli.client.api.groups, kcli.client.api.offsets) fills them from the wire.
Names and spellings are Kafka's (org.apache.kafka.common.GroupType / GroupState: `Classic`,
`PreparingRebalance`, ...), because the tools print them as Java's toString does.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from kcli.ops.reassign.model import TopicPartition

MISSING = "-"  # what Kafka's group tools print for a value that is not there


class GroupType(Enum):
    """GroupType: the value is Kafka's toString; parse() is its case-insensitive lookup."""

    UNKNOWN = "Unknown"
    CONSUMER = "Consumer"
    CLASSIC = "Classic"
    SHARE = "Share"
    STREAMS = "Streams"

    @classmethod
    def parse(cls, name: str | None) -> GroupType:
        wanted = (name or "").lower()
        return next((t for t in cls if t.value.lower() == wanted), cls.UNKNOWN)

    def __str__(self) -> str:
        return self.value


class GroupState(Enum):
    """GroupState: the value is Kafka's toString; parse() is its case-insensitive lookup."""

    UNKNOWN = "Unknown"
    PREPARING_REBALANCE = "PreparingRebalance"
    COMPLETING_REBALANCE = "CompletingRebalance"
    STABLE = "Stable"
    DEAD = "Dead"
    EMPTY = "Empty"
    ASSIGNING = "Assigning"
    RECONCILING = "Reconciling"
    NOT_READY = "NotReady"

    @classmethod
    def parse(cls, name: str | None) -> GroupState:
        wanted = (name or "").upper()
        return next((s for s in cls if s.value.upper() == wanted), cls.UNKNOWN)

    def __str__(self) -> str:
        return self.value

    @property
    def rebalancing(self) -> bool:
        return self in REBALANCING


REBALANCING = frozenset(
    {
        GroupState.PREPARING_REBALANCE,
        GroupState.COMPLETING_REBALANCE,
        GroupState.ASSIGNING,
        GroupState.RECONCILING,
    }
)

# GroupState.groupStatesForType, in the enum's order (Kafka prints a Java Set, in no fixed order).
_S = GroupState
STATES_FOR_TYPE: dict[GroupType, tuple[GroupState, ...]] = {
    GroupType.CLASSIC: (_S.PREPARING_REBALANCE, _S.COMPLETING_REBALANCE, _S.STABLE, _S.DEAD, _S.EMPTY),
    GroupType.CONSUMER: (
        _S.PREPARING_REBALANCE,
        _S.COMPLETING_REBALANCE,
        _S.STABLE,
        _S.DEAD,
        _S.EMPTY,
        _S.ASSIGNING,
        _S.RECONCILING,
    ),
    GroupType.STREAMS: (_S.STABLE, _S.DEAD, _S.EMPTY, _S.ASSIGNING, _S.RECONCILING, _S.NOT_READY),
    GroupType.SHARE: (_S.STABLE, _S.DEAD, _S.EMPTY),
}


class ToolRelease(Enum):
    """Which release's group tools kcli words its text like: the answering brokers' release.

    Kafka 4.2 reworded and re-laid-out parts of kafka-consumer-groups (the reset table's columns, the
    delete messages, sorted describe rows, the partitions checked before a reset). Brokers from 4.2
    on offer ListOffsets v11 (KIP-1023); older ones get the words of Kafka 4.0's tool.
    """

    LEGACY = "4.0"
    CURRENT = "4.2"

    @classmethod
    def of_list_offsets(cls, highest_version: int) -> ToolRelease:
        return cls.CURRENT if highest_version >= 11 else cls.LEGACY


@dataclass(frozen=True, slots=True, kw_only=True)
class Node:
    """A broker as the group tools name a coordinator: `host:port  (id)`."""

    node_id: int
    host: str
    port: int

    @property
    def label(self) -> str:
        return f"{self.host}:{self.port}  ({self.node_id})"


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupListing:
    """One group as ListGroups reports it (type and state are None when the broker sends none)."""

    group_id: str
    protocol_type: str
    type: GroupType | None = None
    state: GroupState | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Member:
    """A member of a consumer, share or streams group (the fields its describe API has)."""

    member_id: str
    client_id: str
    host: str
    instance_id: str | None = None
    assignment: tuple[TopicPartition, ...] = ()
    target_assignment: tuple[TopicPartition, ...] | None = None  # None: classic members have none
    member_epoch: int | None = None
    upgraded: bool | None = None  # KIP-848 MemberType: None unknown, False classic, True consumer


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupDescription:
    """A described group: ConsumerGroupDescribe, DescribeGroups, ShareGroupDescribe or StreamsGroupDescribe."""

    group_id: str
    type: GroupType
    state: GroupState
    coordinator: Node
    members: tuple[Member, ...] = ()
    assignor: str = ""  # the partition assignor (classic: the protocol name), "" when none
    protocol_type: str = "consumer"
    group_epoch: int | None = None
    target_assignment_epoch: int | None = None

    @property
    def simple(self) -> bool:
        """A classic group with no protocol type: offsets committed by a client outside any group."""
        return self.type is GroupType.CLASSIC and self.protocol_type == ""


@dataclass(frozen=True, slots=True, kw_only=True)
class CommittedOffset:
    """A partition's committed offset (OffsetFetch); leader_epoch None when the commit had none."""

    offset: int
    leader_epoch: int | None = None
    metadata: str = ""


def partitions_by_topic(assignment: tuple[TopicPartition, ...] | list[TopicPartition]) -> str:
    """`t1:0,1;t2:3`: a member's assignment as the group tools print it (topics and partitions sorted)."""
    grouped: dict[str, list[int]] = {}
    for tp in assignment:
        grouped.setdefault(tp.topic, []).append(tp.partition)
    parts = (f"{topic}:{','.join(str(p) for p in sorted(ps))}" for topic, ps in grouped.items())
    return ";".join(sorted(parts))
