"""Produce (0), versions 3-13 advertised from 0 (brokers only): records appended by the partition's leader.

Behavior:
- Auth: WRITE on each topic (TOPIC_AUTHORIZATION_FAILED); a transactional request also WRITE on
  its transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED for every partition).
- acks must be -1, 0 or 1 (INVALID_REQUIRED_ACKS); with acks 0 no response is sent at all.
- Each partition's data must be exactly one RecordBatch v2 (INVALID_RECORD otherwise, as Kafka's
  ProduceRequest.validateRecords); the leader checks and numbers it
  (kcli.sandbox.emulator.data): CORRUPT_MESSAGE, MESSAGE_TOO_LARGE, INVALID_RECORD and
  INVALID_TIMESTAMP with the failing records (KIP-467), the idempotent producer's sequence and
  epoch errors, NOT_ENOUGH_REPLICAS for acks -1 below min.insync.replicas. An idempotent retry
  answers with the offsets the batch got the first time.
- A transactional batch that opens a transaction on the partition is first verified with the
  transaction coordinator when one is wired in (KIP-890's verification).
- A broker that does not lead the partition answers NOT_LEADER_OR_FOLLOWER with the current leader
  (v10+: CurrentLeader and the NodeEndpoints, KIP-951).

Version notes: v8 record errors and error message; v9 flexible; v13 topic ids (UNKNOWN_TOPIC_ID).
Versions 0-2 are advertised as Kafka 4 does (for librdkafka, KAFKA-18659), but not answered: like
Kafka's broker, the emulator closes a connection that sends one (kio has no class for them either).
"""

from __future__ import annotations

import datetime
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.interface import LogError
from kcli.sandbox.emulator.data.records import BatchError, read_header
from kcli.sandbox.emulator.data.validate import RecordErrors
from kcli.sandbox.emulator.registry import Listener, api

NO_RESPONSE = None  # acks=0: the broker sends nothing back


@api(ApiKey.PRODUCE, (3, 13), listeners=Listener.BROKER, advertised_min=0)
async def handle_produce(ctx: RequestContext, request: Any) -> Any:
    """Append records."""
    acks = int(request.acks)
    by_id = ctx.version >= 13
    transactional_id = request.transactional_id
    txn_ok = transactional_id is None or ctx.authorize(
        AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id
    )
    leaders: list[int] = []
    topics = []
    for data in request.topic_data:
        name, missing = pa.topic_of(ctx, None if by_id else data.name, data.topic_id if by_id else None)
        shown = name if name is not None else getattr(data, "name", None)
        partitions = []
        for part in data.partition_data:
            code: int
            message: str | None
            result: Any
            if acks not in (-1, 0, 1):
                code, message, result = ErrorCode.invalid_required_acks, None, None
            elif not txn_ok:
                code, message, result = ErrorCode.transactional_id_authorization_failed, None, None
            elif shown is not None and not ctx.authorize(AclOperation.WRITE, ResourceType.TOPIC, shown):
                code, message, result = ErrorCode.topic_authorization_failed, None, None
            elif name is None:
                code, message, result = missing, None, None
            else:
                code, message, result = await _append(
                    ctx, name, int(part.index), part.records, acks, transactional_id, _ms(request.timeout)
                )
            partitions.append(_partition(ctx, name, int(part.index), code, message, result, leaders))
        topics.append(
            ctx.r(
                "TopicProduceResponse",
                name=shown if not by_id else None,
                topic_id=data.topic_id if by_id else None,
                partition_responses=tuple(partitions),
            )
        )
    if acks == 0:
        return NO_RESPONSE
    return ctx.r(
        "ProduceResponse",
        responses=tuple(topics),
        throttle_time=ZERO,
        node_endpoints=pa.node_endpoints(ctx, "NodeEndpoint", leaders),
    )


