"""LeaveGroup (13), versions 0-5: members leave a classic group (v3+ several, by member or instance id).

Behavior:
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED); the broker must coordinate the group.
- v3+: each member has its own error; an unknown group answers UNKNOWN_MEMBER_ID for each member.
  v0-v2 leave one member and answer its error at the top.

Version notes: v1 throttle time; v3 members (KIP-345); v4 flexible; v5 reason.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.LEAVE_GROUP, (0, 5), listeners=Listener.BROKER)
async def handle_leave_group(ctx: RequestContext, request: Any) -> Any:
    """Remove the members from the group."""
    many = ctx.version >= 3
    members: list[tuple[str, str | None]] = (
        [(m.member_id, m.group_instance_id) for m in request.members] if many else [(request.member_id, None)]
    )
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return ctx.r(
            "LeaveGroupResponse",
            throttle_time=ZERO,
            error_code=ErrorCode.group_authorization_failed,
            members=(),
        )
    coordinator = coordination.group_coordinator(ctx.cluster)
    if request.group_id:
        partition = coordinator.partition_for(request.group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
        if code is not None:
            return ctx.r("LeaveGroupResponse", throttle_time=ZERO, error_code=code, members=())
    code, answers = await coordinator.leave(request.group_id, members)
    if not many:
        return ctx.r(
            "LeaveGroupResponse",
            throttle_time=ZERO,
            error_code=answers[0][2] if answers and code == 0 else code,
        )
    return ctx.r(
        "LeaveGroupResponse",
        throttle_time=ZERO,
        error_code=code,
        members=tuple(
            ctx.r("MemberResponse", member_id=m, group_instance_id=i, error_code=e) for m, i, e in answers
        ),
    )
