"""Read RecordBatch v2 files (log segments, snapshots, bootstrap.checkpoint) into metadata records.

The read model is kept apart from the writer's: batches and entries are NamedTuples because a log
holds millions of them and tuple construction is several times cheaper than a frozen dataclass.

Behavior:
- Every batch is checked: magic 2, CRC-32C over bytes [21, end), length inside the file, records
  parsing exactly to the batch end, offsets contiguous inside the batch.
- Compressed batches (gzip, snappy raw or xerial-framed, lz4 frame, zstd) are inflated with cramjam.
- Data record values are framed metadata records; control records are decoded by control type.
- Unknown api keys or versions become `RawRecord`s (counted in `ReadStats.unknown`), never errors.
- A record whose body does not parse, or a corrupt batch, raises `DecodeError` naming the file, the
  byte position and the last good offset; with `skip_corrupt` it is counted in `ReadStats` and
  reading goes on (a batch with a readable length is skipped whole; otherwise the rest of the file).
- A file ending in zeros (pre-allocated) ends cleanly; a torn batch at the end is corruption.
- Files are read in windows of a few MiB (a batch larger than a window gets one of its own), so a
  reader's memory does not grow with the file.
- A log that breaks Kafka's invariants (a batch at offsets already read: two records at one
  offset, offsets not increasing; a leader epoch lower than the one before) is read on, and each
  such batch adds a warning naming the file, the byte and the offsets to `ReadStats.warnings`.

Records are framed in one place, `frame_records`, for every kind of file (segments, snapshots,
compressed or not) and every batch size; `FileReader.scan` hands each framed record to a
`RecordSink`, whose table of fast handlers (keyed by the record's frame header: frame version,
api key, version) decides per record type whether to decode it cheaply, skip it after reading
that header, or leave it to the general decoder (`FileReader.entry_at`, kio's readers).
"""

from __future__ import annotations

import functools
import itertools
import os
import re
import struct
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, NamedTuple, Protocol

from crc32c import crc32c

from kcli.errors import KcliError
from kcli.metadata.codec import control_body_reader, metadata_body_reader

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
# Bytes read from a file at a time; a batch is always whole in one window.
WINDOW_BYTES = 8 * 1024 * 1024


class DecodeError(KcliError):
    """Input that is not a valid metadata log: says which file, at which byte, after which offset."""

    def __init__(self, message: str, *, file: str, position: int, last_good_offset: int | None) -> None:
        self.file = file
        self.position = position
        self.last_good_offset = last_good_offset
        last = "none" if last_good_offset is None else str(last_good_offset)
        super().__init__(
            f"{file}: {message} at byte {position} (last good offset {last})",
            hint="--skip-corrupt reads on past it",
        )


