"""OffsetDelete (47), version 0: a group's committed offsets of some partitions go (KIP-496).

Behavior:
- Brokers only; DELETE on the group (GROUP_AUTHORIZATION_FAILED); READ on each topic
  (TOPIC_AUTHORIZATION_FAILED per partition); unknown topics or partitions UNKNOWN_TOPIC_OR_PARTITION;
  the broker must coordinate the group.
- A group with members that are not consumers is NON_EMPTY_GROUP; a topic the group's members
  subscribe to is GROUP_SUBSCRIBED_TO_TOPIC per partition; a missing group GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.OFFSET_DELETE, (0, 0), listeners=Listener.BROKER)
async def handle_offset_delete(ctx: RequestContext, request: Any) -> Any:
    """Delete the group's offsets of the topics' partitions."""
    if not ctx.authorize(AclOperation.DELETE, ResourceType.GROUP, request.group_id):
        return _answer(ctx, ErrorCode.group_authorization_failed, [])
    image = ctx.cluster.image
    answers: list[tuple[str, list[tuple[int, Any]]]] = []
    asked: list[tuple[str, list[int]]] = []
    for topic in request.topics:
        partitions = [int(p.partition_index) for p in topic.partitions]
        known = image.topic(topic.name)
        if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, topic.name):
            answers.append((topic.name, [(p, ErrorCode.topic_authorization_failed) for p in partitions]))
        elif known is None:
            answers.append((topic.name, [(p, ErrorCode.unknown_topic_or_partition) for p in partitions]))
        else:
            good = [p for p in partitions if p in known.partitions]
            bad = [(p, ErrorCode.unknown_topic_or_partition) for p in partitions if p not in known.partitions]
            if bad:
                answers.append((topic.name, bad))
            if good:
                asked.append((topic.name, good))
    coordinator = coordination.group_coordinator(ctx.cluster)
    code = coordination.coordinator_error(
        ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, coordinator.partition_for(request.group_id)
    )
    if code is not None:
        return _answer(ctx, code, [])
    try:
        deleted = await coordinator.delete_offsets(request.group_id, asked) if asked else []
    except CoordinatorError as error:
        return _answer(ctx, error.code, [])
    return _answer(ctx, ErrorCode.none, coordination.merged(answers, deleted))


def _answer(ctx: RequestContext, code: int, topics: list[tuple[str, list[tuple[int, Any]]]]) -> Any:
    return ctx.r(
        "OffsetDeleteResponse",
        error_code=code,
        throttle_time=ZERO,
        topics=tuple(
            ctx.r(
                "OffsetDeleteResponseTopic",
                name=name,
                partitions=tuple(
                    ctx.r("OffsetDeleteResponsePartition", partition_index=p, error_code=e)
                    for p, e in partitions
                ),
            )
            for name, partitions in topics
        ),
    )
