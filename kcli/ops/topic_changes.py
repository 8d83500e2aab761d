"""What `kcli topics --create/--alter/--delete` did (or, with --dry-run, would do): result values.

Pure: kcli.client.api.topics fills them from CreateTopics, CreatePartitions and DeleteTopics;
kcli.workflows.topic_changes puts them together; kcli.render.topic_changes prints them.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from kcli.kafka import ConfigSource
from kcli.ops.resource_error import ResourceError


def topic_id_text(value: Any) -> str | None:
    """A topic id as Kafka prints it (URL-safe base64 of the 16 bytes); None for none or the zero id."""
    from kcli.metadata.uuids import kafka_uuid

    if value is None:
        return None
    found = value if isinstance(value, uuid.UUID) else uuid.UUID(bytes=bytes(value))
    return None if found.int == 0 else kafka_uuid(found)


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicConfigValue:
    """One config of a topic as CreateTopics (v5+) reports it."""

    name: str
    value: str | None
    source: int  # ConfigSource; -1 when the server did not say
    read_only: bool = False
    sensitive: bool = False

    @property
    def source_name(self) -> str:
        try:
            return ConfigSource(self.source).name
        except ValueError:
            return "UNKNOWN"


@dataclass(frozen=True, slots=True, kw_only=True)
class CreatedTopic:
    """The controller's answer for one topic of a CreateTopics."""

    name: str
    topic_id: str | None = None
    error: ResourceError | None = None
    partitions: int = -1
    replication_factor: int = -1
    configs: tuple[TopicConfigValue, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Placement:
    """Where --create would put the replicas: the assignment given, or the brokers the controller
    spreads them over (it picks the brokers of each partition itself)."""

    assignment: Mapping[int, tuple[int, ...]] | None
    brokers: tuple[int, ...]  # the brokers replicas may go to (registered, not fenced)
    racks: Mapping[int, str | None] = field(default_factory=dict)

    def replicas_per_broker(self, partitions: int, replication_factor: int) -> tuple[int, int]:
        """(fewest, most) replicas a broker gets when the controller spreads them evenly."""
        if self.assignment is not None or not self.brokers or partitions < 0 or replication_factor < 0:
            return (0, 0)
        total = partitions * replication_factor
        low = total // len(self.brokers)
        return low, low + (1 if total % len(self.brokers) else 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateResult:
    """--create: the topic asked for, and what the controller said (validated only with --dry-run)."""

    topic: CreatedTopic
    dry_run: bool
    if_not_exists: bool = False
    existed: bool = False  # --if-not-exists and the topic was there: nothing done, no error
    collision_warning: bool = False
    placement: Placement | None = None

    @property
    def failed(self) -> bool:
        return self.topic.error is not None and not self.existed


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionIncrease:
    """One topic of --alter --partitions: from how many to how many, and the new partitions' replicas."""

    topic: str
    current: int
    count: int
    assignment: tuple[tuple[int, ...], ...] | None = None
    error: ResourceError | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class AlterResult:
    increases: tuple[PartitionIncrease, ...]
    dry_run: bool

    @property
    def failed(self) -> bool:
        return any(i.error is not None for i in self.increases)


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupOffsets:
    """A group with committed offsets on topics being deleted: which topics, how many partitions."""

    group: str
    topics: tuple[tuple[str, int], ...]  # (topic, partitions with a committed offset)


@dataclass(frozen=True, slots=True, kw_only=True)
class DeletedTopic:
    name: str | None
    topic_id: str | None
    error: ResourceError | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DeleteResult:
    topics: tuple[DeletedTopic, ...]
    groups: tuple[GroupOffsets, ...]
    dry_run: bool
    groups_error: str | None = None  # the groups could not be read (the delete went on)

    @property
    def failed(self) -> bool:
        return any(t.error is not None for t in self.topics)
