"""A cluster view for the data plane's own tests: partitions, leaders, running brokers and topic
configs held in plain dicts, changed by the tests as a controller would change the image."""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class Part:
    topic_id: uuid.UUID
    partition_id: int
    replicas: list[int]
    isr: list[int]
    leader: int
    leader_epoch: int = 0
    adding_replicas: list[int] = field(default_factory=list)


class View:
    """Topics of `replicas` brokers each, every broker with one log dir under `root`."""

    def __init__(self, root: Path, brokers: Sequence[int] = (1, 2, 3)) -> None:
        self.root = root
        self.brokers = list(brokers)
        self.up = set(brokers)
        self.ids: dict[str, uuid.UUID] = {}
        self.parts: dict[tuple[uuid.UUID, int], Part] = {}
        self.configs: dict[tuple[str, str], str] = {}

    def create(self, topic: str, partitions: int = 1, replicas: Sequence[int] | None = None) -> uuid.UUID:
        topic_id = self.ids[topic] = uuid.uuid4()
        chosen = list(replicas or self.brokers)
        for p in range(partitions):
            self.parts[(topic_id, p)] = Part(topic_id, p, list(chosen), list(chosen), chosen[0])
        return topic_id

    def part(self, topic: str, partition: int = 0) -> Part:
        return self.parts[(self.ids[topic], partition)]

    def elect(self, topic: str, leader: int, partition: int = 0, *, isr: list[int] | None = None) -> None:
        part = self.part(topic, partition)
        part.leader = leader
        part.leader_epoch += 1
        if isr is not None:
            part.isr = isr

    # the Topology protocol
    def topic_id(self, topic: str) -> uuid.UUID | None:
        return self.ids.get(topic)

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        return next((n for n, i in self.ids.items() if i == topic_id), None)

    def partition(self, topic_id: uuid.UUID, partition: int) -> Part | None:
        return self.parts.get((topic_id, partition))

    def partitions(self) -> Iterable[tuple[str, Part]]:
        for (topic_id, _), part in self.parts.items():
            yield self.topic_name(topic_id) or "?", part

    def running(self, broker_id: int) -> bool:
        return broker_id in self.up

    def log_dirs(self, broker_id: int) -> Sequence[Path]:
        return [self.root / str(broker_id)]

    def replica_dir(self, broker_id: int, topic_id: uuid.UUID, partition: int) -> Path:
        return self.root / str(broker_id)

    def topic_config(self, topic: str, key: str) -> str | None:
        return self.configs.get((topic, key))
