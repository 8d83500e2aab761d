"""The emulator's coordinators wired to its cluster: the metadata image as their topic view, the brokers'
configs as their settings, the data plane's logs as their storage, and the internal topics they live in.

Behavior:
- One group coordinator per cluster, made on first use; it reads the image, never imports the cluster.
- A broker coordinates the groups (transactions) whose __consumer_offsets (__transaction_state)
  partition it leads; another broker answers NOT_COORDINATOR.
- FindCoordinator while the internal topic does not exist creates it, as a Kafka broker does through
  the controller (offsets.topic.num.partitions, offsets.topic.replication.factor; Kafka's topic
  configs), and answers COORDINATOR_NOT_AVAILABLE until it has a live leader.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Iterable
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ConfigResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC, GroupCoordinator
from kcli.sandbox.emulator.groups.settings import GroupSettings

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

TRANSACTIONS_TOPIC = "__transaction_state"
# The configs Kafka creates each internal topic with (GroupCoordinator/TransactionLog.offsetsTopicConfigs).
INTERNAL_TOPIC_CONFIGS = {
    OFFSETS_TOPIC: {
        "cleanup.policy": "compact",
        "compression.type": "producer",
        "segment.bytes": "104857600",
    },
    TRANSACTIONS_TOPIC: {
        "compression.type": "uncompressed",
        "cleanup.policy": "compact",
        "min.insync.replicas": "{min_isr}",
        "segment.bytes": "104857600",
        "unclean.leader.election.enable": "false",
    },
}
_SETTING_KEYS = (
    "offsets.topic.num.partitions",
    "offsets.topic.replication.factor",
    "offset.metadata.max.bytes",
    "offsets.retention.minutes",
    "group.min.session.timeout.ms",
    "group.max.session.timeout.ms",
    "group.initial.rebalance.delay.ms",
    "group.max.size",
    "group.consumer.session.timeout.ms",
    "group.consumer.min.session.timeout.ms",
    "group.consumer.max.session.timeout.ms",
    "group.consumer.heartbeat.interval.ms",
    "group.consumer.max.size",
    "group.consumer.assignors",
    "group.consumer.migration.policy",
    "transaction.state.log.num.partitions",
    "transaction.state.log.replication.factor",
    "transaction.state.log.min.isr",
    "transaction.max.timeout.ms",
)

_COORDINATORS: weakref.WeakKeyDictionary[Any, GroupCoordinator] = weakref.WeakKeyDictionary()
_SETTINGS: weakref.WeakKeyDictionary[Any, tuple[tuple[int, int], GroupSettings, dict[str, str]]] = (
    weakref.WeakKeyDictionary()
)


class ImageTopics:
    """The topics of the cluster's metadata image (kcli.sandbox.emulator.groups.model.TopicsView)."""

    def __init__(self, cluster: Any) -> None:
        self._cluster = cluster

    def topic_id(self, name: str) -> uuid.UUID | None:
        return self._cluster.image.topic_ids.get(name)  # type: ignore[no-any-return]

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        topic = self._cluster.image.topics.get(topic_id)
        return None if topic is None else topic.name  # type: ignore[no-any-return]

    def partition_count(self, topic_id: uuid.UUID) -> int:
        topic = self._cluster.image.topics.get(topic_id)
        return -1 if topic is None else len(topic.partitions)

    def topic_names(self) -> Iterable[str]:
        return list(self._cluster.image.topic_ids)


def group_coordinator(cluster: Any) -> GroupCoordinator:
    """The cluster's group coordinator (made on first use)."""
    coordinator = _COORDINATORS.get(cluster)
    if coordinator is None:
        coordinator = GroupCoordinator(
            lambda: partition_logs(cluster), ImageTopics(cluster), lambda: group_settings(cluster)
        )
        _COORDINATORS[cluster] = coordinator
    return coordinator


def partition_logs(cluster: Any) -> Any:
    """The data plane's PartitionLogs of the cluster (COORDINATOR_NOT_AVAILABLE without one)."""
    logs = getattr(cluster, "partition_logs", None)
    if logs is None:
        from kcli.sandbox.emulator.groups.model import CoordinatorError

        raise CoordinatorError(ErrorCode.coordinator_not_available, "the sandbox serves no partition logs")
    return logs


def broker_settings(cluster: Any) -> dict[str, str]:
    """The coordinator-related broker configs (of the lowest live broker: a sandbox's brokers share them)."""
    return _cached(cluster)[1]


def group_settings(cluster: Any) -> GroupSettings:
    return _cached(cluster)[0]


def _cached(cluster: Any) -> tuple[GroupSettings, dict[str, str]]:
    from kcli.sandbox.configview import broker_value

    image = cluster.image
    stamp = (image.broker_config_version, image.records_applied)
    cached = _SETTINGS.get(cluster)
    if cached is not None and cached[0] == stamp:
        return cached[1], cached[2]
    brokers = sorted(n.node_id for n in cluster.brokers())
    node = brokers[0] if brokers else 1
    values = {key: value for key in _SETTING_KEYS if (value := broker_value(cluster, node, key)) is not None}
    groups = {name: dict(v) for (kind, name), v in image.configs.items() if kind == ConfigResourceType.GROUP}
    settings = GroupSettings.from_configs(values, groups)
    _SETTINGS[cluster] = (stamp, settings, values)
    return settings, values


def coordinator_of(cluster: Any, topic: str, partition: int) -> int | None:
    """The live broker leading `partition` of an internal topic (None: no topic, no live leader)."""
    found = cluster.image.topic(topic)
    if found is None:
        return None
    state = found.partitions.get(partition)
    if state is None or state.leader < 0:
        return None
    registration = cluster.image.brokers.get(state.leader)
    node = cluster.nodes.get(state.leader)
    if registration is None or registration.fenced or node is None or not node.running:
        return None
    return int(state.leader)


async def ensure_internal_topic(cluster: Any, topic: str) -> None:
    """Create an internal topic as a broker's auto topic creation does (nothing when it exists or the
    cluster cannot host it yet)."""
    if cluster.image.topic(topic) is not None:
        return
    from kcli.sandbox.placement import assign, partition_records

    values = broker_settings(cluster)
    prefix = "offsets.topic" if topic == OFFSETS_TOPIC else "transaction.state.log"
    partitions = int(values.get(f"{prefix}.num.partitions", "50"))
    factor = int(values.get(f"{prefix}.replication.factor", "3"))
    brokers = cluster.live_broker_ids()
    if len(brokers) < factor:
        return  # INVALID_REPLICATION_FACTOR on a real broker: the coordinator stays unavailable
    topic_id = uuid.uuid4()
    records: list[Any] = [R.TopicRecord(name=topic, topic_id=topic_id)]
    min_isr = values.get("transaction.state.log.min.isr", "2")
    for key, value in INTERNAL_TOPIC_CONFIGS[topic].items():
        records.append(
            R.ConfigRecord(
                resource_type=ConfigResourceType.TOPIC,
                resource_name=topic,
                name=key,
                value=value.format(min_isr=min_isr),
            )
        )
    records.extend(partition_records(cluster, topic_id, assign(brokers, partitions, factor)))
    if cluster.image.topic(topic) is None:
        await cluster.commit(records)


def coordinator_error(cluster: Any, node_id: int, topic: str, partition: int) -> ErrorCode | None:
    """NOT_COORDINATOR unless `node_id` leads the partition (COORDINATOR_NOT_AVAILABLE: nobody does)."""
    leader = coordinator_of(cluster, topic, partition)
    if leader is None:
        return ErrorCode.coordinator_not_available
    if leader != node_id:
        return ErrorCode.not_coordinator
    return None
