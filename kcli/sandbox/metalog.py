"""The sandbox's metadata log: the active controller appends through kcli.metadata's writer,
the other running nodes replicate its batches byte for byte, and `up` replays it.

Behavior:
- DIR/<node id>/ is each node's log dir (meta.properties, bootstrap.checkpoint) and
  DIR/<node id>/__cluster_metadata-0/ its metadata log, as a Kafka node lays them out.
- Replication copies the leader's new segment bytes to every running follower after each append,
  as a Raft fetch would; a stopped node catches up when it starts again.
- A snapshot of the image is written after `snapshot_every_bytes` of new records
  (metadata.log.max.record.bytes.between.snapshots) and at shutdown.
- Replay reads the newest snapshot of the most advanced node, then the log records after it.
"""

from __future__ import annotations

import logging
import shutil
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.metadata import records as _records
from kcli.metadata.uuids import kafka_uuid, parse_kafka_uuid
from kcli.metadata.writer import METADATA_PARTITION, MetadataLogWriter

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

if TYPE_CHECKING:
    from kcli.sandbox.cluster import Cluster, Node

log = logging.getLogger("kcli.sandbox")


@dataclass(frozen=True, slots=True, kw_only=True)
class ExistingLog:
    """What replaying an existing sandbox directory found."""

    cluster_id: str
    leader_epoch: int
    records: list[Any]
    kraft_version: int | None = None
    voters: dict[int, uuid.UUID] | None = None


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def read_properties(path: Path) -> dict[str, str]:
    """A Java .properties file as a dict (comments skipped)."""
    out: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith(("#", "!")) and "=" in line:
            key, _, value = line.partition("=")
            out[key.strip()] = value.strip()
    return out


