"""CreatePartitions (37), versions 0-3: grow topics (PartitionRecords for the new partitions).

Behavior (the order and words of Kafka 4.4's ReplicationControlManager.createPartitions):
- Auth: ALTER on the topic, else TOPIC_AUTHORIZATION_FAILED; duplicate topics -> INVALID_REQUEST.
- Unknown topic -> UNKNOWN_TOPIC_OR_PARTITION (no message); the same count -> INVALID_PARTITIONS
  "Topic already has N partition(s)."; a lower one -> INVALID_PARTITIONS "... would not be an increase.".
- Assignments: not one per new partition, an empty list, an unknown or repeated broker, or a replica
  count other than the topic's -> INVALID_REPLICA_ASSIGNMENT. Without them the new partitions keep
  the topic's replication factor.
- validate_only changes nothing. Brokers forward it to the active controller (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.apis.k19_create_topics import TopicProblem, check_assignment
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.placement import assign, partition_records
from kcli.sandbox.emulator.registry import api


def _grown(ctx: RequestContext, t: Any) -> list[Any]:
    """The PartitionRecords of the new partitions, or TopicProblem."""
    cluster = ctx.cluster
    topic = cluster.image.topic(t.name)
    if topic is None:
        raise TopicProblem(ErrorCode.unknown_topic_or_partition, None)
    current = len(topic.partitions)
    if t.count == current:
        raise TopicProblem(ErrorCode.invalid_partitions, f"Topic already has {current} partition(s).")
    if t.count < current:
        raise TopicProblem(
            ErrorCode.invalid_partitions,
            f"The topic {t.name} currently has {current} partition(s); {t.count} would not be an increase.",
        )
    additional = t.count - current
    factor = len(topic.partitions[0].replicas) if 0 in topic.partitions else 1
    if t.assignments is not None:
        if len(t.assignments) != additional:
            raise TopicProblem(
                ErrorCode.invalid_replica_assignment,
                f"Attempted to add {additional} additional partition(s), but only {len(t.assignments)} "
                "assignment(s) were specified.",
            )
        assignment = [list(a.broker_ids) for a in t.assignments]
        for replicas in assignment:
            check_assignment(ctx, replicas, factor)
    else:
        brokers = cluster.live_broker_ids()
        if factor > len(brokers):
            raise TopicProblem(
                ErrorCode.invalid_replication_factor,
                f"Unable to replicate the partition {factor} time(s): The target replication factor of {factor} "
                f"cannot be reached because only {len(brokers)} broker(s) are registered or some brokers have "
                "all their log directories cordoned.",
            )
        assignment = assign(brokers, additional, factor, start=current)
    return partition_records(cluster, topic.topic_id, assignment, first_partition=current)


@api(ApiKey.CREATE_PARTITIONS, (0, 3), forward=True)
async def handle_create_partitions(ctx: RequestContext, request: Any) -> Any:
    """Add partitions."""
    cluster = ctx.cluster
    names = [t.name for t in request.topics]
    records: list[Any] = []
    results = []
    for t in request.topics:
        code, message, new = 0, None, []
        if names.count(t.name) > 1:
            code, message = ErrorCode.invalid_request, "Duplicate topic in request."
        elif not ctx.authorize(AclOperation.ALTER, ResourceType.TOPIC, t.name):
            code, message = ErrorCode.topic_authorization_failed, "Authorization failed."
        else:
            try:
                new = _grown(ctx, t)
            except TopicProblem as problem:
                code, message = problem.code, problem.message
        records.extend(new)
        results.append(
            ctx.r("CreatePartitionsTopicResult", name=t.name, error_code=code, error_message=message)
        )
    if not request.validate_only:
        await cluster.commit(records)
    return ctx.r("CreatePartitionsResponse", throttle_time=ZERO, results=tuple(results))
