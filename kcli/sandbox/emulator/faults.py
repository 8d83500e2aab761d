"""Faults and changes of the emulated cluster: a node stopped or started, a broker added, every broker
replaced, a controller prepared, a node misrouted or slowed.

Each is what an operator does to a Kafka cluster, done to the emulated nodes in this process: a
stopped broker is fenced and loses its leaderships, a started one re-registers and rejoins its ISRs,
as Kafka's controller has them. `LocalFaults` carries out the sandbox interface's commands
(kcli.sandbox.engine) on a cluster here, with their typed results: what the control channel serves
(kcli.sandbox.emulator.control) and what the in-process handle calls (kcli.sandbox.emulator.handle).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kcli.metadata import records as _records
from kcli.sandbox.clientconfig import client_settings
from kcli.sandbox.emulator import server
from kcli.sandbox.emulator.cluster import Cluster
from kcli.sandbox.emulator.metalog import MetadataLog, majority
from kcli.sandbox.emulator.node import ClusterError, Listener, Node
from kcli.sandbox.emulator.placement import leadership_after_loss, leadership_after_return, remap_replicas
from kcli.sandbox.emulator.registration import register_broker, register_controller
from kcli.sandbox.engine import AddedNode, FailedOver, Misrouted, NodeChanged, ReplacedBrokers, SandboxStatus
from kcli.sandbox.ports import free_ports
from kcli.sandbox.settings import CONTROLLER_ID_BASE, CONTROLLER_ID_FLOOR

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records


async def stop_node(cluster: Cluster, node_id: int) -> None:
    """Take a node down: its listener closes; a broker is fenced and loses leadership."""

    node = cluster.node(node_id)
    if not node.running:
        raise ClusterError(f"node {node_id} is already stopped")
    if not node.is_broker and not [c for c in cluster.controllers() if c.running and c is not node]:
        raise ClusterError("cannot stop the last running controller")
    if node_id in cluster.voters:
        left = [v for v in cluster.voters if v != node_id and v in cluster.nodes and cluster.nodes[v].running]
        if len(left) < majority(len(cluster.voters)):
            raise ClusterError(
                f"cannot stop controller {node_id}: {len(left)} of {len(cluster.voters)} voters would be "
                f"left, and the metadata quorum needs {majority(len(cluster.voters))}"
            )
    await server.unbind(node)
    cluster.topology_changed()
    if node_id == cluster.active_controller_id:
        # the writes it appended are fetched by the others before they elect a new leader
        await cluster.failover()
    if node.is_broker:
        registration = cluster.image.brokers.get(node_id)
        epoch = registration.broker_epoch if registration else -1
        changes: list[Any] = [
            R.BrokerRegistrationChangeRecord(broker_id=node_id, broker_epoch=epoch, fenced=1)
        ]
        changes.extend(leadership_after_loss(cluster, node_id))
        await cluster.commit(changes)


async def start_node(cluster: Cluster, node_id: int) -> None:
    """Bring a stopped node back on its port; a broker re-registers and rejoins the ISRs."""

    node = cluster.node(node_id)
    if node.running:
        raise ClusterError(f"node {node_id} is already running")
    node.incarnation_id = uuid.uuid4()
    # A misroute is the running node's state, not its configuration: it comes back advertising
    # its own endpoint (on real nodes the fault is in server.properties and outlives a restart).
    node.advertise_as = None
    cluster.topology_changed()
    await server.bind(cluster, node)
    # it fetches what it missed (truncating anything that diverged) in the commit's round
    if node.is_broker:
        await cluster.commit(register_broker(cluster, node))
        await cluster.commit(leadership_after_return(cluster, node_id))
    else:
        await cluster.commit([register_controller(cluster, node)])


async def add_broker(cluster: Cluster, node_id: int | None = None) -> int:
    """Start a new broker (the next free id unless given) on a free port; it registers and is unfenced.

    Like a freshly formatted broker joining a running cluster: it holds no replicas until a
    reassignment moves some to it. Returns its id.
    """

    node_id = cluster.next_broker_id if node_id is None else node_id
    if node_id in cluster.nodes:
        raise ClusterError(f"node {node_id} already exists in this sandbox")
    if not 0 <= node_id < CONTROLLER_ID_FLOOR:
        raise ClusterError(f"broker ids are 0 to {CONTROLLER_ID_FLOOR - 1} in a sandbox, not {node_id}")
    node = Node(
        node_id=node_id,
        kind=Listener.BROKER,
        host=cluster.settings.host,
        port=cluster.next_port(),
        directory_id=MetadataLog.new_directory_id(),
    )
    cluster.nodes[node_id] = node
    cluster.next_broker_id = max(cluster.next_broker_id, node_id + 1)
    cluster.prepare_log_dirs(node)
    await server.bind(cluster, node)
    cluster.metalog.add_node(node)
    await cluster.commit(register_broker(cluster, node))
    cluster.topology_changed()
    return node_id


async def prepare_controller(cluster: Cluster, node_id: int, client_properties: Sequence[str] = ()) -> Path:
    """Start a new controller that is not a voter yet (an observer) and write its server.properties.

    Like a freshly formatted controller started with controller.quorum.bootstrap.servers, it
    gets a log dir with meta.properties (and a new directory.id), fetches the metadata log,
    registers (RegisterControllerRecord) and answers on its own listener; AddRaftVoter makes it
    a voter. `client_properties` are appended for tools that read the file as a client config.
    """

    if node_id in cluster.nodes:
        raise ClusterError(f"node {node_id} already exists in this sandbox")
    if node_id < CONTROLLER_ID_FLOOR:
        raise ClusterError(
            f"controller ids are {CONTROLLER_ID_FLOOR} and above in a sandbox, not {node_id}"
        )
    node = Node(
        node_id=node_id,
        kind=Listener.CONTROLLER,
        host=cluster.settings.host,
        port=cluster.next_port(),
        directory_id=cluster.metalog.directory_id(node_id),
    )
    cluster.nodes[node_id] = node
    await server.bind(cluster, node)
    cluster.metalog.add_node(node)
    await cluster.commit([register_controller(cluster, node)])
    config = cluster.broker_config(node_id)
    keys = (
        "process.roles",
        "node.id",
        "controller.listener.names",
        "listeners",
        "advertised.listeners",
        "controller.quorum.bootstrap.servers",
        "metadata.log.dir",
        "log.dirs",
    )
    lines = [
        "# A sandbox controller that is not a voter yet: kcli metadata-quorum add-controller --command-config",
        *(f"{key}={config[key]}" for key in keys),
        *client_properties,
    ]
    path = cluster.settings.directory / str(node_id) / "server.properties"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


async def replace_brokers(cluster: Cluster, *, fresh_ports: bool = False) -> dict[int, int]:
    """Replace every broker by a new one with a new id, on a rotated port (the KIP-899 case).

    Old brokers are unregistered; partitions move to the new ids. Returns old id -> new id.
    """

    old = sorted(cluster.brokers(), key=lambda n: n.node_id)
    ports = [n.port for n in old]
    mapping: dict[int, int] = {}
    for node in old:
        if node.running:
            await server.unbind(node)
        mapping[node.node_id] = cluster.next_broker_id
        cluster.next_broker_id += 1
    records: list[Any] = []
    for node in old:
        registration = cluster.image.brokers.get(node.node_id)
        records.append(
            R.UnregisterBrokerRecord(
                broker_id=node.node_id, broker_epoch=registration.broker_epoch if registration else -1
            )
        )
        del cluster.nodes[node.node_id]
    await cluster.commit(records)
    # fresh_ports: new free ports, so every old address goes dead (a client must rebootstrap)
    rotated = free_ports(len(ports), cluster.settings.host) if fresh_ports else ports[1:] + ports[:1]
    for node, port in zip(old, rotated, strict=True):
        new_id = mapping[node.node_id]
        fresh = Node(
            node_id=new_id,
            kind=Listener.BROKER,
            host=node.host,
            port=port,
            directory_id=MetadataLog.new_directory_id(),
        )
        cluster.nodes[new_id] = fresh
        cluster.prepare_log_dirs(fresh)
        await server.bind(cluster, fresh)
        cluster.metalog.add_node(fresh)
        await cluster.commit(register_broker(cluster, fresh))

    await cluster.commit(remap_replicas(cluster, mapping))
    return mapping


def misroute(cluster: Cluster, node_id: int, target: int | None = None) -> int:
    """Make `node_id` advertise another node's endpoint (KIP-1242), or its own again; returns the id."""
    node = cluster.node(node_id)
    peers = sorted(n.node_id for n in cluster.nodes.values() if n.kind is node.kind and n.node_id != node_id)
    if target is None:
        if not peers:
            raise ClusterError(f"node {node_id} has no peer to be misrouted to")
        target = peers[0]
    cluster.node(target)
    # advertising its own endpoint again is how a misroute ends
    node.advertise_as = None if target == node_id else target
    cluster.topology_changed()
    return target


