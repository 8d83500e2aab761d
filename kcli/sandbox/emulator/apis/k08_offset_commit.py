"""OffsetCommit (8), versions 2-10: a group's committed offsets, written to its __consumer_offsets partition.

Behavior (KafkaApis.handleOffsetCommitRequest, then the group coordinator):
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED for every partition); READ on each
  topic (TOPIC_AUTHORIZATION_FAILED); a topic or partition that does not exist is
  UNKNOWN_TOPIC_OR_PARTITION, a v10 topic id that names no topic UNKNOWN_TOPIC_ID; the broker must
  coordinate the group (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE).
- A group-wide refusal (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS, STALE_MEMBER_EPOCH,
  GROUP_ID_NOT_FOUND ...) is every partition's error.

Version notes: v2-v4 retention time; v5 drops it; v6 leader epoch; v7 group.instance.id; v8 flexible;
v9 KIP-848 member epochs; v10 topic ids instead of names (KIP-848).
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
from kcli.sandbox.emulator.groups.shard import CommitRequest
from kcli.sandbox.emulator.registry import Listener, api

ZERO_UUID = uuid.UUID(int=0)


@api(ApiKey.OFFSET_COMMIT, (2, 10), listeners=Listener.BROKER)
async def handle_offset_commit(ctx: RequestContext, request: Any) -> Any:
    """Commit offsets for a group."""
    use_ids = ctx.version >= 10
    image = ctx.cluster.image
    topics = [(_name(image, t, use_ids), getattr(t, "topic_id", ZERO_UUID), t) for t in request.topics]
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _all(ctx, topics, ErrorCode.group_authorization_failed)
    answers: list[tuple[str, uuid.UUID, list[tuple[int, Any]]]] = []
    valid: list[tuple[str, uuid.UUID, list[tuple[int, int, int, str | None]]]] = []
    for name, topic_id, topic in topics:
        partitions = [p.partition_index for p in topic.partitions]
        if use_ids and not name:
            answers.append((name, topic_id, [(p, ErrorCode.unknown_topic_id) for p in partitions]))
            continue
        if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name):
            answers.append((name, topic_id, [(p, ErrorCode.topic_authorization_failed) for p in partitions]))
            continue
        known = image.topic(name)
        if known is None:
            answers.append((name, ZERO_UUID, [(p, ErrorCode.unknown_topic_or_partition) for p in partitions]))
            continue
        good = []
        bad = []
        for p in topic.partitions:
            if p.partition_index in known.partitions:
                epoch = int(getattr(p, "committed_leader_epoch", -1))
                good.append((int(p.partition_index), int(p.committed_offset), epoch, p.committed_metadata))
            else:
                bad.append((int(p.partition_index), ErrorCode.unknown_topic_or_partition))
        if bad:
            answers.append((name, known.topic_id, bad))
        if good:
            valid.append((name, known.topic_id, good))
    if valid:
        retention = getattr(request, "retention_time", None)
        commit = CommitRequest(
            group_id=request.group_id,
            member_id=request.member_id,
            instance_id=getattr(request, "group_instance_id", None),
            generation=int(request.generation_id_or_member_epoch),
            retention_ms=-1 if retention is None else int(retention.total_seconds() * 1000),
            topics=valid,
            version=ctx.version,
        )
        coordinator = coordination.group_coordinator(ctx.cluster)
        code = coordination.coordinator_error(
            ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, coordinator.partition_for(request.group_id)
        )
        if code is not None:
            return _all(ctx, topics, code)
        try:
            committed = await coordinator.commit(commit)
        except CoordinatorError as error:
            return _all(ctx, topics, error.code)
        answers = coordination.merged(answers, committed)
    return _response(ctx, answers)


def _name(image: Any, topic: Any, use_ids: bool) -> str:
    if not use_ids:
        return str(topic.name)
    found = image.topics.get(topic.topic_id)
    return "" if found is None else str(found.name)


def _all(ctx: RequestContext, topics: list[tuple[str, uuid.UUID, Any]], code: int) -> Any:
    return _response(ctx, [(n, i, [(p.partition_index, code) for p in t.partitions]) for n, i, t in topics])


def _response(ctx: RequestContext, answers: list[tuple[str, uuid.UUID, list[tuple[int, Any]]]]) -> Any:
    topics = tuple(
        ctx.r(
            "OffsetCommitResponseTopic",
            name=name,
            topic_id=topic_id,
            partitions=tuple(
                ctx.r("OffsetCommitResponsePartition", partition_index=p, error_code=code)
                for p, code in partitions
            ),
        )
        for name, topic_id, partitions in answers
    )
    return ctx.r("OffsetCommitResponse", throttle_time=ZERO, topics=topics)
