"""Log directories of the brokers (JBOD, KIP-858) and replica moves between them (KIP-113).

Behavior:
- A broker has `settings.log_dirs` log dirs: DIR/<id> (which also holds its metadata log) and
  DIR/logdirs/<id>-<n> for n >= 1, each with its own meta.properties and directory.id, as
  `kafka-storage format` lays out every entry of log.dirs. RegisterBrokerRecord lists their ids.
- A new replica goes to one of its broker's dirs, spread by topic id and partition; the choice is
  written in the partition's `directories`, as Kafka's AssignReplicasToDirs makes it.
- AlterReplicaLogDirs starts a move: a future replica in the destination dir copies the replica's
  batches (kcli.sandbox.emulator.data.copies) at replica.alter.log.dirs.io.max.bytes.per.second (the
  broker's dynamic value, else the cluster default, else unthrottled), shared by the moves running on
  that broker. When it holds the replica's log it replaces it, and a PartitionChangeRecord points the
  replica's directory at the destination.
- A replica still being added by a reassignment that holds no data yet is created in the asked dir at
  once (Kafka's preferred log dir). A stopped broker's moves wait; a replica that leaves its broker
  drops its move. A restart resumes the moves (the future replicas' data is on disk; the bytes copied
  so far are in DIR/replica-progress.json, kcli.sandbox.emulator.progress).
"""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.metadata import records as _records
from kcli.sandbox.emulator.copying import UNTHROTTLED_RATE, Move, broker_setting, tick_forever
from kcli.sandbox.emulator.image import Partition
from kcli.sandbox.emulator.node import LogDir
from kcli.sandbox.nodes import extra_log_dir_paths

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView

LOG_DIR_RATE = "replica.alter.log.dirs.io.max.bytes.per.second"


def prepare_log_dirs(
    directory: Path, *, broker_id: int, cluster_id: str, first: uuid.UUID, count: int
) -> tuple[LogDir, ...]:
    """The broker's log dirs, formatting (meta.properties) the ones that are new."""
    from kcli.metadata.uuids import kafka_uuid, parse_kafka_uuid
    from kcli.properties import read_properties_file

    dirs = [LogDir(directory_id=first, path=directory / str(broker_id))]
    for path in extra_log_dir_paths(directory, broker_id, count):
        meta = path / "meta.properties"
        directory_id = None
        if meta.exists():
            value = read_properties_file(meta).get("directory.id")
            directory_id = parse_kafka_uuid(value) if value else None
        if directory_id is None:
            directory_id = uuid.uuid4()
            path.mkdir(parents=True, exist_ok=True)
            meta.write_text(
                f"#\nnode.id={broker_id}\ndirectory.id={kafka_uuid(directory_id)}\n"
                f"version=1\ncluster.id={cluster_id}\n",
                encoding="utf-8",
            )
        dirs.append(LogDir(directory_id=directory_id, path=path))
    return tuple(dirs)


def replica_directory(cluster: ClusterView, partition: Partition, broker_id: int) -> uuid.UUID | None:
    """The directory id holding `broker_id`'s replica of `partition` (None when it is not a replica)."""
    if broker_id not in partition.replicas:
        return None
    own = cluster.log_dirs.get(broker_id, ())
    index = partition.replicas.index(broker_id)
    if index < len(partition.directories):
        chosen = partition.directories[index]
        if any(d.directory_id == chosen for d in own):
            return chosen
    return default_directory(cluster, broker_id, partition.topic_id, partition.partition_id)


def default_directory(cluster: ClusterView, broker_id: int, topic_id: uuid.UUID, partition_id: int) -> uuid.UUID:
    """Where a new replica goes: one of the broker's registered dirs, spread by topic and partition."""
    registration = cluster.image.brokers.get(broker_id)
    dirs = registration.log_dirs if registration is not None else ()
    if not dirs:
        return uuid.UUID(int=0)  # DirectoryId.UNASSIGNED
    return dirs[(topic_id.int + partition_id) % len(dirs)]


def directories_for(cluster: ClusterView, partition: Partition, replicas: list[int]) -> tuple[uuid.UUID, ...]:
    """`directories` for a new replica list: replicas that stay keep their dir, new ones get a default."""
    out = []
    for broker_id in replicas:
        current = replica_directory(cluster, partition, broker_id)
        if current is None:
            current = default_directory(cluster, broker_id, partition.topic_id, partition.partition_id)
        out.append(current)
    return tuple(out)


MoveKey = tuple[uuid.UUID, int, int]  # topic id, partition, broker


