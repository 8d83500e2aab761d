"""One node's replica of the metadata log: its `__cluster_metadata-0` segments, epoch cache and recovery.

Behavior (what Kafka's log layer does for the KRaft partition):
- Opening recovers the log: every batch of every segment is checked (whole, magic 2, CRC-32C,
  offsets contiguous from the segment's base offset, leader epochs never going down). The first
  batch that fails and everything after it are cut off, later segments deleted: a tail torn by
  `kill -9` is truncated, as Kafka's log recovery truncates to the last valid batch.
- leader-epoch-checkpoint is rebuilt from the batches themselves (one entry per epoch, at its first
  offset), so it always agrees with the log and only grows; truncation drops the entries it cuts.
- Appends take whole batches whose base offset is the log end and whose epoch is not older than the
  last one: the leader's newly encoded batches, or the bytes a follower fetched, kept verbatim.
- `truncate_to(offset)` removes every batch whose last offset is >= offset (Kafka truncates whole
  batches); never below `floor`, the high watermark this replica knows to be committed.
- Nothing counts as written until `sync`: the segment files (and any rolled one) are fsynced, and
  only then does `durable_end` move (KRaft's leader flushes before it counts its own end offset;
  a follower flushes before its next fetch reports the offset). A segment stays to be synced until
  an fsync of it succeeds: after a failed fsync nothing counts as durable, and the next sync tries
  again.
- Snapshots: the newest whole one is the state up to its offset (kcli.sandbox.emulator.snapshot_files sets a
  damaged newer one aside when an older one or the log can rebuild the state without it, and says
  so). When recovery leaves the log ending before the newest snapshot (a flipped bit in an early
  batch), the snapshot is kept and the log starts again at its offset, as Kafka's
  KafkaRaftLog.truncateToLatestSnapshot does (truncateFullyAndStartAt): the state it holds is never
  cut back to what the damaged log still reads. A log that starts at a snapshot's offset takes that
  snapshot's epoch as its last epoch until it holds a batch (Kafka's lastFetchedEpoch), and a
  follower behind the leader's log start gets the leader's snapshot first (Kafka's FetchSnapshot).
- Other snapshots beyond the recovered end, and leftover `.part`/`.tmp` files of an interrupted
  write, are deleted on open.
"""

from __future__ import annotations

import bisect
import contextlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from kcli.errors import KcliError
from kcli.metadata.writer import DEFAULT_SEGMENT_BYTES, METADATA_PARTITION, segment_name
from kcli.sandbox.emulator import snapshot_files
from kcli.sandbox.emulator.batches import BatchHead, parse_batch
from kcli.sandbox.emulator.snapshot_files import SnapshotFile

EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
QUORUM_STATE = "quorum-state"


class ReplicaError(KcliError):
    """A batch that breaks the log's invariants, a truncation below what is committed, or a log that
    cannot be opened without losing what it holds (one line for the operator)."""


@dataclass(frozen=True, slots=True)
class Span:
    """Where one batch sits: its offsets and epoch, its segment (by base offset) and byte range."""

    base: int
    last: int
    epoch: int
    segment: int
    position: int
    size: int


@dataclass(frozen=True, slots=True)
class SyncPoint:
    """What one sync covers: the fds to fsync, the end offset they make durable, and the write
    count of each segment when it was taken (a segment written again meanwhile stays to be synced)."""

    fds: list[int]
    end: int
    marks: dict[int, int]


def batches_in(data: bytes) -> list[BatchHead]:
    """The batches of fetched bytes (ReplicaError when they do not divide into whole valid batches)."""
    out: list[BatchHead] = []
    position = 0
    while position < len(data):
        head = parse_batch(data, position)
        if head is None:
            raise ReplicaError(f"fetched bytes hold no valid batch at byte {position}")
        out.append(head)
        position += head.size
    return out


