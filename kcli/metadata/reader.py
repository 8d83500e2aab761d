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
"""

from __future__ import annotations

import functools
import re
import struct
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

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
# Attributes, timestamp delta 0, offset delta i, null key: the record header KRaft writes for record i.
PLAIN_HEADERS = tuple(bytes((0, 0, 2 * index, 1)) for index in range(64))


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


# -- files -----------------------------------------------------------------------------------------


@dataclass(slots=True, kw_only=True)
class FileReader:
    """Reads one file of batches into Entries, applying the corruption policy.

    `decode=False` leaves data record bodies undecoded (`record` is then None) for fast scans;
    `values` (api keys) gives those records, when their class is flat (kcli.metadata.fastdecode),
    as plain tuples of field values instead of dataclasses (the image and the dump need no objects);
    `skip_noop=True` drops NoOpRecords (still counted) before any decoding; records below
    `min_offset` are passed over (a log replayed after a snapshot).
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

    def entries(self, data: bytes | None = None) -> Iterator[Entry]:
        """The records of the file in order."""
        noop = (() if 20 in self.values else _noop()) if self.decode else None
        for batch in self.batches(data):
            if batch.area is None:
                for offset, epoch, _crc, timestamp in batch.noops or ():
                    yield Entry(offset, epoch, timestamp, False, 20, 0, noop)
                continue
            out: list[Entry] = []
            try:
                self.batch_entries(batch, out.append)
            except CorruptData as problem:
                yield from out
                self.batch_failed(problem)
                continue
            yield from out

    def batches(self, data: bytes | None = None) -> Iterator[BatchSpan]:
        """The file's batches, checked (magic, length, CRC) and inflated, with the corruption policy.

        A batch holding only the idle controller's NoOpRecord is accounted here (most of every real
        log, nothing to parse): dropped with `skip_noop`, else yielded with `area` None.
        """
        buf = self.path.read_bytes() if data is None else bytes(data)  # bytes: slices are hashable
        self.stats.files.append(str(self.path))
        view = memoryview(buf)
        size = len(buf)
        stats = self.stats
        skip_noop = self.skip_noop
        min_offset = self.min_offset
        unpack = _BATCH.unpack_from
        pos = 0
        noop_run = _NOOP_RUN.match
        noop_heads = _NOOP_HEADS.iter_unpack
        while pos < size:
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
                if pos + BATCH_OVERHEAD > size:
                    if not any(view[pos:]):
                        return  # pre-allocated zero tail: end of data
                    raise CorruptData(f"truncated batch header ({size - pos} bytes left)", pos)
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
                batch_end = pos + 12 + length
                if length == 0 and not any(view[pos:]):
                    return
                if magic != 2:
                    raise CorruptData(f"unsupported batch magic {magic}", pos)
                if length < BATCH_OVERHEAD - 12:
                    raise CorruptData(f"impossible batch length {length}", pos)
                if batch_end > size:
                    raise CorruptData(
                        f"truncated batch: length {length} but {size - pos - 12} bytes left", pos
                    )
                if crc32c(view[pos + 21 : batch_end]) != crc:
                    raise CorruptData("CRC-32C mismatch", pos)
            except CorruptData as problem:
                self._problem(problem)
                plausible = _plausible_end(buf, pos)
                if plausible is None:
                    stats.skipped_bytes += size - pos
                    return
                stats.skipped_batches += 1
                pos = plausible
                continue
            stats.batches += 1
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
                    area: Any = decompress(codec, buf[pos + BATCH_OVERHEAD : batch_end], pos)
                except CorruptData as problem:
                    self._problem(problem)
                    stats.skipped_batches += 1
                    pos = batch_end
                    continue
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), area, 0, len(area),
                    pos + BATCH_OVERHEAD, None,
                ))  # fmt: skip
            else:
                span = _span(BatchSpan, (
                    base_offset, epoch, base_ts, count, bool(attributes & CONTROL_FLAG), buf,
                    pos + BATCH_OVERHEAD, batch_end, 0, None,
                ))  # fmt: skip
            yield span
            pos = batch_end

    def batch_failed(self, problem: CorruptData) -> None:
        """A record of a batch did not parse: report (or raise) and count the rest as skipped."""
        self._problem(problem)
        self.stats.skipped_batches += 1

    def batch_entries(self, batch: BatchSpan, emit: Callable[[Entry], Any]) -> None:
        """Parse one batch's records in order, emitting an Entry each; CorruptData at a bad one."""
        _base_offset, epoch, base_ts, count, _control, area, rpos, end, shift, _noops = batch
        ts_delta = 0
        for index in range(count):
            fast, ts_delta, key_start, key_length, value_start, value_length, record_end = frame_fast(
                area, rpos, end, index
            )
            if not fast:
                ts_delta, key_start, key_length, value_start, value_length, record_end = frame_record(
                    area, rpos, end, index, count, shift
                )
            entry = self.record_entry(
                batch, index, rpos, ts_delta, key_start, key_length, value_start, value_length
            )
            rpos = record_end
            if entry is not None:
                emit(entry)
        if rpos != end:
            raise CorruptData(f"{end - rpos} bytes after the last record of the batch", shift + rpos)
        if count:
            self.last_epoch = epoch
            self.last_timestamp = base_ts + ts_delta

    def record_entry(
        self,
        batch: BatchSpan,
        index: int,
        record_start: int,
        ts_delta: int,
        key_start: int,
        key_length: int,
        value_start: int,
        value_length: int,
    ) -> Entry | None:
        """The Entry of one framed record (None: before min_offset or a skipped NoOp); CorruptData
        when its key or value framing is wrong (bodies that do not parse follow the skip policy)."""
        base_offset, epoch, base_ts, _count, control, area, _start, _end, shift, _noops = batch
        offset = base_offset + index
        if offset < self.min_offset:
            return None
        self.stats.records += 1
        value_end = value_start + value_length
        readers = self._readers
        if control:
            if key_length != 4:
                raise CorruptData(f"control record key of {key_length} bytes", shift + record_start)
            ctype = int.from_bytes(area[key_start + 2 : key_start + 4], "big", signed=True)
            record = self._decode(readers, True, ctype, 0, area, value_start, value_end, shift, offset)
            self.last_good_offset = offset
            return Entry(offset, epoch, base_ts + ts_delta, True, ctype, 0, record)
        if value_length < 3:
            raise CorruptData(f"metadata record value of {value_length} bytes", shift + value_start)
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
        if api_key == 20 and self.skip_noop and value_length == 4:
            self.last_good_offset = offset
            return None
        if self.decode:
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
        else:
            record = None
        self.last_good_offset = offset
        return Entry(offset, epoch, base_ts + ts_delta, False, api_key, version, record)

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
        """The slow path: look the reader up, decode, and turn failures into the corruption policy."""
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


