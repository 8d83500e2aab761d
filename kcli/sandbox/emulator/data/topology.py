"""What the data plane needs of the cluster, as small Protocols the cluster's side implements.

The data plane never imports the cluster: it is handed a `Topology` that answers from the metadata
image (which broker leads which partition, the replicas, the ISR, the leader epoch), which brokers
run, where each broker keeps a replica and the effective topic configs.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Protocol


class PartitionInfo(Protocol):
    """One partition as the metadata image has it (kcli's image Partition satisfies it)."""

    @property
    def topic_id(self) -> uuid.UUID: ...
    @property
    def partition_id(self) -> int: ...
    @property
    def replicas(self) -> Sequence[int]: ...
    @property
    def isr(self) -> Sequence[int]: ...
    @property
    def adding_replicas(self) -> Sequence[int]: ...
    @property
    def leader(self) -> int: ...
    @property
    def leader_epoch(self) -> int: ...


class Topology(Protocol):
    """The cluster as the data plane sees it."""

    def topic_id(self, topic: str) -> uuid.UUID | None:
        """The id of the topic named `topic` (None when there is none)."""
        ...

    def topic_name(self, topic_id: uuid.UUID) -> str | None: ...

    def partition(self, topic_id: uuid.UUID, partition: int) -> PartitionInfo | None: ...

    def partitions(self) -> Iterable[tuple[str, PartitionInfo]]:
        """Every partition of every topic, with its topic's name."""
        ...

    def running(self, broker_id: int) -> bool:
        """Whether the broker is up (a stopped broker's replicas neither take writes nor answer)."""
        ...

    def log_dirs(self, broker_id: int) -> Sequence[Path]:
        """The broker's log dirs (log.dirs), the first one first."""
        ...

    def replica_dir(self, broker_id: int, topic_id: uuid.UUID, partition: int) -> Path:
        """The log dir that holds (or is to hold) the broker's replica of the partition."""
        ...

    def topic_config(self, topic: str, key: str) -> str | None:
        """The topic's effective value of config `key` (its own, else the broker's, else Kafka's default)."""
        ...
