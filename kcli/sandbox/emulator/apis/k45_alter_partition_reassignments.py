"""AlterPartitionReassignments (45), versions 0-1: start, change or cancel replica moves.

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED for the whole request and for each
  partition asked for (as AlterPartitionReassignmentsRequest.getErrorResponse builds it).
- Per partition: unknown -> UNKNOWN_TOPIC_OR_PARTITION; replicas null cancels (nothing ongoing ->
  NO_REASSIGNMENT_IN_PROGRESS); an empty list, duplicates or unregistered brokers ->
  INVALID_REPLICA_ASSIGNMENT; a different replica count with allow_replication_factor_change=false
  (v1) -> INVALID_REPLICATION_FACTOR.
- New replicas then copy the partition over time (kcli.sandbox.emulator.reassign): adding/removing replicas
  are listed until the copy completes, at the rate the throttle configs allow.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v1 adds AllowReplicationFactorChange (KIP-860).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.ALTER_PARTITION_REASSIGNMENTS, (0, 1), forward=True)
async def handle_alter_partition_reassignments(ctx: RequestContext, request: Any) -> Any:
    """Start or cancel reassignments."""
    allow_factor_change = getattr(request, "allow_replication_factor_change", True)
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        # Kafka's error response repeats the error for every partition asked for; the Java client
        # counts them ("The server returned too less results" otherwise).
        refusal = "Authorization failed."
        denied = tuple(
            ctx.r(
                "ReassignableTopicResponse",
                name=t.name,
                partitions=tuple(
                    ctx.r(
                        "ReassignablePartitionResponse",
                        partition_index=p.partition_index,
                        error_code=ErrorCode.cluster_authorization_failed,
                        error_message=refusal,
                    )
                    for p in t.partitions
                ),
            )
            for t in request.topics
        )
        return ctx.answer(
            "AlterPartitionReassignmentsResponse",
            ErrorCode.cluster_authorization_failed,
            refusal,
            responses=denied,
            allow_replication_factor_change=allow_factor_change,
        )
    cluster = ctx.cluster
    records: list[Any] = []
    responses = []
    for topic_request in request.topics:
        topic = cluster.image.topic(topic_request.name)
        results = []
        for wanted in topic_request.partitions:
            code, message = 0, None
            partition = topic.partitions.get(wanted.partition_index) if topic else None
            if partition is None:
                code, message = ErrorCode.unknown_topic_or_partition, "The partition does not exist."
            elif wanted.replicas is None:
                if not partition.adding_replicas and not partition.removing_replicas:
                    code, message = (
                        ErrorCode.no_reassignment_in_progress,
                        "There is no ongoing reassignment for this partition.",
                    )
                else:
                    records.extend(cluster.reassignments.cancel_records(partition))
            else:
                target = list(wanted.replicas)
                original = [b for b in partition.replicas if b not in partition.adding_replicas]
                unknown = [b for b in target if b not in cluster.image.brokers]
                if not target:
                    code, message = (
                        ErrorCode.invalid_replica_assignment,
                        "The manual partition assignment includes an empty replica list.",
                    )
                elif len(set(target)) != len(target):
                    code, message = (
                        ErrorCode.invalid_replica_assignment,
                        f"The manual partition assignment includes duplicate replicas: {target}",
                    )
                elif unknown:
                    code = ErrorCode.invalid_replica_assignment
                    message = f"The manual partition assignment includes broker {unknown[0]}, but no such broker is registered."
                elif not allow_factor_change and len(target) != len(original):
                    code = ErrorCode.invalid_replication_factor
                    message = (
                        f"The replication factor is changed from {len(original)} to {len(target)} "
                        "but allowReplicationFactorChange is false"
                    )
                else:
                    records.extend(cluster.reassignments.start_records(partition, target))
            results.append(
                ctx.r(
                    "ReassignablePartitionResponse",
                    partition_index=wanted.partition_index,
                    error_code=code,
                    error_message=message,
                )
            )
        responses.append(
            ctx.r("ReassignableTopicResponse", name=topic_request.name, partitions=tuple(results))
        )
    await cluster.commit(records)
    return ctx.answer(
        "AlterPartitionReassignmentsResponse",
        0,
        None,
        responses=tuple(responses),
        allow_replication_factor_change=allow_factor_change,
    )
