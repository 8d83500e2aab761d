"""ListGroups (16), versions 0-5: the groups this broker coordinates.

Behavior:
- Brokers only; each broker lists the groups of the __consumer_offsets partitions it leads (Kafka's
  tools ask every broker). With DESCRIBE on the cluster every group is listed, else those the
  principal may DESCRIBE.
- States (v4, case-insensitive) and types (v5: classic, consumer, share, streams; an unknown type
  matches nothing) narrow the list.

Version notes: v1 throttle time; v3 flexible; v4 states filter and GroupState; v5 types filter and GroupType.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.LIST_GROUPS, (0, 5), listeners=Listener.BROKER)
async def handle_list_groups(ctx: RequestContext, request: Any) -> Any:
    """List the groups this broker coordinates."""
    cluster = ctx.cluster
    topic = cluster.image.topic(OFFSETS_TOPIC)
    groups: list[Any] = []
    if topic is not None:
        led = [
            p
            for p in topic.partitions
            if coordination.coordinator_of(cluster, OFFSETS_TOPIC, p) == ctx.node.node_id
        ]
        coordinator = coordination.group_coordinator(cluster)
        states = list(getattr(request, "states_filter", ()) or ())
        types = list(getattr(request, "types_filter", ()) or ())
        groups = coordinator.list_groups(led, states, types)
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        groups = [g for g in groups if ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, g.group_id)]
    listed = tuple(
        ctx.r(
            "ListedGroup",
            group_id=g.group_id,
            protocol_type=g.protocol_type,
            group_state=g.state,
            group_type=g.type,
        )
        for g in groups
    )
    return ctx.answer("ListGroupsResponse", 0, None, groups=listed)
