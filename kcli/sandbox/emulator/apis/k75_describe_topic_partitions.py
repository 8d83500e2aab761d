"""DescribeTopicPartitions (75), version 0 (brokers only): topics and partitions, paginated (KIP-966).

Behavior:
- Topics are answered in name order; an empty list means every topic the caller may DESCRIBE.
- At most response_partition_limit partitions per response; next_cursor points at the first
  partition left out; a cursor starts the listing there.
- Unknown topics -> UNKNOWN_TOPIC_OR_PARTITION; unauthorized -> TOPIC_AUTHORIZATION_FAILED.
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.authorizer import authorized_operations
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DESCRIBE_TOPIC_PARTITIONS, (0, 0), listeners=Listener.BROKER)
async def handle_describe_topic_partitions(ctx: RequestContext, request: Any) -> Any:
    """Describe topic partitions page by page."""
    image = ctx.cluster.image
    live = {b.broker_id for b in image.brokers.values() if not b.fenced}
    names = (
        sorted({t.name for t in request.topics})
        if request.topics
        else sorted(
            t.name
            for t in image.topics.values()
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, t.name)
        )
    )
    cursor = request.cursor
    if cursor is not None:
        names = [n for n in names if n >= cursor.topic_name]
    budget = max(1, request.response_partition_limit)
    topics = []
    next_cursor = None
    for name in names:
        topic = image.topic(name)
        if budget == 0 and topic is not None:
            next_cursor = ctx.r("Cursor", topic_name=name, partition_index=0)
            break
        if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name) or topic is None:
            code = (
                ErrorCode.topic_authorization_failed
                if topic is not None
                else ErrorCode.unknown_topic_or_partition
            )
            topics.append(
                ctx.r(
                    "DescribeTopicPartitionsResponseTopic",
                    error_code=code,
                    name=name,
                    topic_id=uuid.UUID(int=0),
                    is_internal=False,
                    partitions=(),
                    topic_authorized_operations=-(2**31),
                )
            )
            continue
        start = cursor.partition_index if cursor is not None and cursor.topic_name == name else 0
        partitions = []
        for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id):
            if p.partition_id < start:
                continue
            if budget == 0:
                next_cursor = ctx.r("Cursor", topic_name=name, partition_index=p.partition_id)
                break
            budget -= 1
            partitions.append(
                ctx.r(
                    "DescribeTopicPartitionsResponsePartition",
                    error_code=0,
                    partition_index=p.partition_id,
                    leader_id=p.leader,
                    leader_epoch=p.leader_epoch,
                    replica_nodes=tuple(p.replicas),
                    isr_nodes=tuple(p.isr),
                    eligible_leader_replicas=(),
                    last_known_elr=(),
                    offline_replicas=tuple(b for b in p.replicas if b not in live),
                )
            )
        topics.append(
            ctx.r(
                "DescribeTopicPartitionsResponseTopic",
                error_code=0,
                name=name,
                topic_id=topic.topic_id,
                is_internal=False,
                partitions=tuple(partitions),
                topic_authorized_operations=authorized_operations(ctx, ResourceType.TOPIC, name),
            )
        )
        if next_cursor is not None:
            break
    return ctx.r(
        "DescribeTopicPartitionsResponse", throttle_time=ZERO, topics=tuple(topics), next_cursor=next_cursor
    )
