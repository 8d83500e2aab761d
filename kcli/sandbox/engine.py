"""The engine interface of the sandbox: what every engine does to a cluster, with typed results.

Two engines implement it, sibling packages the CLI never imports: the emulator
(kcli.sandbox.emulator.engine) and real Kafka nodes (kcli.sandbox.kafka.engine). The CLI opens the
engine of a directory once (kcli.sandbox.opening), calls one method and renders what comes back.
A fault an engine cannot do is answered with `NotSupported` (why, and what to do instead) through
the same method: the CLI says it in one line, whatever the engine.

Each result's `to_json()` is its command's `-o json` document (docs/json/sandbox-*.md) and `line()`
its text line. FAULTS lists the fault commands: each names the engine method it calls and its
arguments, so a new fault is a method here, in each engine and in this table (scripts/sandbox-faults.py
writes its command, kcli/cli/sandbox_faults.py), never a change by hand in the CLI.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TextIO

if TYPE_CHECKING:
    from kcli.sandbox.settings import SandboxSettings


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeStatus:
    """One node as `sandbox status` shows it."""

    node_id: int
    role: str  # broker, controller, or combined (real Kafka only)
    host: str
    port: int
    running: bool
    delay_ms: int = 0
    advertises: int | None = None  # the node whose endpoint it advertises (misroute)
    rack: str | None = None
    pid: int | None = None  # real Kafka only: its JVM
    real: bool = False  # a real Kafka node: `pid` is one of its keys

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.node_id,
            "role": self.role,
            "host": self.host,
            "port": self.port,
            "running": self.running,
        }
        if self.real:
            out["pid"] = self.pid
        out.update(delay_ms=self.delay_ms, advertises=self.advertises, rack=self.rack)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> NodeStatus:
        return cls(
            node_id=int(data["id"]),
            role=str(data["role"]),
            host=str(data["host"]),
            port=int(data["port"]),
            running=bool(data["running"]),
            delay_ms=int(data.get("delay_ms") or 0),
            advertises=data.get("advertises"),
            rack=data.get("rack"),
            pid=data.get("pid"),
            real="pid" in data,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxStatus:
    """The state of a sandbox: its cluster, its metadata quorum, its nodes."""

    engine: str  # "emulator" or "kafka"
    cluster_id: str
    active_controller_id: int | None  # None: real controllers that did not answer DescribeQuorum
    leader_epoch: int | None
    log_end_offset: int | None
    high_watermark: int | None
    security: str
    bootstrap_servers: str
    bootstrap_controllers: str
    topics: int | None  # None: real brokers that did not answer Metadata
    nodes: tuple[NodeStatus, ...]
    kafka_version: str | None = None  # real Kafka only
    kafka_home: str | None = None  # real Kafka only
    pid: int | None = None  # the emulator's process (up, status)
    directory: str | None = None  # (up, status)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"engine": self.engine}
        if self.engine == "kafka":
            out.update(kafka_version=self.kafka_version, kafka_home=self.kafka_home)
        out.update(
            cluster_id=self.cluster_id,
            active_controller_id=self.active_controller_id,
            leader_epoch=self.leader_epoch,
            log_end_offset=self.log_end_offset,
            high_watermark=self.high_watermark,
            security=self.security,
            bootstrap_servers=self.bootstrap_servers,
            bootstrap_controllers=self.bootstrap_controllers,
            topics=self.topics,
            nodes=[node.to_json() for node in self.nodes],
        )
        if self.pid is not None:
            out["pid"] = self.pid
        if self.directory is not None:
            out["directory"] = self.directory
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SandboxStatus:
        return cls(
            engine=str(data["engine"]),
            cluster_id=str(data["cluster_id"]),
            active_controller_id=data.get("active_controller_id"),
            leader_epoch=data.get("leader_epoch"),
            log_end_offset=data.get("log_end_offset"),
            high_watermark=data.get("high_watermark"),
            security=str(data["security"]),
            bootstrap_servers=str(data["bootstrap_servers"]),
            bootstrap_controllers=str(data["bootstrap_controllers"]),
            topics=data.get("topics"),
            nodes=tuple(NodeStatus.from_json(node) for node in data["nodes"]),
            kafka_version=data.get("kafka_version"),
            kafka_home=data.get("kafka_home"),
            pid=data.get("pid"),
            directory=data.get("directory"),
        )

    def placed(self, *, directory: Path, pid: int | None = None) -> SandboxStatus:
        """The status with where the sandbox runs (what `up` and `status` show)."""
        return replace(self, directory=str(directory), pid=pid)


# ---------------------------------------------------------------- what a command did


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeChanged:
    """A node stopped, killed, started or delayed; the sandbox afterwards."""

    node_id: int
    change: str  # stopped, killed, started, delayed
    status: SandboxStatus
    delay_ms: int = 0

    def line(self) -> str:
        if self.change == "delayed":
            return f"Node {self.node_id} responses delayed by {self.delay_ms} ms."
        return f"Node {self.node_id} {self.change}."

    def to_json(self) -> dict[str, Any]:
        return self.status.to_json()


@dataclass(frozen=True, slots=True, kw_only=True)
class FailedOver:
    active_controller_id: int

    def line(self) -> str:
        return f"Controller {self.active_controller_id} is now active."

    def to_json(self) -> dict[str, Any]:
        return {"active_controller_id": self.active_controller_id}


@dataclass(frozen=True, slots=True, kw_only=True)
class AddedNode:
    """A new broker (no replicas yet), or a new controller that is not a voter yet."""

    node_id: int
    role: str  # broker or controller
    host: str
    port: int
    config: str | None  # a controller's server.properties, for metadata-quorum add-controller
    status: SandboxStatus

    def line(self) -> str:
        where = f"{self.host}:{self.port}"
        if self.role == "broker":
            return f"Broker {self.node_id} started on {where} (no replicas yet)."
        return (
            f"Controller {self.node_id} started on {where}, not a voter yet; add it with: kcli "
            f"metadata-quorum --bootstrap-controller {self.status.bootstrap_controllers} add-controller "
            f"--command-config {self.config}"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "node_id": self.node_id,
            "role": self.role,
            "host": self.host,
            "port": self.port,
            "config": self.config,
            "status": self.status.to_json(),
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplacedBrokers:
    replaced: Mapping[int, int]  # old broker id -> new broker id
    status: SandboxStatus

    def line(self) -> str:
        return f"Brokers replaced (old id -> new id): {self._named()}."

    def _named(self) -> dict[str, int]:
        return {str(old): new for old, new in self.replaced.items()}

    def to_json(self) -> dict[str, Any]:
        return {"replaced": self._named(), "status": self.status.to_json()}


@dataclass(frozen=True, slots=True, kw_only=True)
class Misrouted:
    node_id: int
    advertises: int  # the node whose endpoint it advertises now (its own: the misroute ended)

    def line(self) -> str:
        if self.advertises == self.node_id:
            return f"Node {self.node_id} advertises its own endpoint again (no longer misrouted)."
        return f"Node {self.node_id} now advertises the endpoint of node {self.advertises}."

    def to_json(self) -> dict[str, Any]:
        return {"advertises": self.advertises}


@dataclass(frozen=True, slots=True, kw_only=True)
class NotSupported:
    """A fault this engine cannot do: why, and what to do instead."""

    command: str
    reason: str  # the whole line: what cannot be done and why
    hint: str | None = None

    def line(self) -> str:
        return self.reason


@dataclass(frozen=True, slots=True, kw_only=True)
class Stopped:
    """What `down` stopped."""

    cluster_id: str
    directory: Path
    what: str  # e.g. "pid 1234", "Kafka nodes 1, 2, 101"
    was_running: bool = True

    def line(self) -> str:
        if not self.was_running:
            return (
                f"Sandbox {self.cluster_id} in {self.directory} was not running (no node alive); its state "
                "file is removed."
            )
        return f"Sandbox {self.cluster_id} in {self.directory} stopped ({self.what})."


Result = NodeChanged | FailedOver | AddedNode | ReplacedBrokers | Misrouted | NotSupported


@dataclass(frozen=True, slots=True, kw_only=True)
class Running:
    """A sandbox `up` started, and how clients reach it."""

    directory: Path
    cluster_id: str
    pid: int | None  # the emulator's process (None: real nodes, one JVM each)
    bootstrap_servers: str
    security: str
    users: Mapping[str, str]  # SASL users and passwords (empty without SASL)
    status: SandboxStatus
    notes: tuple[str, ...] = ()  # what opening the directory repaired, for the operator


class Launcher(Protocol):
    """What `sandbox up` needs of an engine: the flags it takes, whether DIR's sandbox runs, starting it."""

    @property
    def ticks(self) -> bool:
        """Whether up_foreground reports the status as it changes (what a live panel needs)."""
        ...

    def check_flags(
        self, *, combined: bool, server_config: bool, release_version: str | None, records: bool
    ) -> None:
        """UsageError for a flag this engine does not take."""

    def refuse_running(self, directory: Path, *, hint: str) -> None:
        """KcliError when the sandbox in `directory` runs already; a stale state file is removed."""

    def up_detached(
        self, settings: SandboxSettings, *, created: bool, progress: Callable[[str], None]
    ) -> Running:
        """Start the sandbox and return once it serves; it keeps running."""
        ...

    def up_foreground(
        self,
        settings: SandboxSettings,
        *,
        created: bool,
        log_stream: TextIO,
        on_ready: Callable[[Running], None] | None,
        on_tick: Callable[[SandboxStatus], None] | None = None,
        progress: Callable[[str], None] = ...,
    ) -> str | None:
        """Run the sandbox until Ctrl-C, SIGTERM or `sandbox down`; who stopped it. `on_ready` is told
        once it serves (None: the emulator's own process, which logs that instead)."""
        ...


