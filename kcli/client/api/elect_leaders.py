"""Leader elections: ElectLeaders (43) v0-v2.

Behavior:
- sent once to the controller (through any broker, which forwards it: KIP-590); partitions grouped
  by topic in the order given; None asks for every partition (kafka-leader-election
  --all-topic-partitions);
- per-partition results are returned as they came, ELECTION_NOT_NEEDED included; a top-level error
  (v1+: CLUSTER_AUTHORIZATION_FAILED, ...) is raised.
Version notes: v0 knows preferred elections only (no election_type), v1 adds election_type and the
top-level error code, v2 is flexible.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.errors import UsageError
from kcli.kafka import ApiKey
from kcli.ops.leader_election import ElectionOutcome, ElectionReport, ElectionType
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def elect_leaders(
    admin: Admin,
    kind: ElectionType,
    partitions: Sequence[TopicPartition] | None,
    *,
    timeout_ms: int = 30000,
) -> ElectionReport:
    """Elect the leaders of `partitions` (every partition when None)."""
    from kcli.client.admin import Target
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls
    from kcli.client.errors import check

    grouped: dict[str, list[int]] = {}
    for tp in partitions or ():
        grouped.setdefault(tp.topic, []).append(tp.partition)

    def build(version: int) -> Any:
        if version == 0 and kind is not ElectionType.PREFERRED:
            raise UsageError("this cluster's brokers elect preferred leaders only (ElectLeaders v0)")
        cls = request_cls("elect_leaders", version)
        topic_cls = nested(cls, "TopicPartitions")
        topics = (
            None
            if partitions is None
            else tuple(make(topic_cls, topic=t, partitions=tuple(ps)) for t, ps in grouped.items())
        )
        return make(cls, election_type=int(kind), topic_partitions=topics, timeout=timeout_value(timeout_ms))

    response = await admin.call(
        ApiKey.ELECT_LEADERS, build, versions=(0, 2), target=Target.CONTROLLER, idempotent=True
    )
    check(int(getattr(response, "error_code", 0) or 0), None, what="ElectLeaders")
    outcomes = tuple(
        ElectionOutcome(
            partition=TopicPartition(str(topic.topic), int(p.partition_id)),
            error_code=int(p.error_code),
            message=p.error_message,
        )
        for topic in response.replica_election_results
        for p in topic.partition_result
    )
    return ElectionReport(kind=kind, outcomes=outcomes)