class CorruptData(Exception):
    """A problem found by the pure readers, before the file name is known (wrapped in DecodeError)."""

    def __init__(self, message: str, position: int, offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.position = position
        self.offset = offset


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

    @property
    def skipped(self) -> bool:
        return bool(self.skipped_records or self.skipped_batches or self.skipped_bytes)


# -- pure readers: (buffer, offset) -> (value, consumed) ---------------------------------------------


def read_uvarint(buf: Any, pos: int) -> tuple[int, int]:
    """Unsigned LEB128 at `pos` -> (value, bytes consumed)."""
    result = 0
    shift = 0
    start = pos
    while True:
        try:
            byte = buf[pos]
        except IndexError:
            raise CorruptData("varint runs past the end of the data", start) from None
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos - start
        shift += 7
        if shift > 63:
            raise CorruptData("varint longer than 10 bytes", start)


def read_varint(buf: Any, pos: int) -> tuple[int, int]:
    """Zig-zag signed varint/varlong -> (value, bytes consumed)."""
    raw, size = read_uvarint(buf, pos)
    return (raw >> 1) ^ -(raw & 1), size


def read_batch(buf: Any, pos: int) -> tuple[Batch, int]:
    """Check and parse the batch header at `pos`; the records are left where they are.

    Raises CorruptData for a short, oversized, non-v2 or CRC-failing batch.
    """
    end_of_data = len(buf)
    if pos + BATCH_OVERHEAD > end_of_data:
        raise CorruptData(f"truncated batch header ({end_of_data - pos} bytes left)", pos)
    header = _BATCH.unpack_from(buf, pos)
    length = header[1]
    if header[3] != 2:
        raise CorruptData(f"unsupported batch magic {header[3]}", pos)
    if length < BATCH_OVERHEAD - 12:
        raise CorruptData(f"impossible batch length {length}", pos)
    end = pos + 12 + length
    if end > end_of_data:
        raise CorruptData(f"truncated batch: length {length} but {end_of_data - pos - 12} bytes left", pos)
    if crc32c(buf[pos + 21 : end]) != header[4]:
        raise CorruptData("CRC-32C mismatch", pos)
    return Batch._make((*header, pos)), 12 + length


def batch_records_area(buf: Any, batch: Batch) -> tuple[Any, int, int]:
    """(buffer, start, end) of the records, inflated when the batch is compressed."""
    start = batch.position + BATCH_OVERHEAD
    end = batch.position + batch.size
    codec = batch.compression
    if codec == 0:
        return buf, start, end
    data = decompress(codec, bytes(buf[start:end]), batch.position)
    return data, 0, len(data)


def decompress(codec: int, data: bytes, position: int) -> bytes:
    """Inflate a compressed records area (Kafka codec ids 1-4)."""
    import cramjam

    try:
        if codec == 1:
            return bytes(cramjam.gzip.decompress(data))
        if codec == 2:
            return _snappy(data)
        if codec == 3:
            return bytes(cramjam.lz4.decompress(data))
        if codec == 4:
            return bytes(cramjam.zstd.decompress(data))
    except CorruptData:
        raise
    except Exception as error:  # cramjam raises its own DecompressionError types
        raise CorruptData(f"cannot decompress batch (codec {codec}): {error}", position) from None
    raise CorruptData(f"unknown compression codec {codec}", position)


def _snappy(data: bytes) -> bytes:
    import cramjam

    # The Java client writes xerial SnappyOutputStream framing; librdkafka may write raw snappy.
    if not data.startswith(b"\x82SNAPPY\x00"):
        return bytes(cramjam.snappy.decompress_raw(data))
    pos = 16
    out = bytearray()
    while pos < len(data):
        if pos + 4 > len(data):
            raise CorruptData("truncated xerial snappy chunk", 0)
        (size,) = struct.unpack_from(">i", data, pos)
        pos += 4
        if size < 0 or pos + size > len(data):
            raise CorruptData("bad xerial snappy chunk length", 0)
        out += bytes(cramjam.snappy.decompress_raw(data[pos : pos + size]))
        pos += size
    return bytes(out)


BodyDecoder = Callable[[int, int, bool, Any, int, int], Any]


def decode_value(key: int, version: int, control: bool, buf: Any, start: int, end: int) -> Any:
    """Decode one record body in buf[start:end]: the record class instance, or a RawRecord if unknown.

    Raises CorruptData when a known type does not parse or leaves bytes over.
    """
    reader = control_body_reader(key, version) if control else metadata_body_reader(key, version)
    if reader is None:
        what = "control type" if control else "record type"
        return RawRecord(
            key=key,
            version=version,
            control=control,
            data=bytes(buf[start:end]),
            reason=f"unknown {what} {key} v{version}",
        )
    try:
        value, size = reader(buf, start)
    except Exception as error:  # kio raises BufferUnderflow, UnexpectedNull, UnicodeDecodeError, ...
        raise CorruptData(
            f"cannot decode {_name(key, control)} v{version}: {type(error).__name__}: {error}", start
        ) from None
    if start + size != end:
        over = end - start - size
        detail = f"leaves {over} bytes over" if over > 0 else f"runs {-over} bytes past the record"
        raise CorruptData(f"{_name(key, control)} v{version} {detail}", start)
    return value


def _name(key: int, control: bool) -> str:
    from kcli.metadata.records import CONTROL_TYPE_NAMES, RECORD_NAMES

    return CONTROL_TYPE_NAMES.get(key, str(key)) if control else RECORD_NAMES.get(key, f"record type {key}")


# -- framing: the one place records are cut out of a batch -----------------------------------------


_HEADER_CACHE_LIMIT = 1 << 17
_PLAIN_HEADERS: list[bytes] = []


def _plain_headers(count: int) -> list[bytes]:
    """Attributes 0, timestamp delta 0, offset delta i, null key: the bytes KRaft writes before the
    value of record i, for i < count (cached up to a bound; larger batches frame the rest generally)."""
    wanted = min(count, _HEADER_CACHE_LIMIT)
    if len(_PLAIN_HEADERS) < wanted:
        # the zig-zag offset delta 2i as a varint: 1 byte below 64, 2 below 8192, 3 below 2**20
        _PLAIN_HEADERS.extend(
            bytes((0, 0, 2 * i, 1))
            if i < 64
            else bytes((0, 0, (2 * i & 0x7F) | 0x80, 2 * i >> 7, 1))
            if i < 8192
            else bytes((0, 0, (2 * i & 0x7F) | 0x80, (2 * i >> 7 & 0x7F) | 0x80, 2 * i >> 14, 1))
            for i in range(len(_PLAIN_HEADERS), wanted)
        )
    return _PLAIN_HEADERS


def frame_record(
    area: Any, rpos: int, end: int, index: int, count: int, shift: int
) -> tuple[int, int, int, int, int, int]:
    """The general record framing at `rpos` -> (timestamp delta, key start, key length, value start,
    value length, record end); CorruptData when the record does not parse."""
    record_start = rpos
    b = area[rpos] if rpos < end else -1
    if 0 <= b < 0x80:
        rlength = (b >> 1) ^ -(b & 1)
        rpos += 1
    elif b < 0:
        raise CorruptData(f"batch ends before record {index + 1} of {count}", shift + rpos)
    else:
        rlength, used = read_varint(area, rpos)
        rpos += used
    record_end = rpos + rlength
    if rlength < 6 or record_end > end:
        raise CorruptData(f"bad record length {rlength}", shift + record_start)
    rpos += 1  # attributes
    ts_delta, used = read_varint(area, rpos)
    rpos += used
    offset_delta, used = read_varint(area, rpos)
    rpos += used
    if offset_delta != index:
        raise CorruptData(f"record offset delta {offset_delta}, expected {index}", shift + record_start)
    key_length, used = read_varint(area, rpos)
    rpos += used
    key_start = rpos
    if key_length > 0:
        rpos += key_length
    if rpos >= record_end:
        raise CorruptData("record key overruns the record", shift + record_start)
    value_length, used = read_varint(area, rpos)
    rpos += used
    value_start = rpos
    if value_length > 0:
        rpos += value_length
    if rpos + 1 != record_end or area[rpos] != 0:
        _skip_headers(area, rpos, record_end, shift + record_start)
    return ts_delta, key_start, key_length, value_start, value_length, record_end


def _skip_headers(area: Any, pos: int, record_end: int, position: int) -> int:
    """Step over a record's headers (KRaft writes none); the record must end exactly after them."""
    if pos >= record_end:
        raise CorruptData("record fields overrun the record length", position)
    count, used = read_varint(area, pos)
    pos += used
    if count < 0:
        raise CorruptData(f"negative header count {count}", position)
    for _ in range(count):
        for _part in range(2):
            size, used = read_varint(area, pos)
            pos += used + max(size, 0)
    if pos != record_end:
        raise CorruptData("record fields do not add up to the record length", position)
    return pos


# Records unpacked at once in a run (bounds a run's memory and how far it looks ahead).
RUN_LIMIT = 256


# The offset deltas of a run, a column at a time: for a delta of `width` bytes (records 0-63: 1,
# 64-8191: 2, 8192 on: 3), byte k of record i's delta is _DELTA_COLUMNS[width][k][i - first of width].
_DELTA_FIRST = {1: 0, 2: 64, 3: 8192}
_DELTA_COLUMNS: dict[int, list[bytes]] = {}


def _delta_columns(width: int) -> list[bytes]:
    columns = _DELTA_COLUMNS.get(width)
    if columns is None:
        first, end = _DELTA_FIRST[width], {1: 64, 2: 8192, 3: _HEADER_CACHE_LIMIT}[width]
        columns = []
        for k in range(width):
            more = 0x80 if k < width - 1 else 0  # the continuation bit of all but the last byte
            if k == 0:  # 2i & 0x7F: 0, 2, .., 126 over and over (every width starts at a multiple of 64)
                column = bytes(value | more for value in range(0, 128, 2)) * ((end - first) // 64)
            else:  # 2i >> 7k & 0x7F: the same for blocks of 64 * 128**(k-1) records
                block = 64 * 128 ** (k - 1)
                column = b"".join(
                    bytes((((2 * start) >> (7 * k)) & 0x7F | more,)) * block
                    for start in range(first, end, block)
                )
            columns.append(column)
        _DELTA_COLUMNS[width] = columns
    return columns


_COLUMNS: dict[tuple[int, int, int], tuple[tuple[int, ...], int]] = {}


def _columns(shape: tuple[int, int, int]) -> tuple[tuple[int, ...], int]:
    """For records whose attributes start `lw` bytes in, with an offset delta of `width` bytes and
    the value `value` bytes after the attributes: (where the bytes every record of a run shares
    with the first are, but the last one; where the offset delta starts)."""
    lw, width, value = shape
    key = lw + 2 + width
    return (*range(lw + 2), key, *range(key + 1, lw + value + 3)), lw + 2


def framed_alike(area: Any, pos: int, size: int, hdr: int, value: int, index: int, count: int) -> int:
    """How many of the `count` records of `size` bytes from `pos` (record `index` of its batch the
    first, framed as KRaft writes it: already checked) are framed exactly as `scan_batch` would
    accept them, from the first on: the same length varint, attributes 0, timestamp delta 0, null
    key, value length varint, frame header and no headers as the first, and offset delta = index.

    Each of those bytes is compared for all the records at once (a column of the run)."""
    width = len(_PLAIN_HEADERS[index]) - 3
    shape = (hdr - pos, width, value - hdr)
    shared, delta_at = _COLUMNS.get(shape) or _COLUMNS.setdefault(shape, _columns(shape))
    span = pos + count * size
    alike = count - len(area[pos + size - 1 : span : size].lstrip(b"\x00"))  # no headers
    for at in shared:
        if alike < 2:
            return alike
        column = area[pos + at : pos + alike * size : size]
        rest = len(column.lstrip(column[:1]))
        if rest:
            alike -= rest
    first = index - _DELTA_FIRST[width]
    for k, deltas in enumerate(_delta_columns(width)):
        if area[pos + delta_at + k : pos + alike * size : size] != deltas[first : first + alike]:
            return 0  # some offset delta is wrong: the records are framed one by one, which says where
    return alike


def _skip_run(
    area: Any, pos: int, size: int, hdr: int, value: int, index: int, count: int, offset: int
) -> int:
    """A run handler for records nobody reads: their framing is checked, their bodies passed over."""
    return framed_alike(area, pos, size, hdr, value, index, count)


# -- consumers -------------------------------------------------------------------------------------

# (area, body start, value end, offset) -> True when the record was taken care of; False leaves it
# to the general decoder (which decides between a value and an error).
FastHandler = Callable[[Any, int, int, int], bool]
# (area, record start, record size, where its attributes start, where its value starts, its index in
# the batch, how many records of that size follow from it, its offset) -> how many of those
# records, from the first, were checked (`framed_alike`) and taken care of (0: none).
RunHandler = Callable[[Any, int, int, int, int, int, int, int], int]


class RecordSink(Protocol):
    """What `FileReader.scan` hands records to.

    `handlers` maps a record's frame header (frame version 1, api key, version: 3 bytes) to a fast
    handler, or to None for a record type the consumer does not need (counted, then passed over
    without decoding). Every other record reaches `entry` as an Entry from the general decoder.
    `handlers` may be replaced by `entry` (e.g. inside a transaction); the scan looks again.
    `runs` maps a frame header to a run handler (kcli.metadata.layouts.LayoutFamily.run) that takes
    many records framed alike at once; runs of a type mapped to None are checked and passed over.
    """

    @property
    def handlers(self) -> Mapping[bytes, FastHandler | None]: ...

    @property
    def runs(self) -> Mapping[bytes, RunHandler]: ...

    def begin(self, batch: BatchSpan) -> None:
        """A data batch's records follow (its epoch and timestamp are theirs)."""

    def entry(self, entry: Entry) -> None:
        """One record the fast handlers did not take."""

    def noops(self, batch: BatchSpan) -> None:
        """A run of NoOpRecord batches (`batch.noops`), already counted."""


_GENERAL: Any = object()
NOOP_HEADER = b"\x01\x14\x00"


def _plain_noop(area: Any, body: int, end: int, offset: int) -> bool:
    """A NoOpRecord without tagged fields: nothing to decode."""
    return end == body + 1 and area[body] == 0


class _Collect:
    """The sink of `FileReader.entries`: every record as an Entry, in order."""

    __slots__ = ("entry", "handlers", "noops", "runs")

    def __init__(self, out: list[Entry], reader: FileReader) -> None:
        self.runs: Mapping[bytes, RunHandler] = {}
        self.handlers: Mapping[bytes, FastHandler | None] = (
            {NOOP_HEADER: _plain_noop} if reader.skip_noop else {}
        )
        self.entry = out.append
        self.noops = functools.partial(_noop_entries, out, reader)

    def begin(self, batch: BatchSpan) -> None:
        pass


def _noop_entries(out: list[Entry], reader: FileReader, batch: BatchSpan) -> None:
    record = (() if 20 in reader.values else _noop()) if reader.decode else None
    out.extend(
        Entry(offset, epoch, timestamp, False, 20, 0, record)
        for offset, epoch, _c, timestamp in batch.noops or ()
    )


# -- files -----------------------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class FileReader:
    """Reads one file of batches, applying the corruption policy and checking the log's invariants.

    `decode=False` leaves data record bodies undecoded (`record` is then None) for fast scans;
    `values` (api keys) gives those records, when their class is flat (kcli.metadata.fastdecode),
    as plain tuples of field values instead of dataclasses; `skip_noop=True` drops NoOpRecords
    (still counted) before any decoding; records below `min_offset` are passed over (a log
    replayed after a snapshot). `last_good_offset`/`last_epoch` may be given as where the previous
    segment ended: the invariant checks then continue across files.
    """

    path: Path
    stats: ReadStats
    skip_corrupt: bool = False
    decode: bool = True
    skip_noop: bool = False
    values: frozenset[int] = frozenset()
    min_offset: int = 0
    last_good_offset: int | None = None
    last_epoch: int = -1
    last_timestamp: int = -1
    # reader per (api key << 16 | version) for data records; control records use the slow path
    _readers: dict[int, Any] = field(default_factory=dict)
    # the highest offset and the latest epoch of the batches read so far (the invariant checks)
    _seen_offset: int | None = None
    _seen_epoch: int = -1

    def entries(self, data: bytes | None = None) -> Iterator[Entry]:
        """The records of the file in order (every one through the general decoder)."""
        out: list[Entry] = []
        sink = _Collect(out, self)
        for batch in self.batches(data):
            problem = self.scan_batch(batch, sink)
            yield from out
            out.clear()
            if problem is not None:
                self.batch_failed(problem)

    def scan(self, sink: RecordSink, data: bytes | None = None) -> None:
        """Every record of the file to `sink`, in order, under the corruption policy."""
        for batch in self.batches(data):
            problem = self.scan_batch(batch, sink)
            if problem is not None:
                self.batch_failed(problem)

    def scan_batch(self, batch: BatchSpan, sink: RecordSink) -> CorruptData | None:
        """Frame one batch's records and hand each to `sink`; returns what stopped the batch early
        (the records before it were handed over), for the caller to report with `batch_failed`.

        This is the one place records are framed, whatever the file and the batch size. Every
        record is checked: its length fits the batch, its offset delta is its index, its fields add
        up to its length, and the records fill the batch exactly; a data record's value holds at
        least a frame header. Records framed as KRaft writes them (attributes 0, timestamp delta 0,
        null key, no headers) are recognised cheaply and dispatched on their frame header; any
        other record is framed by `frame_record` and decoded by the general decoder.
        """
        base_offset, epoch, base_ts, count, control, area, pos, end, shift, _noops = batch
        if area is None:
            sink.noops(batch)
            return None
        first = self.min_offset - base_offset
        if not control:
            sink.begin(batch)
        handlers = sink.handlers
        get = handlers.get
        runs = sink.runs
        headers = _plain_headers(count)
        limit = 0 if control else min(count, len(headers))  # control records have keys
        least = 0 if control else 6  # zig-zag of the smallest value length: 3 bytes for a data record
        index = 0
        ts_delta = 0
        key_start = key_length = 0
        problem: CorruptData | None = None
        failed = 0
        while index < count:
            plain = False
            if index < limit and pos + 8 <= end:
                try:
                    b = area[pos]
                    if b < 0x80:
                        hdr = pos + 1
                    else:
                        b = (b & 0x7F) | (area[pos + 1] << 7) if area[pos + 1] < 0x80 else 1
                        hdr = pos + 2
                    head = headers[index]
                    value = hdr + len(head)
                    if not b & 1 and area[hdr:value] == head:
                        record_end = hdr + (b >> 1)
                        b = area[value]
                        if b < 0x80:
                            value += 1
                        else:
                            b = (b & 0x7F) | (area[value + 1] << 7) if area[value + 1] < 0x80 else 1
                            value += 2
                        value_end = value + (b >> 1)
                        plain = not (
                            b & 1
                            or b < least
                            or value_end + 1 != record_end
                            or record_end > end
                            or area[value_end]
                        )
                        ts_delta = 0
                except IndexError:
                    plain = False
            if not plain:
                try:
                    ts_delta, key_start, key_length, value, value_length, record_end = frame_record(
                        area, pos, end, index, count, shift
                    )
                    if value_length < 3 and not control:
                        raise CorruptData(f"metadata record value of {value_length} bytes", shift + value)
                except CorruptData as found:
                    problem = found
                    break
                value_end = value + max(value_length, 0)
            if index >= first:
                if plain:
                    header = area[value : value + 3]
                    handler = get(header, _GENERAL)
                    if handler is not _GENERAL:
                        size = record_end - pos
                        if (
                            record_end + size <= end
                            and area[record_end] == area[pos]
                            and area[record_end + 1] == area[pos + 1]
                            and index + 1 < limit
                        ):
                            # the next record is as long: maybe a run framed alike (see RunHandler)
                            runner = _skip_run if handler is None else runs.get(header)
                            if runner is not None:
                                stop = 64 if index < 64 else 8192 if index < 8192 else limit
                                more = min(stop - index, (end - pos) // size, RUN_LIMIT)
                                firsts = area[pos : pos + more * size : size]
                                more -= len(firsts.lstrip(firsts[:1]))  # those as long, by their first byte
                                if more > 1:
                                    done = runner(
                                        area, pos, size, hdr, value, index, more, base_offset + index
                                    )
                                    if done:
                                        pos += done * size
                                        index += done
                                        continue
                        if handler is None or handler(area, value + 3, value_end, base_offset + index):
                            pos = record_end
                            index += 1
                            continue
                    key_length = -1
                try:
                    found_entry = self.entry_at(
                        batch, index, first, value, value_end, ts_delta, key_start, key_length
                    )
                except CorruptData as stop:
                    problem = stop
                    failed = 1
                    break
                if found_entry is not None:
                    sink.entry(found_entry)
                if sink.handlers is not handlers:
                    handlers = sink.handlers
                    get = handlers.get
                    runs = sink.runs
            pos = record_end
            index += 1
        if problem is None and pos != end:
            problem = CorruptData(f"{end - pos} bytes after the last record of the batch", shift + pos)
        read = index - max(first, 0)
        if read > 0:
            self.stats.records += read + failed
            self.last_good_offset = base_offset + index - 1
            self.last_epoch = epoch
            self.last_timestamp = base_ts + ts_delta
        elif failed:
            self.stats.records += 1
        return problem

    def entry_at(
        self,
        batch: BatchSpan,
        index: int,
        first: int,
        value_start: int,
        value_end: int,
        ts_delta: int,
        key_start: int,
        key_length: int,
    ) -> Entry | None:
        """The Entry of record `index` of a batch through the general decoder (None: a NoOp skipped).

        CorruptData when its frame header or control key is wrong (the batch stops there); a body
        that does not parse follows the skip policy. Records from `first` (the batch's first at or
        above `min_offset`) to `index` count as read.
        """
        base_offset, epoch, base_ts, _count, control, area, _start, _end, shift, _noops = batch
        offset = base_offset + index
        if index > first and index > 0:
            self.last_good_offset = offset - 1
        timestamp = base_ts + ts_delta
        readers = self._readers
        if control:
            if key_length != 4:
                raise CorruptData(f"control record key of {key_length} bytes", shift + value_start)
            ctype = int.from_bytes(area[key_start + 2 : key_start + 4], "big", signed=True)
            record = self._decode(readers, True, ctype, 0, area, value_start, value_end, shift, offset)
            return Entry(offset, epoch, timestamp, True, ctype, 0, record)
        frame = area[value_start]
        api_key = area[value_start + 1]
        version = area[value_start + 2]
        body = value_start + 3
        if frame != 1 or api_key >= 0x80 or version >= 0x80:
            frame, used = read_uvarint(area, value_start)
            if frame != 1:
                raise CorruptData(f"metadata record frame version {frame} (expected 1)", shift + value_start)
            api_key, used2 = read_uvarint(area, value_start + used)
            version, used3 = read_uvarint(area, value_start + used + used2)
            body = value_start + used + used2 + used3
            if body > value_end:
                raise CorruptData("metadata record frame header overruns the value", shift + value_start)
        if api_key == 20 and self.skip_noop and value_end - value_start == 4:
            return None
        if not self.decode:
            return Entry(offset, epoch, timestamp, False, api_key, version, None)
        reader = readers.get(api_key << 16 | version)
        record = None
        if reader is not None:
            try:
                record, used = reader(area, body)
            except Exception:
                used = -1
            if body + used != value_end:
                reader = None
        if reader is None:
            record = self._decode(readers, False, api_key, version, area, body, value_end, shift, offset)
        return Entry(offset, epoch, timestamp, False, api_key, version, record)

    def batch_failed(self, problem: CorruptData) -> None:
        """A batch stopped early: report (or raise) and count it as skipped."""
        self._problem(problem)
        self.stats.skipped_batches += 1

    # -- batches -----------------------------------------------------------------------------------

    def batches(self, data: bytes | None = None) -> Iterator[BatchSpan]:
        """The file's batches, checked (magic, length, CRC, invariants) and inflated, in order.

        A batch holding only the idle controller's NoOpRecord is accounted here (most of every real
        log, nothing to parse): dropped with `skip_noop`, else yielded with `area` None.
        """
        self.stats.files.append(str(self.path))
        self._seen_offset = self.last_good_offset
        self._seen_epoch = self.last_epoch
        if data is not None:
            yield from self._batches_in(bytes(data), None, len(data))
            return
        with open(self.path, "rb") as handle:
            yield from self._batches_in(b"", handle, os.fstat(handle.fileno()).st_size)

    def _batches_in(self, buf: bytes, handle: IO[bytes] | None, size: int) -> Iterator[BatchSpan]:
        """Batches of a file of `size` bytes, read through `handle` a window at a time (or all in `buf`).

        `base` is the file position of `buf[0]`; positions reported are file positions.
        """
        stats = self.stats
        skip_noop = self.skip_noop
        min_offset = self.min_offset
        unpack = _BATCH.unpack_from
        noop_run = _NOOP_RUN.match
        noop_heads = _NOOP_HEADS.iter_unpack
        base = 0
        pos = 0
        view = memoryview(buf)
        while True:
            if handle is not None and pos + BATCH_OVERHEAD > len(buf) and base + len(buf) < size:
                buf, base, pos = _refill(handle, buf, base, pos, BATCH_OVERHEAD)
                view = memoryview(buf)
            if pos >= len(buf):
                return
            if buf[pos + 43 : pos + 72] == _NOOP_TAIL and buf[pos + 8 : pos + 12] == _NOOP_LENGTH:
                # The idle controller's batches of one NoOpRecord (most of every real log) in the one
                # layout KRaft writes (only the offset, epoch, CRC and timestamps vary), a run at a time.
                run = noop_run(buf, pos)
                if run is not None:
                    run_end = run.end()
                    heads = list(noop_heads(view[pos:run_end]))
                    crcs = list(map(crc32c, [view[at + 21 : at + 72] for at in range(pos, run_end, 72)]))
                    if crcs != [head[2] for head in heads]:
                        good = next(
                            i for i, (h, crc) in enumerate(zip(heads, crcs, strict=True)) if h[2] != crc
                        )
                        del heads[good:]  # the general path below reports the bad batch
                    if heads:
                        self._check_run(heads, base + pos)
                        stats.batches += len(heads)
                        pos += 72 * len(heads)
                        if min_offset:
                            heads = [head for head in heads if head[0] >= min_offset]
                        if heads:
                            stats.records += len(heads)
                            self.last_good_offset, self.last_epoch, _crc, self.last_timestamp = heads[-1]
                            if not skip_noop:
                                first = heads[0]
                                yield _span(
                                    BatchSpan,
                                    (first[0], first[1], first[3], len(heads), False, None, 0, 0, 0, heads),
                                )
                        continue
            try:
                if base + pos + BATCH_OVERHEAD > size:
                    if not any(view[pos:]):
                        return  # pre-allocated zero tail: end of data
                    raise CorruptData(f"truncated batch header ({size - base - pos} bytes left)", base + pos)
                (
                    base_offset,
                    length,
                    epoch,
                    magic,
                    crc,
                    attributes,
                    _last_delta,
                    base_ts,
                    _max_ts,
                    _pid,
                    _pepoch,
                    _bseq,
                    count,
                ) = unpack(buf, pos)
                if length == 0 and _zero_to_end(handle, view[pos:]):
                    return
                if magic != 2:
                    raise CorruptData(f"unsupported batch magic {magic}", base + pos)
                if length < BATCH_OVERHEAD - 12:
                    raise CorruptData(f"impossible batch length {length}", base + pos)
                if base + pos + 12 + length > size:
                    raise CorruptData(
                        f"truncated batch: length {length} but {size - base - pos - 12} bytes left",
                        base + pos,
                    )
                if handle is not None and pos + 12 + length > len(buf):
                    buf, base, pos = _refill(handle, buf, base, pos, 12 + length)
                    view = memoryview(buf)
                batch_end = pos + 12 + length
                if crc32c(view[pos + 21 : batch_end]) != crc:
                    raise CorruptData("CRC-32C mismatch", base + pos)
            except CorruptData as problem:
                self._problem(problem)
                plausible = _plausible_end(buf, pos, size - base)
                if plausible is None:
                    stats.skipped_bytes += size - base - pos
                    return
                stats.skipped_batches += 1
                if plausible > len(buf) and handle is not None:
                    handle.seek(base + plausible)
                    buf, base, pos = b"", base + plausible, 0
                    view = memoryview(buf)
                else:
                    pos = plausible
                continue
            stats.batches += 1
            self._check(base_offset, count, epoch, base + pos)
            if length == 60 and count == 1 and attributes == 0 and buf[pos + 61 : batch_end] == NOOP_RECORD:
                pos = batch_end
                if base_offset < min_offset:
                    continue
                stats.records += 1
                self.last_good_offset = base_offset
                self.last_epoch = epoch
                self.last_timestamp = base_ts
                if not skip_noop:
                    yield _span(
                        BatchSpan,
                        (
                            base_offset,
                            epoch,
                            base_ts,
                            1,
                            False,
                            None,
                            0,
                            0,
                            0,
                            [(base_offset, epoch, crc, base_ts)],
                        ),
                    )
                continue
            codec = attributes & 0x07
            if codec:
                try:
                    area: Any = decompress(codec, buf[pos + BATCH_OVERHEAD : batch_end], base + pos)
                except CorruptData as problem:
                    self._problem(problem)
                    stats.skipped_batches += 1
                    pos = batch_end
                    continue
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), area, 0, len(area),
                    base + pos + BATCH_OVERHEAD, None,
                ))  # fmt: skip
            else:
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), buf,
                    pos + BATCH_OVERHEAD, batch_end, base, None,
                ))  # fmt: skip
            yield span
            pos = batch_end

    def _check(self, base_offset: int, count: int, epoch: int, position: int) -> None:
        """Kafka's log invariants for one batch: offsets above every offset read, epochs not falling."""
        seen = self._seen_offset
        if seen is not None and base_offset <= seen:
            last = min(seen, base_offset + max(count, 1) - 1)
            twice = f"offset {base_offset}" if last == base_offset else f"offsets {base_offset}-{last}"
            self.stats.warnings.append(
                f"{self.path}: the batch at byte {position} holds {twice} again (offsets not increasing: "
                f"offset {seen} was read before it)"
            )
        if epoch < self._seen_epoch:
            self.stats.warnings.append(
                f"{self.path}: the batch at byte {position} (offset {base_offset}) has leader epoch {epoch} "
                f"after epoch {self._seen_epoch} (epochs go backwards)"
            )
        else:
            self._seen_epoch = epoch
        last_offset = base_offset + max(count, 1) - 1
        if seen is None or last_offset > seen:
            self._seen_offset = last_offset

    def _check_run(self, heads: list[tuple[int, int, int, int]], position: int) -> None:
        """`_check` for a run of one-record NoOp batches (72 bytes each), cheap when all is well."""
        first_offset, first_epoch = heads[0][0], heads[0][1]
        last_offset, last_epoch = heads[-1][0], heads[-1][1]
        seen = self._seen_offset
        if (
            (seen is None or first_offset > seen)
            and first_epoch >= self._seen_epoch
            and last_offset - first_offset == len(heads) - 1
            and [head[0] for head in heads] == list(range(first_offset, last_offset + 1))
            and (first_epoch == last_epoch or all(a[1] <= b[1] for a, b in itertools.pairwise(heads)))
        ):
            self._seen_offset = last_offset
            self._seen_epoch = last_epoch
            return
        for index, head in enumerate(heads):
            self._check(head[0], 1, head[1], position + 72 * index)

    # -- errors and the general decoder ------------------------------------------------------------

    def _problem(self, problem: CorruptData) -> None:
        error = DecodeError(
            problem.message,
            file=str(self.path),
            position=problem.position,
            last_good_offset=self.last_good_offset,
        )
        if not self.skip_corrupt:
            raise error
        self.stats.problems.append(error.message)

    def _decode(
        self,
        readers: dict[int, Any],
        control: bool,
        key: int,
        version: int,
        area: Any,
        start: int,
        end: int,
        shift: int,
        offset: int,
    ) -> Any:
        """Look the reader up, decode, and turn failures into the corruption policy."""
        compiled = None
        if not control and key in self.values:
            from kcli.metadata.fastdecode import values_reader

            compiled = values_reader(key, version)
        if not control and (key << 16 | version) not in readers:
            readers[key << 16 | version] = compiled or metadata_body_reader(key, version)
        try:
            record = decode_value(key, version, control, area, start, end)
        except CorruptData as problem:
            if not self.skip_corrupt:
                raise DecodeError(
                    f"offset {offset}: {problem.message}",
                    file=str(self.path),
                    position=shift + problem.position,
                    last_good_offset=self.last_good_offset,
                ) from None
            self.stats.problems.append(f"{self.path}: offset {offset}: {problem.message}")
            self.stats.skipped_records += 1
            return RawRecord(
                key=key, version=version, control=control, data=bytes(area[start:end]), reason=problem.message
            )
        if type(record) is RawRecord:
            self.stats.unknown += 1
        elif compiled is not None:
            # kio read a body the compiled reader left to it (e.g. an unknown tagged field).
            from kcli.metadata.fastdecode import values_of

            return values_of(record)
        return record


