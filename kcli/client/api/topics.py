"""Topic metadata for reassignment: current replicas of partitions, brokers and racks.

Behavior:
- Metadata (3) v1-v12 with the named topics (auto-creation off): replicas per partition and the
  brokers with their racks. Unknown topics come back as a list, not an exception, so callers can
  report them as input errors (exit 2) before anything is changed.
- Sent to any broker: the KRaft controllers do not serve Metadata, so callers that need it refuse
  --bootstrap-controller first (see kcli.cli.reassign).
Version notes: v4 adds allow_auto_topic_creation, v10 topic ids (null here), v11 drops cluster
authorized operations; DescribeTopicPartitions (75) is not needed: Metadata carries the same
replica lists for the partition counts a reassignment handles.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.errors import code_of
from kcli.kafka import ApiKey
from kcli.ops.config_model import ResourceError
from kcli.ops.reassign.model import TopicPartition

UNKNOWN_TOPIC_OR_PARTITION = code_of("UNKNOWN_TOPIC_OR_PARTITION")

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicAssignments:
    """Replicas of every partition of the topics asked for, the brokers' racks, and unknown topics."""

    replicas: dict[TopicPartition, tuple[int, ...]]
    racks: dict[int, str | None]
    missing: tuple[str, ...]


async def describe_assignments(admin: Admin, topics: Sequence[str]) -> TopicAssignments:
    """Current replica assignment of `topics` (Metadata), and every broker with its rack."""
    from kcli.client.api.configs import make, nested, request_cls
    from kcli.client.errors import check

    wanted = list(dict.fromkeys(topics))

    def build(version: int) -> Any:
        cls = request_cls("metadata", version)
        topic_cls = nested(cls, "MetadataRequestTopic")
        return make(
            cls,
            topics=tuple(make(topic_cls, name=t, topic_id=None) for t in wanted),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
            include_cluster_authorized_operations=False,
        )

    response = await admin.call(ApiKey.METADATA, build, versions=(1, 12))
    replicas: dict[TopicPartition, tuple[int, ...]] = {}
    missing: list[str] = []
    for topic in response.topics:
        code = int(topic.error_code)
        if code == UNKNOWN_TOPIC_OR_PARTITION:
            missing.append(str(topic.name))
            continue
        check(code, None, what=f"Metadata for topic {topic.name}")
        for p in topic.partitions:
            replicas[TopicPartition(str(topic.name), int(p.partition_index))] = tuple(
                int(b) for b in p.replica_nodes
            )
    answered = {str(t.name) for t in response.topics}
    missing.extend(t for t in wanted if t not in answered)
    racks = {int(b.node_id): (str(b.rack) if b.rack is not None else None) for b in response.brokers}
    return TopicAssignments(replicas=replicas, racks=racks, missing=tuple(dict.fromkeys(missing)))


async def create_topics(
    admin: Admin,
    topics: Sequence[str],
    *,
    partitions: int,
    replication_factor: int,
    timeout_ms: int = 60000,
) -> dict[str, ResourceError | None]:
    """CreateTopics (19) v2-v7: `topics` with the same shape; the error of each topic, or None.

    Sent to any node (a broker forwards it to the controller); a topic that already exists comes
    back as its TOPIC_ALREADY_EXISTS error, for the caller to judge.
    """
    from kcli.client.api.configs import make, nested, request_cls, resource_error
    from kcli.client.api.reassign import timeout_value

    def build(version: int) -> Any:
        cls = request_cls("create_topics", version)
        topic_cls = nested(cls, "CreatableTopic")
        return make(
            cls,
            topics=tuple(
                make(
                    topic_cls,
                    name=name,
                    num_partitions=partitions,
                    replication_factor=replication_factor,
                    assignments=(),
                    configs=(),
                )
                for name in topics
            ),
            timeout=timeout_value(timeout_ms),
            validate_only=False,
        )

    response = await admin.call(ApiKey.CREATE_TOPICS, build, versions=(2, 7), idempotent=False)
    return {
        str(topic.name): resource_error(int(topic.error_code), topic.error_message)
        for topic in response.topics
    }
