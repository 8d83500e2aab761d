"""DescribeGroups (15), versions 0-6: classic groups, their state, protocol and members.

Behavior:
- Brokers only; DESCRIBE on each group (GROUP_AUTHORIZATION_FAILED); each group is answered by its
  coordinator (another broker: NOT_COORDINATOR for that group).
- A Stable group shows its protocol and each member's metadata; other states neither. A group that
  is not there is Dead; v6 also says GROUP_ID_NOT_FOUND ("Group g not found.", or "... is not a
  classic group." for a KIP-848 group).
- include_authorized_operations (v3+): the operations the principal may do on the group (KIP-430),
  else Integer.MIN_VALUE.

Version notes: v1 throttle time; v3 authorized operations; v4 group.instance.id; v5 flexible; v6
error messages and GROUP_ID_NOT_FOUND.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.authorizer import authorized_operations
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.java_order import grouped_by_partition
from kcli.sandbox.emulator.groups.shard import DescribedGroup
from kcli.sandbox.emulator.registry import Listener, api

NO_OPERATIONS = -(2**31)


@api(ApiKey.DESCRIBE_GROUPS, (0, 6), listeners=Listener.BROKER)
async def handle_describe_groups(ctx: RequestContext, request: Any) -> Any:
    """Describe each group."""
    coordinator = coordination.group_coordinator(ctx.cluster)
    wanted = bool(getattr(request, "include_authorized_operations", False))
    groups = []
    allowed = [g for g in request.groups if ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, g)]
    refused = [g for g in request.groups if g not in allowed]
    for group_id in [*refused, *grouped_by_partition(allowed, OFFSETS_TOPIC, coordinator.partition_for)]:
        if group_id in refused:
            described = DescribedGroup(
                group_id=group_id, error=ErrorCode.group_authorization_failed, state=""
            )
        else:
            partition = coordinator.partition_for(group_id)
            code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
            if code is not None:
                described = DescribedGroup(group_id=group_id, error=code, state="")
            else:
                (described,) = coordinator.describe([group_id], ctx.version)
        operations = NO_OPERATIONS
        if wanted and described.error == ErrorCode.none:
            operations = authorized_operations(ctx, ResourceType.GROUP, group_id)
        groups.append(_group(ctx, described, operations))
    return ctx.r("DescribeGroupsResponse", throttle_time=ZERO, groups=tuple(groups))


def _group(ctx: RequestContext, group: DescribedGroup, operations: int) -> Any:
    members = tuple(
        ctx.r(
            "DescribedGroupMember",
            member_id=m.member_id,
            group_instance_id=m.instance_id,
            client_id=m.client_id,
            client_host=m.client_host,
            member_metadata=m.metadata,
            member_assignment=m.assignment,
        )
        for m in group.members
    )
    return ctx.r(
        "DescribedGroup",
        error_code=group.error,
        error_message=group.message,
        group_id=group.group_id,
        group_state=group.state,
        protocol_type=group.protocol_type,
        protocol_data=group.protocol,
        members=members,
        authorized_operations=operations,
    )
