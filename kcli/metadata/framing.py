"""Record framing inside RecordBatch v2 batches: varints, batch headers, decompression, one
record's frame, and runs of records framed alike (checked a byte column at a time).

Pure functions of (buffer, position); kcli.metadata.reader applies them to files.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from kcli.crc import crc32c
from kcli.errors import (
    ChecksumError,
    CompressionError,
    DecodeError,
    InflationLimitError,
    LengthError,
    RecordError,
    TruncatedData,
    UnknownFormatError,
    VarintError,
)
from kcli.kafka import read_varint
from kcli.metadata.batch import MAX_BATCH_BYTES
from kcli.metadata.codec import control_body_reader, metadata_body_reader
from kcli.metadata.read_model import (
    _BATCH,
    BATCH_OVERHEAD,
    Batch,
    BatchSpan,
    Entry,
    RawRecord,
)

# -- pure readers: (buffer, offset) -> (value, consumed) ---------------------------------------------


def read_batch(buf: Any, pos: int) -> tuple[Batch, int]:
    """Check and parse the batch header at `pos`; the records are left where they are.

    Raises a DecodeError for a short (TruncatedData), oversized (LengthError), non-v2
    (UnknownFormatError) or CRC-failing (ChecksumError) batch.
    """
    end_of_data = len(buf)
    if pos + BATCH_OVERHEAD > end_of_data:
        raise TruncatedData(f"truncated batch header ({end_of_data - pos} bytes left)", pos)
    header = _BATCH.unpack_from(buf, pos)
    length = header[1]
    if header[3] != 2:
        raise UnknownFormatError(f"unsupported batch magic {header[3]}", pos)
    if length < BATCH_OVERHEAD - 12:
        raise LengthError(f"impossible batch length {length}", pos)
    end = pos + 12 + length
    if end > end_of_data:
        raise TruncatedData(f"truncated batch: length {length} but {end_of_data - pos - 12} bytes left", pos)
    if crc32c(buf[pos + 21 : end]) != header[4]:
        raise ChecksumError("CRC-32C mismatch", pos)
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


# The most a compressed batch may inflate to. Kafka's Raft layer builds every batch it writes, log
# and snapshot alike, in a BatchAccumulator that refuses records past KafkaRaftClient's
# MAX_BATCH_SIZE_BYTES (8 MiB) of *uncompressed* record bytes; twice that leaves room for a batch
# built under another limit and still keeps a decompression bomb (a 32 KB zstd batch that would
# inflate to 1 GiB) to a bounded buffer: a batch past it is corrupt data, not an allocation.
MAX_INFLATED = 2 * MAX_BATCH_BYTES


def decompress(codec: int, data: bytes, position: int, limit: int = MAX_INFLATED) -> bytes:
    """Inflate a compressed records area (Kafka codec ids 1-4) into a buffer of at most `limit`
    bytes: InflationLimitError past it, CompressionError when the data does not inflate."""
    import cramjam

    if codec == 2:
        return _snappy(data, position, limit)
    module = {1: cramjam.gzip, 3: cramjam.lz4, 4: cramjam.zstd}.get(codec)
    if module is None:
        raise UnknownFormatError(f"unknown compression codec {codec}", position)
    # A buffer of a likely size first (metadata compresses a few times over), then one byte more
    # than the limit: filling that means the data inflates past the limit.
    for room in (min(limit, max(1 << 16, 16 * len(data))), limit):
        out = bytearray(room + 1)
        try:
            size = module.decompress_into(data, out)
        except Exception as error:  # cramjam raises its own DecompressionError types
            if "whole buffer" not in str(error):  # not a full output buffer: bad data
                raise CompressionError(
                    f"cannot decompress batch (codec {codec}): {error}", position
                ) from None
            continue
        if size <= room:
            return bytes(memoryview(out)[:size])
    raise _too_large(codec, limit, position)


def _too_large(codec: int, limit: int, position: int) -> InflationLimitError:
    return InflationLimitError(
        f"compressed batch (codec {codec}) inflates past {limit} bytes, more than Kafka writes", position
    )


def _snappy(data: bytes, position: int, limit: int) -> bytes:
    import cramjam

    def block(raw: bytes, room: int) -> bytes:
        try:
            size = cramjam.snappy.decompress_raw_len(raw)
            if size > room:
                raise _too_large(2, limit, position)
            return bytes(cramjam.snappy.decompress_raw(raw))
        except InflationLimitError:
            raise
        except Exception as error:
            raise CompressionError(f"cannot decompress batch (codec 2): {error}", position) from None

    # The Java client writes xerial SnappyOutputStream framing; librdkafka may write raw snappy.
    if not data.startswith(b"\x82SNAPPY\x00"):
        return block(data, limit)
    pos = 16
    out = bytearray()
    while pos < len(data):
        if pos + 4 > len(data):
            raise TruncatedData("truncated xerial snappy chunk", position)
        (size,) = struct.unpack_from(">i", data, pos)
        pos += 4
        if size < 0 or pos + size > len(data):
            raise LengthError("bad xerial snappy chunk length", position)
        out += block(data[pos : pos + size], limit - len(out))
        pos += size
    return bytes(out)


BodyDecoder = Callable[[int, int, bool, Any, int, int], Any]


def decode_value(key: int, version: int, control: bool, buf: Any, start: int, end: int) -> Any:
    """Decode one record body in buf[start:end]: the record class instance, or a RawRecord if unknown.

    Raises a DecodeError when a known type does not parse (its length walk refuses it, or kio does)
    or leaves bytes over (RecordError).
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
        value, size = reader(buf, start, end)
    except DecodeError as error:  # the length walk: a forged or impossible length
        raise type(error)(
            f"{_name(key, control)} v{version}: {error.detail}", error.position
        ) from None
    except Exception as error:  # kio raises BufferUnderflow, UnexpectedNull, UnicodeDecodeError, ...
        raise RecordError(
            f"cannot decode {_name(key, control)} v{version}: {type(error).__name__}: {error}", start
        ) from None
    if start + size != end:
        over = end - start - size
        detail = f"leaves {over} bytes over" if over > 0 else f"runs {-over} bytes past the record"
        raise RecordError(f"{_name(key, control)} v{version} {detail}", start)
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
    value length, record end); a DecodeError when the record does not parse."""
    try:
        return _frame_record(area, rpos, end, index, count, shift)
    except VarintError as error:  # read_varint names a position in `area`: make it a file byte
        raise VarintError(error.detail, shift + error.position) from None


def _frame_record(
    area: Any, rpos: int, end: int, index: int, count: int, shift: int
) -> tuple[int, int, int, int, int, int]:
    record_start = rpos
    b = area[rpos] if rpos < end else -1
    if 0 <= b < 0x80:
        rlength = (b >> 1) ^ -(b & 1)
        rpos += 1
    elif b < 0:
        raise TruncatedData(f"batch ends before record {index + 1} of {count}", shift + rpos)
    else:
        rlength, used = read_varint(area, rpos)
        rpos += used
    record_end = rpos + rlength
    if rlength < 6 or record_end > end:
        raise LengthError(f"bad record length {rlength}", shift + record_start)
    rpos += 1  # attributes
    ts_delta, used = read_varint(area, rpos)
    rpos += used
    offset_delta, used = read_varint(area, rpos)
    rpos += used
    if offset_delta != index:
        raise RecordError(f"record offset delta {offset_delta}, expected {index}", shift + record_start)
    key_length, used = read_varint(area, rpos)
    rpos += used
    key_start = rpos
    if key_length > 0:
        rpos += key_length
    if rpos >= record_end:
        raise LengthError("record key overruns the record", shift + record_start)
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
        raise LengthError("record fields overrun the record length", position)
    count, used = read_varint(area, pos)
    pos += used
    if count < 0:
        raise LengthError(f"negative header count {count}", position)
    for _ in range(count):
        for _part in range(2):
            size, used = read_varint(area, pos)
            pos += used + max(size, 0)
    if pos != record_end:
        raise RecordError("record fields do not add up to the record length", position)
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
