"""ElectLeaders (43), versions 0-2: preferred or unclean leader elections.

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- PREFERRED (0): the first replica leads if it is live and in the ISR (PREFERRED_LEADER_NOT_AVAILABLE
  otherwise); already leading -> ELECTION_NOT_NEEDED.
- UNCLEAN (1): only for leaderless partitions (else ELECTION_NOT_NEEDED); the first live replica
  leads with an ISR of itself; none live -> ELIGIBLE_LEADERS_NOT_AVAILABLE.
- topic_partitions null -> every partition, reporting only those that were elected or failed.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v1 election type and top-level error code; v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.image import Partition
from kcli.sandbox.emulator.registry import api

R: Any = _records
NOT_NEEDED = "Leader election not needed for topic partition."  # Errors' default messages, as Kafka answers


@api(ApiKey.ELECT_LEADERS, (0, 2), forward=True)
async def handle_elect_leaders(ctx: RequestContext, request: Any) -> Any:
    """Elect leaders."""
    election = getattr(request, "election_type", 0)
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.answer(
            "ElectLeadersResponse", ErrorCode.cluster_authorization_failed, None, replica_election_results=()
        )
    if election not in (0, 1):
        refused = tuple(
            ctx.r(
                "ReplicaElectionResult",
                topic=t.topic,
                partition_result=tuple(
                    ctx.r(
                        "PartitionResult",
                        partition_id=p,
                        error_code=ErrorCode.invalid_request,
                        error_message=f"Unknown election type {election}",
                    )
                    for p in t.partitions
                ),
            )
            for t in request.topic_partitions or ()
        )
        return ctx.answer(
            "ElectLeadersResponse", ErrorCode.invalid_request, None, replica_election_results=refused
        )
    cluster = ctx.cluster
    live = set(cluster.live_broker_ids())
    everything = request.topic_partitions is None
    wanted: list[tuple[str, list[int]]] = (
        [(t.name, sorted(t.partitions)) for t in cluster.image.topics.values()]
        if everything
        else [(t.topic, list(t.partitions)) for t in request.topic_partitions]
    )
    records: list[Any] = []
    results = []
    for name, indexes in wanted:
        topic = cluster.image.topic(name)
        outcomes = []
        for index in indexes:
            partition = topic.partitions.get(index) if topic else None
            code: int
            message: str | None
            if topic is None:
                code, message, record = ErrorCode.unknown_topic_or_partition, f"No such topic as {name}", None
            elif partition is None:
                code, message, record = (
                    ErrorCode.unknown_topic_or_partition,
                    f"No such partition as {name}-{index}",
                    None,
                )
            else:
                code, message, record = _elect(partition, election, live)
            if record is not None:
                records.append(record)
            if everything and code == ErrorCode.election_not_needed:
                continue
            outcomes.append(
                ctx.r("PartitionResult", partition_id=index, error_code=code, error_message=message)
            )
        # every topic is listed, even one without results (Kafka's electLeaders)
        results.append(ctx.r("ReplicaElectionResult", topic=name, partition_result=tuple(outcomes)))
    await cluster.commit(records)
    return ctx.answer("ElectLeadersResponse", 0, None, replica_election_results=tuple(results))


def _elect(p: Partition, election: int, live: set[int]) -> tuple[int, str | None, Any]:
    if election == 0:
        preferred = p.replicas[0]
        if p.leader == preferred:
            return ErrorCode.election_not_needed, NOT_NEEDED, None
        if preferred not in p.isr or preferred not in live:
            return ErrorCode.preferred_leader_not_available, "The preferred leader was not available.", None
        return (
            0,
            None,
            R.PartitionChangeRecord(partition_id=p.partition_id, topic_id=p.topic_id, leader=preferred),
        )
    if p.leader != -1:
        return ErrorCode.election_not_needed, NOT_NEEDED, None
    candidates = [b for b in p.replicas if b in live]
    if not candidates:
        return (
            ErrorCode.eligible_leaders_not_available,
            "Eligible topic partition leaders are not available.",
            None,
        )
    leader = candidates[0]
    return (
        0,
        None,
        R.PartitionChangeRecord(
            partition_id=p.partition_id, topic_id=p.topic_id, leader=leader, isr=(leader,)
        ),
    )
