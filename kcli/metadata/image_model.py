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

    The image keeps each partition as a tuple of field values, as kcli.metadata.delta replays them
    (PartitionRecord v2's 13: no object per partition while a big log is replayed);
    `PartitionState.of(values)` is the named view, its directories as Kafka's registration holds them.
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
        from kcli.metadata.delta import directories

        return cls._make((*values[2:10], directories(values), values[11], values[12]))


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
