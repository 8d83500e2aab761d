"""A group coordinator over in-memory partition logs, with a topic table of its own."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field

from kcli.sandbox.emulator.groups.coordinator import GroupCoordinator
from kcli.sandbox.emulator.groups.settings import GroupSettings
from tests.groups.memory_logs import MemoryLogs


@dataclass
class Topics:
    """name -> (id, partitions)."""

    known: dict[str, tuple[uuid.UUID, int]] = field(default_factory=dict)

    def add(self, name: str, partitions: int) -> uuid.UUID:
        topic_id = uuid.uuid4()
        self.known[name] = (topic_id, partitions)
        return topic_id

    def topic_id(self, name: str) -> uuid.UUID | None:
        found = self.known.get(name)
        return found[0] if found else None

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        return next((n for n, (i, _) in self.known.items() if i == topic_id), None)

    def partition_count(self, topic_id: uuid.UUID) -> int:
        return next((p for i, p in self.known.values() if i == topic_id), -1)

    def topic_names(self) -> Iterable[str]:
        return list(self.known)


def make_coordinator(
    logs: MemoryLogs | None = None, topics: Topics | None = None, **settings: object
) -> tuple[GroupCoordinator, MemoryLogs, Topics]:
    logs = logs or MemoryLogs()
    topics = topics or Topics()
    config = GroupSettings(**{"classic_initial_rebalance_delay_ms": 0, **settings})  # type: ignore[arg-type]
    return GroupCoordinator(lambda: logs, topics, lambda: config), logs, topics
