"""`kcli topics`: read the topics, their partitions, configs and running reassignments.

Behavior (what kafka-topics.sh --describe asks, in one pass):
- Metadata for every topic (kcli.workflows.partitions), then DescribeTopicPartitions for ELR where
  the brokers offer it (UNSUPPORTED_VERSION leaves ELR unknown, shown as N/A);
- DescribeConfigs of the selected topics (every entry: the non-default ones are shown, and
  min.insync.replicas decides the min-ISR reports);
- DescribeCluster for the live brokers (the unavailable-partitions report);
- ListPartitionReassignments of the selected partitions (adding and removing replicas).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.kafka import ConfigSource
from kcli.ops.topics import Partition, Report, Topic, TopicsView, describe_order, min_isr_of, select

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def list_topics(admin: Admin, *, topic: str | None, exclude_internal: bool) -> list[str]:
    """--list: the topic names, sorted."""
    from kcli.client.api.topic_names import list_topic_names

    return select(
        await list_topic_names(admin), topic=topic, exclude_internal=exclude_internal, require=False
    )


async def describe_topics(
    admin: Admin,
    *,
    topic: str | None,
    exclude_internal: bool,
    reports: tuple[Report, ...],
    with_overrides: bool,
    require: bool = True,
    topic_id: str | None = None,
    partition_limit: int | None = None,
) -> TopicsView:
    """--describe: the selected topics with their partitions, non-default configs and reassignments.

    With `topic_id` (not the zero id) the topic of that id, whatever --topic says; Kafka's tool then
    describes it by id (Metadata), which carries no ELR: N/A, as it prints. `partition_limit` is
    --partition-size-limit-per-response, DescribeTopicPartitions' page size.
    """
    from kcli.client.api.configs import describe_configs
    from kcli.client.api.reassign import list_reassignments
    from kcli.ops.config_spec import Entity, EntityType
    from kcli.ops.reassign.model import TopicPartition
    from kcli.workflows.partitions import add_elr, every_partition

    topic_rows, partition_rows = await every_partition(admin)
    if topic_id is not None:
        names = [
            row["topic"]
            for row in topic_rows
            if row["topic_id"] == topic_id and not (exclude_internal and row["internal"])
        ]
        if require and not names:
            raise KcliError(f"TopicId '{topic_id}' does not exist as expected")
    else:
        names = select(
            [row["topic"] for row in topic_rows],
            topic=topic,
            exclude_internal=exclude_internal,
            require=require,
        )
    chosen = set(names)
    rows = [row for row in partition_rows if row["topic"] in chosen]
    elr_known = topic_id is None
    if elr_known:
        try:
            await add_elr(admin, rows, limit=partition_limit)
        except KcliError:
            elr_known = False  # brokers before KIP-966: Kafka's tool prints N/A
    configs = await describe_configs(
        admin, [Entity(type=EntityType.TOPICS, name=name) for name in names], include_synonyms=False
    )
    failed = [c for c in configs if c.error is not None]
    if failed:
        raise KcliError(f"describing configs of {failed[0].entity.label}: {failed[0].error.line()}")  # type: ignore[union-attr]
    by_topic = {c.entity.name: c for c in configs}
    description = await admin.describe_cluster()
    ongoing = (
        await list_reassignments(admin, [TopicPartition(r["topic"], r["partition"]) for r in rows])
        if rows
        else {}
    )

    def partition(row: dict[str, Any]) -> Partition:
        running = ongoing.get(TopicPartition(row["topic"], row["partition"]))
        return Partition(
            topic=row["topic"],
            partition=row["partition"],
            leader=row["leader"],
            replicas=tuple(row["replicas"]),
            isr=tuple(row["isr"]),
            elr=tuple(row["elr"]) if elr_known else None,
            last_known_elr=tuple(row["last_known_elr"]) if elr_known else None,
            adding=running.adding if running is not None else None,
            removing=running.removing if running is not None else None,
        )

    topics: list[Topic] = []
    meta = {row["topic"]: row for row in topic_rows}
    for name in describe_order(names):
        entries = by_topic[name].entries
        values = {e.name: e.value for e in entries}
        topics.append(
            Topic(
                name=name,
                topic_id=meta[name]["topic_id"],
                internal=meta[name]["internal"],
                partitions=tuple(partition(r) for r in rows if r["topic"] == name),
                configs=tuple(
                    (e.name, e.value) for e in entries if e.source is not ConfigSource.DEFAULT_CONFIG
                ),
                min_isr=min_isr_of(values),
            )
        )
    return TopicsView(
        topics=tuple(topics),
        live_brokers=frozenset(n.node_id for n in description.nodes),
        reports=reports,
        with_overrides=with_overrides,
    )
