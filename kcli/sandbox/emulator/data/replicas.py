"""The replicas a cluster's brokers hold on disk: found, opened when first used, checkpointed, deleted.

Behavior:
- `open` walks every broker's log dirs: a `<topic>-<partition>` dir whose partition.metadata names
  a partition the image gives to that broker in that dir is kept (opened on first use); any other
  (a topic deleted while the cluster was down, a replica moved away) and every leftover of an
  interrupted delete is removed, as a KRaft broker removes stray logs.
- `replica` opens (or creates) one replica with the recovery point and log start its log dir's
  checkpoint files give; `checkpoint` writes those files, with the high watermarks, for every
  replica open or found.
"""

from __future__ import annotations

import contextlib
import logging
import shutil
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path

from kcli.sandbox.emulator.data import checkpoints
from kcli.sandbox.emulator.data.partition_log import (
    DEFAULT_SEGMENT_BYTES,
    DEFAULT_SEGMENT_MS,
    PartitionLog,
    partition_dir_name,
)
from kcli.sandbox.emulator.data.topology import Topology

log = logging.getLogger("kcli.sandbox")

ReplicaKey = tuple[uuid.UUID, int, int]  # topic id, partition, broker


class Replicas:
    """Every broker's partition replicas of one cluster directory."""

    def __init__(self, topology: Topology, high_watermark: Callable[[uuid.UUID, int], int]) -> None:
        self.topology = topology
        self._high_watermark = high_watermark
        self.logs: dict[ReplicaKey, PartitionLog] = {}
        self._found: dict[ReplicaKey, Path] = {}  # replicas on disk not opened yet
        self.names: dict[uuid.UUID, str] = {}  # topic id -> name, also for replicas of deleted topics
        self._saved: dict[Path, dict[str, dict[tuple[str, int], int]]] = {}
        self._rolling: dict[uuid.UUID, tuple[int, int]] = {}  # topic id -> (segment.bytes, segment.ms)
        self.recovered: list[str] = []
        self.futures: list[Path] = []  # `-future` dirs found on open (kcli.sandbox.emulator.data.copies)

    def keys(self) -> list[ReplicaKey]:
        return [*self.logs, *self._found]

    def open(self, brokers: Iterable[int]) -> None:
        """Find every broker's replicas on disk; delete those that no longer belong."""
        for broker in brokers:
            for log_dir in self.topology.log_dirs(broker):
                if not log_dir.is_dir():
                    continue
                for entry in sorted(log_dir.iterdir()):
                    if entry.is_dir():
                        self._found_dir(broker, log_dir, entry)

    def _found_dir(self, broker: int, log_dir: Path, entry: Path) -> None:
        name = entry.name
        if name.endswith(("-delete", "-stray")):
            remove_tree(entry)
            return
        if name.endswith("-future"):
            self.futures.append(entry)  # a move's copy: resumed with its move, or swept
            return
        topic, _, index = name.rpartition("-")
        if not topic or not index.isdigit() or name.startswith("__cluster_metadata"):
            return
        topic_id = checkpoints.read_partition_metadata(entry)
        info = self.topology.partition(topic_id, int(index)) if topic_id is not None else None
        if topic_id is None or info is None or broker not in info.replicas:
            self.recovered.append(
                f"broker {broker}: {entry} is not a replica of this cluster's metadata; deleted"
            )
            remove_tree(entry)
            return
        key = (topic_id, int(index), broker)
        assigned = self.topology.replica_dir(broker, topic_id, int(index)) == log_dir
        earlier = self._found.get(key)
        if earlier is not None:
            # the same replica in two of the broker's dirs (a move interrupted mid-swap): the one the
            # metadata names stays
            doomed = earlier if assigned else entry
            self.recovered.append(
                f"broker {broker}: {doomed} duplicates the replica in another log dir; deleted"
            )
            remove_tree(doomed)
            if doomed is entry:
                return
        self._found[key] = entry
        self.names[topic_id] = topic

    def close(self) -> None:
        self.checkpoint()
        for replica in self.logs.values():
            replica.close()
        self.logs.clear()

    def checkpoint(self) -> None:
        """Write each log dir's recovery points, high watermarks and log starts (Kafka's checkpoint files)."""
        by_dir: dict[Path, dict[str, dict[tuple[str, int], int]]] = {}
        for (topic_id, partition, _broker), replica in self.logs.items():
            if not replica.on_disk:
                continue  # nothing written yet: no directory, no checkpoint entries
            replica.active.write_indexes()
            files = by_dir.setdefault(replica.directory.parent, {})
            key = (self.names.get(topic_id, "?"), partition)
            files.setdefault(checkpoints.RECOVERY_POINTS, {})[key] = replica.end_offset
            files.setdefault(checkpoints.LOG_STARTS, {})[key] = replica.log_start_offset
            high = min(self._high_watermark(topic_id, partition), replica.end_offset)
            files.setdefault(checkpoints.HIGH_WATERMARKS, {})[key] = high
        found = {(path.parent, path.name) for path in self._found.values()}
        for log_dir, files in by_dir.items():
            saved = self._saved_of(log_dir)
            for name, offsets in files.items():
                kept = {
                    k: v
                    for k, v in saved.get(name, {}).items()
                    if k not in offsets and (log_dir, partition_dir_name(*k)) in found
                }
                with contextlib.suppress(OSError):
                    checkpoints.write_offsets(log_dir, name, {**kept, **offsets})

    def _saved_of(self, log_dir: Path) -> dict[str, dict[tuple[str, int], int]]:
        saved = self._saved.get(log_dir)
        if saved is None:
            names = (checkpoints.RECOVERY_POINTS, checkpoints.HIGH_WATERMARKS, checkpoints.LOG_STARTS)
            saved = self._saved[log_dir] = {name: checkpoints.read_offsets(log_dir, name) for name in names}
        return saved

    # ---------------------------------------------------------------- replicas

    def get(
        self, topic_id: uuid.UUID, partition: int, broker: int, *, create: bool = True
    ) -> PartitionLog | None:
        """The broker's replica of the partition, opened (and, with `create`, made when new)."""
        key = (topic_id, partition, broker)
        replica = self.logs.get(key)
        if replica is not None:
            return replica
        name = self.topology.topic_name(topic_id) or self.names.get(topic_id)
        path = self._found.pop(key, None)
        if path is not None:
            saved = self._saved_of(path.parent)
            name = name or path.name.rpartition("-")[0]
            replica = PartitionLog(
                path,
                topic_id,
                recovery_point=saved[checkpoints.RECOVERY_POINTS].get((name, partition), 0),
                log_start=saved[checkpoints.LOG_STARTS].get((name, partition), 0),
            )
        elif create and name is not None:
            # not on disk when the broker opened: a new replica, no checkpoint entries of its own
            path = self.topology.replica_dir(broker, topic_id, partition) / partition_dir_name(
                name, partition
            )
            replica = PartitionLog(path, topic_id)
        else:
            return None
        for line in replica.recovered:
            log.warning("broker %d: %s recovery: %s", broker, path.name, line)
            self.recovered.append(f"broker {broker}: {path.name}: {line}")
        self._configure(name, replica)
        self.names[topic_id] = name
        self.logs[key] = replica
        return replica

    def _configure(self, topic: str, replica: PartitionLog) -> None:
        rolling = self._rolling.get(replica.topic_id)
        if rolling is None:  # once per topic: resolving a config walks its synonyms
            rolling = self._rolling[replica.topic_id] = (
                _int(self.topology.topic_config(topic, "segment.bytes"), DEFAULT_SEGMENT_BYTES),
                _int(self.topology.topic_config(topic, "segment.ms"), DEFAULT_SEGMENT_MS),
            )
        replica.segment_bytes, replica.segment_ms = rolling

    def adopt(self, key: ReplicaKey, path: Path) -> PartitionLog:
        """Open the replica at `path` as the broker's (a promoted future replica, in its new dir)."""
        name = self.names.get(key[0]) or path.name.rpartition("-")[0]
        replica = self.logs[key] = PartitionLog(path, key[0])
        self._configure(name, replica)
        return replica

    def configure(self, topic: str) -> None:
        """A topic's configs changed: its open replicas roll segments by the new values."""
        for topic_id in [t for t, name in self.names.items() if name == topic]:
            self._rolling.pop(topic_id, None)
        for (topic_id, _partition, _broker), replica in self.logs.items():
            if self.names.get(topic_id) == topic:
                self._configure(topic, replica)

    def configure_all(self) -> None:
        """The brokers' defaults changed: every open replica rolls by its topic's values anew."""
        self._rolling.clear()
        for (topic_id, _partition, _broker), replica in self.logs.items():
            self._configure(self.names.get(topic_id, "?"), replica)

    def replica_size(self, topic_id: uuid.UUID, partition: int, broker: int) -> int:
        """Bytes the broker's replica holds on disk (0 when it has none yet)."""
        replica = self.logs.get((topic_id, partition, broker))
        if replica is not None:
            return replica.size_bytes
        path = self._found.get((topic_id, partition, broker))
        if path is None:
            return 0
        with contextlib.suppress(OSError):
            return sum(entry.stat().st_size for entry in path.iterdir() if entry.name.endswith(".log"))
        return 0

    def delete(self, keys: Iterable[ReplicaKey]) -> None:
        for key in list(keys):
            replica = self.logs.pop(key, None)
            if replica is not None:
                replica.delete()
            path = self._found.pop(key, None)
            if path is not None:
                remove_tree(path)


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


def remove_tree(path: Path) -> None:
    shutil.rmtree(path, ignore_errors=True)
