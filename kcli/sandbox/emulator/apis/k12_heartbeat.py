"""Heartbeat (12), versions 0-4: a classic group member says it is alive.

Behavior:
- Brokers only; READ on the group (GROUP_AUTHORIZATION_FAILED); the broker must coordinate the group.
- REBALANCE_IN_PROGRESS tells the member to rejoin; ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID and
  FENCED_INSTANCE_ID as Kafka's coordinator checks them.

Version notes: v1 throttle time; v3 group.instance.id; v4 flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.HEARTBEAT, (0, 4), listeners=Listener.BROKER)
async def handle_heartbeat(ctx: RequestContext, request: Any) -> Any:
    """Renew the member's session."""
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return ctx.r("HeartbeatResponse", throttle_time=ZERO, error_code=ErrorCode.group_authorization_failed)
    coordinator = coordination.group_coordinator(ctx.cluster)
    code: Any = None
    if request.group_id:
        partition = coordinator.partition_for(request.group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
    if code is None:
        code = await coordinator.heartbeat(
            request.group_id,
            request.member_id,
            getattr(request, "group_instance_id", None),
            int(request.generation_id),
        )
    return ctx.r("HeartbeatResponse", throttle_time=ZERO, error_code=code)
