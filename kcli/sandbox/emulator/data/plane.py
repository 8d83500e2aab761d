"""The data plane of one emulated cluster: every broker's partition replicas, led and replicated.

Behavior:
- Each replica is a PartitionLog in DIR of its broker's log dir (`<log dir>/<topic>-<partition>`),
  opened when first used; `open` deletes what no longer belongs (a topic deleted while the
  cluster was down, a replica moved away, an interrupted delete) as a KRaft broker removes
  stray logs.
- The partition's leader is the image's; a new leader epoch starts in the leader's epoch cache
  at its log end. Every running replica other than one a reassignment is still adding follows the
  leader at once (the emulator's followers live in the same process): on each append, and on any
  access when one has fallen behind or diverged (a broker back from a stop, the old leader after an
  unclean election), by the replica fetcher's rules (kcli.sandbox.emulator.data.replication).
- The high watermark is the lowest log end of the running in-sync replicas; the last stable offset
  the first offset of the oldest open transaction below it.
- Metadata changes reach the plane through `published(records)`: a removed topic's replicas are
  deleted, so are replicas a partition no longer lists; readers waiting for data are woken.
- `checkpoint` writes each log dir's recovery points, high watermarks and log starts; `close`
  flushes every replica.
"""

from __future__ import annotations

import asyncio
import logging
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.copies import Copies
from kcli.sandbox.emulator.data.fetch_sessions import FetchSessions
from kcli.sandbox.emulator.data.interface import (
    AbortedTransaction,
    AppendResult,
    Isolation,
    LogError,
    LogOffsets,
    Marker,
    Origin,
    ProducerState,
    ReadResult,
    TimestampOffset,
    TransactionGate,
)
from kcli.sandbox.emulator.data.partition_log import PartitionLog
from kcli.sandbox.emulator.data.records import (
    BatchHeader,
    marker_batch,
    read_header,
    records_of,
    stamp_log_append_time,
    with_offset_and_epoch,
)
from kcli.sandbox.emulator.data.replicas import Replicas
from kcli.sandbox.emulator.data.replication import catch_up
from kcli.sandbox.emulator.data.topology import PartitionInfo, Topology
from kcli.sandbox.emulator.data.validate import TopicRules, validated

log = logging.getLogger("kcli.sandbox")


CHECKPOINT_S = 5.0  # replica.high.watermark.checkpoint.interval.ms
TOPIC_RESOURCE = 2  # ConfigRecord.ResourceType of a topic
BROKER_RESOURCE = 4  # ... of a broker or the brokers' default


def now_ms() -> int:
    return time.time_ns() // 1_000_000


@dataclass(slots=True)
class Led:
    """A partition at its leader: the image's view and the leader's replica."""

    topic: str
    info: PartitionInfo
    log: PartitionLog

    @property
    def name(self) -> str:
        return f"{self.topic}-{self.info.partition_id}"


