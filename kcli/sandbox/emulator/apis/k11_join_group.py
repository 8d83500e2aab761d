"""JoinGroup (11), versions 0-9: a member joins a classic group (kcli.sandbox.emulator.groups.classic_ops).

Behavior:
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED); the broker must coordinate the group
  (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE).
- The answer waits for the rebalance: a new group's first one waits group.initial.rebalance.delay.ms
  (3 s by default, as on Kafka), later ones for every member or the rebalance timeout.

Version notes: v0 has no rebalance timeout (the session timeout is used); v4+ MEMBER_ID_REQUIRED
(KIP-394); v5 group.instance.id (KIP-345); v6 flexible; v7 protocol type/name in the answer; v8 reason;
v9 skip_assignment.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.classic import JoinAnswer
from kcli.sandbox.emulator.groups.classic_ops import JoinRequest
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.JOIN_GROUP, (0, 9), listeners=Listener.BROKER)
async def handle_join_group(ctx: RequestContext, request: Any) -> Any:
    """Join (or rejoin) a classic group."""
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _answer(
            ctx, JoinAnswer(error=ErrorCode.group_authorization_failed, member_id=request.member_id)
        )
    coordinator = coordination.group_coordinator(ctx.cluster)
    if request.group_id:
        partition = coordinator.partition_for(request.group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
        if code is not None:
            return _answer(ctx, JoinAnswer(error=code, member_id=request.member_id))
    session = int(request.session_timeout.total_seconds() * 1000)
    rebalance = getattr(request, "rebalance_timeout", None)
    answer = await coordinator.join(
        JoinRequest(
            group_id=request.group_id,
            member_id=request.member_id,
            instance_id=getattr(request, "group_instance_id", None),
            protocol_type=request.protocol_type,
            protocols=tuple((p.name, bytes(p.metadata)) for p in request.protocols),
            session_timeout_ms=session,
            rebalance_timeout_ms=session if rebalance is None else int(rebalance.total_seconds() * 1000),
            client_id=ctx.header.client_id or "",
            client_host=f"/{ctx.client_host}",
            version=ctx.version,
            reason=getattr(request, "reason", None),
        )
    )
    return _answer(ctx, answer)


def _answer(ctx: RequestContext, answer: JoinAnswer) -> Any:
    members = tuple(
        ctx.r("JoinGroupResponseMember", member_id=m, group_instance_id=i, metadata=md)
        for m, i, md in answer.members
    )
    return ctx.r(
        "JoinGroupResponse",
        throttle_time=ZERO,
        error_code=answer.error,
        generation_id=answer.generation_id,
        protocol_type=answer.protocol_type,
        protocol_name=answer.protocol_name if ctx.version >= 7 else answer.protocol_name or "",
        leader=answer.leader,
        skip_assignment=answer.skip_assignment,
        member_id=answer.member_id,
        members=members,
    )
