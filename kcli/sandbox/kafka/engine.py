"""The real-Kafka engine behind the sandbox's interface (kcli.sandbox.engine): each command on real JVMs.

`KafkaEngine` opens the sandbox of real Kafka nodes in a directory (kcli.sandbox.kafka.control) and
carries out every command of the interface with kcli.sandbox.kafka.faults; the faults only an
emulator can fake (misroute, delay) are answered with NotSupported and the reason.
"""

from __future__ import annotations

from pathlib import Path

from kcli.sandbox.engine import (
    AddedNode,
    FailedOver,
    Misrouted,
    NodeChanged,
    NotSupported,
    ReplacedBrokers,
    SandboxStatus,
    Stopped,
)
from kcli.sandbox.kafka import faults
from kcli.sandbox.kafka.cluster import KafkaCluster, Progress, _quiet
from kcli.sandbox.settings import CONTROLLER_ID_BASE


class KafkaEngine:
    """The real Kafka nodes of one sandbox directory."""

    def __init__(self, directory: Path, *, progress: Progress = _quiet) -> None:
        self._directory = directory
        self._progress = progress
        self._cluster: KafkaCluster | None = None

    @classmethod
    def of(cls, cluster: KafkaCluster) -> KafkaEngine:
        """The engine of a cluster already open (the one `up` started)."""
        engine = cls(cluster.settings.directory, progress=cluster.progress)
        engine._cluster = cluster
        return engine

    @property
    def directory(self) -> Path:
        return self._directory

    @property
    def cluster(self) -> KafkaCluster:
        if self._cluster is None:
            from kcli.sandbox.kafka.control import load

            self._cluster = load(self._directory, progress=self._progress)
        return self._cluster

    def status(self) -> SandboxStatus:
        return faults.status(self.cluster).placed(directory=self._directory)

    def stop_node(self, node_id: int) -> NodeChanged:
        faults.stop_node(self.cluster, node_id)
        return NodeChanged(node_id=node_id, change="stopped", status=faults.status(self.cluster))

    def kill_node(self, node_id: int) -> NodeChanged:
        faults.stop_node(self.cluster, node_id, kill=True)
        return NodeChanged(node_id=node_id, change="killed", status=faults.status(self.cluster))

    def start_node(self, node_id: int) -> NodeChanged:
        faults.start_node(self.cluster, node_id)
        return NodeChanged(node_id=node_id, change="started", status=faults.status(self.cluster))

    def failover(self) -> FailedOver:
        return FailedOver(active_controller_id=faults.failover(self.cluster))

    def add_node(self, *, controller: bool, node_id: int | None) -> AddedNode:
        cluster = self.cluster
        config: str | None = None
        if controller:
            if node_id is None:
                ids = [CONTROLLER_ID_BASE - 1, *(s.node_id for s in cluster.layout.controllers())]
                node_id = max(ids) + 1
            config = str(faults.prepare_controller(cluster, node_id))
        else:
            node_id = faults.add_broker(cluster, node_id)
        spec = cluster.layout.node(node_id)
        return AddedNode(
            node_id=spec.node_id,
            role="controller" if controller else "broker",
            host=cluster.layout.host,
            port=spec.client_port,
            config=config,
            status=faults.status(cluster),
        )

    def replace_brokers(self) -> ReplacedBrokers:
        mapping = faults.replace_brokers(self.cluster)
        return ReplacedBrokers(replaced=mapping, status=faults.status(self.cluster))

    def misroute(self, node_id: int, target: int | None) -> Misrouted | NotSupported:
        return faults.emulator_only("misroute")

    def delay(self, node_id: int, ms: int) -> NodeChanged | NotSupported:
        return faults.emulator_only("delay")

    def down(self) -> Stopped:
        cluster = self.cluster
        running = [spec.node_id for spec in cluster.layout.nodes if cluster.running(spec.node_id)]
        cluster.stop()
        return Stopped(
            cluster_id=cluster.cluster_id,
            directory=self._directory,
            what=f"Kafka nodes {', '.join(map(str, running))}",
            was_running=bool(running),
        )
