"""DeleteGroups (42), versions 0-2: groups and their offsets go (tombstones in __consumer_offsets).

Behavior:
- Brokers only; DELETE on each group (GROUP_AUTHORIZATION_FAILED); each group must be coordinated by
  this broker (NOT_COORDINATOR); a group with members is NON_EMPTY_GROUP, a missing one
  GROUP_ID_NOT_FOUND. A name asked twice is answered once; the answers come by __consumer_offsets
  partition (java_order.grouped_by_partition), the refused groups last (KafkaApis adds them after the
  coordinator's answers).

Version notes: v1 is v0; v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.java_order import grouped_by_partition
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DELETE_GROUPS, (0, 2), listeners=Listener.BROKER)
async def handle_delete_groups(ctx: RequestContext, request: Any) -> Any:
    """Delete each group."""
    coordinator = coordination.group_coordinator(ctx.cluster)
    errors: dict[str, int] = {}
    deletable = []
    for group_id in request.groups_names:
        if not ctx.authorize(AclOperation.DELETE, ResourceType.GROUP, group_id):
            errors[group_id] = ErrorCode.group_authorization_failed
            continue
        code = coordination.coordinator_error(
            ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, coordinator.partition_for(group_id)
        )
        if code is not None:
            errors[group_id] = code
        else:
            deletable.append(group_id)
    if deletable:
        errors.update(await coordinator.delete_groups(deletable))
    names = list(dict.fromkeys(request.groups_names))
    refused = [g for g in names if errors[g] == ErrorCode.group_authorization_failed]
    others = [g for g in names if g not in refused]
    order = [*grouped_by_partition(others, OFFSETS_TOPIC, coordinator.partition_for), *refused]
    results = tuple(ctx.r("DeletableGroupResult", group_id=g, error_code=errors[g]) for g in order)
    return ctx.r("DeleteGroupsResponse", throttle_time=ZERO, results=results)