class MetadataLog:
    """All nodes' metadata logs of one sandbox directory."""

    def __init__(self, directory: Path, cluster: Cluster) -> None:
        self.directory = directory
        self.cluster = cluster
        self.leader: MetadataLogWriter | None = None
        self.leader_id = -1
        self.end_offset = 0
        self._positions: dict[int, dict[str, int]] = {}  # node -> segment name -> bytes copied
        self._since_snapshot = 0
        self._last_timestamp = 0

    @staticmethod
    def new_directory_id() -> uuid.UUID:
        return uuid.uuid4()

    def node_dir(self, node_id: int) -> Path:
        return self.directory / str(node_id)

    def log_dir(self, node_id: int) -> Path:
        return self.node_dir(node_id) / METADATA_PARTITION

    def directory_id(self, node_id: int) -> uuid.UUID:
        """The directory.id in the node's meta.properties (a new one for a new node)."""
        path = self.node_dir(node_id) / "meta.properties"
        if path.exists():
            value = read_properties(path).get("directory.id")
            if value:
                return parse_kafka_uuid(value)
        return uuid.uuid4()

    # ---------------------------------------------------------------- replay

    def load(self) -> ExistingLog | None:
        """Replay the most advanced node's log in DIR, or None for a new sandbox."""
        from kcli.sandbox.replay import ControlState, read_log

        best: tuple[int, Path, str] | None = None
        for meta in sorted(self.directory.glob("*/meta.properties")):
            properties = read_properties(meta)
            node_log = meta.parent / METADATA_PARTITION
            end = sum(p.stat().st_size for p in node_log.glob("*.log")) if node_log.exists() else 0
            if best is None or end > best[0]:
                best = (end, node_log, properties.get("cluster.id", ""))
        if best is None:
            return None
        control = ControlState()
        records, epoch = read_log(best[1], control)
        return ExistingLog(
            cluster_id=best[2],
            leader_epoch=epoch,
            records=records,
            kraft_version=control.kraft_version,
            voters=control.voters,
        )

    # ---------------------------------------------------------------- writing

    def open(self, nodes: Iterable[Node]) -> None:
        """Create every node's log dir (meta.properties, bootstrap.checkpoint) and open the leader's."""
        for node in nodes:
            self._prepare(node)
        self._open_leader(self.cluster.active_controller_id)

    def _prepare(self, node: Node) -> None:
        writer = MetadataLogWriter(
            self.node_dir(node.node_id),
            node_id=node.node_id,
            cluster_id=self.cluster.cluster_id,
            directory_id=kafka_uuid(node.directory_id),
        )
        try:
            if not (self.node_dir(node.node_id) / "bootstrap.checkpoint").exists():
                writer.write_bootstrap_checkpoint(self.cluster._bootstrap_records())
        finally:
            writer.close()
        self._positions[node.node_id] = {
            p.name: p.stat().st_size for p in self.log_dir(node.node_id).glob("*.log")
        }

    def _open_leader(self, node_id: int) -> None:
        if self.leader is not None:
            self.leader.close()
        self.leader = MetadataLogWriter(
            self.node_dir(node_id), node_id=node_id, cluster_id=self.cluster.cluster_id
        )
        self.leader_id = node_id
        self.end_offset = self.leader.next_offset

    def append(self, records: Sequence[Any]) -> int:
        """Append metadata records as the active controller; returns the first offset."""
        assert self.leader is not None
        first = self.end_offset
        before = self.leader._segment_size
        last = self.leader.append(records, epoch=self.cluster.leader_epoch, timestamp_ms=self._timestamp())
        self.end_offset = last + 1
        self._replicate()
        self._since_snapshot += max(0, self.leader._segment_size - before)
        if self._since_snapshot >= self.cluster.settings.snapshot_every_bytes:
            self.snapshot()
        return first

    def append_control(self, records: Sequence[Any]) -> None:
        """Append Raft control records (KRaftVersionRecord, VotersRecord) as the active controller."""
        assert self.leader is not None
        last = self.leader.append_control(
            records, epoch=self.cluster.leader_epoch, timestamp_ms=self._timestamp()
        )
        self.end_offset = last + 1
        self._replicate()

    def leader_change(self, leader_id: int, epoch: int, voters: Sequence[int]) -> None:
        """A new leader epoch: LeaderChangeMessage in the log and quorum-state on every node."""
        if leader_id != self.leader_id:
            self._catch_up_dir(leader_id)
            self._open_leader(leader_id)
        assert self.leader is not None
        message = R.LeaderChangeMessage(
            version=0,
            leader_id=leader_id,
            voters=tuple(R.Voter(voter_id=v) for v in voters),
            granting_voters=tuple(R.Voter(voter_id=v) for v in voters),
        )
        last = self.leader.append_control([message], epoch=epoch, timestamp_ms=self._timestamp())
        self.end_offset = last + 1
        self._replicate()
        for node in self.cluster.nodes.values():
            if node.running:
                self._quorum_state(node.node_id, leader_id, epoch, voters)

    def _quorum_state(self, node_id: int, leader_id: int, epoch: int, voters: Sequence[int]) -> None:
        writer_dir = self.log_dir(node_id)
        if not writer_dir.exists():
            return
        import json

        state = {
            "clusterId": "",
            "leaderId": leader_id,
            "leaderEpoch": epoch,
            "votedId": -1,
            "appliedOffset": 0,
            "currentVoters": [{"voterId": v} for v in voters],
            "data_version": 0,
        }
        (writer_dir / "quorum-state").write_text(json.dumps(state, separators=(",", ":")))

    def snapshot(self) -> Path | None:
        """Write a snapshot of the image at the current log end (leader dir; copied to followers)."""
        from kcli.sandbox.snapshot import image_records

        if self.leader is None or self.end_offset == 0:
            return None
        self._since_snapshot = 0
        path = self.leader.write_snapshot(
            image_records(self.cluster.image),
            offset=self.end_offset,
            epoch=self.cluster.leader_epoch,
            last_contained_log_timestamp=self._last_timestamp,
        )
        for node in self.cluster.nodes.values():
            if node.running and node.node_id != self.leader_id and self.log_dir(node.node_id).exists():
                shutil.copyfile(path, self.log_dir(node.node_id) / path.name)
        return path

    def _timestamp(self) -> int:
        self._last_timestamp = max(_now_ms(), self._last_timestamp)
        return self._last_timestamp

    # ---------------------------------------------------------------- replication

    def _replicate(self) -> None:
        for node in self.cluster.nodes.values():
            if node.running and node.node_id != self.leader_id:
                self._catch_up_dir(node.node_id)

    def _catch_up_dir(self, node_id: int) -> None:
        """Copy the leader's log bytes this node lacks (segments and leader-epoch-checkpoint)."""
        if self.leader_id < 0 or node_id == self.leader_id:
            return
        source = self.log_dir(self.leader_id)
        target = self.log_dir(node_id)
        if not target.exists():
            return
        positions = self._positions.setdefault(node_id, {})
        for segment in sorted(source.glob("*.log")):
            size = segment.stat().st_size
            done = positions.get(segment.name)
            if done is None:
                existing = target / segment.name
                done = existing.stat().st_size if existing.exists() else 0
            if size > done:
                with open(segment, "rb") as src, open(target / segment.name, "ab") as dst:
                    src.seek(done)
                    dst.write(src.read(size - done))
            positions[segment.name] = max(size, done)
        checkpoint = source / "leader-epoch-checkpoint"
        if checkpoint.exists():
            shutil.copyfile(checkpoint, target / "leader-epoch-checkpoint")

    def catch_up(self, node: Node) -> None:
        """A restarted node fetches what it missed."""
        self._catch_up_dir(node.node_id)

    def add_node(self, node: Node) -> None:
        """A new node: a formatted log dir, then the whole log replicated to it."""
        self._prepare(node)
        self._positions[node.node_id] = {}
        self._catch_up_dir(node.node_id)

    def close(self) -> None:
        """Snapshot the final image and close the leader's files."""
        if self.leader is not None:
            try:
                self.snapshot()
            finally:
                self.leader.close()
                self.leader = None
