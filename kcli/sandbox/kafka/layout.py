"""The nodes of a real-Kafka sandbox, fixed when it is created: ids, roles, ports, directory ids.

Written to DIR/kafka-cluster.json. The ports cannot change after formatting: a dynamic quorum keeps
each voter's endpoint in the metadata log, and clients keep the brokers' addresses. Node ids follow
the emulator's: brokers 1.., controllers 101.. (with --combined, nodes 1.. are both).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, replace
from pathlib import Path

from kcli.sandbox.nodes import KAFKA_LAYOUT_FILE as LAYOUT_FILE
from kcli.sandbox.ports import free_ports
from kcli.sandbox.settings import BROKER_ID_BASE, CONTROLLER_ID_BASE, HOST, SandboxSettings

BROKER, CONTROLLER = "broker", "controller"


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeSpec:
    """One node: its roles and the ports of its listeners (None for a role it lacks)."""

    node_id: int
    roles: tuple[str, ...]
    broker_port: int | None = None
    controller_port: int | None = None
    directory_id: str = ""  # its metadata log dir's directory.id (Kafka uuid), for --initial-controllers
    initial_voter: bool = False  # formatted into the quorum's first voter set

    @property
    def is_broker(self) -> bool:
        return BROKER in self.roles

    @property
    def is_controller(self) -> bool:
        return CONTROLLER in self.roles

    @property
    def role(self) -> str:
        """broker, controller or combined (as `sandbox status` shows it)."""
        return "combined" if len(self.roles) == 2 else self.roles[0]

    @property
    def client_port(self) -> int:
        """The port a client of this node's kind dials: the broker listener, else the controller's."""
        port = self.broker_port if self.is_broker else self.controller_port
        assert port is not None
        return port


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterLayout:
    cluster_id: str
    kafka_version: str  # the release that formatted the cluster
    dynamic_quorum: bool  # controller.quorum.bootstrap.servers (KIP-853) rather than static voters
    host: str = HOST
    nodes: tuple[NodeSpec, ...] = ()

    def node(self, node_id: int) -> NodeSpec:
        for spec in self.nodes:
            if spec.node_id == node_id:
                return spec
        known = ", ".join(str(spec.node_id) for spec in self.nodes)
        raise KeyError(f"no node {node_id} in this sandbox (nodes: {known})")

    def brokers(self) -> tuple[NodeSpec, ...]:
        return tuple(spec for spec in self.nodes if spec.is_broker)

    def controllers(self) -> tuple[NodeSpec, ...]:
        return tuple(spec for spec in self.nodes if spec.is_controller)

    def voters_text(self) -> str:
        """controller.quorum.voters / --initial-controllers entries of the first voter set."""
        voters = [spec for spec in self.controllers() if spec.initial_voter]
        if self.dynamic_quorum:
            return ",".join(f"{v.node_id}@{self.host}:{v.controller_port}:{v.directory_id}" for v in voters)
        return ",".join(f"{v.node_id}@{self.host}:{v.controller_port}" for v in voters)

    def bootstrap_servers(self) -> str:
        return ",".join(f"{self.host}:{spec.broker_port}" for spec in self.brokers())

    def bootstrap_controllers(self) -> str:
        return ",".join(
            f"{self.host}:{spec.controller_port}" for spec in self.controllers() if spec.initial_voter
        )

    def with_node(self, spec: NodeSpec) -> ClusterLayout:
        others = tuple(n for n in self.nodes if n.node_id != spec.node_id)
        return replace(self, nodes=tuple(sorted((*others, spec), key=lambda n: n.node_id)))

    def without(self, node_ids: set[int]) -> ClusterLayout:
        return replace(self, nodes=tuple(n for n in self.nodes if n.node_id not in node_ids))


def new_layout(
    settings: SandboxSettings, *, cluster_id: str, kafka_version: str, dynamic_quorum: bool, combined: bool
) -> ClusterLayout:
    """The nodes of a new sandbox: ports from --base-port (brokers' listeners first), else free ones."""
    from kcli.sandbox.nodes import new_directory_id

    if combined:
        shared = max(settings.controllers, 0)
        broker_ids = list(range(BROKER_ID_BASE, BROKER_ID_BASE + max(settings.brokers, shared)))
        controller_ids = broker_ids[:shared]
    else:
        broker_ids = list(settings.broker_ids())
        controller_ids = list(range(CONTROLLER_ID_BASE, CONTROLLER_ID_BASE + settings.controllers))
    count = len(broker_ids) + len(controller_ids)
    if settings.base_port:
        ports = [settings.base_port + index for index in range(count)]
    else:
        ports = free_ports(count, settings.host)
    broker_ports = dict(zip(broker_ids, ports[: len(broker_ids)], strict=True))
    controller_ports = dict(zip(controller_ids, ports[len(broker_ids) :], strict=True))
    nodes = []
    for node_id in sorted({*broker_ids, *controller_ids}):
        roles = tuple(r for r, ids in ((BROKER, broker_ids), (CONTROLLER, controller_ids)) if node_id in ids)
        nodes.append(
            NodeSpec(
                node_id=node_id,
                roles=roles,
                broker_port=broker_ports.get(node_id),
                controller_port=controller_ports.get(node_id),
                directory_id=new_directory_id(),
                initial_voter=node_id in controller_ports,
            )
        )
    return ClusterLayout(
        cluster_id=cluster_id,
        kafka_version=kafka_version,
        dynamic_quorum=dynamic_quorum,
        host=settings.host,
        nodes=tuple(nodes),
    )


def save_layout(directory: Path, layout: ClusterLayout) -> None:
    path = directory / LAYOUT_FILE
    temporary = path.with_name(path.name + f".{os.getpid()}.tmp")
    data = asdict(layout)
    temporary.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def load_layout(directory: Path) -> ClusterLayout | None:
    """The layout of the real-Kafka sandbox in `directory` (None when it has none; ValueError when unreadable)."""
    from kcli.files import read_text

    path = directory / LAYOUT_FILE
    if not path.exists():
        return None
    data = json.loads(read_text(path, what="sandbox layout file"))
    try:
        nodes = tuple(NodeSpec(**{**node, "roles": tuple(node["roles"])}) for node in data.pop("nodes"))
        return ClusterLayout(**data, nodes=nodes)
    except (TypeError, KeyError) as error:
        raise ValueError(f"{path} is not a sandbox layout file: {error}") from None
