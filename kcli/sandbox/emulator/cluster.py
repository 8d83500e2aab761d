"""The sandbox cluster: nodes, the metadata image, the active controller and faults.

Everything here runs on one asyncio loop, so state changes are serial: the active controller
turns each accepted change into metadata records, appends them to its metadata log and applies
them to the image in one step (as Kafka's controller applies uncommitted records), then waits until
the records are committed on a majority of the voters (kcli.sandbox.emulator.metalog) before it answers.
Replay takes the same path when `up` reopens an existing directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.metadata import records as _records
from kcli.sandbox.emulator.features import (
    KRAFT_VERSION,
    bootstrap_levels,
    release_level,
)
from kcli.sandbox.emulator.image import Image
from kcli.sandbox.emulator.loggers import initial_levels
from kcli.sandbox.emulator.registration import (
    bootstrap_records,
    register_broker,
    register_controller,
    static_config,
)
from kcli.sandbox.emulator.registry import Listener
from kcli.sandbox.nodes import new_cluster_id
from kcli.sandbox.settings import CONTROLLER_ID_FLOOR, SandboxSettings

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

log = logging.getLogger("kcli.sandbox")

ControlHook = Callable[[Any, Any], Awaitable[Any | None]]
PROGRESS_SAVE_S = 1.0  # how often in-flight copy progress is written (a crash loses at most this much)


@dataclass(slots=True, kw_only=True)
class Node:
    """One emulated KRaft node with its own listener."""

    node_id: int
    kind: Listener
    host: str
    port: int
    directory_id: uuid.UUID
    incarnation_id: uuid.UUID = field(default_factory=uuid.uuid4)
    server: asyncio.Server | None = None
    running: bool = False
    delay_ms: int = 0
    advertise_as: int | None = None  # misroute: advertise this other node's endpoint
    log_end_offset: int = 0
    last_fetch_ms: int = -1
    last_caught_up_ms: int = -1
    connections: set[asyncio.StreamWriter] = field(default_factory=set)
    log_levels: dict[str, str] = field(default_factory=initial_levels)  # BROKER_LOGGER, not persisted

    @property
    def is_broker(self) -> bool:
        return self.kind is Listener.BROKER

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"


class ClusterError(Exception):
    """A fault or control command that cannot be carried out (unknown node, no controller left, ...)."""


class Cluster:
    """State, nodes and the controller of one sandbox."""

    def __init__(self, settings: SandboxSettings) -> None:
        self.settings = settings
        self.cluster_id = settings.cluster_id or new_cluster_id()
        self.image = Image()
        self.nodes: dict[int, Node] = {}
        self.active_controller_id = -1
        self.leader_epoch = 0
        # what `kafka-storage format --release-version` finalizes (replay overrides it for an existing DIR)
        self.bootstrap_levels = bootstrap_levels(release_level(settings.release_version))
        self.kraft_version = self.bootstrap_levels[KRAFT_VERSION]
        self.voters: dict[int, uuid.UUID] = {}  # the Raft voter set: node id -> directory id
        self.hooks: dict[int, ControlHook] = {}
        self.metalog: Any = None  # kcli.sandbox.emulator.metalog.MetadataLog, set in start()
        self.security: Any = None  # kcli.sandbox.emulator.security.SecurityContext
        self.started_ms = now_ms()
        self.reassignments: Any = None  # kcli.sandbox.emulator.reassign.Reassignments
        self._tasks: list[asyncio.Task[None]] = []
        self.channels: dict[int, Any] = {}  # broker id -> forwarding.ControllerChannel
        # encoded response parts keyed by what they show, each with the image stamp it was built at
        self.response_cache: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self._static_configs: dict[int, dict[str, str]] = {}
        self.log_dirs: dict[int, tuple[Any, ...]] = {}  # broker id -> kcli.sandbox.emulator.logdirs.LogDir
        self.log_dir_moves: Any = None  # kcli.sandbox.emulator.logdirs.LogDirMoves
        self._next_broker_id = 1
        self.stopped_by: str | None = None  # who asked the sandbox to stop (shown by a foreground `up`)

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Open (or create) the metadata log, bind every listener and register the nodes."""
        from kcli.sandbox.emulator import progress, server
        from kcli.sandbox.emulator.logdirs import LogDirMoves
        from kcli.sandbox.emulator.metalog import MetadataLog
        from kcli.sandbox.emulator.reassign import Reassignments
        from kcli.sandbox.emulator.security import SecurityContext

        self.settings.directory.mkdir(parents=True, exist_ok=True)
        self.metalog = MetadataLog(self.settings.directory, self)
        existing = self.metalog.load()
        if existing is not None:
            self.cluster_id = existing.cluster_id or self.cluster_id
            self.leader_epoch = existing.leader_epoch
            self.image.apply_all(existing.records)
            if existing.kraft_version is not None:
                self.kraft_version = existing.kraft_version
        self.security = SecurityContext.create(self.settings, self.settings.directory)
        saved = progress.load(self.settings.directory)
        self.reassignments = Reassignments(self)
        self.reassignments.restore(saved.copies)
        self.log_dir_moves = LogDirMoves(self)
        self.log_dir_moves.restore(saved.moves)
        brokers = sorted(self.image.brokers) or list(self.settings.broker_ids())
        controllers = list(self.settings.controller_ids())
        if existing is not None and existing.voters:
            # controllers added with AddRaftVoter come back as voters
            controllers += sorted(
                c for c in existing.voters if c not in controllers and c >= CONTROLLER_ID_FLOOR
            )
        ports = self._ports(len(brokers) + len(controllers))
        for node_id, port in zip([*brokers, *controllers], ports, strict=True):
            kind = Listener.BROKER if node_id < CONTROLLER_ID_FLOOR else Listener.CONTROLLER
            self.nodes[node_id] = Node(
                node_id=node_id,
                kind=kind,
                host=self.settings.host,
                port=port,
                directory_id=self.metalog.directory_id(node_id),
            )
        self._next_broker_id = max(brokers) + 1
        for node in self.nodes.values():
            if node.is_broker:
                self._prepare_log_dirs(node)
        for node in self.nodes.values():
            await server.bind(self, node)
        self.voters = {c: self.nodes[c].directory_id for c in controllers}
        if existing is not None and existing.voters:
            self.voters = {c: d for c, d in existing.voters.items() if c in self.nodes}
        self.metalog.open(self.nodes.values())
        # the most up-to-date voter wins the first election (the lowest id when all are equal)
        preferred = [existing.leader_id] if existing is not None else []
        candidates = preferred + sorted(c for c in self.voters if c not in preferred)
        running = [n.node_id for n in self.nodes.values() if n.running]
        self.active_controller_id = self.metalog.elect(candidates, self.voters, running)
        self.leader_epoch += 1
        await self.metalog.change_leader(self.active_controller_id, self.leader_epoch, controllers)
        if existing is None:
            await self.commit(bootstrap_records(self), transaction="Bootstrap records")
            from kcli.sandbox.settings import save_settings

            save_settings(self.settings, self.cluster_id)  # what `up` on this DIR restores
        await self.commit([register_controller(self, n) for n in self.nodes.values() if not n.is_broker])
        for node in self.nodes.values():
            if node.is_broker:
                await self.commit(register_broker(self, node))
        if existing is None and self.settings.topics:
            from kcli.sandbox.emulator.placement import bulk_topic_records

            for chunk in bulk_topic_records(self, self.settings.topics, self.settings.partitions):
                await self.commit(chunk)
        self._tasks.append(asyncio.create_task(self.reassignments.run()))
        self._tasks.append(asyncio.create_task(self.log_dir_moves.run()))
        self._tasks.append(asyncio.create_task(self._keep_progress()))

    async def stop(self) -> None:
        """Close every listener and connection and flush the log."""
        from kcli.sandbox.emulator import server

        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for channel in self.channels.values():
            channel.close()
        for node in self.nodes.values():
            await server.unbind(node)
        self.save_progress()
        if self.metalog is not None:
            await self.metalog.close()

    def save_progress(self) -> None:
        """Write the copy progress of in-flight moves, so a restart resumes them (kcli.sandbox.emulator.progress)."""
        from kcli.sandbox.emulator import progress

        if self.reassignments is None or self.log_dir_moves is None:
            return
        try:
            progress.save(self.settings.directory, self.reassignments.copies, self.log_dir_moves.moves)
        except OSError as error:
            log.warning("could not save replica copy progress: %s", error)

    async def _keep_progress(self) -> None:
        while True:
            await asyncio.sleep(PROGRESS_SAVE_S)
            self.save_progress()

    def _prepare_log_dirs(self, node: Node) -> None:
        from kcli.sandbox.emulator.logdirs import prepare_log_dirs

        self.log_dirs[node.node_id] = prepare_log_dirs(
            self.settings.directory,
            broker_id=node.node_id,
            cluster_id=self.cluster_id,
            first=node.directory_id,
            count=self.settings.log_dirs,
        )

    def next_port(self) -> int:
        """The port of a node added later: the one after the highest in use with --base-port, else a free one."""
        if self.settings.base_port:
            return max(n.port for n in self.nodes.values()) + 1
        return 0

    def _ports(self, count: int) -> list[int]:
        if self.settings.base_port:
            return [self.settings.base_port + index for index in range(count)]
        return [0] * count

    async def commit(self, records: Sequence[Any], *, transaction: str | None = None) -> int:
        """Append `records` as the active controller, apply them, and return (the first offset) once
        they are committed on a majority of the voters.

        The append and the apply happen together, before the first await, so a handler that
        computed `records` from the image cannot interleave with another one.
        """
        if not records:
            return self.metalog.end_offset
        if transaction is not None:
            records = [R.BeginTransactionRecord(name=transaction), *records, R.EndTransactionRecord()]
        self._require_quorum()
        first, last = self.metalog.append(records, epoch=self.leader_epoch)
        self.image.apply_all(records)
        await self.metalog.committed(last)
        return first

    def _require_quorum(self) -> None:
        from kcli.sandbox.emulator.metalog import NoQuorum

        try:
            self.metalog.require_quorum()
        except NoQuorum as error:
            raise ClusterError(str(error)) from None

    async def change_voters(
        self, *, add: tuple[int, uuid.UUID] | None = None, remove: int | None = None
    ) -> None:
        """Change the Raft voter set and write it as a VotersRecord (a removed leader hands over)."""
        if add is not None:
            self.voters[add[0]] = add[1]
        if remove is not None:
            self.voters.pop(remove, None)
        voters = []
        for node_id, directory in sorted(self.voters.items()):
            node = self.nodes[node_id]
            voters.append(
                R.VotersRecordVoter(
                    voter_id=node_id,
                    voter_directory_id=directory,
                    endpoints=(R.Endpoint(name="CONTROLLER", host=node.host, port=node.port),),
                    k_raft_version_feature=R.KRaftVersionFeature(
                        min_supported_version=0, max_supported_version=1
                    ),
                )
            )
        self._require_quorum()
        last = self.metalog.append_control(
            [R.VotersRecord(version=0, voters=tuple(voters))], epoch=self.leader_epoch
        )
        await self.metalog.committed(last)
        if remove is not None and remove == self.active_controller_id:
            await self.failover()

    async def set_kraft_version(self, level: int) -> None:
        """Finalize kraft.version: a KRaftVersionRecord control record, as Kafka writes it."""
        self._require_quorum()
        self.kraft_version = level
        last = self.metalog.append_control(
            [R.KRaftVersionRecord(version=0, k_raft_version=level)], epoch=self.leader_epoch
        )
        await self.metalog.committed(last)

    # ---------------------------------------------------------------- views

    def node(self, node_id: int) -> Node:
        """The node with `node_id` (ClusterError when unknown)."""
        try:
            return self.nodes[node_id]
        except KeyError:
            raise ClusterError(f"no node {node_id} in this sandbox") from None

    def brokers(self) -> list[Node]:
        return [n for n in self.nodes.values() if n.is_broker]

    def controllers(self) -> list[Node]:
        return [n for n in self.nodes.values() if not n.is_broker]

    def live_broker_ids(self) -> list[int]:
        """Registered, unfenced broker ids, ascending."""
        return sorted(b.broker_id for b in self.image.brokers.values() if not b.fenced)

    def client_controller_id(self) -> int:
        """The ControllerId brokers give clients: a live broker, which forwards controller requests."""
        live = [b for b in self.live_broker_ids() if b in self.nodes and self.nodes[b].running]
        return live[0] if live else -1

    def advertised(self, node_id: int) -> tuple[str, int]:
        """The host and port a node advertises (misrouted nodes advertise another node's)."""
        node = self.nodes.get(node_id)
        if node is not None and node.advertise_as is not None:
            other = self.nodes.get(node.advertise_as)
            if other is not None:
                return other.host, other.port
        registration = self.image.brokers.get(node_id)
        if registration is not None and registration.endpoints:
            return registration.endpoints[0].host, registration.endpoints[0].port
        if node is not None:
            return node.host, node.port
        return self.settings.host, 0

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(n.address for n in self.brokers())

    @property
    def bootstrap_controllers(self) -> str:
        return ",".join(n.address for n in self.controllers())

    def broker_config(self, node_id: int) -> dict[str, str]:
        """Static (server.properties) values of a node: source STATIC_BROKER_CONFIG (cached per topology)."""
        cached = self._static_configs.get(node_id)
        if cached is None:
            cached = self._static_configs[node_id] = static_config(self, node_id)
        return cached

    def topology_changed(self) -> None:
        """Forget what depends on node ports and states (static configs, cached responses)."""
        self._static_configs.clear()
        self.response_cache.clear()

    # ---------------------------------------------------------------- faults

    def control(self, api_key: int, hook: ControlHook | None) -> None:
        """Install (or with None remove) a hook that sees every request of `api_key` first.

        The hook gets (context, request) and returns a response to short-circuit the handler, or None.
        """
        if hook is None:
            self.hooks.pop(api_key, None)
        else:
            self.hooks[api_key] = hook

    async def stop_node(self, node_id: int) -> None:
        """Take a node down: its listener closes; a broker is fenced and loses leadership."""
        from kcli.sandbox.emulator import server
        from kcli.sandbox.emulator.placement import leadership_after_loss

        node = self.node(node_id)
        if not node.running:
            raise ClusterError(f"node {node_id} is already stopped")
        if not node.is_broker and not [c for c in self.controllers() if c.running and c is not node]:
            raise ClusterError("cannot stop the last running controller")
        if node_id in self.voters:
            from kcli.sandbox.emulator.metalog import majority

            left = [v for v in self.voters if v != node_id and v in self.nodes and self.nodes[v].running]
            if len(left) < majority(len(self.voters)):
                raise ClusterError(
                    f"cannot stop controller {node_id}: {len(left)} of {len(self.voters)} voters would be "
                    f"left, and the metadata quorum needs {majority(len(self.voters))}"
                )
        await server.unbind(node)
        self.topology_changed()
        if node_id == self.active_controller_id:
            # the writes it appended are fetched by the others before they elect a new leader
            await self.failover()
        if node.is_broker:
            registration = self.image.brokers.get(node_id)
            epoch = registration.broker_epoch if registration else -1
            changes: list[Any] = [
                R.BrokerRegistrationChangeRecord(broker_id=node_id, broker_epoch=epoch, fenced=1)
            ]
            changes.extend(leadership_after_loss(self, node_id))
            await self.commit(changes)

    async def start_node(self, node_id: int) -> None:
        """Bring a stopped node back on its port; a broker re-registers and rejoins the ISRs."""
        from kcli.sandbox.emulator import server
        from kcli.sandbox.emulator.placement import leadership_after_return

        node = self.node(node_id)
        if node.running:
            raise ClusterError(f"node {node_id} is already running")
        node.incarnation_id = uuid.uuid4()
        # A misroute is the running node's state, not its configuration: it comes back advertising
        # its own endpoint (on real nodes the fault is in server.properties and outlives a restart).
        node.advertise_as = None
        self.topology_changed()
        await server.bind(self, node)
        # it fetches what it missed (truncating anything that diverged) in the commit's round
        if node.is_broker:
            await self.commit(register_broker(self, node))
            await self.commit(leadership_after_return(self, node_id))
        else:
            await self.commit([register_controller(self, node)])

    async def add_broker(self, node_id: int | None = None) -> int:
        """Start a new broker (the next free id unless given) on a free port; it registers and is unfenced.

        Like a freshly formatted broker joining a running cluster: it holds no replicas until a
        reassignment moves some to it. Returns its id.
        """
        from kcli.sandbox.emulator import server
        from kcli.sandbox.emulator.metalog import MetadataLog

        node_id = self._next_broker_id if node_id is None else node_id
        if node_id in self.nodes:
            raise ClusterError(f"node {node_id} already exists in this sandbox")
        if not 0 <= node_id < CONTROLLER_ID_FLOOR:
            raise ClusterError(f"broker ids are 0 to {CONTROLLER_ID_FLOOR - 1} in a sandbox, not {node_id}")
        node = Node(
            node_id=node_id,
            kind=Listener.BROKER,
            host=self.settings.host,
            port=self.next_port(),
            directory_id=MetadataLog.new_directory_id(),
        )
        self.nodes[node_id] = node
        self._next_broker_id = max(self._next_broker_id, node_id + 1)
        self._prepare_log_dirs(node)
        await server.bind(self, node)
        self.metalog.add_node(node)
        await self.commit(register_broker(self, node))
        self.topology_changed()
        return node_id

    async def prepare_controller(self, node_id: int, client_properties: Sequence[str] = ()) -> Path:
        """Start a new controller that is not a voter yet (an observer) and write its server.properties.

        Like a freshly formatted controller started with controller.quorum.bootstrap.servers, it
        gets a log dir with meta.properties (and a new directory.id), fetches the metadata log,
        registers (RegisterControllerRecord) and answers on its own listener; AddRaftVoter makes it
        a voter. `client_properties` are appended for tools that read the file as a client config.
        """
        from kcli.sandbox.emulator import server

        if node_id in self.nodes:
            raise ClusterError(f"node {node_id} already exists in this sandbox")
        if node_id < CONTROLLER_ID_FLOOR:
            raise ClusterError(
                f"controller ids are {CONTROLLER_ID_FLOOR} and above in a sandbox, not {node_id}"
            )
        node = Node(
            node_id=node_id,
            kind=Listener.CONTROLLER,
            host=self.settings.host,
            port=self.next_port(),
            directory_id=self.metalog.directory_id(node_id),
        )
        self.nodes[node_id] = node
        await server.bind(self, node)
        self.metalog.add_node(node)
        await self.commit([register_controller(self, node)])
        config = self.broker_config(node_id)
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
        path = self.settings.directory / str(node_id) / "server.properties"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return path

    async def failover(self) -> int:
        """Make the next running controller active (a new leader epoch); returns its id.

        The round in flight completes first; the new leader must win a majority of votes with a
        log at least as up to date as each granting voter's (Raft's election rule).
        """
        from kcli.sandbox.emulator.metalog import NoQuorum

        candidates = [
            c.node_id
            for c in sorted(self.controllers(), key=lambda n: n.node_id)
            if c.running and c.node_id in self.voters
        ]
        others = [c for c in candidates if c != self.active_controller_id]
        if not others:
            raise ClusterError("no other running controller to fail over to")
        after = [c for c in others if c > self.active_controller_id]
        before = [c for c in others if c < self.active_controller_id]
        await self.metalog.drain()
        running = [n.node_id for n in self.nodes.values() if n.running]
        try:
            elected = self.metalog.elect(after + before, self.voters, running)
        except NoQuorum as error:
            raise ClusterError(str(error)) from None
        self.active_controller_id = elected
        self.leader_epoch += 1
        self.topology_changed()
        await self.metalog.change_leader(elected, self.leader_epoch, sorted(self.voters))
        log.info("controller %d is now active (epoch %d)", self.active_controller_id, self.leader_epoch)
        return self.active_controller_id

    async def replace_brokers(self, *, fresh_ports: bool = False) -> dict[int, int]:
        """Replace every broker by a new one with a new id, on a rotated port (the KIP-899 case).

        Old brokers are unregistered; partitions move to the new ids. Returns old id -> new id.
        """
        from kcli.sandbox.emulator import server
        from kcli.sandbox.emulator.metalog import MetadataLog

        old = sorted(self.brokers(), key=lambda n: n.node_id)
        ports = [n.port for n in old]
        mapping: dict[int, int] = {}
        for node in old:
            if node.running:
                await server.unbind(node)
            mapping[node.node_id] = self._next_broker_id
            self._next_broker_id += 1
        records: list[Any] = []
        for node in old:
            registration = self.image.brokers.get(node.node_id)
            records.append(
                R.UnregisterBrokerRecord(
                    broker_id=node.node_id, broker_epoch=registration.broker_epoch if registration else -1
                )
            )
            del self.nodes[node.node_id]
        await self.commit(records)
        # fresh_ports: new free ports, so every old address goes dead (a client must rebootstrap)
        rotated = [0] * len(ports) if fresh_ports else ports[1:] + ports[:1]
        for node, port in zip(old, rotated, strict=True):
            new_id = mapping[node.node_id]
            fresh = Node(
                node_id=new_id,
                kind=Listener.BROKER,
                host=node.host,
                port=port,
                directory_id=MetadataLog.new_directory_id(),
            )
            self.nodes[new_id] = fresh
            self._prepare_log_dirs(fresh)
            await server.bind(self, fresh)
            self.metalog.add_node(fresh)
            await self.commit(register_broker(self, fresh))
        from kcli.sandbox.emulator.placement import remap_replicas

        await self.commit(remap_replicas(self, mapping))
        return mapping

    def misroute(self, node_id: int, target: int | None = None) -> int:
        """Make `node_id` advertise another node's endpoint (KIP-1242), or its own again; returns the id."""
        node = self.node(node_id)
        peers = sorted(n.node_id for n in self.nodes.values() if n.kind is node.kind and n.node_id != node_id)
        if target is None:
            if not peers:
                raise ClusterError(f"node {node_id} has no peer to be misrouted to")
            target = peers[0]
        self.node(target)
        # advertising its own endpoint again is how a misroute ends
        node.advertise_as = None if target == node_id else target
        self.topology_changed()
        return target

    def delay(self, node_id: int, ms: int) -> None:
        """Delay every response of `node_id` by `ms` milliseconds (0 removes the delay)."""
        if ms < 0:
            raise ClusterError("delay must be >= 0 ms")
        self.node(node_id).delay_ms = ms

    def status(self) -> dict[str, Any]:
        """A JSON-able summary: nodes, ports, state, the active controller and the log end."""
        return {
            "engine": "emulator",
            "cluster_id": self.cluster_id,
            "active_controller_id": self.active_controller_id,
            "leader_epoch": self.leader_epoch,
            "log_end_offset": self.metalog.end_offset if self.metalog else 0,
            "high_watermark": self.metalog.high_watermark if self.metalog else 0,
            "security": self.settings.security.value,
            "bootstrap_servers": self.bootstrap_servers,
            "bootstrap_controllers": self.bootstrap_controllers,
            "topics": len(self.image.topics),
            "nodes": [
                {
                    "id": n.node_id,
                    "role": "broker" if n.is_broker else "controller",
                    "host": n.host,
                    "port": n.port,
                    "running": n.running,
                    "delay_ms": n.delay_ms,
                    "advertises": n.advertise_as,
                    "rack": self.settings.rack_of(n.node_id) if n.is_broker else None,
                }
                for n in sorted(self.nodes.values(), key=lambda n: n.node_id)
            ],
        }


def now_ms() -> int:
    return int(time.time() * 1000)


def sorted_ids(values: Iterable[int]) -> list[int]:
    return sorted(set(values))