class ReplicaLog:
    """The metadata log of one node (DIR/<node>/__cluster_metadata-0), opened and recovered."""

    def __init__(self, node_dir: Path, *, segment_bytes: int = DEFAULT_SEGMENT_BYTES) -> None:
        self.log_dir = node_dir / METADATA_PARTITION
        self.log_dir.mkdir(parents=True, exist_ok=True)
        self.segment_bytes = segment_bytes
        self.spans: list[Span] = []
        self._bases: list[int] = []  # span base offsets, for bisect
        self.epochs: list[tuple[int, int]] = []  # (epoch, first offset), ascending in both
        self._fds: dict[int, int] = {}  # segment base offset -> fd
        self._sizes: dict[int, int] = {}  # segment base offset -> valid bytes
        self._dirty: dict[int, int] = {}  # segment -> write count of its last write not yet synced
        self._writes = 0
        self.start_offset = 0  # the log start: 0, or the offset of the snapshot it starts from
        self.start_epoch = 0  # that snapshot's epoch
        self.end_offset = 0
        self.durable_end = 0
        self.recovered: list[str] = []  # what recovery cut off, one line each
        self._recover()

    # ---------------------------------------------------------------- facts

    @property
    def last_epoch(self) -> int:
        """The epoch of the last batch (for a log without one, that of the snapshot it starts from, or 0)."""
        return self.epochs[-1][0] if self.epochs else self.start_epoch

    @property
    def active_segment(self) -> int | None:
        return max(self._fds) if self._fds else None

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """(epoch, end offset) of the largest epoch <= `epoch` in this log (Kafka's endOffsetForEpoch).

        For the newest epoch that is the log end; for an older one, the first offset of the next
        epoch; for an epoch older than every entry, the first offset of the first entry.
        """
        if not self.epochs:
            return self.start_epoch, self.end_offset
        if epoch == self.last_epoch:
            return epoch, self.end_offset
        index = bisect.bisect_right([e for e, _ in self.epochs], epoch)
        if index == len(self.epochs):
            return self.last_epoch, self.end_offset
        higher_start = self.epochs[index][1]
        if index == 0:
            return epoch, higher_start
        return self.epochs[index - 1][0], higher_start

    def epoch_at(self, offset: int) -> int:
        """The epoch of the record just before `offset` (0 when there is none)."""
        if offset <= 0 or not self.spans:
            return 0
        index = bisect.bisect_right(self._bases, offset - 1) - 1
        return self.spans[index].epoch if index >= 0 else 0

    def segments(self) -> list[Path]:
        return [self.log_dir / segment_name(base) for base in sorted(self._fds)]

    # ---------------------------------------------------------------- reading

    def read_from(self, offset: int) -> bytes:
        """The bytes of every batch from the one holding `offset` to the end (a fetch response)."""
        index = bisect.bisect_right(self._bases, offset) - 1
        index = max(index, 0)
        if index < len(self.spans) and self.spans[index].last < offset:
            index += 1
        chunks: list[bytes] = []
        run_start: Span | None = None
        run_end = 0
        for span in self.spans[index:]:
            if run_start is not None and span.segment == run_start.segment and span.position == run_end:
                run_end += span.size
                continue
            if run_start is not None:
                chunks.append(self._pread(run_start.segment, run_start.position, run_end))
            run_start, run_end = span, span.position + span.size
        if run_start is not None:
            chunks.append(self._pread(run_start.segment, run_start.position, run_end))
        return b"".join(chunks)

    def _pread(self, segment: int, start: int, end: int) -> bytes:
        data = os.pread(self._fds[segment], end - start, start)
        if len(data) != end - start:
            raise ReplicaError(f"{self.log_dir / segment_name(segment)} is shorter than its batches")
        return data

    # ---------------------------------------------------------------- writing

    def append(self, data: bytes) -> int:
        """Append whole batches (validated); returns the new end offset."""
        position = 0
        for head in batches_in(data):
            self._append_one(data[position : position + head.size], head)
            position += head.size
        return self.end_offset

    def _append_one(self, batch: bytes, head: BatchHead) -> None:
        if head.base != self.end_offset:
            raise ReplicaError(
                f"{self.log_dir}: batch at offset {head.base} does not follow the log end {self.end_offset}"
            )
        if head.epoch < self.last_epoch:
            raise ReplicaError(
                f"{self.log_dir}: batch of epoch {head.epoch} after epoch {self.last_epoch} (epochs never go down)"
            )
        segment = self.active_segment
        if segment is None or (
            self._sizes[segment] and self._sizes[segment] + head.size > self.segment_bytes
        ):
            segment = self._new_segment(head.base)
        position = self._sizes[segment]
        written = os.pwrite(self._fds[segment], batch, position)
        if written != len(batch):
            raise OSError(f"short write to {self.log_dir / segment_name(segment)}")
        self._sizes[segment] = position + head.size
        self._written(segment)
        self.spans.append(Span(head.base, head.last, head.epoch, segment, position, head.size))
        self._bases.append(head.base)
        self.end_offset = head.last + 1
        if head.epoch > self.last_epoch:
            self.epochs.append((head.epoch, head.base))
            self._write_epoch_checkpoint()

    def _new_segment(self, base: int) -> int:
        path = self.log_dir / segment_name(base)
        self._fds[base] = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        os.ftruncate(self._fds[base], 0)
        self._sizes[base] = 0
        _fsync_dir(self.log_dir)
        return base

    def truncate_to(self, offset: int, *, floor: int = 0) -> int:
        """Remove every batch whose last offset is >= `offset`; returns the new end offset."""
        if offset >= self.end_offset:
            return self.end_offset
        index = bisect.bisect_right(self._bases, offset) - 1
        if index < 0 or self.spans[index].last < offset:
            index += 1
        new_end = self.spans[index].base if index < len(self.spans) else self.end_offset
        if new_end < floor:
            raise ReplicaError(
                f"{self.log_dir}: truncating to {new_end} would remove committed records (high watermark {floor})"
            )
        self._cut(index)
        return self.end_offset

    def _cut(self, index: int) -> None:
        """Drop spans[index:] from memory and disk."""
        if index >= len(self.spans):
            return
        first = self.spans[index]
        for base in [b for b in self._fds if b > first.segment]:
            os.close(self._fds.pop(base))
            self._sizes.pop(base, None)
            self._dirty.pop(base, None)
            (self.log_dir / segment_name(base)).unlink(missing_ok=True)
        os.ftruncate(self._fds[first.segment], first.position)
        self._sizes[first.segment] = first.position
        self._written(first.segment)
        del self.spans[index:]
        del self._bases[index:]
        self.end_offset = first.base
        self.durable_end = min(self.durable_end, self.end_offset)
        kept = [(e, start) for e, start in self.epochs if start < self.end_offset]
        if kept != self.epochs:
            self.epochs = kept
            self._write_epoch_checkpoint()
        for snapshot in self.snapshots():
            if snapshot[0] > self.end_offset:
                snapshot[2].unlink(missing_ok=True)

    def truncate_fully_and_start_at(self, snapshot: SnapshotFile) -> None:
        """Drop every batch and start the log at `snapshot`'s offset (Kafka's truncateFullyAndStartAt);
        older snapshots are removed, as Kafka forgets them."""
        for base in list(self._fds):
            os.close(self._fds.pop(base))
            (self.log_dir / segment_name(base)).unlink(missing_ok=True)
        self._sizes.clear()
        self._dirty.clear()
        self.spans.clear()
        self._bases.clear()
        self.epochs = []
        self.start_offset = self.end_offset = self.durable_end = snapshot.offset
        self.start_epoch = snapshot.epoch
        self._new_segment(snapshot.offset)
        self._write_epoch_checkpoint()
        for older in snapshot_files.snapshot_files(self.log_dir):
            if older.offset < snapshot.offset:
                older.path.unlink(missing_ok=True)
        _fsync_dir(self.log_dir)

    def _written(self, segment: int) -> None:
        self._writes += 1
        self._dirty[segment] = self._writes

    def begin_sync(self) -> SyncPoint:
        """What to fsync now (taken on the owner's thread); nothing counts as synced before end_sync."""
        marks = dict(self._dirty)
        return SyncPoint([self._fds[s] for s in sorted(marks) if s in self._fds], self.end_offset, marks)

    def end_sync(self, point: SyncPoint) -> None:
        """After every fd of `point` was fsynced: its segments are clean unless written since, and
        its end offset is durable. Never called for a failed fsync."""
        for segment, mark in point.marks.items():
            if self._dirty.get(segment) == mark:
                del self._dirty[segment]
        self.durable_end = max(self.durable_end, min(point.end, self.end_offset))

    def sync(self) -> None:
        """fsync what was written (blocking); afterwards durable_end == end_offset. An OSError of
        fsync passes through, and durable_end stays where it was."""
        point = self.begin_sync()
        for fd in point.fds:
            os.fsync(fd)
        self.end_sync(point)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sync()
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._fds.clear()

    # ---------------------------------------------------------------- side files

    def snapshots(self) -> list[tuple[int, int, Path]]:
        """(offset, epoch, path) of every snapshot, oldest first (a damaged one is set aside on open)."""
        return [(s.offset, s.epoch, s.path) for s in snapshot_files.snapshot_files(self.log_dir)]

    def latest_snapshot(self) -> tuple[int, int, Path] | None:
        found = [s for s in self.snapshots() if s[0] <= self.end_offset]
        return found[-1] if found else None

    def write_quorum_state(self, *, leader_id: int, epoch: int, voters: Iterable[int]) -> None:
        """quorum-state as a static-quorum node writes it (data_version 0), replaced atomically."""
        state = {
            "clusterId": "",
            "leaderId": leader_id,
            "leaderEpoch": epoch,
            "votedId": leader_id,
            "appliedOffset": 0,
            "currentVoters": [{"voterId": v} for v in voters],
            "data_version": 0,
        }
        _replace(self.log_dir / QUORUM_STATE, json.dumps(state, separators=(",", ":")))

    def quorum_epoch(self) -> int:
        """The leader epoch in quorum-state (0 when missing or unreadable)."""
        path = self.log_dir / QUORUM_STATE
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            return int(json.loads(path.read_text(encoding="utf-8")).get("leaderEpoch", 0))
        return 0

    def _write_epoch_checkpoint(self) -> None:
        lines = ["0", str(len(self.epochs)), *(f"{epoch} {offset}" for epoch, offset in self.epochs)]
        _replace(self.log_dir / EPOCH_CHECKPOINT, "\n".join(lines) + "\n")

    # ---------------------------------------------------------------- recovery

    def _recover(self) -> None:
        for leftover in [*self.log_dir.glob("*.part"), *self.log_dir.glob("*.tmp")]:
            leftover.unlink(missing_ok=True)
        segments = sorted(
            int(p.name[:20])
            for p in self.log_dir.glob("*.log")
            if len(p.name) == 24 and p.name[:20].isdigit()
        )
        first = segments[0] if segments else 0
        newest = self._newest_whole_snapshot(first)
        if first != 0 and (newest is None or newest.offset < first):
            self.recovered.append(f"the first segment starts at offset {first}, not 0: log cleared")
            for base in segments:
                (self.log_dir / segment_name(base)).unlink()
            segments, first = [], 0
        elif first != 0 and newest is not None:
            # the log starts at a snapshot (a full truncation before): that snapshot's epoch is the last
            # one until the log holds a batch
            start = next(s for s in snapshot_files.snapshot_files(self.log_dir) if s.offset >= first)
            self.start_offset, self.start_epoch = first, start.epoch
        expected = self._recover_segments(segments, first)
        if self.recovered:
            _fsync_dir(self.log_dir)  # segments deleted by recovery stay deleted
        self.end_offset = expected if self.spans else first
        self.durable_end = self.end_offset
        if not self.spans:
            # an empty first segment is kept open for appends at the log start
            for base in list(self._fds):
                if base != first:
                    os.close(self._fds.pop(base))
                    self._sizes.pop(base)
        if self._epoch_checkpoint_text() != self._read_epoch_checkpoint():
            self._write_epoch_checkpoint()
        if newest is not None and (
            newest.epoch > self.last_epoch
            or (newest.epoch == self.last_epoch and newest.offset > self.end_offset)
        ):
            self.recovered.append(
                f"the log now ends at offset {self.end_offset}, before the newest snapshot {newest.path.name}: "
                f"the snapshot is kept (it holds the state up to offset {newest.offset}) and the log starts "
                "again there, as Kafka's truncateToLatestSnapshot"
            )
            self.truncate_fully_and_start_at(newest)
        for offset, _epoch, path in self.snapshots():
            if offset > self.end_offset:
                self.recovered.append(f"{path.name}: beyond the log end {self.end_offset}; deleted")
                path.unlink()

    def _newest_whole_snapshot(self, log_start: int) -> SnapshotFile | None:
        """The newest snapshot that reads whole; newer damaged ones are set aside when the state can be
        rebuilt without them (an older whole snapshot at or past the log start, or the log from offset 0),
        else ReplicaError: reading one as the state would lose what it held."""
        damaged: list[tuple[SnapshotFile, str]] = []
        whole: SnapshotFile | None = None
        for snapshot in reversed(snapshot_files.snapshot_files(self.log_dir)):
            problem = snapshot_files.problem_of(snapshot.path)
            if problem is None:
                whole = snapshot
                break
            damaged.append((snapshot, problem))
        if damaged and log_start != 0 and (whole is None or whole.offset < log_start):
            snapshot, problem = damaged[-1]
            raise ReplicaError(
                f"{snapshot.path}: {problem}, and the log starts at offset {log_start}: without this snapshot "
                "the state before that offset cannot be rebuilt",
                hint="restore the file, or start a new sandbox in another --dir",
            )
        for snapshot, problem in damaged:
            aside = snapshot_files.set_aside(snapshot)
            instead = f"snapshot {whole.path.name}" if whole is not None else "the log from offset 0"
            self.recovered.append(
                f"{snapshot.path.name}: {problem}; set aside as {aside.name}, the state is rebuilt from {instead}"
            )
        return whole

    def _recover_segments(self, segments: list[int], first: int) -> int:
        """Check every batch of every segment, cutting at the first that fails; the end offset reached."""
        expected = first
        broken = False
        for base in segments:
            path = self.log_dir / segment_name(base)
            if broken or base != expected:
                if not broken:
                    self.recovered.append(f"{path.name}: starts at offset {base}, expected {expected}")
                broken = True
                path.unlink()
                continue
            data = path.read_bytes()
            position = 0
            while position < len(data):
                head = parse_batch(data, position)
                problem = None
                if head is None:
                    problem = "a torn or damaged batch"
                elif head.base != expected:
                    problem = f"offset {head.base} where {expected} was expected"
                elif head.epoch < self.last_epoch:
                    problem = f"epoch {head.epoch} after epoch {self.last_epoch}"
                if problem is not None or head is None:
                    self.recovered.append(
                        f"{path.name}: {problem} at byte {position}; {len(data) - position} bytes cut off"
                    )
                    broken = True
                    break
                self.spans.append(Span(head.base, head.last, head.epoch, base, position, head.size))
                self._bases.append(head.base)
                if head.epoch > self.last_epoch:
                    self.epochs.append((head.epoch, head.base))
                expected = head.last + 1
                position += head.size
            fd = os.open(path, os.O_RDWR)
            if position < len(data):
                os.ftruncate(fd, position)
                os.fsync(fd)
            self._fds[base] = fd
            self._sizes[base] = position
        return expected

    def _epoch_checkpoint_text(self) -> str:
        lines = ["0", str(len(self.epochs)), *(f"{epoch} {offset}" for epoch, offset in self.epochs)]
        return "\n".join(lines) + "\n"

    def _read_epoch_checkpoint(self) -> str | None:
        try:
            return (self.log_dir / EPOCH_CHECKPOINT).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None


