"""--execute --wait: poll the reassignments until done or the deadline, reporting progress."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.ops.reassign.json_format import ReassignmentFile
from kcli.ops.reassign.model import TopicPartition, sort_key
from kcli.ops.reassign.verify import LogDirMoveState, PartitionState, in_flight, partition_states
from kcli.workflows.reassign.reads import current_replicas, file_of, log_dirs_quietly

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionProgress:
    """How far one partition's reassignment has come: bytes copied to its new replicas, or replicas."""

    partition: TopicPartition
    target: tuple[int, ...]
    adding: tuple[int, ...]
    done: bool
    bytes_done: int
    bytes_total: int  # 0 when sizes are unknown: progress is then counted in replicas

    @property
    def fraction(self) -> float:
        if self.done:
            return 1.0
        if self.bytes_total > 0:
            return min(1.0, self.bytes_done / self.bytes_total)
        return (len(self.target) - len(self.adding)) / max(1, len(self.target))


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitResult:
    progress: tuple[PartitionProgress, ...]
    timed_out: bool
    states: tuple[PartitionState, ...] = ()
    log_dirs: tuple[LogDirMoveState, ...] = ()  # the file's log-dir moves, as --verify reports them

    @property
    def pending(self) -> tuple[TopicPartition, ...]:
        return tuple(p.partition for p in self.progress if not p.done)

    @property
    def done_partitions(self) -> tuple[TopicPartition, ...]:
        return tuple(p.partition for p in self.progress if p.done)

    @property
    def pending_log_dirs(self) -> tuple[LogDirMoveState, ...]:
        return tuple(m for m in self.log_dirs if not m.done)


async def poll_progress(
    admin: Admin, targets: Mapping[TopicPartition, tuple[int, ...]]
) -> tuple[PartitionProgress, ...]:
    """One look at the reassignments of `targets`: ListPartitionReassignments, then DescribeLogDirs."""
    from kcli.client.api.log_dirs import BrokerLogDirs
    from kcli.client.api.reassign import list_reassignments

    parts = sorted(targets, key=sort_key)
    ongoing = await list_reassignments(admin, parts)
    brokers = sorted({b for r in ongoing.values() for b in r.replicas})
    reports = await log_dirs_quietly(admin, brokers, sorted(ongoing, key=sort_key)) if ongoing else {}

    def size(broker: int, tp: TopicPartition) -> int | None:
        report = reports.get(broker)
        if not isinstance(report, BrokerLogDirs):
            return None
        sizes = [d.size for d in report.replicas.get(tp, []) if not d.is_future]
        return max(sizes) if sizes else 0

    out: list[PartitionProgress] = []
    for tp in parts:
        r = ongoing.get(tp)
        if r is None:
            out.append(
                PartitionProgress(
                    partition=tp, target=targets[tp], adding=(), done=True, bytes_done=0, bytes_total=0
                )
            )
            continue
        sources = [s for s in (size(b, tp) for b in r.replicas if b not in r.adding) if s is not None]
        total = max(sources, default=0)
        copied = [size(b, tp) for b in r.adding]
        known = total > 0 and all(c is not None for c in copied)
        out.append(
            PartitionProgress(
                partition=tp,
                target=r.target,
                adding=r.adding,
                done=False,
                bytes_done=sum(min(c or 0, total) for c in copied) if known else 0,
                bytes_total=total * len(r.adding) if known else 0,
            )
        )
    return tuple(out)


async def watch(
    admin: Admin,
    targets: Mapping[TopicPartition, tuple[int, ...]],
    *,
    timeout_ms: int,
    on_progress: Callable[[tuple[PartitionProgress, ...]], None],
    interval_s: float = 0.5,
    log_dir_moves_of: ReassignmentFile | None = None,
) -> WaitResult:
    """Poll until every partition of `targets` is done or `timeout_ms` passes; then, under the same
    deadline, until the log-dir moves of `log_dir_moves_of` are done (the copies between disks).

    A poll that fails on the network (a broker or controller restarting, a rebootstrap) is skipped,
    not fatal: the loop keeps going until the deadline.
    """
    from kcli.client.errors import ConnectionFailed, KafkaError, RequestTimedOut

    deadline = time.monotonic() + timeout_ms / 1000
    last: tuple[PartitionProgress, ...] = tuple(
        PartitionProgress(partition=tp, target=t, adding=t, done=False, bytes_done=0, bytes_total=0)
        for tp, t in sorted(targets.items(), key=lambda kv: sort_key(kv[0]))
    )
    while True:
        try:
            last = await poll_progress(admin, targets)
            on_progress(last)
        except (ConnectionFailed, RequestTimedOut, KafkaError):
            pass
        if all(p.done for p in last):
            break
        if time.monotonic() + interval_s >= deadline:
            return WaitResult(progress=last, timed_out=True)
        await asyncio.sleep(interval_s)
    moves: tuple[LogDirMoveState, ...] = ()
    if log_dir_moves_of is not None and log_dir_moves_of.log_dir_moves:
        from kcli.workflows.reassign.verify import log_dir_move_states

        while True:
            with contextlib.suppress(ConnectionFailed, RequestTimedOut, KafkaError):
                moves = await log_dir_move_states(admin, log_dir_moves_of)
            if moves and not in_flight(moves):
                break
            if time.monotonic() + interval_s >= deadline:
                return WaitResult(progress=last, timed_out=True, log_dirs=moves)
            await asyncio.sleep(interval_s)
    # Done at the controller; the brokers' metadata (Metadata answers) follows a moment later, so the
    # final read waits, under the same deadline, for the replicas to be the targets.
    while True:
        try:
            current = await current_replicas(admin, file_of(targets))
        except (ConnectionFailed, RequestTimedOut, KafkaError):
            return WaitResult(progress=last, timed_out=False, log_dirs=moves)  # done; the final read failed
        caught_up = all(tuple(current.get(tp, ())) == tuple(target) for tp, target in targets.items())
        if caught_up or time.monotonic() + interval_s >= deadline:
            break
        await asyncio.sleep(interval_s)
    states = partition_states(targets, current=current, ongoing={})
    return WaitResult(progress=last, timed_out=False, states=states, log_dirs=moves)