def delay(cluster: Cluster, node_id: int, ms: int) -> None:
    """Delay every response of `node_id` by `ms` milliseconds (0 removes the delay)."""
    if ms < 0:
        raise ClusterError("delay must be >= 0 ms")
    cluster.node(node_id).delay_ms = ms


class LocalFaults:
    """The sandbox interface's commands on a cluster in this process, each with its typed result."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    def _status(self) -> SandboxStatus:
        return SandboxStatus.from_json(self.cluster.status())

    async def stop_node(self, node_id: int) -> NodeChanged:
        await stop_node(self.cluster, node_id)
        return NodeChanged(node_id=node_id, change="stopped", status=self._status())

    async def start_node(self, node_id: int) -> NodeChanged:
        await start_node(self.cluster, node_id)
        return NodeChanged(node_id=node_id, change="started", status=self._status())

    async def failover(self) -> FailedOver:
        return FailedOver(active_controller_id=await self.cluster.failover())

    async def add_node(self, *, controller: bool, node_id: int | None) -> AddedNode:
        """A new broker, or a new controller that is not a voter yet (its config for add-controller)."""
        cluster = self.cluster
        config: str | None = None
        if controller:
            settings = cluster.settings
            if node_id is None:
                node_id = max([CONTROLLER_ID_BASE - 1, *(n.node_id for n in cluster.controllers())]) + 1
            client = client_settings(settings.directory, settings.security, settings.users)
            extra = [f"{k}={v}" for k, v in client.items() if client != {"security.protocol": "PLAINTEXT"}]
            config = str(await prepare_controller(cluster, node_id, extra))
        else:
            node_id = await add_broker(cluster, node_id)
        node = cluster.node(node_id)
        cluster.save_ports()  # a reopen serves the new node on its port, even after a crash
        return AddedNode(
            node_id=node.node_id,
            role="controller" if controller else "broker",
            host=node.host,
            port=node.port,
            config=config,
            status=self._status(),
        )

    async def replace_brokers(self) -> ReplacedBrokers:
        mapping = await replace_brokers(self.cluster)
        self.cluster.save_ports()
        return ReplacedBrokers(replaced=mapping, status=self._status())

    async def misroute(self, node_id: int, target: int | None) -> Misrouted:
        return Misrouted(node_id=node_id, advertises=misroute(self.cluster, node_id, target))

    async def delay(self, node_id: int, ms: int) -> NodeChanged:
        delay(self.cluster, node_id, ms)
        return NodeChanged(node_id=node_id, change="delayed", status=self._status(), delay_ms=ms)
