"""The sandbox's metadata log: one replica per node, replicated and committed by KRaft's rules.

Behavior:
- DIR/<node id>/ is each node's log dir (meta.properties, bootstrap.checkpoint) and
  DIR/<node id>/__cluster_metadata-0/ its own replica of the log (kcli.sandbox.emulator.replica), as a
  Kafka node lays them out. Every node, broker or controller, keeps its own segment files.
- One owner writes: the active controller appends batches to its own replica only. Replication
  runs in rounds, one at a time (an asyncio lock): each running node fetches from the leader at its
  log end with the epoch of its last batch. When that (offset, epoch) is not in the leader's log
  (Kafka's validateOffsetAndEpoch) the follower truncates to the diverging epoch's end
  (truncateToEndOffset) and fetches again; otherwise it appends the leader's batch bytes verbatim.
- Fsync policy: every replica written in a round is fsynced (concurrently, in threads) before
  its end offset counts, the leader's own included. The high watermark is the largest offset held
  durably by a majority of the voters that fetched in this leader epoch, and moves only past the
  epoch's first offset (its LeaderChangeMessage), as KRaft's LeaderState requires. `committed`
  returns once the high watermark passes an offset: only then is a write acknowledged.
- Rounds run when a writer waits for its offset, so writes arriving during a round's fsyncs are
  committed together by the next one (group commit). A leader change first completes the round
  in flight, so a new leader never lacks an acknowledged record.
- Elections follow Raft's vote rule: a candidate needs a majority of the voters, each granting only
  if the candidate's (last epoch, end offset) is at least its own. On `up`, every replica is
  recovered (kcli.sandbox.emulator.replica), the most up-to-date voter leads in a new epoch higher than any
  epoch seen (logs and quorum-state), and the image is replayed from its log; followers whose
  logs diverge truncate when they fetch.
- A snapshot of the image is written at the high watermark after `snapshot_every_bytes` of new
  records (metadata.log.max.record.bytes.between.snapshots), when nothing is pending, and at
  shutdown; followers that hold that offset get a copy.
"""

from __future__ import annotations

import asyncio
import logging
import os
import shutil
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from kcli.metadata import records as _records
from kcli.metadata.uuids import kafka_uuid, parse_kafka_uuid
from kcli.metadata.writer import METADATA_PARTITION, MetadataLogWriter
from kcli.properties import parse_properties
from kcli.sandbox.emulator.image import Image
from kcli.sandbox.emulator.node import Node
from kcli.sandbox.emulator.replica import ReplicaError, ReplicaLog, fetch
from kcli.sandbox.settings import CONTROLLER_ID_FLOOR, SandboxSettings

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

log = logging.getLogger("kcli.sandbox")


class Members(Protocol):
    """What the log needs of its cluster (kcli.sandbox.emulator.cluster.Cluster): the nodes that hold a
    replica, the voter set, the image to snapshot, and the records a newly formatted node starts with."""

    @property
    def cluster_id(self) -> str: ...

    @property
    def settings(self) -> SandboxSettings: ...

    @property
    def nodes(self) -> dict[int, Node]: ...

    @property
    def voters(self) -> dict[int, uuid.UUID]: ...

    @property
    def image(self) -> Image: ...

    def bootstrap_records(self) -> list[Any]: ...


