"""OffsetFetch (9), versions 1-10: the committed offsets of groups (v8+ several groups).

Behavior (KafkaApis.handleOffsetFetchRequest, then the group coordinator):
- Brokers only; DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED); topics the principal may not
  DESCRIBE are TOPIC_AUTHORIZATION_FAILED (asked by name) or left out (all offsets); a v10 topic id that
  names no topic is UNKNOWN_TOPIC_ID; the broker must coordinate the group.
- A partition without an offset answers -1; require_stable (KIP-447) answers UNSTABLE_OFFSET_COMMIT
  for a partition with a transactional commit not yet ended; a KIP-848 member's fetch with its id
  and epoch (v9+) is checked (STALE_MEMBER_EPOCH, UNKNOWN_MEMBER_ID).
- v1 carries a group's error on each partition; v2+ at the top (the topics then empty).

Version notes: v2 all offsets (null topics), top-level error; v3 throttle time; v5 leader epoch; v6
flexible; v7 require_stable; v8 groups; v9 member id and epoch; v10 topic ids.
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.groups.offsets import FetchedPartition
from kcli.sandbox.emulator.registry import Listener, api

ZERO_UUID = uuid.UUID(int=0)
Fetched = list[tuple[str, uuid.UUID, list[FetchedPartition]]]


@api(ApiKey.OFFSET_FETCH, (1, 10), listeners=Listener.BROKER)
async def handle_offset_fetch(ctx: RequestContext, request: Any) -> Any:
    """Fetch the committed offsets of each group."""
    require_stable = bool(getattr(request, "require_stable", False))
    if ctx.version < 8:
        groups = [(request.group_id, None, -1, request.topics)]
    else:
        groups = [
            (g.group_id, getattr(g, "member_id", None), int(getattr(g, "member_epoch", -1)), g.topics)
            for g in request.groups
        ]
    answers = [_fetch(ctx, *group, require_stable=require_stable) for group in groups]
    if ctx.version >= 8:
        return ctx.r(
            "OffsetFetchResponse",
            throttle_time=ZERO,
            groups=tuple(
                ctx.r(
                    "OffsetFetchResponseGroup",
                    group_id=g[0],
                    topics=_topics(ctx, "OffsetFetchResponseTopics", "OffsetFetchResponsePartitions", topics),
                    error_code=code,
                )
                for g, (code, topics) in zip(groups, answers, strict=True)
            ),
        )
    code, topics = answers[0]
    if ctx.version < 2 and code:
        topics = [
            (n, i, [FetchedPartition(partition=p.partition_index, error=ErrorCode(code)) for p in ps])
            for n, i, ps in _requested(ctx, request.topics or ())
        ]
    return ctx.r(
        "OffsetFetchResponse",
        throttle_time=ZERO,
        error_code=code,
        topics=_topics(ctx, "OffsetFetchResponseTopic", "OffsetFetchResponsePartition", topics),
    )


def _requested(ctx: RequestContext, topics: Any) -> list[tuple[str, uuid.UUID, list[Any]]]:
    out = []
    for t in topics:
        topic_id = getattr(t, "topic_id", ZERO_UUID)
        name = getattr(t, "name", None)
        if name is None:
            found = ctx.cluster.image.topics.get(topic_id)
            name = "" if found is None else found.name
        out.append((str(name), topic_id, [_Index(int(p)) for p in t.partition_indexes]))
    return out


class _Index:
    __slots__ = ("partition_index",)

    def __init__(self, index: int) -> None:
        self.partition_index = index


def _fetch(
    ctx: RequestContext,
    group_id: str,
    member_id: str | None,
    member_epoch: int,
    topics: Any,
    *,
    require_stable: bool,
) -> tuple[int, Fetched]:
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
        return ErrorCode.group_authorization_failed, []
    coordinator = coordination.group_coordinator(ctx.cluster)
    code = coordination.coordinator_error(
        ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, coordinator.partition_for(group_id)
    )
    if code is not None:
        return code, []
    image = ctx.cluster.image
    errors: Fetched = []
    asked: list[tuple[str, uuid.UUID, list[int]]] | None = None
    if topics is not None:
        asked = []
        for name, topic_id, partitions in _requested(ctx, topics):
            indexes = [p.partition_index for p in partitions]
            if ctx.version >= 10 and not name:
                errors.append(
                    (
                        name,
                        topic_id,
                        [FetchedPartition(partition=p, error=ErrorCode.unknown_topic_id) for p in indexes],
                    )
                )
            elif not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
                errors.append(
                    (
                        name,
                        topic_id,
                        [
                            FetchedPartition(partition=p, error=ErrorCode.topic_authorization_failed)
                            for p in indexes
                        ],
                    )
                )
            else:
                asked.append((name, topic_id, indexes))
    try:
        fetched = coordinator.fetch(
            group_id, asked, require_stable=require_stable, member_id=member_id, member_epoch=member_epoch
        )
    except CoordinatorError as error:
        return error.code, []
    out: Fetched = []
    for name, partitions in fetched:
        topic_id = image.topic_ids.get(name, ZERO_UUID)
        if asked is None and not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name):
            continue
        if asked is None and ctx.version >= 10 and topic_id == ZERO_UUID:
            continue
        out.append((name, topic_id, partitions))
    return ErrorCode.none, [*out, *errors]


def _topics(
    ctx: RequestContext, topic_struct: str, partition_struct: str, topics: Fetched
) -> tuple[Any, ...]:
    return tuple(
        ctx.r(
            topic_struct,
            name=name,
            topic_id=topic_id,
            partitions=tuple(
                ctx.r(
                    partition_struct,
                    partition_index=p.partition,
                    committed_offset=p.offset,
                    committed_leader_epoch=p.leader_epoch,
                    metadata=p.metadata,
                    error_code=p.error,
                )
                for p in partitions
            ),
        )
        for name, topic_id, partitions in topics
    )
