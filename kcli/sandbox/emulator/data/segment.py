"""One log segment of a partition replica: `<base>.log` and its `.index`, `.timeindex` and `.txnindex`.

Behavior (as Kafka's LogSegment):
- The .log file holds whole RecordBatch v2 batches back to back, exactly as appended.
- The offset index (8-byte entries: offset relative to the base, byte position) gets an entry for
  a batch once more than index.interval.bytes were written since the last entry: the batch's last
  offset and the position the batch starts at. A lookup takes the last entry at or below an offset
  and walks the batch headers from there.
- The time index (12-byte entries: timestamp, relative offset) gets, with each offset index entry,
  the largest timestamp so far and the last offset of the batch that holds it, when it grew; one
  more when the segment stops being the active one.
- The transaction index holds the aborted transactions whose marker is in this segment (AbortedTxn
  v0: version, producer id, first offset, last offset, last stable offset; 34 bytes each).
- Opening scans the batch headers; `recover` checks every batch (whole, v2, CRC, offsets going up)
  and cuts the file at the first that fails, as Kafka's recovery truncates a torn tail. The indexes
  are rebuilt from the batches in both cases, so they always agree with the .log file.
- The indexes live in memory and are written whole when they changed: at a roll, a sync, a close
  and each checkpoint (a crash loses only index entries, which the next open rebuilds). At most
  OPEN_FILES .log files are open at once across every replica (least recently used closed first),
  so thousands of partitions stay within the process's file limit.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import struct
from array import array
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

from kcli.sandbox.emulator.data.records import HEADER, HEADER_BYTES, BatchError, BatchHeader, read_header

INDEX_INTERVAL_BYTES = 4096  # index.interval.bytes
_INDEX_ENTRY = struct.Struct(">ii")
_TIME_ENTRY = struct.Struct(">qi")
ABORTED_TXN = struct.Struct(">hqqqq")  # AbortedTxn v0 with its version prefix
_SCAN_CHUNK = 1 << 16


OPEN_FILES = 2048


class _OpenFiles:
    """The .log files kept open, least recently used first; older ones are closed to make room."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._fds: OrderedDict[Path, int] = OrderedDict()

    def fd(self, path: Path) -> int:
        fd = self._fds.get(path)
        if fd is not None:
            self._fds.move_to_end(path)
            return fd
        while len(self._fds) >= self.limit:
            _, oldest = self._fds.popitem(last=False)
            with contextlib.suppress(OSError):
                os.close(oldest)
        fd = self._fds[path] = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        return fd

    def opened(self, path: Path) -> int | None:
        return self._fds.get(path)

    def close(self, path: Path) -> None:
        fd = self._fds.pop(path, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


FILES = _OpenFiles(OPEN_FILES)


def file_name(base: int, suffix: str) -> str:
    return f"{base:020d}{suffix}"


@dataclass(frozen=True, slots=True)
class AbortedTxn:
    """An aborted transaction of the transaction index."""

    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


class Segment:
    """One segment: the open .log file, its indexes in memory and on disk."""

    def __init__(self, directory: Path, base: int) -> None:
        self.directory = directory
        self.base = base
        self.path = directory / file_name(base, ".log")  # made when first opened (`fd`)
        self.size = 0
        self.next_offset = base  # the offset after this segment's last batch
        self.index_offsets = array("q")  # absolute last offsets of indexed batches
        self.index_positions = array("q")
        self.time_stamps = array("q")
        self.time_offsets = array("q")
        self.max_timestamp = -1
        self.offset_of_max_timestamp = -1
        self.first_timestamp = -1  # of the first batch (segment.ms counts from it)
        self.aborted: list[AbortedTxn] = []
        self._since_index = 0
        self._indexes_dirty = True
        self._txn_path = directory / file_name(base, ".txnindex")

    @property
    def fd(self) -> int:
        return FILES.fd(self.path)

    # ---------------------------------------------------------------- opening

    def load(self, *, check: bool, expected: int, last_epoch: int) -> tuple[list[BatchHeader], str | None]:
        """Scan the file's batches (with `check`: CRC and offsets too) and rebuild the indexes.

        Returns the batches kept and, when the scan cut the file, what was wrong. A batch must start
        at `expected` or later, and its epoch may not go below `last_epoch`.
        """
        length = os.fstat(self.fd).st_size
        kept: list[BatchHeader] = []
        problem: str | None = None
        position = 0
        if length:
            with mmap.mmap(self.fd, length, access=mmap.ACCESS_READ) as data:
                while position < length:
                    try:
                        header = read_header(data, position, check_crc=check)
                    except BatchError as error:
                        problem = str(error)
                        break
                    if header.base_offset < expected:
                        problem = f"offset {header.base_offset} at byte {position} where {expected} or more was expected"
                        break
                    if header.leader_epoch < last_epoch and header.leader_epoch >= 0 and check:
                        problem = f"epoch {header.leader_epoch} at byte {position} after epoch {last_epoch}"
                        break
                    kept.append(header)
                    expected = header.last_offset + 1
                    last_epoch = max(last_epoch, header.leader_epoch)
                    position += header.size
        if position < length:
            os.ftruncate(self.fd, position)
            problem = f"{problem}; {length - position} bytes cut off"
        self._reset_indexes()
        for header in kept:
            self._indexed(header, header.position)
        self.size = position
        self._indexes_dirty = True
        self.write_indexes()
        self.aborted = self._read_txn_index()
        return kept, problem

    def _reset_indexes(self) -> None:
        self.index_offsets, self.index_positions = array("q"), array("q")
        self.time_stamps, self.time_offsets = array("q"), array("q")
        self.max_timestamp = self.offset_of_max_timestamp = self.first_timestamp = -1
        self._since_index = 0
        self.next_offset = self.base

    def write_indexes(self) -> None:
        """Write .index and .timeindex whole, when they changed since they were last written."""
        if not self._indexes_dirty:
            return
        index = b"".join(
            _INDEX_ENTRY.pack(o - self.base, p)
            for o, p in zip(self.index_offsets, self.index_positions, strict=True)
        )
        times = b"".join(
            _TIME_ENTRY.pack(t, o - self.base)
            for t, o in zip(self.time_stamps, self.time_offsets, strict=True)
        )
        for suffix, content in ((".index", index), (".timeindex", times)):
            (self.directory / file_name(self.base, suffix)).write_bytes(content)
        self._indexes_dirty = False

    def _read_txn_index(self) -> list[AbortedTxn]:
        try:
            data = self._txn_path.read_bytes()
        except FileNotFoundError:
            return []
        out = []
        for start in range(0, len(data) - ABORTED_TXN.size + 1, ABORTED_TXN.size):
            version, producer_id, first, last, stable = ABORTED_TXN.unpack_from(data, start)
            if version == 0 and last < self.next_offset:
                out.append(AbortedTxn(producer_id, first, last, stable))
        return out

    # ---------------------------------------------------------------- appending

    def append(self, data: bytes | bytearray, headers: list[BatchHeader]) -> None:
        """Write whole batches (already numbered) at the end of the file and index them."""
        written = os.pwrite(self.fd, data, self.size)
        if written != len(data):
            raise OSError(f"short write to {self.path}")
        start = self.size
        entries = len(self.index_offsets)
        for header in headers:
            self._indexed(header, start + header.position)
        self.size += len(data)
        if len(self.index_offsets) != entries:
            self._indexes_dirty = True

    def _indexed(self, header: BatchHeader, position: int) -> None:
        if self.first_timestamp < 0:
            self.first_timestamp = header.max_timestamp
        if header.max_timestamp > self.max_timestamp:
            self.max_timestamp = header.max_timestamp
            self.offset_of_max_timestamp = header.last_offset
        if self._since_index > INDEX_INTERVAL_BYTES:
            self.index_offsets.append(header.last_offset)
            self.index_positions.append(position)
            self._maybe_time_entry(self.max_timestamp, self.offset_of_max_timestamp)
            self._since_index = 0
        self._since_index += header.size
        self.next_offset = header.last_offset + 1

    def _maybe_time_entry(self, timestamp: int, offset: int) -> None:
        if timestamp >= 0 and (not self.time_stamps or timestamp > self.time_stamps[-1]):
            self.time_stamps.append(timestamp)
            self.time_offsets.append(offset)

    def add_aborted(self, txn: AbortedTxn) -> None:
        """Record an aborted transaction whose marker this segment holds."""
        self.aborted.append(txn)
        with open(self._txn_path, "ab") as out:
            out.write(
                ABORTED_TXN.pack(
                    0, txn.producer_id, txn.first_offset, txn.last_offset, txn.last_stable_offset
                )
            )

    def seal(self) -> None:
        """No longer the active segment: the time index gets the segment's largest timestamp."""
        before = len(self.time_stamps)
        self._maybe_time_entry(self.max_timestamp, self.offset_of_max_timestamp)
        self._indexes_dirty = self._indexes_dirty or len(self.time_stamps) != before
        self.write_indexes()

    # ---------------------------------------------------------------- reading

    def header_at(self, position: int) -> BatchHeader:
        data = os.pread(self.fd, HEADER_BYTES, position)
        if len(data) < HEADER_BYTES:
            raise BatchError(f"{self.path}: a torn batch header at byte {position}")
        return BatchHeader._make((*HEADER.unpack(data), position))

    def find(self, offset: int) -> BatchHeader | None:
        """The first batch whose last offset is at or past `offset` (None when there is none)."""
        import bisect

        slot = bisect.bisect_right(self.index_offsets, offset) - 1
        position = self.index_positions[slot] if slot >= 0 else 0
        while position < self.size:
            header = self.header_at(position)
            if header.last_offset >= offset:
                return header
            position += header.size
        return None

    def find_time(self, timestamp: int) -> BatchHeader | None:
        """The first batch whose max timestamp is at or past `timestamp` (None when there is none)."""
        import bisect

        slot = bisect.bisect_right(self.time_stamps, timestamp - 1) - 1
        start = self.time_offsets[slot] if slot >= 0 else self.base
        header = self.find(start)
        while header is not None:
            if header.max_timestamp >= timestamp:
                return header
            position = header.position + header.size
            header = self.header_at(position) if position < self.size else None
        return None

    def read(self, position: int, end: int) -> bytes:
        data = os.pread(self.fd, end - position, position)
        if len(data) != end - position:
            raise OSError(f"{self.path} is shorter than its batches")
        return data

    def batches_from(self, position: int, limit: int) -> list[BatchHeader]:
        """The headers of the batches from `position`, up to `limit` bytes of them (at least one)."""
        out: list[BatchHeader] = []
        total = 0
        while position < self.size:
            header = self.header_at(position)
            if out and total + header.size > limit:
                break
            out.append(header)
            total += header.size
            position += header.size
        return out

    # ---------------------------------------------------------------- cutting and closing

    def truncate_at(self, header: BatchHeader) -> None:
        """Cut this segment before `header`'s batch (it and everything after it go)."""
        os.ftruncate(self.fd, header.position)
        self.size = header.position
        keep = [i for i, o in enumerate(self.index_offsets) if self.index_positions[i] < header.position]
        self.index_offsets = array("q", (self.index_offsets[i] for i in keep))
        self.index_positions = array("q", (self.index_positions[i] for i in keep))
        times = [i for i, o in enumerate(self.time_offsets) if o < header.base_offset]
        self.time_stamps = array("q", (self.time_stamps[i] for i in times))
        self.time_offsets = array("q", (self.time_offsets[i] for i in times))
        self.next_offset = header.base_offset
        self._indexes_dirty = True
        self.write_indexes()
        self.aborted = [t for t in self.aborted if t.last_offset < header.base_offset]
        self._rewrite_txn_index()
        self._rescan_tail()

    def _rescan_tail(self) -> None:
        """After a cut: the largest timestamp and the index interval from what is left."""
        self.max_timestamp = self.offset_of_max_timestamp = -1
        position = self.index_positions[-1] if self.index_positions else 0
        if self.time_stamps:
            self.max_timestamp, self.offset_of_max_timestamp = self.time_stamps[-1], self.time_offsets[-1]
        self._since_index = 0
        while position < self.size:
            header = self.header_at(position)
            if header.max_timestamp > self.max_timestamp:
                self.max_timestamp, self.offset_of_max_timestamp = header.max_timestamp, header.last_offset
            self._since_index += header.size
            position += header.size
        if self.size == 0:
            self.first_timestamp = -1

    def _rewrite_txn_index(self) -> None:
        if not self.aborted:
            self._txn_path.unlink(missing_ok=True)
            return
        self._txn_path.write_bytes(
            b"".join(
                ABORTED_TXN.pack(0, t.producer_id, t.first_offset, t.last_offset, t.last_stable_offset)
                for t in self.aborted
            )
        )

    def sync(self) -> None:
        self.write_indexes()
        fd = FILES.opened(self.path)
        if fd is not None:
            os.fsync(fd)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.write_indexes()
        FILES.close(self.path)

    def delete(self) -> None:
        """Close and remove every file of this segment."""
        self.close()
        for suffix in (".log", ".index", ".timeindex", ".txnindex", ".snapshot"):
            (self.directory / file_name(self.base, suffix)).unlink(missing_ok=True)