async def _append(
    ctx: RequestContext,
    topic: str,
    partition: int,
    records: bytes | None,
    acks: int,
    transactional_id: str | None,
    timeout_ms: int,
) -> tuple[int, str | None, Any]:
    data = bytes(records or b"")
    if _one_v2_batch(data) is not None:
        return ErrorCode.invalid_record, None, None
    logs = pa.plane(ctx)
    try:
        refused = await _unverified(ctx, topic, partition, data, transactional_id)
        if refused:
            return refused, None, None
        appended = await logs.append(
            topic, partition, data, acks=acks, timeout_ms=timeout_ms, node=ctx.node.node_id
        )
        return 0, None, appended
    except LogError as error:
        start = _log_start(ctx, topic, partition, error.code)
        if isinstance(error, RecordErrors):
            return error.code, error.message, (start, error.records)  # only these carry a message (KIP-467)
        return error.code, None, (start, [])


async def _unverified(
    ctx: RequestContext, topic: str, partition: int, data: bytes, transactional_id: str | None
) -> int:
    """The coordinator's error for a transactional batch that opens a transaction (0: go ahead)."""
    logs = pa.plane(ctx)
    gate = logs.transaction_gate
    if gate is None or transactional_id is None:
        return 0
    try:
        header = read_header(data, check_crc=False)
    except BatchError:
        return 0
    if not header.is_transactional or logs.has_open_transaction(
        topic, partition, header.producer_id, header.producer_epoch
    ):
        return 0
    return await gate.verify(
        transactional_id, header.producer_id, header.producer_epoch, topic, partition, add=ctx.version >= 12
    )


def _ms(value: Any) -> int:
    return int(value.total_seconds() * 1000) if isinstance(value, datetime.timedelta) else int(value)


def _one_v2_batch(data: bytes) -> str | None:
    """Kafka's ProduceRequest.validateRecords: exactly one v2 batch per partition from v3 on (what is
    wrong, for the log; the answer carries no message)."""
    if not data:
        return "no record batch"
    if len(data) > 16 and data[16] != 2:
        return "a batch of another magic than 2"
    try:
        first = read_header(data, check_crc=False)
    except BatchError:
        return None  # the leader answers CORRUPT_MESSAGE for a torn or damaged batch
    if first.size < len(data):
        return "more than one record batch"
    return None


# What Kafka's ReplicaManager answers with log start -1; any other append error carries the log start.
_NO_LOG_START = {
    ErrorCode.unknown_topic_or_partition,
    ErrorCode.not_leader_or_follower,
    ErrorCode.message_too_large,
    ErrorCode.record_list_too_large,
    ErrorCode.corrupt_message,
    ErrorCode.kafka_storage_error,
    ErrorCode.unknown_topic_id,
}


def _log_start(ctx: RequestContext, topic: str, partition: int, code: int) -> int:
    if code in _NO_LOG_START:
        return -1
    try:
        return pa.plane(ctx).offsets(topic, partition).log_start_offset
    except LogError:
        return -1


def _partition(
    ctx: RequestContext,
    topic: str | None,
    index: int,
    code: int,
    message: str | None,
    result: Any,
    leaders: list[int],
) -> Any:
    values: dict[str, Any] = {"index": index, "error_code": code, "record_errors": ()}
    if code == 0:
        values.update(
            base_offset=result.base_offset,
            log_append_time=_time(result.log_append_time_ms),
            log_start_offset=result.log_start_offset,
        )
    else:
        start, failed = result if result is not None else (-1, [])
        values.update(base_offset=-1, log_append_time=None, log_start_offset=start, error_message=message)
        values["record_errors"] = tuple(
            ctx.r("BatchIndexAndErrorMessage", batch_index=i, batch_index_error_message=text)
            for i, text in failed
        )
        if code == ErrorCode.not_leader_or_follower and topic is not None and ctx.version >= 10:
            leader, epoch = pa.current_leader(ctx, topic, index)
            leaders.append(leader)
            values["current_leader"] = ctx.r("LeaderIdAndEpoch", leader_id=leader, leader_epoch=epoch)
    return ctx.r("PartitionProduceResponse", **values)


def _time(ms: int) -> datetime.datetime | None:
    if ms < 0:
        return None
    return datetime.datetime.fromtimestamp(ms / 1000, tz=datetime.UTC)
