"""ListPartitionReassignments (46), version 0: the partitions whose replicas are moving.

Behavior:
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- Topics null -> every ongoing reassignment; else only the named partitions that are reassigning
  (unknown topics and partitions are left out, as Kafka does).
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.LIST_PARTITION_REASSIGNMENTS, (0, 0), forward=True)
async def handle_list_partition_reassignments(ctx: RequestContext, request: Any) -> Any:
    """List ongoing reassignments."""
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.refuse_cluster("ListPartitionReassignmentsResponse", topics=())
    image = ctx.cluster.image
    wanted: dict[str, set[int] | None] = (
        {t.name: set(t.partition_indexes) for t in request.topics} if request.topics is not None else {}
    )
    topics = []
    for topic in sorted(image.topics.values(), key=lambda t: t.name):
        if request.topics is not None and topic.name not in wanted:
            continue
        indexes = wanted.get(topic.name)
        partitions = tuple(
            ctx.r(
                "OngoingPartitionReassignment",
                partition_index=p.partition_id,
                replicas=tuple(p.replicas),
                adding_replicas=tuple(p.adding_replicas),
                removing_replicas=tuple(p.removing_replicas),
            )
            for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id)
            if (p.adding_replicas or p.removing_replicas) and (indexes is None or p.partition_id in indexes)
        )
        if partitions:
            topics.append(ctx.r("OngoingTopicReassignment", name=topic.name, partitions=partitions))
    return ctx.answer("ListPartitionReassignmentsResponse", 0, None, topics=tuple(topics))
