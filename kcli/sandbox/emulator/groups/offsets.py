"""Committed offsets of one shard: commits, transactional commits pending their marker, fetches, deletes.

Behavior (Kafka 4.4's OffsetMetadataManager):
- A commit is an OffsetCommit record; replaying it stores the offset (a tombstone removes it). One
  written by a transactional producer (TxnOffsetCommit) waits, per producer, until the transaction's
  marker: COMMIT makes it the committed offset unless a later plain commit came after it, ABORT drops it.
- A fetch answers -1 (no offset) for a partition without one; with require_stable, a partition
  with a transactional commit still pending answers UNSTABLE_OFFSET_COMMIT (KIP-447).
- Metadata longer than offset.metadata.max.bytes is OFFSET_METADATA_TOO_LARGE, per partition.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import records as R

NO_PRODUCER = -1
ZERO_UUID = uuid.UUID(int=0)


@dataclass(frozen=True, slots=True, kw_only=True)
class OffsetAndMetadata:
    """One committed offset (Kafka's OffsetAndMetadata)."""

    offset: int
    leader_epoch: int  # -1: none
    metadata: str
    commit_timestamp_ms: int
    expire_timestamp_ms: int | None
    topic_id: uuid.UUID
    record_offset: int  # where the commit is in __consumer_offsets (the latest of two wins)


@dataclass(frozen=True, slots=True, kw_only=True)
class FetchedPartition:
    partition: int
    offset: int = -1
    leader_epoch: int = -1
    metadata: str = ""
    error: ErrorCode = ErrorCode.none


Nested = dict[str, dict[str, dict[int, OffsetAndMetadata]]]  # group -> topic -> partition -> offset


@dataclass(slots=True)
class OffsetStore:
    """The offsets of one shard's groups, and the transactional ones still open."""

    offsets: Nested = field(default_factory=dict)
    pending: dict[int, Nested] = field(default_factory=dict)  # producer id -> its uncommitted offsets
    open: dict[str, dict[str, dict[int, set[int]]]] = field(default_factory=dict)  # ... -> producer ids

    # ---------------------------------------------------------------- replay

    def replay(self, record: R.CoordinatorRecord, *, record_offset: int, producer_id: int) -> None:
        key = record.key
        group, topic, partition = key.group, key.topic, int(key.partition)
        value = record.value
        if value is None:
            _remove(self.offsets, group, topic, partition)
            for producer in self.open.get(group, {}).get(topic, {}).get(partition, set()):
                _remove(self.pending.get(producer, {}), group, topic, partition)
            self._clear_open(group, topic, partition)
            return
        offset = OffsetAndMetadata(
            offset=int(value.offset),
            leader_epoch=int(getattr(value, "leader_epoch", -1)),
            metadata=value.metadata,
            commit_timestamp_ms=int(value.commit_timestamp),
            expire_timestamp_ms=(
                int(value.expire_timestamp) if int(getattr(value, "expire_timestamp", -1)) != -1 else None
            ),
            topic_id=getattr(value, "topic_id", ZERO_UUID),
            record_offset=record_offset,
        )
        if producer_id == NO_PRODUCER:
            self.offsets.setdefault(group, {}).setdefault(topic, {})[partition] = offset
        else:
            self.pending.setdefault(producer_id, {}).setdefault(group, {}).setdefault(topic, {})[
                partition
            ] = offset
            self.open.setdefault(group, {}).setdefault(topic, {}).setdefault(partition, set()).add(
                producer_id
            )

    def replay_marker(self, producer_id: int, commit: bool) -> None:
        """A transaction's end reached this partition: its pending offsets are committed or dropped."""
        pending = self.pending.pop(producer_id, None)
        if pending is None:
            return
        for group, topic, partition, _ in _items(pending):
            partitions = self.open.get(group, {}).get(topic, {})
            producers = partitions.get(partition)
            if producers is not None:
                producers.discard(producer_id)
                if not producers:
                    self._clear_open(group, topic, partition)
        if not commit:
            return
        for group, topic, partition, offset in _items(pending):
            existing = self.offsets.get(group, {}).get(topic, {}).get(partition)
            if existing is None or offset.record_offset > existing.record_offset:
                self.offsets.setdefault(group, {}).setdefault(topic, {})[partition] = offset

    def _clear_open(self, group: str, topic: str, partition: int) -> None:
        topics = self.open.get(group)
        if topics is None:
            return
        partitions = topics.get(topic, {})
        partitions.pop(partition, None)
        if not partitions:
            topics.pop(topic, None)
        if not topics:
            self.open.pop(group, None)

    # ---------------------------------------------------------------- reads

    def get(self, group: str, topic: str, partition: int) -> OffsetAndMetadata | None:
        return self.offsets.get(group, {}).get(topic, {}).get(partition)

    def has_pending(self, group: str, topic: str, partition: int) -> bool:
        return bool(self.open.get(group, {}).get(topic, {}).get(partition))

    def has_offsets(self, group: str) -> bool:
        return group in self.offsets or group in self.open

    def topics_of(self, group: str) -> dict[str, dict[int, OffsetAndMetadata]]:
        return self.offsets.get(group, {})

    def fetch(
        self, group: str, topics: list[tuple[str, uuid.UUID, list[int]]] | None, *, require_stable: bool
    ) -> list[tuple[str, list[FetchedPartition]]]:
        """The offsets of `topics` ((name, id, partitions); None: every committed one) of `group`."""
        if topics is None:
            topics = [(name, ZERO_UUID, sorted(parts)) for name, parts in self.offsets.get(group, {}).items()]
        out = []
        for name, topic_id, partitions in topics:
            answers = []
            for partition in partitions:
                if require_stable and self.has_pending(group, name, partition):
                    answers.append(
                        FetchedPartition(partition=partition, error=ErrorCode.unstable_offset_commit)
                    )
                    continue
                offset = self.get(group, name, partition)
                if offset is None or (
                    offset.topic_id != ZERO_UUID and topic_id != ZERO_UUID and offset.topic_id != topic_id
                ):
                    answers.append(FetchedPartition(partition=partition))
                else:
                    answers.append(
                        FetchedPartition(
                            partition=partition,
                            offset=offset.offset,
                            leader_epoch=offset.leader_epoch,
                            metadata=offset.metadata,
                        )
                    )
            out.append((name, answers))
        return out

    def tombstones(self, group: str) -> list[R.CoordinatorRecord]:
        """Tombstones of every offset of `group`, committed or pending (deleting the group)."""
        out = [
            R.offset_tombstone(group, t, p) for t, parts in self.offsets.get(group, {}).items() for p in parts
        ]
        for topic, partitions in self.open.get(group, {}).items():
            for partition in partitions:
                if self.get(group, topic, partition) is None:
                    out.append(R.offset_tombstone(group, topic, partition))
        return out

    def expired(
        self,
        group: str,
        base_of: Callable[[OffsetAndMetadata], int | None] | None,
        subscribed: Callable[[str], bool],
        now_ms: int,
        retention_ms: int,
    ) -> tuple[list[R.CoordinatorRecord], bool]:
        """Tombstones of the offsets of `group` past their retention (offsets.retention.minutes), and
        whether none is left (Kafka's cleanupExpiredOffsets): `base_of(offset)` is the time retention
        counts from (None: the group keeps its offsets); offsets of subscribed topics stay, and so do
        those with a pending transactional offset."""
        topics = self.offsets.get(group)
        if not topics:
            return [], group not in self.open
        if base_of is None:
            return [], False
        out: list[R.CoordinatorRecord] = []
        all_expired = True
        for topic, partitions in topics.items():
            if subscribed(topic):
                all_expired = False
                continue
            for partition, offset in partitions.items():
                if self.has_pending(group, topic, partition) or not _past(
                    offset, base_of, now_ms, retention_ms
                ):
                    all_expired = False
                else:
                    out.append(R.offset_tombstone(group, topic, partition))
        return out, all_expired and group not in self.open


def _past(
    offset: OffsetAndMetadata,
    base_of: Callable[[OffsetAndMetadata], int | None],
    now_ms: int,
    retention_ms: int,
) -> bool:
    """Kafka's OffsetExpirationConditionImpl.isOffsetExpired."""
    if offset.expire_timestamp_ms is not None:
        return now_ms >= offset.expire_timestamp_ms
    base = base_of(offset)
    return base is not None and now_ms - base >= retention_ms


def _remove(nested: Nested, group: str, topic: str, partition: int) -> None:
    topics = nested.get(group)
    if topics is None:
        return
    partitions = topics.get(topic)
    if partitions is None:
        return
    partitions.pop(partition, None)
    if not partitions:
        del topics[topic]
    if not topics:
        del nested[group]


def _items(nested: Nested) -> Iterator[tuple[str, str, int, OffsetAndMetadata]]:
    for group, topics in nested.items():
        for topic, partitions in topics.items():
            for partition, offset in partitions.items():
                yield group, topic, partition, offset