def _refill(handle: IO[bytes], buf: bytes, base: int, pos: int, need: int) -> tuple[bytes, int, int]:
    """A new window from file position `base + pos`, holding at least `need` bytes (if the file has
    them): -> (buffer, its file position, 0). Read afresh rather than joined to what was kept: the
    file is in the page cache, and a join would copy the window once more."""
    handle.seek(base + pos)
    return handle.read(max(WINDOW_BYTES, need)), base + pos, 0


def _zero_to_end(handle: IO[bytes] | None, rest: memoryview) -> bool:
    """Whether the window from here and the rest of the file are all zero bytes (pre-allocated)."""
    if any(rest):
        return False
    if handle is None:
        return True
    where = handle.tell()
    while chunk := handle.read(WINDOW_BYTES):
        if any(chunk):
            handle.seek(where)
            return False
    return True


@functools.cache
def _noop() -> Any:
    from kcli.metadata.records import NoOpRecord

    return NoOpRecord()


def _plausible_end(buf: bytes, pos: int, size: int) -> int | None:
    """Where a corrupt batch ends (a position in `buf`, maybe past it) if its length field still fits
    the `size` bytes the file has from `buf[0]` on, else None."""
    if pos + 12 > len(buf):
        return None
    (length,) = struct.unpack_from(">i", buf, pos + 8)
    end = pos + 12 + length
    if length < BATCH_OVERHEAD - 12 or end > size:
        return None
    return end


def read_file(
    path: Path | str, *, skip_corrupt: bool = False, stats: ReadStats | None = None
) -> Iterator[Entry]:
    """Every record of one segment, snapshot or bootstrap.checkpoint file, decoded."""
    reader = FileReader(path=Path(path), stats=stats or ReadStats(), skip_corrupt=skip_corrupt)
    return reader.entries()
