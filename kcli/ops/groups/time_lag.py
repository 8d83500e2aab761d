"""Lag in time: the age of the record at a group's committed offset (kcli's `--time-lag`).

Pure: the record batches a Fetch at the committed offset returned come in as bytes. The record at
the committed offset is the next one the group will consume; its timestamp (CreateTime as the
producer set it, or LogAppendTime when the topic says so) against now is how far behind the
group is, in time. Compacted or transaction-marker offsets: the first data record at or after it.
"""

from __future__ import annotations

from kcli.errors import DecodeError
from kcli.kafka import read_varint

LOG_APPEND_TIME = 0x08


def record_timestamp(data: bytes, offset: int) -> int | None:
    """The timestamp (epoch ms) of the first data record at or after `offset` in `data`, or None.

    None when the bytes hold no whole batch with such a record (an empty fetch, or a batch cut at
    the fetch's size limit).
    """
    from kcli.metadata.framing import batch_records_area, read_batch

    view = memoryview(data)
    pos = 0
    while pos < len(view):
        try:
            batch, size = read_batch(view, pos)
        except DecodeError:
            return None
        pos += size
        last = batch.base_offset + batch.last_offset_delta
        if batch.is_control or last < offset or batch.record_count == 0:
            continue
        if batch.attributes & LOG_APPEND_TIME:
            return int(batch.max_timestamp)
        try:
            area, start, end = batch_records_area(view, batch)
            found = _first_at(area, start, end, batch.base_offset, batch.base_timestamp, offset)
        except (DecodeError, IndexError):
            return None
        if found is not None:
            return found
    return None


def _first_at(
    area: bytes | memoryview, pos: int, end: int, base_offset: int, base_timestamp: int, offset: int
) -> int | None:
    """Walk the records (length, attributes, timestamp delta, offset delta, ...) to the first at `offset`."""
    while pos < end:
        length, size = read_varint(area, pos)
        body = pos + size
        if length <= 0 or body + length > end:
            return None
        delta, ts_size = read_varint(area, body + 1)
        offset_delta, _ = read_varint(area, body + 1 + ts_size)
        if base_offset + offset_delta >= offset:
            return base_timestamp + delta
        pos = body + length
    return None


def age_ms(timestamp: int | None, now_ms: int) -> int | None:
    """How old a record is (never negative: a producer's clock ahead of ours is no lag)."""
    if timestamp is None or timestamp < 0:
        return None
    return max(0, now_ms - timestamp)
