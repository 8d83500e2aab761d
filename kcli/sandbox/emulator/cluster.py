"""The sandbox cluster: nodes, the metadata image, the active controller and its metadata log.

Everything here runs on one asyncio loop, so state changes are serial: the active controller
turns each accepted change into metadata records, appends them to its metadata log and applies
them to the image in one step (as Kafka's controller applies uncommitted records), then waits until
the records are committed on a majority of the voters (kcli.sandbox.emulator.metalog) before it answers.
Replay takes the same path when `up` reopens an existing directory. The faults done to it (a node
stopped, brokers replaced, ...) are kcli.sandbox.emulator.faults; the modules it holds and calls see
it through kcli.sandbox.emulator.view, and none of them imports this one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Sequence
from typing import Any

from kcli.errors import KcliError
from kcli.metadata import records as _records
from kcli.sandbox.emulator import node_ports, progress, server
from kcli.sandbox.emulator.data.plane import DataPlane
from kcli.sandbox.emulator.datalink import fill_topics, open_data_plane
from kcli.sandbox.emulator.features import (
    KRAFT_VERSION,
    bootstrap_levels,
    release_level,
)
from kcli.sandbox.emulator.image import Image
from kcli.sandbox.emulator.logdirs import LogDirMoves, prepare_log_dirs
from kcli.sandbox.emulator.metalog import MetadataLog, NoQuorum
from kcli.sandbox.emulator.node import ClusterError, ControlHook, Listener, LogDir, Node, now_ms
from kcli.sandbox.emulator.placement import bulk_topic_records
from kcli.sandbox.emulator.reassign import Reassignments
from kcli.sandbox.emulator.registration import (
    bootstrap_records,
    register_broker,
    register_controller,
    static_config,
)
from kcli.sandbox.emulator.security import SecurityContext
from kcli.sandbox.emulator.view import Channel
from kcli.sandbox.nodes import new_cluster_id
from kcli.sandbox.ports import free_ports
from kcli.sandbox.settings import CONTROLLER_ID_FLOOR, SandboxSettings, save_settings

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

log = logging.getLogger("kcli.sandbox")

PROGRESS_SAVE_S = 1.0  # how often in-flight copy progress is written (a crash loses at most this much)


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
        self.metalog = MetadataLog(settings.directory, self)
        self.security: SecurityContext  # TLS material and SASL users, made in start()
        self.started_ms = now_ms()
        self.reassignments = Reassignments(self)
        self._tasks: list[asyncio.Task[None]] = []
        self.channels: dict[int, Channel] = {}  # broker id -> its connection to the active controller
        # encoded response parts keyed by what they show, each with the image stamp it was built at
        self.response_cache: dict[tuple[Any, ...], tuple[Any, Any]] = {}
        self._static_configs: dict[int, dict[str, str]] = {}
        self.log_dirs: dict[int, tuple[LogDir, ...]] = {}  # broker id -> its log dirs
        self.log_dir_moves = LogDirMoves(self)
        self._partition_logs: DataPlane | None = None  # opened in start()
        self.next_broker_id = 1
        self.stopped_by: str | None = None  # who asked the sandbox to stop (shown by a foreground `up`)

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        """Open (or create) the metadata log, bind every listener and register the nodes."""
        self.settings.directory.mkdir(parents=True, exist_ok=True)
        existing = self.metalog.load()
        if existing is not None:
            self.cluster_id = existing.cluster_id or self.cluster_id
            self.leader_epoch = existing.leader_epoch
            self.image.apply_all(existing.records)
            if existing.kraft_version is not None:
                self.kraft_version = existing.kraft_version
        self.security = SecurityContext.create(self.settings, self.settings.directory)
        saved = progress.load(self.settings.directory)
        self.reassignments.restore(saved.copies)
        self.log_dir_moves.restore(saved.moves)
        saved_ports = node_ports.load(self.settings.directory, self.settings.base_port) if existing is not None else {}
        # the brokers of the last run (one unregistered while it lived included), else the registered
        brokers = sorted({b for b in saved_ports if b < CONTROLLER_ID_FLOOR} | set(self.image.brokers))
        brokers = brokers or list(self.settings.broker_ids())
        controllers = list(self.settings.controller_ids())
        if existing is not None and existing.voters:
            # controllers added with AddRaftVoter come back as voters
            controllers += sorted(
                c for c in existing.voters if c not in controllers and c >= CONTROLLER_ID_FLOOR
            )
        controllers += sorted(c for c in saved_ports if c >= CONTROLLER_ID_FLOOR and c not in controllers)
        ports = node_ports.assign(
            [*brokers, *controllers], saved_ports, self.settings.base_port, self.settings.host
        )
        for node_id, port in ports.items():
            kind = Listener.BROKER if node_id < CONTROLLER_ID_FLOOR else Listener.CONTROLLER
            self.nodes[node_id] = Node(
                node_id=node_id,
                kind=kind,
                host=self.settings.host,
                port=port,
                directory_id=self.metalog.directory_id(node_id),
            )
        self.next_broker_id = max(brokers) + 1
        for node in self.nodes.values():
            if node.is_broker:
                self.prepare_log_dirs(node)
        self._partition_logs = open_data_plane(self)
        for node in self.nodes.values():
            await server.bind(self, node)
        self.save_ports()
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
            save_settings(self.settings, self.cluster_id)  # what `up` on this DIR restores
        await self.commit([register_controller(self, n) for n in self.nodes.values() if not n.is_broker])
        for node in self.nodes.values():
            if node.is_broker:
                await self.commit(register_broker(self, node))
        if existing is None and self.settings.topics:
            for chunk in bulk_topic_records(self, self.settings.topics, self.settings.partitions):
                await self.commit(chunk)
            if self.settings.records_per_partition:
                await fill_topics(self)
        self._tasks.append(asyncio.create_task(self.reassignments.run()))
        self._tasks.append(asyncio.create_task(self.log_dir_moves.run()))
        self._tasks.append(asyncio.create_task(self._keep_progress()))
        self._tasks.append(asyncio.create_task(self.partition_logs.run()))

    async def stop(self) -> None:
        """Close every listener and connection and flush the log."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for channel in self.channels.values():
            channel.close()
        for node in self.nodes.values():
            await server.unbind(node)
        if self._partition_logs is not None:
            self._partition_logs.close()
        self.save_progress()
        self.save_ports()
        await self.metalog.close()

    @property
    def partition_logs(self) -> DataPlane:
        """The brokers' replicas (kcli.sandbox.emulator.data), open while the cluster runs."""
        if self._partition_logs is None:
            raise ClusterError("the data plane is not open: the cluster has not started")
        return self._partition_logs

    def save_progress(self) -> None:
        """Write the copy progress of in-flight moves, so a restart resumes them (kcli.sandbox.emulator.progress)."""
        try:
            progress.save(self.settings.directory, self.reassignments.copies, self.log_dir_moves.moves)
        except OSError as error:
            log.warning("could not save replica copy progress: %s", error)

    async def _keep_progress(self) -> None:
        while True:
            await asyncio.sleep(PROGRESS_SAVE_S)
            self.save_progress()

    def prepare_log_dirs(self, node: Node) -> None:
        self.log_dirs[node.node_id] = prepare_log_dirs(
            self.settings.directory,
            broker_id=node.node_id,
            cluster_id=self.cluster_id,
            first=node.directory_id,
            count=self.settings.log_dirs,
        )

    def bootstrap_records(self) -> list[Any]:
        """What `kafka-storage format` writes to a new node's bootstrap.checkpoint (for the metadata log)."""
        return bootstrap_records(self)

    def next_port(self) -> int:
        """The port of a node added later: the one after the highest in use with --base-port, else a free one."""
        if self.settings.base_port:
            return max(n.port for n in self.nodes.values()) + 1
        return free_ports(1, self.settings.host)[0]

    def save_ports(self) -> None:
        """Write each node's port, so a reopen serves it there (kcli.sandbox.emulator.node_ports)."""
        try:
            ports = ((n.node_id, n.port) for n in self.nodes.values())
            node_ports.save(self.settings.directory, ports, self.settings.base_port)
        except KcliError as error:  # a reopen then places the nodes by --base-port
            log.warning("could not save the node ports: %s", error.line())

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
        if self.partition_logs is not None:  # the brokers follow the change (Kafka's metadata publisher)
            self.partition_logs.published(records)
        await self.metalog.committed(last)
        return first

    def _require_quorum(self) -> None:
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

    async def failover(self) -> int:
        """Make the next running controller active (a new leader epoch); returns its id.

        The round in flight completes first; the new leader must win a majority of votes with a
        log at least as up to date as each granting voter's (Raft's election rule).
        """
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
