"""Replicas that copy real bytes at a throttled rate: reassignment targets and future replicas.

Behavior:
- A replica a reassignment is adding copies its partition from the leader a budget of bytes at a
  time (the caller's throttle times the tick), by the replica fetcher's rules; it is caught up when
  it holds the leader's log end. What it holds on disk is its progress: a restart resumes there.
- A future replica (AlterReplicaLogDirs, KIP-113) is `<topic>-<partition>.<id>-future` in the target
  log dir of the same broker, copied from the broker's current replica the same way. Once caught up
  it replaces the current one: the current dir is deleted and the future dir renamed to
  `<topic>-<partition>` in the target dir (Kafka's replaceCurrentWithFutureLog). A future dir left
  by an interrupted move is picked up again when the move resumes, or deleted.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path

from kcli.sandbox.emulator.data.partition_log import PartitionLog, partition_dir_name
from kcli.sandbox.emulator.data.replicas import Replicas, remove_tree
from kcli.sandbox.emulator.data.replication import catch_up
from kcli.sandbox.emulator.data.topology import Topology

ReplicaKey = tuple[uuid.UUID, int, int]
FUTURE = "-future"


class Copies:
    """The throttled copies of one cluster's data plane."""

    def __init__(
        self, topology: Topology, replicas: Replicas, high_watermark: Callable[[uuid.UUID, int], int]
    ) -> None:
        self.topology = topology
        self.replicas = replicas
        self._high_watermark = high_watermark
        self.futures: dict[ReplicaKey, PartitionLog] = {}

    # ---------------------------------------------------------------- reassignment targets

    def _leader_log(self, topic_id: uuid.UUID, partition: int) -> PartitionLog | None:
        info = self.topology.partition(topic_id, partition)
        if info is None or info.leader < 0 or not self.topology.running(info.leader):
            return None
        return self.replicas.get(topic_id, partition, info.leader)

    def copy_to(self, topic_id: uuid.UUID, partition: int, broker: int, budget: int) -> int:
        """Copy up to about `budget` bytes from the leader to the broker's replica; bytes copied."""
        leader = self._leader_log(topic_id, partition)
        target = self.replicas.get(topic_id, partition, broker)
        if leader is None or target is None or target is leader:
            return 0
        copied, _ = catch_up(target, leader, budget=max(1, budget))
        return copied

    def caught_up(self, topic_id: uuid.UUID, partition: int, broker: int) -> bool:
        """Whether the broker's replica holds the leader's log end (False while the leader is down)."""
        leader = self._leader_log(topic_id, partition)
        target = self.replicas.get(topic_id, partition, broker, create=False)
        if leader is None:
            return False
        if target is None:
            return leader.end_offset == 0
        return target.end_offset == leader.end_offset and target.log_start_offset == leader.log_start_offset

    def lag(self, topic_id: uuid.UUID, partition: int, broker: int) -> int:
        """The replica's offset lag behind the high watermark (DescribeLogDirs' OffsetLag)."""
        target = self.replicas.get(topic_id, partition, broker, create=False)
        end = target.end_offset if target is not None else 0
        return max(0, self._high_watermark(topic_id, partition) - end)

    # ---------------------------------------------------------------- future replicas

    def future(self, topic_id: uuid.UUID, partition: int, broker: int, target_dir: Path) -> PartitionLog:
        """The broker's future replica of the partition in `target_dir` (made, or found from before)."""
        key = (topic_id, partition, broker)
        found = self.futures.get(key)
        if found is not None and found.directory.parent == target_dir:
            return found
        if found is not None:
            self.drop(topic_id, partition, broker)
        name = self.topology.topic_name(topic_id) or self.replicas.names.get(topic_id, "?")
        prefix = f"{partition_dir_name(name, partition)}."
        leftovers = sorted(
            p for p in self.replicas.futures if p.parent == target_dir and p.name.startswith(prefix)
        )
        path = leftovers[0] if leftovers else target_dir / f"{prefix}{uuid.uuid4().hex}{FUTURE}"
        for extra in leftovers[1:]:
            remove_tree(extra)
        log = self.futures[key] = PartitionLog(path, topic_id)
        log.ensure_on_disk()  # promoting it renames its directory, even when it copied nothing
        return log

    def copy_future(
        self, topic_id: uuid.UUID, partition: int, broker: int, target_dir: Path, budget: int
    ) -> int:
        """Copy up to about `budget` bytes from the broker's current replica into its future one."""
        current = self.replicas.get(topic_id, partition, broker)
        if current is None:
            return 0
        copied, _ = catch_up(
            self.future(topic_id, partition, broker, target_dir), current, budget=max(1, budget)
        )
        return copied

    def future_caught_up(self, topic_id: uuid.UUID, partition: int, broker: int) -> bool:
        future = self.futures.get((topic_id, partition, broker))
        current = self.replicas.get(topic_id, partition, broker, create=False)
        if future is None:
            return False
        end = current.end_offset if current is not None else 0
        return future.end_offset == end

    def future_size(self, topic_id: uuid.UUID, partition: int, broker: int) -> tuple[int, int] | None:
        """(bytes, offset lag behind the current replica) of a future replica, None when there is none."""
        future = self.futures.get((topic_id, partition, broker))
        if future is None:
            return None
        current = self.replicas.get(topic_id, partition, broker, create=False)
        end = current.end_offset if current is not None else 0
        return future.size_bytes, max(0, end - future.end_offset)

    def promote(self, topic_id: uuid.UUID, partition: int, broker: int) -> Path | None:
        """The caught-up future replica replaces the current one; the replica's new directory."""
        key = (topic_id, partition, broker)
        future = self.futures.pop(key, None)
        if future is None:
            return None
        name = self.topology.topic_name(topic_id) or self.replicas.names.get(topic_id, "?")
        final = future.directory.parent / partition_dir_name(name, partition)
        future.close()
        self.replicas.delete([key])
        remove_tree(final)
        os.replace(future.directory, final)
        self.replicas.adopt(key, final)
        return final

    def sweep(self, keep: Iterable[tuple[ReplicaKey, Path]]) -> None:
        """Delete the future dirs found on open but those of the moves resumed ((replica, target dir)),
        and open those: a resumed move shows what its future replica holds at once, as Kafka loads
        future logs at start-up."""
        resumed = list(keep)
        kept = {
            (target, partition_dir_name(self.topology.topic_name(topic_id) or "?", partition))
            for (topic_id, partition, _broker), target in resumed
        }
        for path in self.replicas.futures:
            if not any(path.parent == target and path.name.startswith(f"{name}.") for target, name in kept):
                remove_tree(path)
        self.replicas.futures = [p for p in self.replicas.futures if p.exists()]
        for (topic_id, partition, broker), target in resumed:
            self.future(topic_id, partition, broker, target)

    def drop(self, topic_id: uuid.UUID, partition: int, broker: int) -> None:
        """A move that ends unfinished (cancelled, or the replica left the broker): its copy goes."""
        future = self.futures.pop((topic_id, partition, broker), None)
        if future is not None:
            future.delete()
