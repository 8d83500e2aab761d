"""CreatePartitions (37), versions 0-3: grow topics (PartitionRecords for the new partitions).

Behavior:
- Auth: ALTER on the topic, else TOPIC_AUTHORIZATION_FAILED.
- Unknown topic -> UNKNOWN_TOPIC_OR_PARTITION; a count not above the current one -> INVALID_PARTITIONS;
  assignments of the wrong length, with duplicates or unknown brokers -> INVALID_REPLICA_ASSIGNMENT;
  duplicate topics -> INVALID_REQUEST. validate_only changes nothing.
- New partitions keep the topic's replication factor.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.placement import assign, partition_records
from kcli.sandbox.emulator.registry import api


@api(ApiKey.CREATE_PARTITIONS, (0, 3), forward=True)
async def handle_create_partitions(ctx: RequestContext, request: Any) -> Any:
    """Add partitions."""
    cluster = ctx.cluster
    names = [t.name for t in request.topics]
    records: list[Any] = []
    results = []
    for t in request.topics:
        code, message, new = 0, None, []
        topic = cluster.image.topic(t.name)
        current = len(topic.partitions) if topic else 0
        if names.count(t.name) > 1:
            code, message = ErrorCode.invalid_request, "Duplicate topic in request."
        elif not ctx.authorize(AclOperation.ALTER, ResourceType.TOPIC, t.name):
            code, message = ErrorCode.topic_authorization_failed, "Authorization failed."
        elif topic is None:
            code, message = ErrorCode.unknown_topic_or_partition, f"The topic '{t.name}' does not exist."
        elif t.count < current:
            code, message = (
                ErrorCode.invalid_partitions,
                f"Topic currently has {current} partitions, which is higher than the requested {t.count}.",
            )
        elif t.count == current:
            code, message = ErrorCode.invalid_partitions, f"Topic already has {current} partitions."
        else:
            factor = len(topic.partitions[0].replicas) if 0 in topic.partitions else 1
            brokers = cluster.live_broker_ids()
            if t.assignments is not None:
                assignment = [list(a.broker_ids) for a in t.assignments]
                bad = [
                    a
                    for a in assignment
                    if len(set(a)) != len(a) or any(b not in cluster.image.brokers for b in a)
                ]
                if len(assignment) != t.count - current:
                    code, message = (
                        ErrorCode.invalid_replica_assignment,
                        f"Attempted to add {t.count - current} additional partition(s), but only {len(assignment)} assignment(s) were specified.",
                    )
                elif bad:
                    code, message = (
                        ErrorCode.invalid_replica_assignment,
                        f"The manual partition assignment {bad[0]} is not valid.",
                    )
            elif factor > len(brokers):
                code, message = (
                    ErrorCode.invalid_replica_assignment,
                    f"Unable to replicate the partition {factor} time(s): only {len(brokers)} broker(s) are registered.",
                )
            else:
                assignment = assign(brokers, t.count - current, factor, start=current)
            if not code:
                new = partition_records(cluster, topic.topic_id, assignment, first_partition=current)
        records.extend(new)
        results.append(
            ctx.r("CreatePartitionsTopicResult", name=t.name, error_code=code, error_message=message)
        )
    if not request.validate_only:
        await cluster.commit(records)
    return ctx.r("CreatePartitionsResponse", throttle_time=ZERO, results=tuple(results))