class NoQuorum(Exception):
    """A write or election that needs a majority of the voters while fewer are running."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ExistingLog:
    """What replaying an existing sandbox directory found."""

    cluster_id: str
    leader_epoch: int  # the highest epoch any replica or quorum-state has seen
    leader_id: int  # the voter whose log is the most up to date
    records: list[Any]
    kraft_version: int | None = None
    voters: dict[int, uuid.UUID] | None = None


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def read_properties(path: Path) -> dict[str, str]:
    """A Java .properties file as a dict (comments skipped)."""
    return parse_properties(path.read_text(encoding="utf-8"))


def majority(count: int) -> int:
    return count // 2 + 1


class MetadataLog:
    """Every node's replica of the metadata log in one sandbox directory, and the one writer of it."""

    def __init__(self, directory: Path, cluster: Members) -> None:
        self.directory = directory
        self.cluster = cluster
        self.replicas: dict[int, ReplicaLog] = {}
        self.leader_id = -1
        self.high_watermark = 0
        self._epoch_start = 0  # offset of the current leader's LeaderChangeMessage
        self._fetched: dict[int, int] = {}  # voter -> durable end seen in this leader epoch
        self._known_hw: dict[int, int] = {}  # node -> the high watermark it has been told
        self._round_lock = asyncio.Lock()
        self._since_snapshot = 0
        self._last_timestamp = 0
        self.recovered: list[str] = []  # what opening the replicas repaired, one line each (for `up` to say)

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

    @property
    def leader(self) -> ReplicaLog:
        return self.replicas[self.leader_id]

    @property
    def end_offset(self) -> int:
        """The leader's log end offset (0 before a leader)."""
        replica = self.replicas.get(self.leader_id)
        return replica.end_offset if replica is not None else 0

    # ---------------------------------------------------------------- opening

    def load(self) -> ExistingLog | None:
        """Recover every node's replica in DIR and replay the most up-to-date voter's log (None: new DIR)."""
        from kcli.sandbox.emulator.replay import ControlState, read_log

        for meta in sorted(self.directory.glob("*/meta.properties")):
            if not meta.parent.name.isdigit():
                continue
            node_id = int(meta.parent.name)
            replica = self._open_replica(node_id)
            for line in replica.recovered:
                log.warning("node %d: metadata log recovery: %s", node_id, line)
                self.recovered.append(f"node {node_id}: metadata log recovery: {line}")
        controllers = [n for n in self.replicas if n >= CONTROLLER_ID_FLOOR]
        if not controllers:
            return None
        best = self._most_up_to_date(controllers)
        control = ControlState()
        records, _ = read_log(self.log_dir(best), control)
        voters = [v for v in (control.voters or {}) if v in self.replicas] or controllers
        leader = self._most_up_to_date(voters)
        if leader != best:  # the best log belongs to a controller that is no longer a voter
            control = ControlState()
            records, _ = read_log(self.log_dir(leader), control)
        epoch = max(max(r.last_epoch, r.quorum_epoch()) for r in self.replicas.values())
        cluster_id = read_properties(self.node_dir(leader) / "meta.properties").get("cluster.id", "")
        return ExistingLog(
            cluster_id=cluster_id,
            leader_epoch=epoch,
            leader_id=leader,
            records=records,
            kraft_version=control.kraft_version,
            voters=control.voters,
        )

    def _most_up_to_date(self, candidates: Iterable[int]) -> int:
        """The candidate whose log wins Raft's comparison (last epoch, then end offset; lowest id on ties)."""
        return max(candidates, key=lambda n: (self.replicas[n].last_epoch, self.replicas[n].end_offset, -n))

    def _open_replica(self, node_id: int) -> ReplicaLog:
        replica = self.replicas.get(node_id)
        if replica is None:
            replica = self.replicas[node_id] = ReplicaLog(self.node_dir(node_id))
            self._known_hw[node_id] = 0
        return replica

    def open(self, nodes: Iterable[Node]) -> None:
        """Format new nodes' log dirs (meta.properties, bootstrap.checkpoint) and open every replica."""
        for node in nodes:
            self.add_node(node)

    def add_node(self, node: Node) -> None:
        """A node joins: a formatted log dir; it fetches the whole log in the next round."""
        node_dir = self.node_dir(node.node_id)
        meta = node_dir / "meta.properties"
        if not meta.exists() or not (node_dir / "bootstrap.checkpoint").exists():
            writer = MetadataLogWriter(
                node_dir,
                node_id=node.node_id,
                cluster_id=self.cluster.cluster_id,
                directory_id=kafka_uuid(node.directory_id),
            )
            try:
                if not (node_dir / "bootstrap.checkpoint").exists():
                    writer.write_bootstrap_checkpoint(self.cluster.bootstrap_records())
            finally:
                writer.close()
        else:
            found = read_properties(meta).get("cluster.id")
            if found != self.cluster.cluster_id:
                raise ReplicaError(f"{meta} belongs to cluster {found}, not {self.cluster.cluster_id}")
        self._open_replica(node.node_id)

    # ---------------------------------------------------------------- leadership

    def elect(self, candidates: Sequence[int], voters: Iterable[int], running: Iterable[int]) -> int:
        """The first candidate that wins a majority of votes (Raft's vote rule); NoQuorum otherwise."""
        voter_set = sorted(set(voters))
        alive = [v for v in voter_set if v in set(running) and v in self.replicas]
        needed = majority(len(voter_set))
        for candidate in candidates:
            mine = self._position(candidate)
            votes = [v for v in alive if mine >= self._position(v)]
            if candidate in alive and len(votes) >= needed:
                return candidate
        raise NoQuorum(
            f"no controller can win an election: {len(alive)} of {len(voter_set)} voters running, "
            f"{needed} needed"
        )

    def _position(self, node_id: int) -> tuple[int, int]:
        replica = self.replicas[node_id]
        return replica.last_epoch, replica.end_offset

    async def change_leader(self, leader_id: int, epoch: int, voters: Sequence[int]) -> None:
        """Finish the round in flight, then make `leader_id` the leader of `epoch` and commit that."""
        async with self._round_lock:
            if self.leader_id in self.replicas and self.high_watermark < self.end_offset:
                await self._round()
            self.become_leader(leader_id, epoch, voters)
        await self.committed(self.end_offset - 1)

    def become_leader(self, leader_id: int, epoch: int, voters: Sequence[int]) -> None:
        """Start `epoch` with `leader_id`: its LeaderChangeMessage is the epoch's first record."""
        replica = self.replicas[leader_id]
        if epoch <= replica.last_epoch:
            raise ReplicaError(f"epoch {epoch} is not newer than the log's epoch {replica.last_epoch}")
        self.leader_id = leader_id
        self._fetched = {}
        message = R.LeaderChangeMessage(
            version=0,
            leader_id=leader_id,
            voters=tuple(R.Voter(voter_id=v) for v in voters),
            granting_voters=tuple(R.Voter(voter_id=v) for v in voters),
        )
        self._epoch_start = replica.end_offset
        self.append_control([message], epoch=epoch)
        for node in self.cluster.nodes.values():
            other = self.replicas.get(node.node_id)
            if node.running and other is not None:
                other.write_quorum_state(leader_id=leader_id, epoch=epoch, voters=voters)

    # ---------------------------------------------------------------- appending (the leader only)

    def require_quorum(self) -> None:
        """NoQuorum when fewer than a majority of the voters run: nothing could be committed."""
        voters = self.cluster.voters
        running = [v for v in voters if v in self.cluster.nodes and self.cluster.nodes[v].running]
        if len(running) < majority(len(voters)):
            raise NoQuorum(
                f"only {len(running)} of {len(voters)} controllers running: a write needs {majority(len(voters))}"
            )

    def append(self, records: Sequence[Any], *, epoch: int) -> tuple[int, int]:
        """Append metadata records to the leader's replica; returns (first, last) offset."""
        from kcli.sandbox.emulator.logwriter import data_batches

        leader = self.leader
        first = leader.end_offset
        for batch in data_batches(records, base_offset=first, epoch=epoch, timestamp_ms=self._timestamp()):
            leader.append(batch)
            self._since_snapshot += len(batch)
        return first, leader.end_offset - 1

    def append_control(self, records: Sequence[Any], *, epoch: int) -> int:
        """Append Raft control records (LeaderChangeMessage, KRaftVersionRecord, VotersRecord); the last offset."""
        from kcli.sandbox.emulator.logwriter import control_batch

        leader = self.leader
        batch = control_batch(
            records, base_offset=leader.end_offset, epoch=epoch, timestamp_ms=self._timestamp()
        )
        leader.append(batch)
        return leader.end_offset - 1

    async def committed(self, offset: int) -> None:
        """Return once `offset` is committed (the high watermark is past it), running rounds as needed."""
        while self.high_watermark <= offset:
            async with self._round_lock:
                if self.high_watermark > offset:
                    return
                before = self.high_watermark
                await self._round()
                if self.high_watermark <= offset and self.high_watermark == before:
                    raise NoQuorum(
                        f"offset {offset} is not on a majority of the voters (high watermark {self.high_watermark})"
                    )

    async def drain(self) -> None:
        """Commit everything appended so far."""
        if self.leader_id in self.replicas and self.high_watermark < self.end_offset:
            await self.committed(self.end_offset - 1)

    # ---------------------------------------------------------------- replication

    async def _round(self) -> None:
        """One replication round (caller holds the round lock): fetch, fsync, advance the high watermark."""
        leader = self.leader
        stamp = _now_ms()
        participants: list[tuple[int, ReplicaLog]] = [(self.leader_id, leader)]
        for node in self.cluster.nodes.values():
            replica = self.replicas.get(node.node_id)
            if node.node_id == self.leader_id or not node.running or replica is None:
                continue
            try:
                self._fetch(node.node_id, replica)
            except (ReplicaError, OSError) as error:
                # a broken follower stops fetching, as a Kafka node whose log fails would; the others commit
                log.error("node %d: cannot replicate the metadata log: %s", node.node_id, error)
                continue
            participants.append((node.node_id, replica))
        points = [(node_id, replica, replica.begin_sync()) for node_id, replica in participants]
        outcomes = await asyncio.gather(
            *(_fsynced(point.fds) for _node, _replica, point in points), return_exceptions=True
        )
        synced: list[tuple[int, ReplicaLog]] = []
        for (node_id, replica, point), outcome in zip(points, outcomes, strict=True):
            if isinstance(outcome, BaseException) and not isinstance(outcome, OSError):
                raise outcome
            if isinstance(outcome, OSError):
                # what a failed fsync covered is not durable: this node does not acknowledge it (a
                # Kafka node halts on a failed flush of the metadata log); the next round retries
                log.error("node %d: cannot fsync its metadata log: %s", node_id, outcome)
                continue
            replica.end_sync(point)
            synced.append((node_id, replica))
        leader_end = leader.end_offset
        for node_id, replica in synced:
            if node_id in self.cluster.voters:
                self._fetched[node_id] = replica.durable_end
            member = self.cluster.nodes.get(node_id)
            if member is not None:
                member.log_end_offset = replica.durable_end
                member.last_fetch_ms = stamp
                if replica.durable_end >= leader_end:
                    member.last_caught_up_ms = stamp
        self._advance_high_watermark()
        for node_id, replica, _point in points:
            self._known_hw[node_id] = min(self.high_watermark, replica.durable_end)
        if (
            self._since_snapshot >= self.cluster.settings.snapshot_every_bytes
            and self.high_watermark == leader.end_offset
        ):
            self.snapshot()

    def _fetch(self, node_id: int, follower: ReplicaLog) -> None:
        before = follower.end_offset
        cut = fetch(follower, self.leader, floor=self._known_hw.get(node_id, 0))
        if cut is not None:
            log.info(
                "node %d: truncated its metadata log from %d to %d (diverged from leader %d's log)",
                node_id,
                before,
                cut,
                self.leader_id,
            )

    def _advance_high_watermark(self) -> None:
        voters = sorted(self.cluster.voters)
        if not voters:
            return
        ends = sorted((self._fetched.get(v, 0) for v in voters), reverse=True)
        candidate = ends[majority(len(voters)) - 1]
        if candidate > self._epoch_start and candidate > self.high_watermark:
            self.high_watermark = candidate

    # ---------------------------------------------------------------- snapshots and shutdown

    def snapshot(self) -> Path | None:
        """Write a snapshot of the image at the high watermark (only when nothing is pending)."""
        from kcli.sandbox.emulator.logwriter import write_snapshot
        from kcli.sandbox.emulator.snapshot import image_records

        if self.leader_id not in self.replicas or self.high_watermark == 0:
            return None
        leader = self.leader
        if self.high_watermark != leader.end_offset:
            return None
        offset = self.high_watermark
        self._since_snapshot = 0
        path = write_snapshot(
            leader.log_dir,
            image_records(self.cluster.image),
            offset=offset,
            epoch=leader.epoch_at(offset),
            timestamp_ms=_now_ms(),
            last_contained_log_timestamp=self._last_timestamp,
        )
        for node_id, replica in self.replicas.items():
            node = self.cluster.nodes.get(node_id)
            if (
                node_id != self.leader_id
                and node is not None
                and node.running
                and replica.durable_end >= offset
            ):
                target = replica.log_dir / path.name
                if not target.exists():
                    partial = replica.log_dir / (path.name + ".part")
                    shutil.copyfile(path, partial)
                    _fsync_path(partial)
                    os.replace(partial, target)
        return path

    def _timestamp(self) -> int:
        self._last_timestamp = max(_now_ms(), self._last_timestamp)
        return self._last_timestamp

    async def close(self) -> None:
        """Commit what is pending, snapshot the final image and close every replica."""
        try:
            if self.leader_id in self.replicas:
                try:
                    await self.drain()
                except NoQuorum as error:
                    log.warning("shutting down with uncommitted metadata: %s", error)
                self.snapshot()
        finally:
            for replica in self.replicas.values():
                replica.close()


async def _fsynced(fds: Sequence[int]) -> None:
    if fds:
        await asyncio.to_thread(_fsync_all, fds)


def _fsync_all(fds: Sequence[int]) -> None:
    for fd in fds:
        os.fsync(fd)


def _fsync_path(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
