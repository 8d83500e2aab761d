"""What reading a metadata log produces: batches, entries, statistics, the errors, and the
RecordBatch v2 constants the reader and the framing share (see kcli.metadata.reader)."""

from __future__ import annotations

import re
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from kcli.crc import crc32c
from kcli.errors import DecodeError as DecodeError  # the reader's errors: kcli.errors' DecodeError family

_BATCH = struct.Struct(">qiibIhiqqqhii")
BATCH_OVERHEAD = 61
CONTROL_FLAG = 0x20
NOOP_VALUE = b"\x01\x14\x00\x00"
# A whole record holding NoOpRecord at offset delta 0, timestamp delta 0: length 10, attributes 0,
# deltas 0, null key, value of 4 bytes, no headers.
NOOP_RECORD = b"\x14\x00\x00\x00\x01\x08" + NOOP_VALUE + b"\x00"
# A NoOpRecord batch as KRaft writes it: base offset, length 60, epoch, magic 2, CRC, attributes and
# last offset delta 0, base and max timestamps, producer id/epoch/sequence -1, one record.
_NOOP_LENGTH = (60).to_bytes(4, "big")
_NOOP_TAIL = b"\xff" * 14 + (1).to_bytes(4, "big") + NOOP_RECORD
_NOOP_RUN = re.compile(
    b"(?:.{8}" + re.escape(_NOOP_LENGTH) + b".{4}\x02.{4}\x00{6}.{16}" + re.escape(_NOOP_TAIL) + b"){1,4096}",
    re.S,
)
# -> (base offset, epoch, CRC, base timestamp) of each batch of a run
_NOOP_HEADS = struct.Struct(">q4xi1xI6xq8x29x")


def noop_run_heads(buf: bytes, view: memoryview, pos: int) -> list[tuple[int, int, int, int]]:
    """(base offset, epoch, CRC, base timestamp) of each batch in the run of one-NoOpRecord batches
    at `pos`, up to the first whose CRC-32C does not hold ([] when none is there or the first is bad)."""
    run = _NOOP_RUN.match(buf, pos)
    if run is None:
        return []
    run_end = run.end()
    heads = list(_NOOP_HEADS.iter_unpack(view[pos:run_end]))
    crcs = list(map(crc32c, [view[at + 21 : at + 72] for at in range(pos, run_end, 72)]))
    if crcs != [head[2] for head in heads]:
        del heads[next(i for i, (head, crc) in enumerate(zip(heads, crcs, strict=True)) if head[2] != crc) :]
    return heads


# Bytes read from a file at a time; a batch is always whole in one window.
WINDOW_BYTES = 8 * 1024 * 1024


class Batch(NamedTuple):
    """The header of one RecordBatch v2 and where its records are (`records_start` in `data`)."""

    base_offset: int
    length: int
    epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int
    position: int

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_FLAG)

    @property
    def compression(self) -> int:
        return self.attributes & 0x07

    @property
    def size(self) -> int:
        return self.length + 12


class Entry(NamedTuple):
    """One record: where it sits in the log, what kind it is, and its decoded body.

    `key` is the metadata api key (data records) or the control type (control records).
    """

    offset: int
    epoch: int
    timestamp: int
    control: bool
    key: int
    version: int
    record: Any


class BatchSpan(NamedTuple):
    """One checked batch: where its records are (`area[start:end]`, inflated when compressed).

    `shift` is added to positions in `area` to name file positions (non-zero when inflated).
    `area` None stands for a run of the idle controller's batches of one NoOpRecord: `noops` holds
    their (offset, epoch, CRC, timestamp) and `record_count` their number.
    """

    base_offset: int
    epoch: int
    base_timestamp: int
    record_count: int
    control: bool
    area: Any
    start: int
    end: int
    shift: int
    noops: list[tuple[int, int, int, int]] | None = None


# BatchSpan(...) runs a Python-level __new__; tuple.__new__ builds the same value in C.
_span: Callable[[type[BatchSpan], tuple[Any, ...]], BatchSpan] = tuple.__new__  # type: ignore[assignment]


@dataclass(frozen=True, slots=True, kw_only=True)
class RawRecord:
    """A record kept as bytes: unknown type or version, or (with skip_corrupt) a body that failed."""

    key: int
    version: int
    control: bool
    data: bytes
    reason: str


@dataclass(slots=True, kw_only=True)
class ReadStats:
    """What a read saw besides the records: counts for the /local node and the exit code."""

    files: list[str] = field(default_factory=list)
    batches: int = 0
    records: int = 0
    unknown: int = 0
    skipped_records: int = 0
    skipped_batches: int = 0
    skipped_bytes: int = 0
    problems: list[str] = field(default_factory=list)
    # batches that break Kafka's log invariants (read anyway): "file: what, where"
    warnings: list[str] = field(default_factory=list)
    # bytes of a batch still being written at the end of the last segment (the end of the data)
    partial_tail_bytes: int = 0

    @property
    def skipped(self) -> bool:
        return bool(self.skipped_records or self.skipped_batches or self.skipped_bytes)
