"""One emulated KRaft node: its kind, its listener and what it reports, and the error of a refused change.

The lowest of the emulator's state: a node knows nothing of the cluster around it, so every module
above may use these without importing the cluster.
"""

from __future__ import annotations

import asyncio
import enum
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.sandbox.emulator.loggers import initial_levels

# A hook that sees every request of one API first (context, request) -> a response, or None
ControlHook = Callable[[Any, Any], Awaitable[Any | None]]


class Listener(enum.Flag):
    """Which node kinds answer an API (the `listeners` field of Kafka's message schemas)."""

    BROKER = enum.auto()
    CONTROLLER = enum.auto()
    BOTH = BROKER | CONTROLLER


class ClusterError(Exception):
    """A fault or control command that cannot be carried out (unknown node, no controller left, ...)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LogDir:
    """One log directory of a broker: its directory.id and its path."""

    directory_id: uuid.UUID
    path: Path


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


def now_ms() -> int:
    return int(time.time() * 1000)