class LogDirMoves:
    """Running intra-broker replica moves and the task that advances them."""

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster
        self.moves: dict[MoveKey, Move] = {}

    def restore(self, saved: dict[MoveKey, tuple[uuid.UUID, float]]) -> None:
        """Resume moves saved before a restart (those whose partition is gone are dropped by tick)."""
        for (topic_id, partition_id, broker_id), (target, copied) in saved.items():
            if topic_id in self.cluster.image.topics:
                self.moves[(topic_id, partition_id, broker_id)] = Move(target=target, copied=copied)

    def resumed(self) -> list[tuple[MoveKey, Path]]:
        """Each move's replica and target dir (the data plane keeps their future replicas)."""
        out = []
        for key, move in self.moves.items():
            path = self.path_of(key[2], move.target)
            if path is not None:
                out.append((key, Path(path)))
        return out

    def path_of(self, broker_id: int, directory_id: uuid.UUID) -> str | None:
        for d in self.cluster.log_dirs.get(broker_id, ()):
            if d.directory_id == directory_id:
                return str(d.path)
        return None

    def future(self, topic_id: uuid.UUID, partition_id: int, broker_id: int) -> Move | None:
        return self.moves.get((topic_id, partition_id, broker_id))

    async def request(self, topic_name: str, partition: Partition, broker_id: int, target: uuid.UUID) -> None:
        """Place `broker_id`'s replica of `partition` in dir `target` (the caller checked both exist)."""
        key = (partition.topic_id, partition.partition_id, broker_id)
        logs = self.cluster.partition_logs
        current = replica_directory(self.cluster, partition, broker_id)
        if current == target:
            self.moves.pop(key, None)  # asking for the current dir cancels a running move
            logs.copies.drop(*key)
            return
        if broker_id in partition.adding_replicas and not logs.replicas.replica_size(*key):
            self.moves.pop(key, None)
            await self.cluster.commit([self._directory_change(partition, broker_id, target)])
            return
        running = self.moves.get(key)
        if running is None or running.target != target:
            self.moves[key] = Move(target=target, size=logs.replicas.replica_size(*key))

    def rate(self, broker_id: int) -> float:
        """The broker's replica.alter.log.dirs.io.max.bytes.per.second (its own, else the default)."""
        value = broker_setting(self.cluster.image.configs, broker_id, LOG_DIR_RATE)
        return float(UNTHROTTLED_RATE) if value is None else max(float(value), 1.0)

    async def run(self) -> None:
        """Advance every move each tick until cancelled."""
        await tick_forever(self.tick, "log dir move progress")

    async def tick(self, elapsed: float) -> None:
        """Copy `elapsed` seconds' worth of data; finish the moves that are done."""
        if not self.moves:
            return
        live = set(self.cluster.live_broker_ids())
        active: dict[int, list[MoveKey]] = {}
        for key in list(self.moves):
            topic_id, partition_id, broker_id = key
            topic = self.cluster.image.topics.get(topic_id)
            partition = topic.partitions.get(partition_id) if topic else None
            if partition is None or broker_id not in partition.replicas:
                del self.moves[key]  # the replica left this broker
            elif broker_id in live:
                active.setdefault(broker_id, []).append(key)
        for broker_id, keys in active.items():
            rate = self.rate(broker_id)
            for key in keys:
                await self._advance(key, self.moves[key], rate / len(keys), elapsed)

    async def _advance(self, key: MoveKey, move: Move, rate: float, elapsed: float) -> None:
        """Copy this tick's share into the future replica; once it holds the log, swap and record it."""
        copies = self.cluster.partition_logs.copies
        path = self.path_of(key[2], move.target)
        if path is None:
            del self.moves[key]
            return
        move.credit = min(move.credit + rate * elapsed, rate)
        if move.credit > 0:
            spent = copies.copy_future(*key, Path(path), int(move.credit) + 1)
            move.credit -= spent
            move.copied += spent
        if not copies.future_caught_up(*key):
            return
        del self.moves[key]
        copies.promote(*key)
        topic_id, partition_id, broker_id = key
        partition = self.cluster.image.topics[topic_id].partitions[partition_id]
        # one commit per move: two brokers finishing moves of one partition both count
        await self.cluster.commit([self._directory_change(partition, broker_id, move.target)])

    def _directory_change(self, partition: Partition, broker_id: int, target: uuid.UUID) -> Any:
        directories = list(directories_for(self.cluster, partition, list(partition.replicas)))
        directories[partition.replicas.index(broker_id)] = target
        return R.PartitionChangeRecord(
            partition_id=partition.partition_id,
            topic_id=partition.topic_id,
            directories=tuple(directories),
        )
