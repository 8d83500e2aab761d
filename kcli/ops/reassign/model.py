"""Values shared by the reassignment modules: partitions, assignments, brokers."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import NamedTuple


class TopicPartition(NamedTuple):
    """One partition of one topic; prints as Kafka does, `topic-partition`."""

    topic: str
    partition: int

    def __str__(self) -> str:
        return f"{self.topic}-{self.partition}"


# Ordered replica lists (the first replica is the preferred leader), keyed by partition.
Assignment = Mapping[TopicPartition, tuple[int, ...]]


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerInfo:
    """A broker as the planners see it: its id and rack (None when it has none)."""

    broker_id: int
    rack: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OngoingReassignment:
    """A reassignment the controller is running (ListPartitionReassignments)."""

    partition: TopicPartition
    replicas: tuple[int, ...]
    adding: tuple[int, ...] = ()
    removing: tuple[int, ...] = ()

    @property
    def target(self) -> tuple[int, ...]:
        """The replica set once the reassignment completes."""
        return tuple(r for r in self.replicas if r not in self.removing)


def sort_key(tp: TopicPartition) -> tuple[str, int]:
    """Kafka's order for partitions in files and output: by topic, then partition number."""
    return (tp.topic, tp.partition)


def join_ints(values: tuple[int, ...] | list[int]) -> str:
    """`1,2,3`, the way the tool prints replica lists."""
    return ",".join(str(v) for v in values)
