"""OffsetForLeaderEpoch (23), versions 2-4 (brokers only): where a leader epoch ends in the leader's log.

Behavior:
- Auth: DESCRIBE on each topic (TOPIC_AUTHORIZATION_FAILED).
- For each partition, the largest epoch at or below the one asked and the offset it ends at (the
  first offset of the next epoch, or the log end for the current one), as Kafka's
  LeaderEpochFileCache.endOffsetFor; an epoch older than every one the log knows is -1 / -1.
  Consumers use it to find a truncation after a leader change (KIP-320).
- Errors: UNKNOWN_TOPIC_OR_PARTITION, NOT_LEADER_OR_FOLLOWER, FENCED_LEADER_EPOCH /
  UNKNOWN_LEADER_EPOCH for CurrentLeaderEpoch; leader epoch and end offset -1 with them.

Version notes: v3 replica id; v4 flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.interface import LogError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.OFFSET_FOR_LEADER_EPOCH, (2, 4), listeners=Listener.BROKER)
async def handle_offset_for_leader_epoch(ctx: RequestContext, request: Any) -> Any:
    """End offsets of leader epochs."""
    logs = pa.plane(ctx)
    topics = []
    for topic in request.topics:
        allowed = ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.topic)
        partitions = []
        for p in topic.partitions:
            code, epoch, end = 0, -1, -1
            if not allowed:
                code = ErrorCode.topic_authorization_failed
            elif pa.partition_of(ctx, topic.topic, int(p.partition)) is None:
                code = ErrorCode.unknown_topic_or_partition
            else:
                code = pa.fenced(ctx, topic.topic, int(p.partition), int(p.current_leader_epoch))
                if not code:
                    try:
                        epoch, end = logs.end_offset_for_epoch(
                            topic.topic, int(p.partition), int(p.leader_epoch), node=ctx.node.node_id
                        )
                    except LogError as error:
                        code = error.code
            partitions.append(
                ctx.r(
                    "EpochEndOffset",
                    error_code=code,
                    partition=p.partition,
                    leader_epoch=epoch,
                    end_offset=end,
                )
            )
        topics.append(ctx.r("OffsetForLeaderTopicResult", topic=topic.topic, partitions=tuple(partitions)))
    return ctx.r("OffsetForLeaderEpochResponse", throttle_time=ZERO, topics=tuple(topics))
