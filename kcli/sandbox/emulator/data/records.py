"""RecordBatch v2 as the data plane keeps it: the header of a batch, its records, new batches.

A client's batch is stored as the client framed it (compressed batches stay compressed); the leader
only rewrites its base offset and partition leader epoch, which lie before the CRC's range, so the
CRC the client computed still holds. `records_of` inflates a batch to read its records (offsets by
time, coordinators loading their state); `encode_batch` builds the batches a coordinator writes.
"""

from __future__ import annotations

import mmap
import struct
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from kcli.crc import crc32c
from kcli.kafka import write_varint

HEADER = struct.Struct(">qiibIhiqqqhii")  # every field of a v2 batch header, in order
HEADER_BYTES = HEADER.size  # 61
LENGTH_OVERHEAD = 12  # baseOffset and batchLength precede what batchLength counts
CRC_START = 21
_OFFSET = struct.Struct(">q")
_EPOCH = struct.Struct(">i")
_MAX_TIMESTAMP = struct.Struct(">q")
_ATTRIBUTES = struct.Struct(">h")

COMPRESSION_MASK = 0x07
LOG_APPEND_TIME_FLAG = 0x08
TRANSACTIONAL_FLAG = 0x10
CONTROL_FLAG = 0x20
NO_PRODUCER_ID = -1
NO_SEQUENCE = -1
MAX_INFLATED = 128 * 1024 * 1024  # a compressed batch inflating past this is refused, not allocated

Buffer = bytes | bytearray | memoryview | mmap.mmap

