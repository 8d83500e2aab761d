"""The state of each partition of a reassignment file: complete, in progress, or not as asked."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import StrEnum

from kcli.ops.reassign.model import OngoingReassignment, TopicPartition, sort_key


class Status(StrEnum):
    COMPLETE = "complete"
    IN_PROGRESS = "in_progress"
    FAILED = "failed"  # no reassignment running, but the replicas differ from the target


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionState:
    """One partition of the file: its current replicas against the target."""

    partition: TopicPartition
    current: tuple[int, ...]
    target: tuple[int, ...]
    status: Status


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifyResult:
    """--verify: per-partition states and whether throttles were cleared (and where)."""

    states: tuple[PartitionState, ...]
    any_ongoing: bool  # any reassignment running anywhere in the cluster (the original's test)
    cleared_brokers: tuple[int, ...] = ()
    cleared_topics: tuple[str, ...] = ()

    @property
    def all_complete(self) -> bool:
        return all(s.status is Status.COMPLETE for s in self.states)


def partition_states(
    targets: Mapping[TopicPartition, tuple[int, ...]],
    *,
    current: Mapping[TopicPartition, tuple[int, ...]],
    ongoing: Mapping[TopicPartition, OngoingReassignment],
) -> tuple[PartitionState, ...]:
    """findPartitionReassignmentStates: running -> in progress, else compare replica sets."""
    states: list[PartitionState] = []
    for tp in sorted(targets, key=sort_key):
        target = targets[tp]
        running = ongoing.get(tp)
        if running is not None:
            states.append(
                PartitionState(
                    partition=tp, current=running.replicas, target=target, status=Status.IN_PROGRESS
                )
            )
            continue
        replicas = current.get(tp, ())
        status = Status.COMPLETE if replicas == target else Status.FAILED
        states.append(PartitionState(partition=tp, current=replicas, target=target, status=status))
    return tuple(states)


def cancellable(
    targets: Iterable[TopicPartition], ongoing: Mapping[TopicPartition, OngoingReassignment]
) -> list[TopicPartition]:
    """Partitions of the file whose reassignment is still moving (adding or removing non-empty, 4.1 rule)."""
    out = []
    for tp in targets:
        r = ongoing.get(tp)
        if r is not None and (r.adding or r.removing):
            out.append(tp)
    return sorted(set(out), key=sort_key)