def frame_fast(area: Any, rpos: int, end: int, index: int) -> tuple[bool, int, int, int, int, int, int]:
    """What KRaft writes, framed cheaply: a 1-2 byte record length, attributes 0, timestamp delta 0,
    offset delta = index, null key, a 1-2 byte value length, no headers.

    -> (matched, timestamp delta, key start, key length, value start, value length, record end);
    when not matched, `frame_record` decides (and names what is wrong).
    """
    b = area[rpos] if rpos + 8 <= end and index < 64 else 1
    if b < 0x80:
        hdr = rpos + 1
    elif area[rpos + 1] < 0x80:
        b = (b & 0x7F) | (area[rpos + 1] << 7)
        hdr = rpos + 2
    else:
        return _NOT_FAST
    if b & 1 or area[hdr : hdr + 4] != PLAIN_HEADERS[index]:
        return _NOT_FAST
    record_end = hdr + (b >> 1)
    value_start = hdr + 5
    b = area[hdr + 4]
    if b >= 0x80 and area[value_start] < 0x80:
        b = (b & 0x7F) | (area[value_start] << 7)
        value_start += 1
    value_end = value_start + (b >> 1)
    if b & 1 or value_end + 1 != record_end or record_end > end or area[value_end]:
        return _NOT_FAST
    return True, 0, hdr + 4, -1, value_start, b >> 1, record_end


_NOT_FAST = (False, 0, 0, 0, 0, 0, 0)


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
    b = area[rpos]
    if b < 0x80:
        ts_delta = (b >> 1) ^ -(b & 1)
        rpos += 1
    else:
        ts_delta, used = read_varint(area, rpos)
        rpos += used
    b = area[rpos]
    if b < 0x80:
        offset_delta = (b >> 1) ^ -(b & 1)
        rpos += 1
    else:
        offset_delta, used = read_varint(area, rpos)
        rpos += used
    if offset_delta != index:
        raise CorruptData(f"record offset delta {offset_delta}, expected {index}", shift + record_start)
    b = area[rpos]
    if b == 1:  # null key (every data record)
        key_length = -1
        rpos += 1
    else:
        key_length, used = read_varint(area, rpos)
        rpos += used
    key_start = rpos
    if key_length > 0:
        rpos += key_length
    if rpos >= record_end:
        raise CorruptData("record key overruns the record", shift + record_start)
    b = area[rpos]
    if b < 0x80:
        value_length = (b >> 1) ^ -(b & 1)
        rpos += 1
    else:
        value_length, used = read_varint(area, rpos)
        rpos += used
    value_start = rpos
    if value_length > 0:
        rpos += value_length
    if rpos + 1 != record_end or area[rpos] != 0:
        _skip_headers(area, rpos, record_end, shift + record_start)
    return ts_delta, key_start, key_length, value_start, value_length, record_end


_MISSING = object()


@functools.cache
def _noop() -> Any:
    from kcli.metadata.records import NoOpRecord

    return NoOpRecord()


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


def _plausible_end(buf: bytes, pos: int) -> int | None:
    """Where a corrupt batch ends if its length field still fits the file, else None."""
    if pos + 12 > len(buf):
        return None
    (length,) = struct.unpack_from(">i", buf, pos + 8)
    end = pos + 12 + length
    if length < BATCH_OVERHEAD - 12 or end > len(buf):
        return None
    return end


def read_file(
    path: Path | str, *, skip_corrupt: bool = False, stats: ReadStats | None = None
) -> Iterator[Entry]:
    """Every record of one segment, snapshot or bootstrap.checkpoint file, decoded."""
    reader = FileReader(path=Path(path), stats=stats or ReadStats(), skip_corrupt=skip_corrupt)
    return reader.entries()
