"""One replica of one partition: its directory `<topic>-<partition>` in a broker's log dir.

Behavior (as Kafka's UnifiedLog and LocalLog for one replica):
- The directory holds segments (kcli.sandbox.emulator.data.segment), partition.metadata with the
  topic id and leader-epoch-checkpoint. A replica nothing was written to has no directory yet: it is
  empty in memory (its leader epochs too) until its first write makes the directory, so reading the
  offsets of thousands of new partitions touches no disk.
- Opening recovers the log: segments past the recovery point are checked batch by batch (CRC,
  offsets, epochs) and cut at the first bad batch (a torn tail); later segments go. The earlier
  ones are only walked. The epoch cache is rebuilt from the batches (keeping an epoch the leader
  started with nothing written yet), the producer state and open transactions replayed from them.
- Appends take batches already numbered from the log end; a new segment starts when the active
  one would pass segment.bytes, or segment.ms after its first batch.
- `truncate_to` removes every batch whose last offset is at or past an offset (Kafka truncates
  whole batches) and replays the producer state; `advance_log_start` moves the log start and drops
  the segments wholly below it; `retain` deletes old segments by retention.ms and retention.bytes,
  never past the high watermark.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import os
import shutil
import time
import uuid
from pathlib import Path

from kcli.sandbox.emulator.data import checkpoints
from kcli.sandbox.emulator.data.producers import CompletedTxn, ProducerStates
from kcli.sandbox.emulator.data.records import BatchError, BatchHeader, marker_of, read_header
from kcli.sandbox.emulator.data.segment import AbortedTxn, Segment

log = logging.getLogger("kcli.sandbox")

DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024  # segment.bytes
DEFAULT_SEGMENT_MS = 7 * 24 * 3600 * 1000  # segment.ms


def partition_dir_name(topic: str, partition: int) -> str:
    return f"{topic}-{partition}"


class PartitionLog:
    """A replica's log, opened (and recovered) from its directory."""

    def __init__(
        self, directory: Path, topic_id: uuid.UUID, *, recovery_point: int = 0, log_start: int = 0
    ) -> None:
        self.directory = directory
        self.topic_id = topic_id
        self.segments: list[Segment] = []
        self.epochs: list[tuple[int, int]] = []  # (epoch, start offset), both ascending
        self.producers = ProducerStates()
        self.end_offset = 0
        self.log_start_offset = 0
        self.recovered: list[str] = []
        self.segment_bytes = (
            DEFAULT_SEGMENT_BYTES  # segment.bytes and segment.ms: the topic's, set by the owner
        )
        self.segment_ms = DEFAULT_SEGMENT_MS
        self.on_disk = directory.is_dir()
        if self.on_disk:
            if checkpoints.read_partition_metadata(directory) != topic_id:
                checkpoints.write_partition_metadata(directory, topic_id)
            self._open(recovery_point, log_start)
        else:
            self.segments.append(Segment(directory, 0))

    def ensure_on_disk(self) -> None:
        """Make the directory of a replica that had none: partition.metadata, an empty segment, its epochs."""
        if self.on_disk:
            return
        self.directory.mkdir(parents=True, exist_ok=True)
        checkpoints.write_partition_metadata(self.directory, self.topic_id)
        self.active.load(check=False, expected=self.end_offset, last_epoch=self.last_epoch)
        if self.epochs:
            checkpoints.write_epochs(self.directory, self.epochs)
        self.on_disk = True

    # ---------------------------------------------------------------- opening

    def _open(self, recovery_point: int, log_start: int) -> None:
        for leftover in (*self.directory.glob("*.tmp"), *self.directory.glob("*.deleted")):
            leftover.unlink(missing_ok=True)
        bases = sorted(
            int(p.name[:20])
            for p in self.directory.glob("*.log")
            if len(p.name) == 24 and p.name[:20].isdigit()
        )
        saved_epochs = checkpoints.read_epochs(self.directory)
        expected = bases[0] if bases else 0
        broken = False
        for index, base in enumerate(bases):
            segment = Segment(self.directory, base)
            if broken or base < expected:
                self.recovered.append(f"{segment.path.name}: after a cut at offset {expected}; deleted")
                segment.delete()
                continue
            following = bases[index + 1] if index + 1 < len(bases) else None
            check = following is None or following > recovery_point
            kept, problem = segment.load(check=check, expected=expected, last_epoch=self.last_epoch)
            for header in kept:
                self._replayed(segment, header)
            if kept:
                expected = kept[-1].last_offset + 1
            if problem is not None:
                self.recovered.append(f"{segment.path.name}: {problem}")
                broken = True
            if not kept and self.segments:
                segment.delete()  # an empty segment after others adds nothing
                continue
            self.segments.append(segment)
        if not self.segments:
            self.segments.append(Segment(self.directory, expected))
            self.segments[0].load(check=False, expected=expected, last_epoch=0)
        self.end_offset = max(expected, self.segments[-1].next_offset)
        self.log_start_offset = max(self.segments[0].base, min(log_start, self.end_offset))
        # an epoch the leader started without writing anything yet stays
        for epoch, start in saved_epochs:
            if epoch > self.last_epoch and start == self.end_offset:
                self.epochs.append((epoch, start))
        if saved_epochs != self.epochs:
            checkpoints.write_epochs(self.directory, self.epochs)

    def _replayed(self, segment: Segment, header: BatchHeader) -> CompletedTxn | None:
        if header.leader_epoch > self.last_epoch:
            self.epochs.append((header.leader_epoch, header.base_offset))
        marker = self._marker(segment, header) if header.is_control and header.producer_id >= 0 else None
        self.end_offset = header.last_offset + 1
        return self.producers.applied(header, marker)

    def _marker(self, segment: Segment, header: BatchHeader) -> tuple[int, int] | None:
        data = segment.read(header.position, header.position + header.size)
        try:
            return marker_of(data, read_header(data))
        except BatchError:
            return None

    # ---------------------------------------------------------------- facts

    @property
    def last_epoch(self) -> int:
        return self.epochs[-1][0] if self.epochs else -1

    @property
    def active(self) -> Segment:
        return self.segments[-1]

    @property
    def size_bytes(self) -> int:
        return sum(s.size for s in self.segments)

    def end_offset_for_epoch(self, epoch: int) -> tuple[int, int]:
        """(epoch, end offset) of the largest epoch <= `epoch` (Kafka's LeaderEpochFileCache.endOffsetFor):
        the log end for the latest epoch, the next epoch's start for an older one, (epoch, the first
        entry's start) below every entry, and (-1, -1) above every entry or for epoch -1."""
        if epoch < 0 or not self.epochs:
            return -1, -1
        if epoch == self.last_epoch:
            return epoch, self.end_offset
        index = bisect.bisect_right([e for e, _ in self.epochs], epoch)
        if index == len(self.epochs):
            return -1, -1
        if index == 0:
            return epoch, self.epochs[0][1]
        return self.epochs[index - 1][0], self.epochs[index][1]

    def epoch_at(self, offset: int) -> int:
        """The leader epoch of the record at `offset` (-1 before any epoch)."""
        index = bisect.bisect_right([start for _, start in self.epochs], offset) - 1
        return self.epochs[index][0] if index >= 0 else -1

    def assign_epoch(self, epoch: int) -> None:
        """A new leader's epoch starts at the log end (Kafka assigns it when the replica becomes leader)."""
        if epoch > self.last_epoch:
            self.epochs.append((epoch, self.end_offset))
            if self.on_disk:
                checkpoints.write_epochs(self.directory, self.epochs)

    def aborted_between(self, first: int, upper: int) -> list[AbortedTxn]:
        """Aborted transactions that overlap [first, upper): Kafka's collectAbortedTransactions."""
        return [
            txn
            for segment in self.segments
            for txn in segment.aborted
            if txn.last_offset >= first and txn.first_offset < upper
        ]

    # ---------------------------------------------------------------- appending

    def append(
        self, data: bytes | bytearray, headers: list[BatchHeader], *, now_ms: int | None = None
    ) -> list[CompletedTxn]:
        """Append numbered batches at the log end; the transactions their markers complete."""
        if not headers:
            return []
        if headers[0].base_offset != self.end_offset:
            raise ValueError(
                f"{self.directory}: batch at {headers[0].base_offset} does not follow {self.end_offset}"
            )
        self.ensure_on_disk()
        now = int(time.time() * 1000) if now_ms is None else now_ms
        segment = self.active
        if segment.size and (
            segment.size + len(data) > self.segment_bytes
            or (segment.first_timestamp >= 0 and now - segment.first_timestamp > self.segment_ms)
        ):
            segment = self._roll()
        segment.append(data, headers)
        epochs = len(self.epochs)
        completed: list[CompletedTxn] = []
        for header in headers:
            position = segment.size - len(data) + header.position
            moved = header._replace(position=position)
            done = self._replayed(segment, moved)
            if done is not None:
                completed.append(done)
                if done.aborted:
                    segment.add_aborted(
                        AbortedTxn(
                            done.producer_id, done.first_offset, done.last_offset, self.stable_after(done)
                        )
                    )
        if len(self.epochs) != epochs:
            checkpoints.write_epochs(self.directory, self.epochs)
        return completed

    def stable_after(self, done: CompletedTxn) -> int:
        """The last stable offset once `done` completed: the oldest other open transaction, else after it."""
        others = self.producers.open_transactions()
        return others[0][0] if others else done.last_offset + 1

    def _roll(self) -> Segment:
        self.active.seal()
        segment = Segment(self.directory, self.end_offset)
        segment.load(check=False, expected=self.end_offset, last_epoch=self.last_epoch)
        self.segments.append(segment)
        return segment

    # ---------------------------------------------------------------- reading

    def _segment_of(self, offset: int) -> int:
        return max(bisect.bisect_right([s.base for s in self.segments], offset) - 1, 0)

    def read(self, offset: int, max_bytes: int, upper: int) -> bytes:
        """Whole batches from the one holding `offset`, below `upper`, at most `max_bytes` (at least one
        batch), from one segment (as Kafka reads)."""
        if offset >= upper:
            return b""
        for segment in self.segments[self._segment_of(offset) :]:
            header = segment.find(offset)
            if header is None:
                continue
            if header.base_offset >= upper:
                return b""
            headers = [h for h in segment.batches_from(header.position, max_bytes) if h.base_offset < upper]
            if not headers:
                return b""
            return segment.read(headers[0].position, headers[-1].position + headers[-1].size)
        return b""

    def batch_at(self, offset: int) -> tuple[bytes, BatchHeader] | None:
        """The bytes and header of the batch holding `offset`."""
        for segment in self.segments[self._segment_of(offset) :]:
            header = segment.find(offset)
            if header is not None:
                return segment.read(header.position, header.position + header.size), header._replace(
                    position=0
                )
        return None

    def first_batch_at_time(self, timestamp: int) -> tuple[bytes, BatchHeader] | None:
        """The first batch whose max timestamp is at or past `timestamp`."""
        for segment in self.segments:
            if segment.max_timestamp < timestamp:
                continue
            header = segment.find_time(timestamp)
            if header is not None:
                return segment.read(header.position, header.position + header.size), header._replace(
                    position=0
                )
        return None

    def max_timestamp(self) -> tuple[int, int]:
        """(timestamp, offset of the batch holding it) of the largest timestamp in the log; (-1, -1) if empty."""
        best = (-1, -1)
        for segment in self.segments:
            if segment.max_timestamp > best[0]:
                best = (segment.max_timestamp, segment.offset_of_max_timestamp)
        return best

    # ---------------------------------------------------------------- cutting

    def truncate_to(self, offset: int) -> int:
        """Remove every batch whose last offset is at or past `offset`; the new end offset."""
        if offset >= self.end_offset:
            return self.end_offset
        while len(self.segments) > 1 and self.active.base >= offset:
            self.segments.pop().delete()
        header = self.active.find(offset)
        if header is not None:
            self.active.truncate_at(header)
        self.end_offset = self.active.next_offset if self.active.size else self.active.base
        self.log_start_offset = min(self.log_start_offset, self.end_offset)
        kept = [(e, s) for e, s in self.epochs if s < self.end_offset]
        if kept != self.epochs:
            self.epochs = kept
            checkpoints.write_epochs(self.directory, self.epochs)
        self._replay_producers()
        return self.end_offset

    def append_replicated(self, data: bytes | bytearray, headers: list[BatchHeader]) -> None:
        """A follower appends its leader's batches verbatim (positions relative to `data`)."""
        self.append(data, headers)

    def start_over_at(self, offset: int) -> None:
        """Drop everything and continue empty from `offset` (Kafka's truncateFullyAndStartAt)."""
        self.ensure_on_disk()
        for segment in self.segments:
            segment.delete()
        self.segments = [Segment(self.directory, offset)]
        self.segments[0].load(check=False, expected=offset, last_epoch=-1)
        self.end_offset = self.log_start_offset = offset
        self.epochs = []
        checkpoints.write_epochs(self.directory, self.epochs)
        self.producers.truncated()

    def _replay_producers(self) -> None:
        self.producers.truncated()
        for segment in self.segments:
            position = 0
            while position < segment.size:
                header = segment.header_at(position)
                marker = (
                    self._marker(segment, header) if header.is_control and header.producer_id >= 0 else None
                )
                self.producers.applied(header, marker)
                position += header.size

    def advance_log_start(self, offset: int) -> bool:
        """Move the log start to `offset` (DeleteRecords); True when it moved."""
        offset = min(offset, self.end_offset)
        if offset <= self.log_start_offset:
            return False
        self.log_start_offset = offset
        self._drop_below(offset)
        return True

    def _drop_below(self, offset: int) -> None:
        """Delete the segments whose every batch is below `offset` (the active one is rolled first)."""
        if self.active.base < offset and self.active.next_offset <= offset and self.active.size:
            self._roll()
        while len(self.segments) > 1 and self.segments[1].base <= offset:
            self.segments.pop(0).delete()

    def retain(self, *, now_ms: int, retention_ms: int, retention_bytes: int, high_watermark: int) -> int:
        """Delete old segments by time and size (below the high watermark); bytes deleted."""
        deleted = 0
        total = self.size_bytes
        while len(self.segments) > 1 or (self.active.size and self.active.next_offset <= high_watermark):
            oldest = self.segments[0]
            if oldest.next_offset > high_watermark or not oldest.size:
                break
            expired = (
                retention_ms >= 0
                and oldest.max_timestamp >= 0
                and now_ms - oldest.max_timestamp > retention_ms
            )
            oversized = retention_bytes >= 0 and total - oldest.size >= retention_bytes
            if not (expired or oversized):
                break
            if len(self.segments) == 1:
                self._roll()
            self.segments.pop(0)
            total -= oldest.size
            deleted += oldest.size
            oldest.delete()
            self.log_start_offset = max(self.log_start_offset, self.segments[0].base)
        return deleted

    # ---------------------------------------------------------------- closing

    def sync(self) -> None:
        if not self.on_disk:
            return
        for segment in self.segments:
            segment.sync()

    def close(self) -> None:
        if not self.on_disk:
            return
        with contextlib.suppress(OSError):
            self.sync()
        for segment in self.segments:
            segment.close()

    def delete(self) -> None:
        """Close and remove the replica's directory (renamed first, so a crash leaves no half-deleted log)."""
        self.close()
        doomed = self.directory.with_name(f"{self.directory.name}.{uuid.uuid4().hex}-delete")
        try:
            os.replace(self.directory, doomed)
        except OSError:
            doomed = self.directory
        shutil.rmtree(doomed, ignore_errors=True)
