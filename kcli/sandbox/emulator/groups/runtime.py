"""The coordinators' runtime: shards loaded from their partitions, operations written back, timers.

Behavior (Kafka's CoordinatorRuntime, as far as one process needs it):
- A shard is loaded the first time its partition is asked for: every batch of the partition is read
  from the log start and replayed (transactional batches pending their marker, markers completing
  them), then the shard's sessions start.
- An operation runs on its shard alone (one lock per shard): it changes the state and returns
  records, which are appended to the partition (acks=all, as a coordinator writes) before the
  answer; records marked for replay then change the state, at their offsets. A failed append
  answers with Kafka's mapping of the append error (NOT_COORDINATOR, COORDINATOR_NOT_AVAILABLE ...).
- Timers run their action as an operation of the shard that scheduled it, on the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.interface import Isolation, LogError, Marker, Origin, PartitionLogs
from kcli.sandbox.emulator.data.records import encode_batch, marker_of, read_header, records_of
from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.model import CoordinatorError, Result

log = logging.getLogger("kcli.sandbox")
T = TypeVar("T")
S = TypeVar("S", bound="Shard")
READ_CHUNK = 1 << 20
NO_PRODUCER = -1

# AppendGroupMetadataErrorToResponseError / the runtime's append failures, as Kafka maps them.
_APPEND_ERRORS = {
    ErrorCode.unknown_topic_or_partition: ErrorCode.coordinator_not_available,
    ErrorCode.not_enough_replicas: ErrorCode.coordinator_not_available,
    ErrorCode.not_enough_replicas_after_append: ErrorCode.coordinator_not_available,
    ErrorCode.request_timed_out: ErrorCode.coordinator_not_available,
    ErrorCode.not_leader_or_follower: ErrorCode.not_coordinator,
    ErrorCode.kafka_storage_error: ErrorCode.not_coordinator,
    ErrorCode.message_too_large: ErrorCode.unknown_server_error,
    ErrorCode.record_list_too_large: ErrorCode.unknown_server_error,
    ErrorCode.invalid_fetch_size: ErrorCode.unknown_server_error,
}


class Shard(Protocol):
    """What the runtime needs of a coordinator shard."""

    def replay(
        self, record: R.CoordinatorRecord, *, record_offset: int = -1, producer_id: int = NO_PRODUCER
    ) -> None: ...

    def replay_marker(self, producer_id: int, commit: bool) -> None: ...

    def loaded(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Producer:
    """The transactional producer an operation writes for (a TxnOffsetCommit)."""

    producer_id: int
    producer_epoch: int


class Clock:
    """The wall clock."""

    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class LoopTimer:
    """Keyed timeouts on the running event loop; each fires as an operation of one shard."""

    def __init__(self, run: Callable[[Callable[[], Result[Any]]], Coroutine[Any, Any, None]]) -> None:
        self._run = run
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._running: set[asyncio.Task[Any]] = set()  # fired actions, kept until they finish

    def schedule(self, key: str, delay_ms: int, action: Callable[[], Result[Any]]) -> None:
        self.cancel(key)
        loop = asyncio.get_running_loop()

        def fire() -> None:
            self._handles.pop(key, None)
            task: asyncio.Task[None] = loop.create_task(self._run(action))
            self._running.add(task)
            task.add_done_callback(self._running.discard)

        self._handles[key] = loop.call_later(max(delay_ms, 0) / 1000, fire)

    def cancel(self, key: str) -> None:
        handle = self._handles.pop(key, None)
        if handle is not None:
            handle.cancel()

    def is_scheduled(self, key: str) -> bool:
        return key in self._handles

    def cancel_all(self) -> None:
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()


class Runtime(Generic[S]):
    """The shards of one internal topic (__consumer_offsets, __transaction_state) and their writes."""

    def __init__(
        self,
        topic: str,
        logs: Callable[[], PartitionLogs],
        make_shard: Callable[[int, LoopTimer], S],
        *,
        transactions: bool = False,
        clock: Any = None,
    ) -> None:
        self.topic = topic
        self._logs = logs
        self._make_shard = make_shard
        self._transactions = transactions
        self.clock = clock or Clock()
        self._shards: dict[int, S] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._timers: dict[int, LoopTimer] = {}
        self.on_load: Callable[[int, S], None] = lambda partition, shard: None

    # ---------------------------------------------------------------- shards

    def shard(self, partition: int) -> S:
        """The shard of `partition`, loaded from its log the first time."""
        shard = self._shards.get(partition)
        if shard is None:
            timer = LoopTimer(lambda action, p=partition: self._timed(p, action))  # type: ignore[misc]
            shard = self._make_shard(partition, timer)
            self._replay_log(partition, shard)
            self._shards[partition] = shard
            self._timers[partition] = timer
            self._locks[partition] = asyncio.Lock()
            shard.loaded()
            self.on_load(partition, shard)
        return shard

    def loaded_shards(self) -> Iterator[tuple[int, S]]:
        yield from self._shards.items()

    def _replay_log(self, partition: int, shard: S) -> None:
        logs = self._logs()
        try:
            offsets = logs.offsets(self.topic, partition)
        except LogError as error:
            raise CoordinatorError(ErrorCode.coordinator_load_in_progress, error.message) from None
        position = offsets.log_start_offset
        while position < offsets.high_watermark:
            answer = logs.read(self.topic, partition, position, READ_CHUNK, Isolation.READ_UNCOMMITTED)
            data = answer.records
            if not data:
                break
            at = 0
            while at < len(data):
                header = read_header(data, at)
                self._replay_batch(shard, data, header)
                position = header.last_offset + 1
                at += header.size

    def _replay_batch(self, shard: S, data: bytes, header: Any) -> None:
        if header.is_control:
            marker = marker_of(data, header)
            if marker is not None:
                shard.replay_marker(header.producer_id, marker[0] == Marker.COMMIT)
            return
        producer = header.producer_id if header.is_transactional else NO_PRODUCER
        for record in records_of(data, header):
            if record.key is None:
                continue
            try:
                decoded = R.decode(record.key, record.value, transactions=self._transactions)
            except R.RecordError as error:
                log.warning("%s: skipping record at offset %d: %s", self.topic, record.offset, error)
                continue
            shard.replay(decoded, record_offset=record.offset, producer_id=producer)

    # ---------------------------------------------------------------- operations

    async def write(
        self, partition: int, op: Callable[[S], Result[T]], *, producer: Producer | None = None
    ) -> T:
        """Run `op` on the shard, append its records, replay them, and return its response."""
        shard = self.shard(partition)
        async with self._locks[partition]:
            result = op(shard)
            await self._commit(partition, shard, result, producer)
        return result.response  # type: ignore[return-value]

    def read(self, partition: int, op: Callable[[S], T]) -> T:
        """A read of the shard's state (no records)."""
        return op(self.shard(partition))

    async def _timed(self, partition: int, action: Callable[[], Result[Any]]) -> None:
        shard = self._shards.get(partition)
        if shard is None:
            return
        async with self._locks[partition]:
            try:
                result = action()
                await self._commit(partition, shard, result, None)
            except CoordinatorError as error:
                log.debug("%s-%d: a timeout's operation failed: %s", self.topic, partition, error)
            except Exception:
                log.exception("%s-%d: a timeout's operation failed", self.topic, partition)

    async def _commit(self, partition: int, shard: S, result: Result[Any], producer: Producer | None) -> None:
        if result.records:
            encoded = [R.encode(record) for record in result.records]
            batch = encode_batch(
                encoded,
                timestamp_ms=self.clock.now_ms(),
                producer_id=producer.producer_id if producer else NO_PRODUCER,
                producer_epoch=producer.producer_epoch if producer else -1,
                transactional=producer is not None,
            )
            try:
                appended = await self._logs().append(
                    self.topic, partition, batch, acks=-1, origin=Origin.COORDINATOR
                )
            except LogError as error:
                code = _APPEND_ERRORS.get(ErrorCode(error.code), ErrorCode(error.code))
                raise CoordinatorError(code, error.message) from None
            if result.replay:
                for index, record in enumerate(result.records):
                    shard.replay(
                        record,
                        record_offset=appended.base_offset + index,
                        producer_id=producer.producer_id if producer else NO_PRODUCER,
                    )
        for after in result.after:
            after()

    async def complete_transaction(
        self,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        commit: bool,
        transaction_version: int,
    ) -> None:
        """Write a transaction's marker to the partition and complete its offsets (WriteTxnMarkers)."""
        shard = self.shard(partition)
        async with self._locks[partition]:
            await self._logs().write_marker(
                self.topic,
                partition,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                marker=Marker.COMMIT if commit else Marker.ABORT,
                coordinator_epoch=coordinator_epoch,
                transaction_version=transaction_version,
            )
            shard.replay_marker(producer_id, commit)

    def close(self) -> None:
        """Stop every timer (the sandbox stops; the state is in the log)."""
        for timer in self._timers.values():
            timer.cancel_all()
        self._shards.clear()
        self._timers.clear()
        self._locks.clear()
