"""ConsumerGroupHeartbeat (68), versions 0-1: KIP-848's one call to join, stay, reconcile and leave.

Behavior:
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED); DESCRIBE on every subscribed topic
  (TOPIC_AUTHORIZATION_FAILED); the broker must coordinate the group (NOT_COORDINATOR,
  COORDINATOR_NOT_AVAILABLE). The rest is kcli.sandbox.emulator.groups.consumer_ops.
- An error answers its code and message (the member id null, epoch 0).

Version notes: v1 requires the member id from the client (KIP-1082), regex subscriptions.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.consumer_ops import HeartbeatAnswer, HeartbeatRequest
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.CONSUMER_GROUP_HEARTBEAT, (0, 1), listeners=Listener.BROKER)
async def handle_consumer_group_heartbeat(ctx: RequestContext, request: Any) -> Any:
    """Heartbeat of a KIP-848 group member."""
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _error(ctx, ErrorCode.group_authorization_failed, None)
    names = request.subscribed_topic_names
    if names and not all(ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, n) for n in set(names)):
        return _error(ctx, ErrorCode.topic_authorization_failed, None)
    coordinator = coordination.group_coordinator(ctx.cluster)
    owned = request.topic_partitions
    heartbeat = HeartbeatRequest(
        group_id=request.group_id,
        member_id=request.member_id,
        member_epoch=int(request.member_epoch),
        instance_id=request.instance_id,
        rack_id=request.rack_id,
        rebalance_timeout_ms=int(request.rebalance_timeout.total_seconds() * 1000),
        subscribed_topic_names=None if names is None else list(names),
        subscribed_topic_regex=getattr(request, "subscribed_topic_regex", None),
        server_assignor=request.server_assignor,
        owned=None if owned is None else [(tp.topic_id, [int(p) for p in tp.partitions]) for tp in owned],
        client_id=ctx.header.client_id or "",
        client_host=f"/{ctx.client_host}",
        version=ctx.version,
    )
    if request.group_id.strip():
        partition = coordinator.partition_for(request.group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
        if code is not None:
            return _error(ctx, code, None)
    try:
        answer = await coordinator.consumer_heartbeat(heartbeat)
    except CoordinatorError as error:
        return _error(ctx, error.code, error.message)
    return _answer(ctx, answer)


def _error(ctx: RequestContext, code: int, message: str | None) -> Any:
    return ctx.r(
        "ConsumerGroupHeartbeatResponse",
        throttle_time=ZERO,
        error_code=code,
        error_message=message,
        member_id=None,
        member_epoch=0,
        heartbeat_interval=ZERO,
        assignment=None,
    )


def _answer(ctx: RequestContext, answer: HeartbeatAnswer) -> Any:
    from datetime import timedelta

    assignment = None
    if answer.assignment is not None:
        assignment = ctx.r(
            "Assignment",
            topic_partitions=tuple(
                ctx.r("TopicPartitions", topic_id=t, partitions=tuple(ps))
                for t, ps in answer.assignment.items()
            ),
        )
    return ctx.r(
        "ConsumerGroupHeartbeatResponse",
        throttle_time=ZERO,
        error_code=0,
        error_message=None,
        member_id=answer.member_id,
        member_epoch=answer.member_epoch,
        heartbeat_interval=timedelta(milliseconds=answer.heartbeat_interval_ms),
        assignment=assignment,
    )
