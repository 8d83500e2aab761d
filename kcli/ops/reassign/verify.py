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


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaDirState:
    """Where one replica's log lives on its broker: current dir, future dir (a move), offline dirs."""

    current: str | None
    future: str | None
    broker_has_offline_dir: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LogDirMoveState:
    """A replica the file places in a named log dir, and the line the original prints for it."""

    partition: TopicPartition
    broker: int
    target: str
    done: bool
    line: str


def log_dir_states(
    wanted: Mapping[tuple[TopicPartition, int], str],
    observed: Mapping[tuple[TopicPartition, int], ReplicaDirState],
) -> tuple[LogDirMoveState, ...]:
    """The original's log-dir verification lines, sorted by broker, topic, partition."""
    out: list[LogDirMoveState] = []
    for (tp, broker), target in sorted(
        wanted.items(), key=lambda kv: (kv[0][1], kv[0][0].topic, kv[0][0].partition)
    ):
        seen = observed.get((tp, broker), ReplicaDirState(current=None, future=None))
        done = False
        if seen.future is not None:
            if seen.future == target:
                line = f"Reassignment of replica {tp}-{broker} is still in progress."
            else:
                line = f"Partition {tp} on broker {broker} is being moved to log dir {seen.future} instead of {target}."
        elif seen.current == target:
            done = True
            line = f"Reassignment of replica {tp}-{broker} completed successfully."
        elif seen.current is not None:
            line = f"Partition {tp} on broker {broker} is not being moved from log dir {seen.current} to {target}."
        elif seen.broker_has_offline_dir:
            line = (
                f"Partition {tp} is not found in any live log dir on broker {broker}. "
                "There is likely an offline log directory on the broker."
            )
        else:
            line = f"Partition {tp} cannot be found in any live log directory on broker {broker}."
        out.append(LogDirMoveState(partition=tp, broker=broker, target=target, done=done, line=line))
    return tuple(out)


def in_flight(states: Iterable[LogDirMoveState]) -> bool:
    """Whether any log-dir move is still running (the original's movesOngoing)."""
    return any(s.line.endswith("is still in progress.") for s in states)
