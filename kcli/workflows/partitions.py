"""Every topic and partition of a cluster: leader, replicas, ISR, offline replicas, ELR.

Behavior:
- Metadata (3) v1-v12 with a null topic list: every topic, internal ones included, with each
  partition's leader, replicas, ISR and offline replicas.
- DescribeTopicPartitions (75, KIP-966) v0, following its cursor, for the eligible leader replicas
  and the last known ELR, where the brokers offer it (a Kafka error is the caller's to judge).
Used by `kcli topics` and by the audit collector (kcli.workflows.audit_collect).
"""

from __future__ import annotations

import uuid
from typing import TYPE_CHECKING, Any

from kcli.kafka import ApiKey
from kcli.metadata.uuids import kafka_uuid

if TYPE_CHECKING:
    from kcli.client.admin import Admin


def topic_id_text(value: Any) -> str | None:
    """A Kafka topic id as Kafka prints it: URL-safe base64 of the 16 bytes, no padding."""
    if value is None:
        return None
    return kafka_uuid(value if isinstance(value, uuid.UUID) else uuid.UUID(bytes=bytes(value)))


async def every_partition(admin: Admin) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(a row per topic, a row per partition) of every topic, internal ones included, from Metadata.

    ELR and last-known ELR are empty here; add_elr fills them where the brokers offer them.
    """
    from kcli.client.api.topic_names import metadata_of_every_topic
    from kcli.client.errors import check

    response = await metadata_of_every_topic(admin)
    topics: list[dict[str, Any]] = []
    partitions: list[dict[str, Any]] = []
    for topic in sorted(response.topics, key=lambda t: str(t.name)):
        if int(topic.error_code) != 0:
            check(int(topic.error_code), None, what=f"Metadata for topic {topic.name}")
        parts = sorted(topic.partitions, key=lambda p: int(p.partition_index))
        topics.append(
            {
                "topic": str(topic.name),
                "topic_id": topic_id_text(getattr(topic, "topic_id", None)),
                "internal": bool(getattr(topic, "is_internal", False)),
                "partition_count": len(parts),
                "replication_factor": len(parts[0].replica_nodes) if parts else 0,
            }
        )
        for p in parts:
            partitions.append(
                {
                    "topic": str(topic.name),
                    "partition": int(p.partition_index),
                    "leader": int(p.leader_id),
                    "leader_epoch": int(getattr(p, "leader_epoch", -1)),
                    "replicas": [int(b) for b in p.replica_nodes],
                    "isr": [int(b) for b in p.isr_nodes],
                    "elr": [],
                    "last_known_elr": [],
                    "offline_replicas": [int(b) for b in getattr(p, "offline_replicas", ())],
                }
            )
    return topics, partitions


async def add_elr(admin: Admin, partitions: list[dict[str, Any]], *, limit: int | None = None) -> None:
    """Fill elr/last_known_elr from DescribeTopicPartitions, following its cursor (`limit` partitions
    a page: kafka-topics' --partition-size-limit-per-response, 2000 by default)."""
    from kio.static.primitive import i32

    from kcli.client.admin import Target
    from kcli.client.api.wire import nested
    from kcli.client.protocol import make, request_class

    by_key = {(row["topic"], row["partition"]): row for row in partitions}
    wanted = sorted({row["topic"] for row in partitions})
    if not wanted:
        return
    cursor: tuple[str, int] | None = None
    for _page in range(100_000):  # bounded: each page advances the cursor

        def build(version: int, cursor: tuple[str, int] | None = cursor) -> Any:
            cls = request_class("describe_topic_partitions", version)
            cursor_cls, topic_cls = nested(cls, "Cursor"), nested(cls, "TopicRequest")
            next_cursor = (
                None if cursor is None else cursor_cls(topic_name=cursor[0], partition_index=i32(cursor[1]))
            )
            return make(
                cls,
                topics=tuple(topic_cls(name=name) for name in wanted),
                response_partition_limit=i32(2000 if limit is None else limit),
                cursor=next_cursor,
            )

        response = await admin.call(
            ApiKey.DESCRIBE_TOPIC_PARTITIONS, build, versions=(0, 0), target=Target.ANY
        )
        for topic in response.topics:
            for p in topic.partitions:
                row = by_key.get((str(topic.name), int(p.partition_index)))
                if row is not None:
                    row["elr"] = [int(b) for b in (p.eligible_leader_replicas or ())]
                    row["last_known_elr"] = [int(b) for b in (p.last_known_elr or ())]
        following = response.next_cursor
        if following is None:
            return
        cursor = (str(following.topic_name), int(following.partition_index))
