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

Topic changes (kcli topics): CreateTopics (19) v2-v7, CreatePartitions (37) v0-v3, DeleteTopics (20)
v1-v6 (v6 by topic id), each sent once to any broker (forwarded to the controller, KIP-590) and
never retried after sending: a change is reported, not repeated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.errors import code_of
from kcli.kafka import ApiKey
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.resource_error import ResourceError
from kcli.ops.topic_changes import (
    CreatedTopic,
    DeletedTopic,
    PartitionIncrease,
    TopicConfigValue,
    topic_id_text,
)
from kcli.ops.topic_command import NewTopic

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
    from kcli.client.api.wire import make, nested, request_cls
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
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls, resource_error

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


async def create_topic_specs(
    admin: Admin, topics: Sequence[NewTopic], *, validate_only: bool = False, timeout_ms: int = 30000
) -> list[CreatedTopic]:
    """CreateTopics (19) v2-v7 of each NewTopic (a count and factor, -1 for the cluster default, or an
    explicit assignment) with its configs; one result per topic, in the order asked.

    Sent to any broker, which forwards it to the controller (KIP-590); never retried once sent, as
    Kafka's tool does (retryOnQuotaViolation off). `validate_only` is the dry run: the controller
    checks everything, places nothing, and answers (v5+) the configs the topic would have.
    """
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls, resource_error

    def build(version: int) -> Any:
        cls = request_cls("create_topics", version)
        topic_cls = nested(cls, "CreatableTopic")
        assignment_cls = nested(cls, "CreatableReplicaAssignment")
        config_cls = nested(cls, "CreatableTopicConfig")
        return make(
            cls,
            topics=tuple(
                make(
                    topic_cls,
                    name=t.name,
                    num_partitions=-1 if t.assignment else t.partitions,
                    replication_factor=-1 if t.assignment else t.replication_factor,
                    assignments=tuple(
                        make(assignment_cls, partition_index=p, broker_ids=tuple(r))
                        for p, r in (t.assignment or {}).items()
                    ),
                    configs=tuple(make(config_cls, name=k, value=v) for k, v in (t.configs or {}).items()),
                )
                for t in topics
            ),
            timeout=timeout_value(timeout_ms),
            validate_only=validate_only,
        )

    response = await admin.call(ApiKey.CREATE_TOPICS, build, versions=(2, 7), idempotent=False)
    by_name = {str(t.name): t for t in response.topics}
    out: list[CreatedTopic] = []
    for asked in topics:
        result = by_name.get(asked.name)
        if result is None:
            out.append(
                CreatedTopic(name=asked.name, error=ResourceError(code=-1, name="", message="no answer"))
            )
            continue
        configs = tuple(
            TopicConfigValue(
                name=str(c.name),
                value=None if c.value is None else str(c.value),
                source=int(getattr(c, "config_source", -1)),
                read_only=bool(c.read_only),
                sensitive=bool(c.is_sensitive),
            )
            for c in (getattr(result, "configs", None) or ())
        )
        out.append(
            CreatedTopic(
                name=asked.name,
                topic_id=topic_id_text(getattr(result, "topic_id", None)),
                error=resource_error(int(result.error_code), getattr(result, "error_message", None)),
                partitions=int(getattr(result, "num_partitions", -1)),
                replication_factor=int(getattr(result, "replication_factor", -1)),
                configs=configs,
            )
        )
    return out


async def create_partitions(
    admin: Admin,
    increases: Sequence[PartitionIncrease],
    *,
    validate_only: bool = False,
    timeout_ms: int = 30000,
) -> list[PartitionIncrease]:
    """CreatePartitions (37) v0-v3: each topic to its new count (new partitions' replicas when given);
    the increases back with the controller's error of each, or None."""
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls, resource_error

    def build(version: int) -> Any:
        cls = request_cls("create_partitions", version)
        topic_cls = nested(cls, "CreatePartitionsTopic")
        assignment_cls = nested(cls, "CreatePartitionsAssignment")
        return make(
            cls,
            topics=tuple(
                make(
                    topic_cls,
                    name=i.topic,
                    count=i.count,
                    assignments=None
                    if i.assignment is None
                    else tuple(make(assignment_cls, broker_ids=tuple(r)) for r in i.assignment),
                )
                for i in increases
            ),
            timeout=timeout_value(timeout_ms),
            validate_only=validate_only,
        )

    response = await admin.call(ApiKey.CREATE_PARTITIONS, build, versions=(0, 3), idempotent=False)
    errors = {
        str(r.name): resource_error(int(r.error_code), getattr(r, "error_message", None))
        for r in response.results
    }
    import dataclasses

    return [dataclasses.replace(i, error=errors.get(i.topic)) for i in increases]


async def delete_topics(
    admin: Admin,
    names: Sequence[str] = (),
    topic_ids: Sequence[Any] = (),
    *,
    timeout_ms: int = 30000,
) -> list[DeletedTopic]:
    """DeleteTopics (20) by name (v1-v6) or by topic id (v6 only, Kafka 2.8+); one result per topic."""
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls, resource_error

    def build(version: int) -> Any:
        cls = request_cls("delete_topics", version)
        if version < 6:
            return make(cls, topic_names=tuple(names), timeout=timeout_value(timeout_ms))
        state_cls = nested(cls, "DeleteTopicState")
        states = [make(state_cls, name=n, topic_id=None) for n in names]
        states += [make(state_cls, name=None, topic_id=i) for i in topic_ids]
        return make(cls, topics=tuple(states), timeout=timeout_value(timeout_ms))

    versions = (6, 6) if topic_ids else (1, 6)
    response = await admin.call(ApiKey.DELETE_TOPICS, build, versions=versions, idempotent=False)
    return [
        DeletedTopic(
            name=None if r.name is None else str(r.name),
            topic_id=topic_id_text(getattr(r, "topic_id", None)),
            error=resource_error(int(r.error_code), getattr(r, "error_message", None)),
        )
        for r in response.responses
    ]
