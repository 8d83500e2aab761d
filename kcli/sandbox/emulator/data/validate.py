"""A leader's checks of the batches a client appends (Kafka's LogValidator, for RecordBatch v2).

Behavior:
- Bytes that are not whole v2 batches, or a batch whose CRC fails, are CORRUPT_MESSAGE; a batch over
  max.message.bytes is MESSAGE_TOO_LARGE.
- From a client: an offset range that disagrees with the record count, a control batch, or a
  producer id without a sequence number is INVALID_RECORD.
- Records are walked only where a rule needs them: a compacted topic refuses records without a key
  (INVALID_RECORD), and CreateTime timestamps outside [now - message.timestamp.before.max.ms,
  now + message.timestamp.after.max.ms] are INVALID_TIMESTAMP, both with the failing records'
  indexes (KIP-467); the batch's base and max timestamps decide whether the walk is needed.
- A topic whose compression.type names a codec other than the batch's (not `producer`) gets the
  batch rebuilt with that codec (same producer fields, timestamps, keys, values and headers);
  otherwise the client's bytes are kept as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.interface import LogError
from kcli.sandbox.emulator.data.records import (
    CODECS,
    BatchError,
    BatchHeader,
    encode_batch,
    read_header,
    records_of,
)

NO_TIMESTAMP = -1


class RecordErrors(LogError):
    """A batch refused for some of its records: (record index, message) each."""

    def __init__(self, code: int, message: str, records: list[tuple[int, str]]) -> None:
        super().__init__(code, message)
        self.records = records


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicRules:
    """The topic configs a leader validates with."""

    max_message_bytes: int = 1_048_588
    log_append_time: bool = False
    timestamp_before_max_ms: int = 2**63 - 1
    timestamp_after_max_ms: int = 3_600_000
    compacted: bool = False
    compression: str = "producer"


def split_batches(data: bytes, partition: str) -> list[BatchHeader]:
    """The headers of whole, CRC-valid v2 batches (CORRUPT_MESSAGE / INVALID_RECORD otherwise)."""
    out: list[BatchHeader] = []
    position = 0
    while position < len(data):
        if len(data) - position > 16 and data[position + 16] != 2:
            raise LogError(
                ErrorCode.invalid_record,
                f"Produce requests are only allowed to contain record batches with magic version 2 ({partition})",
            )
        try:
            header = read_header(data, position)
        except BatchError as error:
            raise LogError(
                ErrorCode.corrupt_message, f"Record is corrupt: {error} in topic partition {partition}"
            ) from None
        out.append(header)
        position += header.size
    return out


def check_batch(header: BatchHeader, rules: TopicRules, partition: str, *, client: bool) -> None:
    """The batch-level rules (LogValidator.validateBatch and the size limit)."""
    if header.size > rules.max_message_bytes:
        raise LogError(
            ErrorCode.message_too_large,
            f"The record batch size in the append to {partition} is {header.size} bytes which exceeds "
            f"the maximum configured value of {rules.max_message_bytes}.",
        )
    if not client:
        return
    if header.records_count <= 0 or header.last_offset_delta + 1 != header.records_count:
        raise LogError(
            ErrorCode.invalid_record,
            f"Inconsistent batch offset range [{header.base_offset}, {header.last_offset}] and count of records "
            f"{header.records_count} in topic partition {partition}",
        )
    if header.is_control:
        raise LogError(
            ErrorCode.invalid_record,
            f"Clients are not allowed to write control records in topic partition {partition}",
        )
    if header.producer_id >= 0 and header.base_sequence < 0:
        raise LogError(
            ErrorCode.invalid_record,
            f"Invalid sequence number {header.base_sequence} in record batch with producerId "
            f"{header.producer_id} in topic partition {partition}",
        )


def check_records(data: bytes, header: BatchHeader, rules: TopicRules, partition: str, now_ms: int) -> None:
    """The record-level rules, walking the records only when the batch may break one."""
    low, high = now_ms - rules.timestamp_before_max_ms, now_ms + rules.timestamp_after_max_ms
    timed = not rules.log_append_time and not (low <= header.base_timestamp and header.max_timestamp <= high)
    if not (rules.compacted or timed or (header.log_append_time and not rules.log_append_time)):
        return
    errors: list[tuple[int, str]] = []
    invalid_time = False
    try:
        for index, record in enumerate(records_of(data, header)):
            if rules.compacted and record.key is None:
                errors.append(
                    (
                        index,
                        f"Compacted topic cannot accept message without key in topic partition {partition}",
                    )
                )
            elif rules.log_append_time:
                continue
            elif header.log_append_time:
                invalid_time = True
                errors.append(
                    (
                        index,
                        "Invalid timestamp type in message. Producer should not set timestamp type to LogAppendTime.",
                    )
                )
            elif record.timestamp_ms != NO_TIMESTAMP and not low <= record.timestamp_ms <= high:
                invalid_time = True
                errors.append(
                    (
                        index,
                        f"Timestamp {record.timestamp_ms} of message with offset {record.offset} is out of range. "
                        f"The timestamp should be within [{low}, {high}]",
                    )
                )
    except BatchError as error:
        raise LogError(
            ErrorCode.corrupt_message, f"Record is corrupt: {error} in topic partition {partition}"
        ) from None
    if not errors:
        return
    if invalid_time:
        raise RecordErrors(
            ErrorCode.invalid_timestamp,
            "One or more records have been rejected due to invalid timestamp",
            errors,
        )
    raise RecordErrors(
        ErrorCode.invalid_record,
        f"One or more records have been rejected due to {len(errors)} record errors in total, and only showing "
        "the first three errors at most: ["
        + ", ".join(f"RecordError(batchIndex={i}, message='{text}')" for i, text in errors[:3])
        + "]",
        errors,
    )


def recompressed(data: bytes, header: BatchHeader, rules: TopicRules) -> bytes | None:
    """The batch rebuilt with the topic's codec, or None when the client's bytes are kept."""
    target = CODECS.get(rules.compression)
    if target is None or target == header.compression or header.is_control:
        return None
    records = list(records_of(data, header))
    return encode_batch(
        records,
        timestamp_ms=header.base_timestamp,
        timestamps=[r.timestamp_ms for r in records],
        producer_id=header.producer_id,
        producer_epoch=header.producer_epoch,
        base_sequence=header.base_sequence,
        transactional=header.is_transactional,
        compression=target,
    )


def validated(
    data: bytes, rules: TopicRules, partition: str, now_ms: int, *, client: bool
) -> list[tuple[bytes, BatchHeader]]:
    """Each batch of `data` as it is to be appended (its bytes and header at position 0), or LogError."""
    out: list[tuple[bytes, BatchHeader]] = []
    for header in split_batches(data, partition):
        batch = data[header.position : header.position + header.size]
        header = header._replace(position=0)
        check_batch(header, rules, partition, client=client)
        if client:
            check_records(batch, header, rules, partition, now_ms)
            rebuilt = recompressed(batch, header, rules)
            if rebuilt is not None:
                batch, header = rebuilt, read_header(rebuilt, check_crc=False)
        out.append((batch, header))
    return out
