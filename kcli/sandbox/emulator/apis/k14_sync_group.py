"""SyncGroup (14), versions 0-5: the leader hands out the assignment; every member gets its own.

Behavior:
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED); the broker must coordinate the group.
- While the group completes its rebalance the answer waits for the leader's SyncGroup, and for its
  GroupMetadata record to be durable.

Version notes: v3 group.instance.id; v4 flexible; v5 protocol type and name (checked, and answered).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.classic import SyncAnswer
from kcli.sandbox.emulator.groups.classic_ops import SyncRequest
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.SYNC_GROUP, (0, 5), listeners=Listener.BROKER)
async def handle_sync_group(ctx: RequestContext, request: Any) -> Any:
    """Store the leader's assignment and answer each member's share."""
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _answer(ctx, SyncAnswer(error=ErrorCode.group_authorization_failed))
    coordinator = coordination.group_coordinator(ctx.cluster)
    if request.group_id:
        partition = coordinator.partition_for(request.group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
        if code is not None:
            return _answer(ctx, SyncAnswer(error=code))
    answer = await coordinator.sync(
        SyncRequest(
            group_id=request.group_id,
            member_id=request.member_id,
            instance_id=getattr(request, "group_instance_id", None),
            generation_id=int(request.generation_id),
            protocol_type=getattr(request, "protocol_type", None),
            protocol_name=getattr(request, "protocol_name", None),
            assignments=tuple((a.member_id, bytes(a.assignment)) for a in request.assignments),
        )
    )
    return _answer(ctx, answer)


def _answer(ctx: RequestContext, answer: SyncAnswer) -> Any:
    return ctx.r(
        "SyncGroupResponse",
        throttle_time=ZERO,
        error_code=answer.error,
        protocol_type=answer.protocol_type,
        protocol_name=answer.protocol_name,
        assignment=answer.assignment,
    )
