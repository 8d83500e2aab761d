"""Encoding of RecordBatch v2 (the write model; the reader keeps its own read model).

Behavior:
- Fields derived from the content (batch length, CRC-32C over bytes [21, end), last offset delta,
  max timestamp) are computed here, never passed in.
- KRaft batches: producer id/epoch and base sequence -1, CreateTime, not transactional.
- Optional compression (gzip, snappy in xerial framing as the Java client writes it, lz4 frame, zstd)
  exists so readers can be tested against it; Kafka's Raft layer itself writes uncompressed batches.
"""

from __future__ import annotations

import enum
import struct
from collections.abc import Sequence

from kcli.crc import crc32c
from kcli.kafka import write_varint

MAGIC = 2
CONTROL_FLAG = 0x20
# Bytes from the start of the batch to the first record.
BATCH_HEADER_SIZE = 61
# KafkaRaftClient.MAX_BATCH_SIZE_BYTES.
MAX_BATCH_BYTES = 8 * 1024 * 1024

_PREFIX = struct.Struct(">qiib")  # baseOffset, batchLength, partitionLeaderEpoch, magic
_CRC = struct.Struct(">I")
_AFTER_CRC = struct.Struct(">hiqqqhii")  # attributes .. recordsCount

XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = XERIAL_MAGIC + struct.pack(">ii", 1, 1)


class Compression(enum.IntEnum):
    """The codec in bits 0-2 of the batch attributes."""

    NONE = 0
    GZIP = 1
    SNAPPY = 2
    LZ4 = 3
    ZSTD = 4


def encode_record(
    *, offset_delta: int, timestamp_delta: int, key: bytes | None, value: bytes | None
) -> bytes:
    """One record of the records area (length-prefixed, no headers)."""
    body = bytearray(b"\x00")  # attributes, unused
    body += write_varint(timestamp_delta)
    body += write_varint(offset_delta)
    if key is None:
        body += b"\x01"  # varint -1
    else:
        body += write_varint(len(key))
        body += key
    if value is None:
        body += b"\x01"
    else:
        body += write_varint(len(value))
        body += value
    body += b"\x00"  # no headers
    return write_varint(len(body)) + bytes(body)


def compress(codec: Compression, data: bytes) -> bytes:
    """Compress a records area the way Kafka's Java client frames each codec."""
    import cramjam

    if codec is Compression.GZIP:
        return bytes(cramjam.gzip.compress(data))
    if codec is Compression.SNAPPY:
        # xerial SnappyOutputStream: header, then (int32 length, raw snappy block) chunks of <= 32 KiB.
        out = bytearray(_XERIAL_HEADER)
        for start in range(0, len(data), 32 * 1024):
            block = bytes(cramjam.snappy.compress_raw(data[start : start + 32 * 1024]))
            out += struct.pack(">i", len(block)) + block
        return bytes(out)
    if codec is Compression.LZ4:
        return bytes(cramjam.lz4.compress(data))
    if codec is Compression.ZSTD:
        return bytes(cramjam.zstd.compress(data))
    return data


def encode_batch(
    records: Sequence[tuple[bytes | None, bytes | None]],
    *,
    base_offset: int,
    epoch: int,
    timestamp_ms: int,
    control: bool = False,
    compression: Compression = Compression.NONE,
) -> bytes:
    """One RecordBatch v2 holding `records` as (key, value) pairs, all stamped `timestamp_ms`."""
    if not records:
        raise ValueError("a record batch needs at least one record")
    area = b"".join(
        encode_record(offset_delta=index, timestamp_delta=0, key=key, value=value)
        for index, (key, value) in enumerate(records)
    )
    area = compress(compression, area)
    attributes = int(compression) | (CONTROL_FLAG if control else 0)
    tail = (
        _AFTER_CRC.pack(attributes, len(records) - 1, timestamp_ms, timestamp_ms, -1, -1, -1, len(records))
        + area
    )
    batch_length = 4 + 1 + 4 + len(tail)  # epoch + magic + crc + the rest
    return _PREFIX.pack(base_offset, batch_length, epoch, MAGIC) + _CRC.pack(crc32c(tail)) + tail
