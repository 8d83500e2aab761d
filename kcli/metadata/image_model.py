"""The metadata image's state: partitions, topics, brokers, the quorum view and the finished
`MetadataImage` (built by kcli.metadata.image.ImageBuilder; callers treat it as read-only)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from kcli.metadata.directory import LogDirectory
from kcli.metadata.read_model import ReadStats


class PartitionState(NamedTuple):
    """One partition's registration, as the tree shows it.

    The image keeps each partition as the field values of its PartitionRecord (later versions only
    append fields: v0's and v1's are padded with v2's defaults; the topic id in position 1 may be raw
    bytes or a UUID, the directories a tuple or the raw bytes of the uuids) with the
    PartitionChangeRecords merged in (`merge_change`): no object per partition while a big log is
    replayed. `PartitionState.of(values)` is the named view.
    """

    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    removing_replicas: tuple[int, ...]
    adding_replicas: tuple[int, ...]
    leader: int
    leader_recovery_state: int
    leader_epoch: int
    partition_epoch: int
    directories: tuple[uuid.UUID, ...]
    elr: tuple[int, ...] | None
    last_known_elr: tuple[int, ...] | None

    @classmethod
    def of(cls, values: tuple[Any, ...]) -> PartitionState:
        size = len(values)
        directories = values[10] if size > 10 else ()
        if isinstance(directories, bytes):  # as the layout readers leave them
            from kcli.metadata.layouts import uuid_tuple

            directories = uuid_tuple(directories)
        return cls._make(
            (*values[2:10], directories, values[11] if size > 11 else None, values[12] if size > 12 else None)
        )


def merge_change(state: tuple[Any, ...], change: tuple[Any, ...]) -> tuple[Any, ...]:
    """A partition's values after a PartitionChangeRecord's (PartitionRegistration.merge): only the
    fields the change carries, the leader epoch bumped when the leader changes, the partition epoch
    always."""
    isr, leader, replicas, removing, adding, recovery = change[2:8]
    size = len(state)
    directories = state[10] if size > 10 else ()
    elr = state[11] if size > 11 else None
    last_known_elr = state[12] if size > 12 else None
    leader_epoch = state[8]
    if leader != -2:
        leader_epoch += 1
    else:
        leader = state[6]
    if replicas is None:
        replicas = state[2]
    reset_directories = change[4] is not None and bool(directories) and _count(directories) != len(replicas)
    if len(change) > 8:
        if change[8] is not None:
            directories = change[8]
            reset_directories = False
        if len(change) > 9:
            if change[9] is not None:
                elr = change[9]
            if change[10] is not None:
                last_known_elr = change[10]
    if reset_directories:
        directories = tuple(_ZERO_UUID for _ in replicas)
    return (
        state[0],
        state[1],
        replicas,
        state[3] if isr is None else isr,
        state[4] if removing is None else removing,
        state[5] if adding is None else adding,
        leader,
        state[7] if recovery == -1 else recovery,
        leader_epoch,
        state[9] + 1,
        directories,
        elr,
        last_known_elr,
    )


_ZERO_UUID = uuid.UUID(int=0)
# A partition's state always has PartitionRecord v2's 13 fields: what v0 and v1 lack, as their defaults.
_STATE_TAIL = ((), None, None)


def _count(directories: tuple[uuid.UUID, ...] | bytes) -> int:
    """How many directories: a tuple, or the raw bytes the layout readers leave (16 a uuid)."""
    return len(directories) // 16 if isinstance(directories, bytes) else len(directories)


@dataclass(slots=True)
class TopicState:
    name: str
    topic_id: uuid.UUID
    partitions: dict[int, tuple[Any, ...]] = field(default_factory=dict)  # PartitionState.of reads one


@dataclass(slots=True)
class BrokerState:
    """A broker registration plus the changes applied to it since."""

    record: Any
    fenced: bool
    in_controlled_shutdown: bool
    log_dirs: tuple[uuid.UUID, ...]


@dataclass(slots=True, kw_only=True)
class Provenance:
    offset: int = -1
    epoch: int = -1
    timestamp: int = -1


@dataclass(slots=True, kw_only=True)
class QuorumView:
    """What the control records said about the Raft quorum."""

    leader_id: int | None = None
    leader_epoch: int | None = None
    voters: tuple[int, ...] = ()
    granting_voters: tuple[int, ...] = ()
    kraft_version: int | None = None
    voters_record: Any = None


@dataclass(slots=True, kw_only=True)
class MetadataImage:
    """The replayed state. Built by ImageBuilder; read-only afterwards (the tree wraps it)."""

    features: dict[str, int] = field(default_factory=dict)
    zk_migration_state: int | None = None
    brokers: dict[int, BrokerState] = field(default_factory=dict)
    controllers: dict[int, Any] = field(default_factory=dict)
    topics: dict[uuid.UUID, TopicState] = field(default_factory=dict)
    topic_names: dict[str, uuid.UUID] = field(default_factory=dict)
    configs: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)
    client_quotas: dict[tuple[tuple[str, str | None], ...], dict[str, float]] = field(default_factory=dict)
    next_producer_id: int | None = None
    acls: dict[uuid.UUID, Any] = field(default_factory=dict)
    scram: dict[tuple[int, str], Any] = field(default_factory=dict)
    delegation_tokens: dict[str, Any] = field(default_factory=dict)
    provenance: Provenance = field(default_factory=Provenance)
    quorum: QuorumView = field(default_factory=QuorumView)
    stats: ReadStats = field(default_factory=ReadStats)
    directory: LogDirectory | None = None
    open_transaction: str | None = None
    unapplied_records: int = 0
    partial: str | None = None  # set when the image comes from a live read that cannot see everything
    # parts of the tree such a read cannot fill: path under /image -> why (the shell says so)
    unavailable: dict[tuple[str, ...], str] = field(default_factory=dict)