class DataPlane:
    """Every partition replica of one emulated cluster (implements interface.PartitionLogs)."""

    def __init__(self, topology: Topology, *, retention_check_ms: int = 300_000) -> None:
        self.topology = topology
        self.retention_check_ms = retention_check_ms  # log.retention.check.interval.ms
        self._rules: dict[str, TopicRules] = {}
        self._sessions: dict[int, FetchSessions] = {}
        self.producer_id_blocks: dict[int, list[int]] = {}  # broker -> [next id, end of its block)
        self.transaction_gate: TransactionGate | None = None  # set by the transaction coordinator
        self.replicas = Replicas(topology, self.high_watermark)
        self.copies = Copies(topology, self.replicas, self.high_watermark)
        self._epochs: dict[tuple[uuid.UUID, int], tuple[int, int]] = {}  # partition -> (leader, epoch) seen
        self._high_watermarks: dict[tuple[uuid.UUID, int], int] = {}
        self._changed = asyncio.Event()

    def high_watermark(self, topic_id: uuid.UUID, partition: int) -> int:
        return self._high_watermarks.get((topic_id, partition), 0)

    def open(self, brokers: Iterable[int]) -> None:
        """Find the brokers' replicas on disk (deleting strays)."""
        self.replicas.open(brokers)

    def checkpoint(self) -> None:
        self.replicas.checkpoint()

    def close(self) -> None:
        for future in self.copies.futures.values():
            future.close()
        self.replicas.close()

    async def run(self) -> None:
        """Checkpoint every few seconds and apply retention every retention_check_ms, until cancelled."""
        last_retention = time.monotonic()
        while True:
            await asyncio.sleep(CHECKPOINT_S)
            try:
                self.checkpoint()
                if (time.monotonic() - last_retention) * 1000 >= self.retention_check_ms:
                    last_retention = time.monotonic()
                    self.apply_retention()
            except Exception:
                log.exception("data plane housekeeping failed")

    def apply_retention(self) -> int:
        """Delete the segments retention.ms and retention.bytes let go, on every replica; bytes freed."""
        freed = 0
        for (topic_id, partition, _broker), replica in list(self.replicas.logs.items()):
            topic = self.topology.topic_name(topic_id)
            if topic is None or "delete" not in (
                self.topology.topic_config(topic, "cleanup.policy") or "delete"
            ):
                continue
            freed += replica.retain(
                now_ms=now_ms(),
                retention_ms=_int(self.topology.topic_config(topic, "retention.ms"), -1),
                retention_bytes=_int(self.topology.topic_config(topic, "retention.bytes"), -1),
                high_watermark=self._high_watermarks.get((topic_id, partition), 0),
            )
        return freed

    def published(self, records: Sequence[Any]) -> None:
        """Follow metadata changes just applied to the image (Kafka's broker metadata publisher)."""
        touched: set[tuple[uuid.UUID, int]] = set()
        removed: set[uuid.UUID] = set()
        for record in records:
            kind = getattr(type(record), "__record_name__", "")
            if kind == "RemoveTopicRecord":
                removed.add(record.topic_id)
            elif kind == "PartitionChangeRecord" and record.replicas is not None:
                touched.add((record.topic_id, record.partition_id))
            elif kind == "PartitionChangeRecord" or kind == "PartitionRecord":
                self._wake()
            elif kind == "ConfigRecord" and int(record.resource_type) == TOPIC_RESOURCE:
                self._rules.pop(record.resource_name, None)
                self.replicas.configure(record.resource_name)
            elif kind == "ConfigRecord" and int(record.resource_type) == BROKER_RESOURCE:
                # a broker default (log.segment.bytes, log.retention.ms, ...) is what a topic
                # without its own value follows, as Kafka reconfigures every log on such a change
                self._rules.clear()
                self.replicas.configure_all()
        keys = self.replicas.keys()
        for key in list(self.copies.futures):
            if key[0] in removed:
                self.copies.drop(*key)
        if removed:
            self.replicas.delete(k for k in keys if k[0] in removed)
            for topic_id in removed:
                name = self.replicas.names.pop(topic_id, None)
                if name is not None:
                    self._rules.pop(name, None)  # a topic made again under the name has its own
        for topic_id, partition in touched:
            info = self.topology.partition(topic_id, partition)
            if info is not None:
                gone = [k for k in keys if k[:2] == (topic_id, partition) and k[2] not in info.replicas]
                for key in gone:
                    self.copies.drop(*key)
                self.replicas.delete(gone)
        if removed or touched:
            self._wake()

    # ---------------------------------------------------------------- leadership and replication

    def _led(self, topic: str, partition: int, node: int | None) -> Led:
        topic_id = self.topology.topic_id(topic)
        info = self.topology.partition(topic_id, partition) if topic_id is not None else None
        if topic_id is None or info is None:
            raise LogError(
                ErrorCode.unknown_topic_or_partition, "This server does not host this topic-partition."
            )
        leader = info.leader
        if leader < 0 or not self.topology.running(leader) or (node is not None and node != leader):
            raise LogError(
                ErrorCode.not_leader_or_follower,
                f"For requests intended only for the leader, this error indicates that the broker is not the "
                f"current leader. ({topic}-{partition})",
            )
        replica = self.replicas.get(topic_id, partition, leader)
        assert replica is not None
        seen = self._epochs.get((topic_id, partition))
        if seen != (leader, info.leader_epoch):
            replica.assign_epoch(info.leader_epoch)
            self._epochs[(topic_id, partition)] = (leader, info.leader_epoch)
        led = Led(topic, info, replica)
        self._follow(led)
        return led

    def _follow(self, led: Led, *, fast_end: int | None = None) -> None:
        """Bring every running follower level with the leader; advance the high watermark."""
        info = led.info
        for broker in info.replicas:
            if broker == info.leader or broker in info.adding_replicas or not self.topology.running(broker):
                continue
            # a follower of a leader with nothing yet has nothing to copy: it is made by the first write
            follower = self.replicas.get(
                info.topic_id, info.partition_id, broker, create=led.log.end_offset > 0
            )
            if follower is None:
                continue
            if follower.end_offset == led.log.end_offset and (
                follower.end_offset == 0
                or follower.epoch_at(follower.end_offset - 1) == led.log.epoch_at(led.log.end_offset - 1)
            ):
                continue
            _copied, truncated = catch_up(follower, led.log)
            if truncated is not None:
                log.info(
                    "broker %d: %s truncated to %d (diverged from the leader's log)",
                    broker,
                    led.name,
                    truncated,
                )
        self._advance(led)

    def _level_followers(self, led: Led) -> list[PartitionLog]:
        """The running followers (not being added) whose log ends where the leader's does."""
        out = []
        info = led.info
        for broker in info.replicas:
            if broker == info.leader or broker in info.adding_replicas or not self.topology.running(broker):
                continue
            follower = self.replicas.get(info.topic_id, info.partition_id, broker)
            if follower is not None and follower.end_offset == led.log.end_offset:
                out.append(follower)
        return out

    def _advance(self, led: Led) -> int:
        info = led.info
        ends = [led.log.end_offset]
        for broker in info.isr:
            if broker != info.leader and self.topology.running(broker):
                follower = self.replicas.get(info.topic_id, info.partition_id, broker, create=False)
                ends.append(follower.end_offset if follower is not None else 0)
        high = max(min(ends), led.log.log_start_offset)
        self._high_watermarks[(info.topic_id, info.partition_id)] = high
        return high

    def _in_sync(self, info: PartitionInfo) -> list[int]:
        return [b for b in info.isr if self.topology.running(b)]

    def _offsets(self, led: Led) -> LogOffsets:
        high = self._high_watermarks.get((led.info.topic_id, led.info.partition_id), 0)
        open_txns = led.log.producers.open_transactions()
        stable = min(high, open_txns[0][0]) if open_txns else high
        return LogOffsets(
            log_start_offset=led.log.log_start_offset,
            local_log_start_offset=led.log.log_start_offset,
            log_end_offset=led.log.end_offset,
            high_watermark=high,
            last_stable_offset=stable,
        )

    # ---------------------------------------------------------------- PartitionLogs

    async def append(
        self,
        topic: str,
        partition: int,
        records: bytes,
        *,
        acks: int = -1,
        timeout_ms: int = 30_000,
        origin: Origin = Origin.CLIENT,
        node: int | None = None,
    ) -> AppendResult:
        led = self._led(topic, partition, node)
        if acks == -1:
            self._enough_replicas(led)
        result = self._append_at_leader(led, records, origin)
        if acks == -1:
            self._enough_replicas(led, after=True)
        return result

    def _enough_replicas(self, led: Led, *, after: bool = False) -> None:
        # Kafka's effectiveMinIsr: min.insync.replicas, at most the replication factor
        needed = min(
            _int(self.topology.topic_config(led.topic, "min.insync.replicas"), 1), len(led.info.replicas)
        )
        in_sync = self._in_sync(led.info)
        if len(in_sync) < needed:
            code = ErrorCode.not_enough_replicas_after_append if after else ErrorCode.not_enough_replicas
            raise LogError(
                code,
                f"The size of the current ISR Set({', '.join(map(str, in_sync))}) is insufficient to satisfy the "
                f"min.isr requirement of {needed} for partition {led.name}",
            )

    def rules(self, topic: str) -> TopicRules:
        """The topic's validation rules (cached until a config of the topic changes)."""
        rules = self._rules.get(topic)
        if rules is None:
            rules = self._rules[topic] = self._read_rules(topic)
        return rules

    def _read_rules(self, topic: str) -> TopicRules:
        config = self.topology.topic_config
        return TopicRules(
            max_message_bytes=_int(config(topic, "max.message.bytes"), 1_048_588),
            log_append_time=config(topic, "message.timestamp.type") == "LogAppendTime",
            timestamp_before_max_ms=_int(config(topic, "message.timestamp.before.max.ms"), 2**63 - 1),
            timestamp_after_max_ms=_int(config(topic, "message.timestamp.after.max.ms"), 3_600_000),
            compacted="compact" in (config(topic, "cleanup.policy") or ""),
            compression=config(topic, "compression.type") or "producer",
        )

    def _append_at_leader(self, led: Led, records: bytes, origin: Origin) -> AppendResult:
        now = now_ms()
        rules = self.rules(led.topic)
        client = origin is Origin.CLIENT
        batches = validated(records, rules, led.name, now, client=client)
        producers = led.log.producers
        for _data, header in batches:
            if header.producer_id < 0:
                continue
            if client and len(batches) == 1:
                earlier = producers.duplicate(header)
                if earlier is not None:
                    return AppendResult(
                        base_offset=earlier.first_offset,
                        last_offset=earlier.last_offset,
                        log_append_time_ms=earlier.timestamp,
                        log_start_offset=led.log.log_start_offset,
                        duplicate=True,
                    )
            producers.check_data(header, sequences=client)
        return self._write(led, batches, now if rules.log_append_time else -1)

    def _write(self, led: Led, batches: list[tuple[bytes, BatchHeader]], append_time: int) -> AppendResult:
        base = offset = led.log.end_offset
        epoch = led.info.leader_epoch
        out = bytearray()
        headers: list[BatchHeader] = []
        for data, header in batches:
            numbered = with_offset_and_epoch(data, offset, epoch)
            if append_time >= 0:
                stamp_log_append_time(numbered, append_time)
            headers.append(read_header(numbered, check_crc=False)._replace(position=len(out)))
            out += numbered
            offset += header.last_offset_delta + 1
        level = self._level_followers(led)  # _led just brought every running follower level
        led.log.append(out, headers)
        for follower in level:
            follower.append_replicated(out, headers)  # the batches as the leader wrote them
        self._follow(led)
        self._wake()
        return AppendResult(
            base_offset=base,
            last_offset=offset - 1,
            log_append_time_ms=append_time,
            log_start_offset=led.log.log_start_offset,
        )

    def read(
        self,
        topic: str,
        partition: int,
        offset: int,
        max_bytes: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
        from_follower: bool = False,
    ) -> ReadResult:
        """`from_follower`: `node` may be any in-sync replica (KIP-392: consumers fetch from followers)."""
        led = self._led(topic, partition, self._reader(topic, partition, node, from_follower))
        if node is not None and node != led.info.leader:
            follower = self.replicas.get(led.info.topic_id, partition, node)
            assert follower is not None
            led = Led(led.topic, led.info, follower)
        offsets = self._offsets(led)
        if offset > offsets.log_end_offset:
            raise LogError(
                ErrorCode.offset_out_of_range,
                f"Received request for offset {offset} for partition {led.name}, but we only have log segments "
                f"upto {offsets.log_end_offset}.",
            )
        if offset < offsets.log_start_offset:
            raise LogError(
                ErrorCode.offset_out_of_range,
                f"Received request for offset {offset} for partition {led.name}, but we only have log segments "
                f"starting from offset: {offsets.log_start_offset}.",
            )
        upper = (
            offsets.last_stable_offset if isolation is Isolation.READ_COMMITTED else offsets.high_watermark
        )
        data = led.log.read(offset, max_bytes, upper)
        aborted: tuple[AbortedTransaction, ...] = ()
        if isolation is Isolation.READ_COMMITTED and data:
            end = _end_of(data)
            aborted = tuple(
                AbortedTransaction(producer_id=t.producer_id, first_offset=t.first_offset)
                for t in led.log.aborted_between(offset, end)
            )
        return ReadResult(records=data, offsets=offsets, aborted=aborted)

    def offsets(
        self, topic: str, partition: int, *, node: int | None = None, from_follower: bool = False
    ) -> LogOffsets:
        return self._offsets(self._led(topic, partition, self._reader(topic, partition, node, from_follower)))

    def _reader(self, topic: str, partition: int, node: int | None, from_follower: bool) -> int | None:
        """The node a read must be led by: None when `node` is an in-sync follower allowed to answer."""
        if not from_follower or node is None:
            return node
        topic_id = self.topology.topic_id(topic)
        info = self.topology.partition(topic_id, partition) if topic_id is not None else None
        if info is not None and node in info.isr and self.topology.running(node):
            return None
        return node

    async def write_marker(
        self,
        topic: str,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        marker: Marker,
        coordinator_epoch: int,
        transaction_version: int = 2,
        timeout_ms: int = 30_000,
    ) -> int:
        led = self._led(topic, partition, None)
        led.log.producers.check_marker(producer_id, producer_epoch, coordinator_epoch, transaction_version)
        batch = marker_batch(
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            commit=marker is Marker.COMMIT,
            coordinator_epoch=coordinator_epoch,
            timestamp_ms=now_ms(),
        )
        result = self._write(led, [(batch, read_header(batch, check_crc=False))], -1)
        return result.base_offset

    def offset_for_timestamp(
        self,
        topic: str,
        partition: int,
        timestamp_ms: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
    ) -> TimestampOffset | None:
        led = self._led(topic, partition, node)
        offsets = self._offsets(led)
        upper = (
            offsets.last_stable_offset if isolation is Isolation.READ_COMMITTED else offsets.high_watermark
        )
        found = led.log.first_batch_at_time(timestamp_ms)
        if found is None:
            return None
        data, header = found
        for record in records_of(data, header):
            if record.timestamp_ms >= timestamp_ms and record.offset >= offsets.log_start_offset:
                if record.offset >= upper:
                    return None
                return TimestampOffset(
                    offset=record.offset, timestamp_ms=record.timestamp_ms, leader_epoch=header.leader_epoch
                )
        return None

    def max_timestamp(self, topic: str, partition: int, *, node: int | None = None) -> TimestampOffset | None:
        """The record with the largest timestamp (ListOffsets MAX_TIMESTAMP, KIP-734): the first such record."""
        led = self._led(topic, partition, node)
        timestamp, batch_offset = led.log.max_timestamp()
        if timestamp < 0:
            return None
        found = led.log.batch_at(batch_offset)
        if found is None:
            return None
        data, header = found
        for record in records_of(data, header):
            if record.timestamp_ms == header.max_timestamp or header.log_append_time:
                return TimestampOffset(
                    offset=record.offset, timestamp_ms=header.max_timestamp, leader_epoch=header.leader_epoch
                )
        return None

    def producers(self, topic: str, partition: int, *, node: int | None = None) -> tuple[ProducerState, ...]:
        return self._led(topic, partition, node).log.producers.snapshot()

    # ---------------------------------------------------------------- what the APIs add

    def leader_epoch(self, topic: str, partition: int) -> int:
        """The partition's current leader epoch (for fencing a request's CurrentLeaderEpoch)."""
        topic_id = self.topology.topic_id(topic)
        info = self.topology.partition(topic_id, partition) if topic_id is not None else None
        return info.leader_epoch if info is not None else -1

    def end_offset_for_epoch(
        self, topic: str, partition: int, epoch: int, *, node: int | None = None
    ) -> tuple[int, int]:
        """(epoch, end offset) of the largest epoch <= `epoch` at the leader (OffsetForLeaderEpoch)."""
        return self._led(topic, partition, node).log.end_offset_for_epoch(epoch)

    def epoch_at(self, topic: str, partition: int, offset: int) -> int:
        return self._led(topic, partition, None).log.epoch_at(offset)

    def has_open_transaction(self, topic: str, partition: int, producer_id: int, epoch: int) -> bool:
        return self._led(topic, partition, None).log.producers.has_open_transaction(producer_id, epoch)

    async def delete_records(
        self, topic: str, partition: int, offset: int, *, node: int | None = None
    ) -> int:
        """Move the log start to `offset` (-1: the high watermark) on every replica; the new low watermark."""
        led = self._led(topic, partition, node)
        high = self._offsets(led).high_watermark
        target = high if offset == -1 else offset
        if "compact" in (self.topology.topic_config(topic, "cleanup.policy") or "") and "delete" not in (
            self.topology.topic_config(topic, "cleanup.policy") or ""
        ):
            raise LogError(
                ErrorCode.policy_violation,
                f"Records of partition {led.name} can not be deleted due to the configured policy",
            )
        if target < 0:
            raise LogError(
                ErrorCode.offset_out_of_range, f"The offset {target} for partition {led.name} is not valid"
            )
        if target > high:
            raise LogError(
                ErrorCode.offset_out_of_range,
                f"Cannot increment the log start offset to {target} of partition {led.name} since it is larger "
                f"than the high watermark {high}",
            )
        if led.log.advance_log_start(target):
            self._follow(led)
            for broker in led.info.replicas:
                replica = self.replicas.logs.get((led.info.topic_id, led.info.partition_id, broker))
                if replica is not None:
                    replica.advance_log_start(target)
            self.checkpoint()
        return led.log.log_start_offset

    def fetch_sessions(self, broker: int) -> FetchSessions:
        """The broker's incremental fetch session cache (KIP-227)."""
        cache = self._sessions.get(broker)
        if cache is None:
            cache = self._sessions[broker] = FetchSessions()
        return cache

    def changed(self) -> asyncio.Event:
        """An event set at the next append or metadata change (readers waiting for data wait on it)."""
        return self._changed

    def _wake(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()


def _end_of(data: bytes) -> int:
    """The offset after the last batch of whole batches `data`."""
    position, end = 0, 0
    while position < len(data):
        header = read_header(data, position, check_crc=False)
        end = header.last_offset + 1
        position += header.size
    return end


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default
