"""Whole, CRC-valid v2 record batches in a replica's bytes: where each sits and what it holds."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from kcli.crc import crc32c

_HEADER = struct.Struct(">qiibI")  # baseOffset, batchLength, partitionLeaderEpoch, magic, crc
_LAST_OFFSET_DELTA = struct.Struct(">i")
_LENGTH_OVERHEAD = 12  # baseOffset + batchLength precede the counted bytes
_MIN_BATCH_BYTES = 61  # a v2 batch header with no records
_CRC_START = 21


@dataclass(frozen=True, slots=True)
class BatchHead:
    """The parts of a batch header that place it in the log."""

    base: int
    last: int
    epoch: int
    size: int


def parse_batch(data: bytes | memoryview, position: int) -> BatchHead | None:
    """The header of a whole, CRC-valid v2 batch at `position`, or None (torn, foreign or damaged)."""
    if position + _MIN_BATCH_BYTES > len(data):
        return None
    base, length, epoch, magic, crc = _HEADER.unpack_from(data, position)
    size = length + _LENGTH_OVERHEAD
    if magic != 2 or size < _MIN_BATCH_BYTES or position + size > len(data) or base < 0 or epoch < 0:
        return None
    if crc32c(bytes(data[position + _CRC_START : position + size])) != crc:
        return None
    (delta,) = _LAST_OFFSET_DELTA.unpack_from(data, position + 23)
    if delta < 0:
        return None
    return BatchHead(base=base, last=base + delta, epoch=epoch, size=size)