class SandboxEngine(Protocol):
    """A sandbox in a directory, opened by its engine: every command `kcli sandbox` runs on it."""

    @property
    def directory(self) -> Path: ...

    def status(self) -> SandboxStatus: ...

    def stop_node(self, node_id: int) -> NodeChanged | NotSupported: ...

    def kill_node(self, node_id: int) -> NodeChanged | NotSupported: ...

    def start_node(self, node_id: int) -> NodeChanged | NotSupported: ...

    def failover(self) -> FailedOver | NotSupported: ...

    def add_node(self, *, controller: bool, node_id: int | None) -> AddedNode | NotSupported: ...

    def replace_brokers(self) -> ReplacedBrokers | NotSupported: ...

    def misroute(self, node_id: int, target: int | None) -> Misrouted | NotSupported: ...

    def delay(self, node_id: int, ms: int) -> NodeChanged | NotSupported: ...

    def down(self) -> Stopped: ...


# ---------------------------------------------------------------- the fault commands


@dataclass(frozen=True, slots=True, kw_only=True)
class Parameter:
    """One parameter of a fault command: a positional argument or an --option."""

    name: str  # the engine method's keyword
    help: str
    kind: type = int
    option: str | None = None  # "--as": an option; None: an argument
    default: Any = None
    flag: bool = False  # a boolean --option
    minimum: int | None = None