CODECS = {"none": 0, "uncompressed": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


class BatchError(Exception):
    """Bytes that are not whole, valid v2 batches (what is wrong and at which byte)."""


class BatchHeader(NamedTuple):
    """The header of one v2 batch at `position` in some buffer."""

    base_offset: int
    length: int  # batchLength: the bytes after it
    leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    records_count: int
    position: int

    @property
    def size(self) -> int:
        return self.length + LENGTH_OVERHEAD

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def compression(self) -> int:
        return self.attributes & COMPRESSION_MASK

    @property
    def is_transactional(self) -> bool:
        return bool(self.attributes & TRANSACTIONAL_FLAG)

    @property
    def is_control(self) -> bool:
        return bool(self.attributes & CONTROL_FLAG)

    @property
    def log_append_time(self) -> bool:
        return bool(self.attributes & LOG_APPEND_TIME_FLAG)

    @property
    def last_sequence(self) -> int:
        if self.base_sequence == NO_SEQUENCE:
            return NO_SEQUENCE
        return (self.base_sequence + self.last_offset_delta) % (1 << 31)


def read_header(data: Buffer, position: int = 0, *, check_crc: bool = True) -> BatchHeader:
    """The header of the batch at `position` (BatchError when it is torn, not v2 or damaged)."""
    if position + HEADER_BYTES > len(data):
        raise BatchError(f"a torn batch header at byte {position}")
    fields = HEADER.unpack_from(data, position)
    header = BatchHeader._make((*fields, position))
    if header.magic != 2:
        raise BatchError(f"a batch of magic {header.magic} at byte {position} (only v2 is kept)")
    if header.size < HEADER_BYTES:
        raise BatchError(f"an impossible batch length {header.length} at byte {position}")
    if position + header.size > len(data):
        raise BatchError(f"a torn batch at byte {position}: {header.size} bytes declared")
    if check_crc and crc32c(bytes(data[position + CRC_START : position + header.size])) != header.crc:
        raise BatchError(f"a CRC mismatch in the batch at byte {position}")
    return header


def headers_in(data: Buffer, *, check_crc: bool = True) -> list[BatchHeader]:
    """The headers of bytes that must divide into whole valid batches."""
    out: list[BatchHeader] = []
    position = 0
    while position < len(data):
        header = read_header(data, position, check_crc=check_crc)
        out.append(header)
        position += header.size
    return out


def with_offset_and_epoch(batch: bytes, base_offset: int, leader_epoch: int) -> bytearray:
    """A copy of `batch` renumbered from `base_offset` in `leader_epoch` (the CRC is unaffected)."""
    out = bytearray(batch)
    _OFFSET.pack_into(out, 0, base_offset)
    _EPOCH.pack_into(out, 12, leader_epoch)
    return out


def stamp_log_append_time(batch: bytearray, now_ms: int) -> None:
    """LogAppendTime: the broker's time as the batch's max timestamp and the flag set; the CRC again."""
    (attributes,) = _ATTRIBUTES.unpack_from(batch, 21)
    _ATTRIBUTES.pack_into(batch, 21, attributes | LOG_APPEND_TIME_FLAG)
    _MAX_TIMESTAMP.pack_into(batch, 35, now_ms)
    struct.pack_into(">I", batch, 17, crc32c(bytes(batch[CRC_START:])))


@dataclass(frozen=True, slots=True)
class Record:
    """One record of a batch: absolute offset and timestamp, key, value and headers."""

    offset: int
    timestamp_ms: int
    key: bytes | None
    value: bytes | None
    headers: tuple[tuple[str, bytes | None], ...] = ()


def records_area(data: Buffer, header: BatchHeader) -> bytes:
    """The batch's records, inflated when it is compressed (BatchError when they do not inflate)."""
    start = header.position + HEADER_BYTES
    area = bytes(data[start : header.position + header.size])
    if not header.compression:
        return area
    from kcli.errors import DecodeError
    from kcli.metadata.framing import decompress

    try:
        return decompress(header.compression, area, header.position, MAX_INFLATED)
    except DecodeError as error:
        raise BatchError(f"the batch at byte {header.position}: {error}") from None


def records_of(data: Buffer, header: BatchHeader) -> Iterator[Record]:
    """The records of one batch, in order (BatchError for a record that does not parse)."""
    area = records_area(data, header)
    position = 0
    try:
        for _ in range(header.records_count):
            length, position = _varint(area, position)
            end = position + length
            if length < 0 or end > len(area):
                raise BatchError(f"a record past its batch at byte {header.position}")
            position += 1  # record attributes, unused
            timestamp_delta, position = _varint(area, position)
            offset_delta, position = _varint(area, position)
            key, position = _bytes(area, position)
            value, position = _bytes(area, position)
            count, position = _varint(area, position)
            headers = []
            for _h in range(count):
                name, position = _bytes(area, position)
                header_value, position = _bytes(area, position)
                headers.append(((name or b"").decode("utf-8", "replace"), header_value))
            if position != end:
                raise BatchError(f"a record whose length does not match its fields at byte {header.position}")
            yield Record(
                offset=header.base_offset + offset_delta,
                timestamp_ms=header.base_timestamp + timestamp_delta,
                key=key,
                value=value,
                headers=tuple(headers),
            )
    except (IndexError, ValueError) as error:
        raise BatchError(
            f"a record that does not parse in the batch at byte {header.position}: {error}"
        ) from None


def _varint(area: bytes, position: int) -> tuple[int, int]:
    """The zig-zag varint at `position` and the position after it."""
    raw = shift = 0
    while True:
        byte = area[position]
        position += 1
        raw |= (byte & 0x7F) << shift
        if byte < 0x80:
            return (raw >> 1) ^ -(raw & 1), position
        shift += 7
        if shift > 63:
            raise ValueError("a varint longer than 10 bytes")


def _bytes(area: bytes, position: int) -> tuple[bytes | None, int]:
    length, position = _varint(area, position)
    if length < 0:
        return None, position
    if position + length > len(area):
        raise BatchError("a field past its record")
    return area[position : position + length], position + length


_SMALL_VARINTS = [write_varint(n) for n in range(-1, 4096)]


def _varint_bytes(value: int) -> bytes:
    return _SMALL_VARINTS[value + 1] if -1 <= value < 4095 else write_varint(value)


def _record(
    offset_delta: int, timestamp_delta: int, record: Record | tuple[bytes | None, bytes | None]
) -> bytes:
    if isinstance(record, Record):
        key, value, headers = record.key, record.value, record.headers
    else:
        (key, value), headers = record, ()
    parts = [b"\x00", _varint_bytes(timestamp_delta), _varint_bytes(offset_delta)]
    for field in (key, value):
        if field is None:
            parts.append(_SMALL_VARINTS[0])
        else:
            parts.append(_varint_bytes(len(field)))
            parts.append(field)
    parts.append(_varint_bytes(len(headers)))
    for name, header_value in headers:
        encoded = name.encode("utf-8")
        parts += (_varint_bytes(len(encoded)), encoded)
        parts += (
            (_SMALL_VARINTS[0],) if header_value is None else (_varint_bytes(len(header_value)), header_value)
        )
    body = b"".join(parts)
    return _varint_bytes(len(body)) + body


def _plain_records(records: Sequence[tuple[bytes | None, bytes | None]], stamps: Sequence[int]) -> bytes:
    """The records area of (key, value) pairs without headers (the common case, kept quick)."""
    small, varint, null = _SMALL_VARINTS, _varint_bytes, _SMALL_VARINTS[0]
    first = stamps[0]
    parts = []
    for index, (key, value) in enumerate(records):
        body = b"".join(
            (
                b"\x00",
                varint(stamps[index] - first),
                small[index + 1] if index < 4095 else varint(index),
                null if key is None else varint(len(key)) + key,
                null if value is None else varint(len(value)) + value,
                b"\x00",
            )
        )
        parts.append(varint(len(body)))
        parts.append(body)
    return b"".join(parts)


def encode_batch(
    records: Sequence[Record | tuple[bytes | None, bytes | None]],
    *,
    timestamp_ms: int,
    base_offset: int = 0,
    leader_epoch: int = -1,
    producer_id: int = NO_PRODUCER_ID,
    producer_epoch: int = -1,
    base_sequence: int = NO_SEQUENCE,
    transactional: bool = False,
    control: bool = False,
    compression: int = 0,
    timestamps: Sequence[int] | None = None,
) -> bytes:
    """One v2 batch of `records` ((key, value) pairs or Records), as a producer frames it.

    Every record is stamped `timestamp_ms` unless `timestamps` gives one each; the leader assigns
    the real base offset when the batch is appended.
    """
    if not records:
        raise ValueError("a record batch needs at least one record")
    stamps = list(timestamps) if timestamps is not None else [timestamp_ms] * len(records)
    first = stamps[0]  # a producer's base timestamp is its first record's
    if all(type(r) is tuple for r in records):
        area = _plain_records(records, stamps)  # type: ignore[arg-type]
    else:
        area = b"".join(_record(index, stamps[index] - first, record) for index, record in enumerate(records))
    if compression:
        from kcli.sandbox.emulator.data.codecs import compress

        area = compress(compression, area)
    attributes = compression | (TRANSACTIONAL_FLAG if transactional else 0) | (CONTROL_FLAG if control else 0)
    tail = (
        struct.pack(
            ">hiqqqhii",
            attributes,
            len(records) - 1,
            first,
            max(stamps),
            producer_id,
            producer_epoch,
            base_sequence,
            len(records),
        )
        + area
    )
    length = 4 + 1 + 4 + len(tail)
    return struct.pack(">qiibI", base_offset, length, leader_epoch, 2, crc32c(tail)) + tail


CONTROL_KEY = struct.Struct(">hh")  # version, type
CONTROL_VALUE = struct.Struct(">hi")  # version, coordinator epoch


def marker_batch(
    *, producer_id: int, producer_epoch: int, commit: bool, coordinator_epoch: int, timestamp_ms: int
) -> bytes:
    """The control batch that ends a transaction (EndTransactionMarker), transactional and control."""
    key = CONTROL_KEY.pack(0, 1 if commit else 0)
    value = CONTROL_VALUE.pack(0, coordinator_epoch)
    return encode_batch(
        [(key, value)],
        timestamp_ms=timestamp_ms,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        transactional=True,
        control=True,
    )


def marker_of(data: Buffer, header: BatchHeader) -> tuple[int, int] | None:
    """(control type, coordinator epoch) of a control batch's end-transaction marker; None for another
    control record (or an empty batch)."""
    for record in records_of(data, header):
        if record.key is None or len(record.key) < CONTROL_KEY.size:
            return None
        _version, kind = CONTROL_KEY.unpack_from(record.key)
        if kind not in (0, 1):
            return None
        epoch = -1
        if record.value is not None and len(record.value) >= CONTROL_VALUE.size:
            epoch = CONTROL_VALUE.unpack_from(record.value)[1]
        return kind, epoch
    return None