MAX_FETCHES = 64  # divergence resolves in a few fetches; more means a bug, not a slow peer


def fetch(follower: ReplicaLog, leader: ReplicaLog, *, floor: int = 0) -> int | None:
    """The follower fetches from the leader until it holds the leader's log; the offset it truncated
    to when its log had diverged, else None.

    Each fetch carries the follower's log end and the epoch of its last batch. When the leader's
    log does not hold that (offset, epoch) (Kafka's validateOffsetAndEpoch), the leader answers
    with its end offset for that epoch and the follower truncates (truncateToEndOffset), never
    below `floor`, the high watermark it knows; otherwise it appends the leader's batches verbatim.
    """
    truncated: int | None = None
    for _ in range(MAX_FETCHES):
        if follower.end_offset < leader.start_offset:
            install_snapshot(follower, leader)  # what it lacks is no longer in the leader's log
            continue
        offset = follower.end_offset
        last_epoch = follower.last_epoch
        if offset > 0:
            epoch, end = leader.end_offset_for_epoch(last_epoch)
            if epoch != last_epoch or end < offset:
                truncated = truncate_to_end_offset(follower, epoch, end, floor=floor)
                continue
        data = leader.read_from(offset)
        if data:
            follower.append(data)
        return truncated
    raise ReplicaError(f"{follower.log_dir} did not converge on the leader's log")


def install_snapshot(follower: ReplicaLog, leader: ReplicaLog) -> None:
    """Give the follower the snapshot the leader's log starts from, and start its log there (FetchSnapshot)."""
    found = [s for s in snapshot_files.snapshot_files(leader.log_dir) if s.offset == leader.start_offset]
    if not found:
        raise ReplicaError(
            f"{leader.log_dir} starts at offset {leader.start_offset} but holds no snapshot there"
        )
    copied = snapshot_files.copy_into(found[-1], follower.log_dir)
    follower.truncate_fully_and_start_at(SnapshotFile(found[-1].offset, found[-1].epoch, copied))


def truncate_to_end_offset(follower: ReplicaLog, epoch: int, end: int, *, floor: int = 0) -> int:
    """Cut the follower back to where its log and the leader's agree (Kafka's truncateToEndOffset)."""
    if epoch == 0:
        target = min(end, follower.end_offset)
    else:
        local_epoch, local_end = follower.end_offset_for_epoch(epoch)
        target = min(local_end, end) if local_epoch == epoch else local_end
    return follower.truncate_to(target, floor=floor)


def _replace(path: Path, text: str) -> None:
    """Write `text` to `path` atomically and durably (temporary file, fsync, rename, fsync dir)."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)
    _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
