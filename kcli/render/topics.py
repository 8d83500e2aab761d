"""Output of `kcli topics`: kafka-topics.sh --list / --describe lines (TopicCommand, Kafka 4.4), JSON, a table."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.ops.topics import Partition, Topic, TopicsView


def _ids(ids: Sequence[int]) -> str:
    return ",".join(str(i) for i in ids)


def list_lines(names: Sequence[str]) -> list[str]:
    return list(names)


def list_json(names: Sequence[str]) -> dict[str, Any]:
    return {"topics": list(names)}


def topic_line(topic: Topic) -> str:
    """TopicDescription.printDescription (no TopicId when the topic has none)."""
    configs = ",".join(f"{name}={value}" for name, value in topic.configs)
    topic_id = f"\tTopicId: {topic.topic_id}" if topic.topic_id else ""
    return (
        f"Topic: {topic.name}{topic_id}\tPartitionCount: {len(topic.partitions)}"
        f"\tReplicationFactor: {topic.replication_factor}\tConfigs: {configs}"
    )


def partition_line(p: Partition) -> str:
    """PartitionDescription.printDescription: reassignment columns only while one runs, N/A for unknown ELR."""
    leader = str(p.leader) if p.has_leader else "none"
    line = f"\tTopic: {p.topic}\tPartition: {p.partition}\tLeader: {leader}\tReplicas: {_ids(p.replicas)}\tIsr: {_ids(p.isr)}"
    if p.adding is not None or p.removing is not None:
        line += f"\tAdding Replicas: {_ids(p.adding or ())}\tRemoving Replicas: {_ids(p.removing or ())}"
    line += f"\tElr: {'N/A' if p.elr is None else _ids(p.elr)}"
    line += f"\tLastKnownElr: {'N/A' if p.last_known_elr is None else _ids(p.last_known_elr)}"
    return line


def describe_lines(view: TopicsView) -> Iterator[str]:
    """In the order kafka-topics prints the topics (kcli.ops.topics.describe_order)."""
    for topic in view.topics:
        if view.shows_topic_line(topic):
            yield topic_line(topic)
        yield from (partition_line(p) for p in view.shown_partitions(topic))


def _partition_json(p: Partition) -> dict[str, Any]:
    return {
        "partition": p.partition,
        "leader": p.leader if p.has_leader else None,
        "replicas": list(p.replicas),
        "isr": list(p.isr),
        "elr": None if p.elr is None else list(p.elr),
        "last_known_elr": None if p.last_known_elr is None else list(p.last_known_elr),
        "adding_replicas": None if p.adding is None else list(p.adding),
        "removing_replicas": None if p.removing is None else list(p.removing),
    }


def describe_json(view: TopicsView) -> dict[str, Any]:
    """Every topic that has a line or a partition to show, with the partitions shown."""
    out: list[dict[str, Any]] = []
    for topic in sorted(view.topics, key=lambda t: t.name):
        partitions = view.shown_partitions(topic)
        if not partitions and not view.shows_topic_line(topic):
            continue
        out.append(
            {
                "name": topic.name,
                "topic_id": topic.topic_id,
                "internal": topic.internal,
                "partition_count": len(topic.partitions),
                "replication_factor": topic.replication_factor,
                "configs": dict(topic.configs),
                "partitions": [_partition_json(p) for p in partitions],
            }
        )
    return {"reports": [r.value for r in view.reports], "topics": out}


def describe_table(view: TopicsView) -> RenderableType:
    from rich.table import Table

    table = Table()
    for column in ("Topic", "Partition", "Leader", "Replicas", "ISR", "ELR"):
        table.add_column(column)
    for topic in sorted(view.topics, key=lambda t: t.name):
        for p in view.shown_partitions(topic):
            table.add_row(
                p.topic,
                str(p.partition),
                str(p.leader) if p.has_leader else "none",
                _ids(p.replicas),
                _ids(p.isr),
                "N/A" if p.elr is None else _ids(p.elr),
            )
    return table
