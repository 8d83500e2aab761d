"""The cluster's side of the data plane: its image, nodes and log dirs as the plane's Topology.

The data plane (kcli.sandbox.emulator.data) never imports the cluster; this adapter answers its
Topology questions from the cluster's image (leaders, replicas, ISR, epochs, the replica's log dir
as the partition's `directories` give it) and resolves topic configs as DescribeConfigs does
(kcli.sandbox.emulator.configview: the topic's value, else the broker's, else Kafka's default).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.kafka import ConfigResourceType
from kcli.sandbox.emulator.data.plane import DataPlane
from kcli.sandbox.emulator.data.topology import PartitionInfo

if TYPE_CHECKING:
    from kcli.sandbox.emulator.view import ClusterView


class ClusterTopology:
    """kcli.sandbox.emulator.data.topology.Topology over one running cluster."""

    def __init__(self, cluster: ClusterView) -> None:
        self.cluster = cluster

    def topic_id(self, topic: str) -> uuid.UUID | None:
        return self.cluster.image.topic_ids.get(topic)

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        topic = self.cluster.image.topics.get(topic_id)
        return topic.name if topic is not None else None

    def partition(self, topic_id: uuid.UUID, partition: int) -> PartitionInfo | None:
        topic = self.cluster.image.topics.get(topic_id)
        return topic.partitions.get(partition) if topic is not None else None

    def partitions(self) -> Iterable[tuple[str, PartitionInfo]]:
        for topic in self.cluster.image.topics.values():
            for partition in topic.partitions.values():
                yield topic.name, partition

    def running(self, broker_id: int) -> bool:
        node = self.cluster.nodes.get(broker_id)
        return node is not None and node.running and node.is_broker

    def log_dirs(self, broker_id: int) -> Sequence[Path]:
        dirs = self.cluster.log_dirs.get(broker_id, ())
        return [d.path for d in dirs] or [self.cluster.settings.directory / str(broker_id)]

    def replica_dir(self, broker_id: int, topic_id: uuid.UUID, partition: int) -> Path:
        from kcli.sandbox.emulator.logdirs import replica_directory

        dirs = self.cluster.log_dirs.get(broker_id, ())
        topic = self.cluster.image.topics.get(topic_id)
        found = topic.partitions.get(partition) if topic is not None else None
        if found is not None:
            chosen = replica_directory(self.cluster, found, broker_id)
            for d in dirs:
                if d.directory_id == chosen:
                    return d.path
        return dirs[0].path if dirs else self.cluster.settings.directory / str(broker_id)

    def topic_config(self, topic: str, key: str) -> str | None:
        from kcli.sandbox.emulator.configdefs import TOPIC_CONFIGS
        from kcli.sandbox.emulator.configview import topic_entry

        definition = TOPIC_CONFIGS.get(key)
        if definition is None:
            return None
        dynamic = self.cluster.image.configs.get((ConfigResourceType.TOPIC, topic), {})
        node = min(self.cluster.settings.broker_ids(), default=0)
        return topic_entry(self.cluster, node, definition, dynamic).value


def open_data_plane(cluster: ClusterView) -> DataPlane:
    """The cluster's data plane, its brokers' replicas found on disk (strays deleted)."""
    plane = DataPlane(ClusterTopology(cluster))
    plane.open(node.node_id for node in cluster.nodes.values() if node.is_broker)
    moves = cluster.log_dir_moves
    plane.copies.sweep(moves.resumed() if moves is not None else [])
    return plane


async def fill_topics(cluster: ClusterView) -> int:
    """`up --topics N --records-per-partition M`: M records in each partition of the new topics; bytes."""
    from kcli.sandbox.emulator.data.fill import fill

    settings = cluster.settings
    written = 0
    for topic in list(cluster.image.topics.values()):
        if topic.name.startswith("sandbox-topic-"):
            written += await fill(
                cluster.partition_logs,
                topic.name,
                sorted(topic.partitions),
                settings.records_per_partition,
                compression=settings.compression,
            )
    return written
