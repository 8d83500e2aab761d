"""The cluster as the request handlers and the modules they call see it: small Protocols, below them all.

`ClusterView` is what kcli.sandbox.emulator.cluster.Cluster offers the modules that take a cluster
(the APIs, the request context, the server, placement, configs, reassignments, log dirs, ...). They
are typed by it and never import the cluster, so the cluster may import all of them without a
circle. The collaborators the cluster holds that live above this module (reassignments, log-dir
moves, the brokers' controller channels) are seen through the few calls made on them.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

from kcli.sandbox.emulator.copying import Move
from kcli.sandbox.emulator.data.plane import DataPlane
from kcli.sandbox.emulator.image import Image, Partition
from kcli.sandbox.emulator.metalog import MetadataLog
from kcli.sandbox.emulator.node import ControlHook, LogDir, Node
from kcli.sandbox.emulator.security import SecurityContext
from kcli.sandbox.settings import SandboxSettings


class Copies(Protocol):
    """Reassignments in progress (kcli.sandbox.emulator.reassign.Reassignments)."""

    def start_records(self, partition: Partition, target: list[int]) -> list[Any]: ...

    def cancel_records(self, partition: Partition) -> list[Any]: ...


class Moves(Protocol):
    """Replica moves between a broker's log dirs (kcli.sandbox.emulator.logdirs.LogDirMoves)."""

    def future(self, topic_id: uuid.UUID, partition_id: int, broker_id: int) -> Move | None: ...

    async def request(self, topic_name: str, partition: Partition, broker_id: int, target: uuid.UUID) -> None: ...

    def resumed(self) -> list[tuple[tuple[uuid.UUID, int, int], Path]]: ...


class Channel(Protocol):
    """A broker's connection to the active controller (kcli.sandbox.emulator.forwarding)."""

    async def call(self, request: Any, response_cls: type) -> Any: ...

    def close(self) -> None: ...


class ClusterView(Protocol):
    """One emulated cluster: its settings, state, nodes and controller."""

    @property
    def settings(self) -> SandboxSettings: ...

    @property
    def cluster_id(self) -> str: ...

    @property
    def image(self) -> Image: ...

    @property
    def nodes(self) -> dict[int, Node]: ...

    @property
    def voters(self) -> dict[int, uuid.UUID]: ...

    @property
    def active_controller_id(self) -> int: ...

    @property
    def leader_epoch(self) -> int: ...

    @property
    def kraft_version(self) -> int: ...

    @property
    def bootstrap_levels(self) -> dict[str, int]: ...

    @property
    def started_ms(self) -> int: ...

    @property
    def hooks(self) -> dict[int, ControlHook]: ...

    @property
    def response_cache(self) -> dict[tuple[Any, ...], tuple[Any, Any]]: ...

    @property
    def log_dirs(self) -> dict[int, tuple[LogDir, ...]]: ...

    @property
    def security(self) -> SecurityContext: ...

    @property
    def metalog(self) -> MetadataLog: ...

    @property
    def reassignments(self) -> Copies: ...

    @property
    def log_dir_moves(self) -> Moves: ...

    @property
    def channels(self) -> dict[int, Channel]: ...

    @property
    def partition_logs(self) -> DataPlane: ...

    @property
    def bootstrap_servers(self) -> str: ...

    @property
    def bootstrap_controllers(self) -> str: ...

    def node(self, node_id: int) -> Node: ...

    def brokers(self) -> list[Node]: ...

    def controllers(self) -> list[Node]: ...

    def live_broker_ids(self) -> list[int]: ...

    def client_controller_id(self) -> int: ...

    def advertised(self, node_id: int) -> tuple[str, int]: ...

    def broker_config(self, node_id: int) -> dict[str, str]: ...

    def topology_changed(self) -> None: ...

    async def commit(self, records: Sequence[Any], *, transaction: str | None = None) -> int: ...

    async def change_voters(
        self, *, add: tuple[int, uuid.UUID] | None = None, remove: int | None = None
    ) -> None: ...

    async def set_kraft_version(self, level: int) -> None: ...

    async def failover(self) -> int: ...
