"""DeleteRecords (21), versions 0-2 (brokers only): move partitions' log start offsets (kafka-delete-records.sh).

Behavior:
- Auth: DELETE on each topic (TOPIC_AUTHORIZATION_FAILED).
- The leader moves its log start to the offset (-1: the high watermark) and every replica
  follows; the segments wholly below it are deleted. The answer's low watermark is the new log
  start. An offset past the high watermark (or below 0) is OFFSET_OUT_OF_RANGE; a compacted-only
  topic POLICY_VIOLATION; NOT_LEADER_OR_FOLLOWER on a broker that does not lead the partition;
  UNKNOWN_TOPIC_OR_PARTITION. The low watermark is -1 with an error.

Version notes: v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.interface import LogError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DELETE_RECORDS, (0, 2), listeners=Listener.BROKER)
async def handle_delete_records(ctx: RequestContext, request: Any) -> Any:
    """Delete records below offsets."""
    logs = pa.plane(ctx)
    topics = []
    for topic in request.topics:
        allowed = ctx.authorize(AclOperation.DELETE, ResourceType.TOPIC, topic.name)
        partitions = []
        for p in topic.partitions:
            code, low = 0, -1
            if not allowed:
                code = ErrorCode.topic_authorization_failed
            else:
                try:
                    low = await logs.delete_records(
                        topic.name, int(p.partition_index), int(p.offset), node=ctx.node.node_id
                    )
                except LogError as error:
                    code = error.code
            partitions.append(
                ctx.r(
                    "DeleteRecordsPartitionResult",
                    partition_index=p.partition_index,
                    low_watermark=low,
                    error_code=code,
                )
            )
        topics.append(ctx.r("DeleteRecordsTopicResult", name=topic.name, partitions=tuple(partitions)))
    return ctx.r("DeleteRecordsResponse", throttle_time=ZERO, topics=tuple(topics))
