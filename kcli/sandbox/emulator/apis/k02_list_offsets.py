"""ListOffsets (2), versions 1-11 (brokers only): offsets by time, as Kafka's Partition.fetchOffsetForTimestamp.

Behavior:
- Auth: DESCRIBE on each topic, else TOPIC_AUTHORIZATION_FAILED.
- -1 latest: the high watermark (read_committed: the last stable offset) in the current leader
  epoch; -2 earliest and -4 earliest-local (KIP-1005; no tiered storage): the log start with the
  first epoch when it starts there; -3 max timestamp (KIP-734): the first record with the largest
  timestamp; -5 latest-tiered and -6 earliest-pending-upload: -1 with epoch -1 (no remote storage);
  a timestamp: the first record at or after it. A found offset at or past the high watermark (the
  last stable offset) is not returned: offset and timestamp -1.
- Errors: UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH /
  UNKNOWN_LEADER_EPOCH; timestamp, offset and leader epoch -1 with them.

Version notes: v2 isolation level; v4 current leader epoch and leader epoch; v6 flexible; v7-v11
the special timestamps above; v10 timeout.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.interface import Isolation, LogError
from kcli.sandbox.emulator.registry import Listener, api

LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED, EARLIEST_PENDING_UPLOAD = (
    -1,
    -2,
    -3,
    -4,
    -5,
    -6,
)
NOTHING = (-1, -1, -1)  # timestamp, offset, leader epoch


@api(ApiKey.LIST_OFFSETS, (1, 11), listeners=Listener.BROKER)
async def handle_list_offsets(ctx: RequestContext, request: Any) -> Any:
    """Find offsets."""
    isolation = Isolation(int(getattr(request, "isolation_level", 0)))
    topics = []
    for topic in request.topics:
        allowed = ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name)
        partitions = []
        for p in topic.partitions:
            code: int
            if not allowed:
                code, found = ErrorCode.topic_authorization_failed, NOTHING
            else:
                code, found = _offset(ctx, topic.name, p, isolation)
            timestamp, offset, epoch = found
            partitions.append(
                ctx.r(
                    "ListOffsetsPartitionResponse",
                    partition_index=p.partition_index,
                    error_code=code,
                    timestamp=timestamp,
                    offset=offset,
                    leader_epoch=epoch,
                )
            )
        topics.append(ctx.r("ListOffsetsTopicResponse", name=topic.name, partitions=tuple(partitions)))
    return ctx.r("ListOffsetsResponse", throttle_time=ZERO, topics=tuple(topics))


def _offset(
    ctx: RequestContext, topic: str, p: Any, isolation: Isolation
) -> tuple[int, tuple[int, int, int]]:
    logs = pa.plane(ctx)
    index = int(p.partition_index)
    node = ctx.node.node_id
    wanted = int(p.timestamp)
    try:
        fenced = pa.fenced(ctx, topic, index, int(getattr(p, "current_leader_epoch", -1)))
        if fenced:
            return fenced, NOTHING
        offsets = logs.offsets(topic, index, node=node)
        last = offsets.last_stable_offset if isolation is Isolation.READ_COMMITTED else offsets.high_watermark
        if wanted == LATEST:
            return 0, (-1, last, logs.leader_epoch(topic, index))
        if wanted in (EARLIEST, EARLIEST_LOCAL):
            start = offsets.log_start_offset
            epoch = (
                logs.epoch_at(topic, index, start)
                if wanted == EARLIEST_LOCAL
                else _first_epoch(ctx, topic, index, start)
            )
            return 0, (-1, start, epoch)
        if wanted in (LATEST_TIERED, EARLIEST_PENDING_UPLOAD):
            return 0, NOTHING
        found = (
            logs.max_timestamp(topic, index, node=node)
            if wanted == MAX_TIMESTAMP
            else logs.offset_for_timestamp(topic, index, wanted, isolation, node=node)
        )
    except LogError as error:
        return error.code, NOTHING
    if found is None or found.offset >= last:
        return 0, NOTHING
    return 0, (found.timestamp_ms, found.offset, found.leader_epoch)


def _first_epoch(ctx: RequestContext, topic: str, partition: int, start: int) -> int:
    """The earliest epoch entry when it starts at or before the log start (else -1), as Kafka answers."""
    topic_id = ctx.cluster.image.topic_ids.get(topic)
    info = pa.partition_of(ctx, topic, partition)
    if topic_id is None or info is None:
        return -1
    replica = pa.plane(ctx).replicas.get(topic_id, partition, info.leader, create=False)
    if replica is None or not replica.epochs or replica.epochs[0][1] > start:
        return -1
    return replica.epochs[0][0]