NODE = Parameter(name="node_id", help="Node id (brokers 1..B, controllers 101..).")


@dataclass(frozen=True, slots=True, kw_only=True)
class Fault:
    """A `kcli sandbox` fault command: its name, help, parameters and the engine method it calls."""

    command: str
    help: str
    method: str
    parameters: tuple[Parameter, ...] = ()


FAULTS: tuple[Fault, ...] = (
    Fault(
        command="stop-node",
        help="Stop one node: its listener closes; a broker is fenced and loses leadership.",
        method="stop_node",
        parameters=(NODE,),
    ),
    Fault(
        command="kill-node",
        help="Kill one real Kafka node with SIGKILL (kill -9: no orderly shutdown); real nodes only.",
        method="kill_node",
        parameters=(NODE,),
    ),
    Fault(
        command="start-node",
        help="Start a stopped node again on its port.",
        method="start_node",
        parameters=(NODE,),
    ),
    Fault(
        command="add-node",
        help="Start a new node: a broker that holds no replicas yet, or a controller that is not a voter yet.",
        method="add_node",
        parameters=(
            Parameter(
                name="controller",
                option="--controller",
                flag=True,
                kind=bool,
                default=False,
                help="A controller that is not a voter yet (metadata-quorum add-controller makes it one); "
                "default: a broker.",
            ),
            Parameter(
                name="node_id", option="--id", minimum=0, help="Its node id (default: the next free one)."
            ),
        ),
    ),
    Fault(
        command="replace-brokers",
        help="Replace every broker by one with a new id on another port (the KIP-899 rebootstrap case).",
        method="replace_brokers",
    ),
    Fault(
        command="failover",
        help="Make another controller the active one (a new leader epoch).",
        method="failover",
    ),
    Fault(
        command="misroute",
        help="Make a node advertise another node's endpoint (the KIP-1242 misrouting case), until it restarts.",
        method="misroute",
        parameters=(
            NODE,
            Parameter(
                name="target",
                option="--as",
                help="Advertise this node's endpoint (default: a peer; the node's own id ends the misroute).",
            ),
        ),
    ),
    Fault(
        command="delay",
        help="Delay every response of one node by MS milliseconds.",
        method="delay",
        parameters=(NODE, Parameter(name="ms", minimum=0, help="Delay in milliseconds (0 removes it).")),
    ),
)
