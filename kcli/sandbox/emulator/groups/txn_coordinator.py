"""The transaction coordinator service: shards of __transaction_state, markers, timeouts and expiry.

Behavior (Kafka 4.4's TransactionCoordinator and TransactionMarkerChannelManager):
- A transactional id lives in partition abs(id.hashCode()) % transaction.state.log.num.partitions.
- InitProducerId checks the transaction timeout (0 < t <= transaction.max.timeout.ms, else
  INVALID_TRANSACTION_TIMEOUT); an empty transactional id is INVALID_REQUEST.
- Once a PrepareCommit/PrepareAbort is durable, the markers are written to every partition of the
  transaction (a partition whose topic is gone is skipped; a refused write is tried again), then the
  transaction completes. A coordinator that reads back a prepared transaction writes its markers.
- Every transaction.abort.timed.out.transaction.cleanup.interval.ms the coordinator aborts the
  transactions Ongoing past their timeout; transactional ids idle past transactional.id.expiration.ms
  are removed.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.interface import PartitionLogs
from kcli.sandbox.emulator.groups.coordinator import partition_for
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.groups.runtime import Runtime
from kcli.sandbox.emulator.groups.txn_shard import Ended, Listed, TxnShard
from kcli.sandbox.emulator.groups.txn_state import Txn, TxnState

E = ErrorCode
TRANSACTIONS_TOPIC = "__transaction_state"
MARKER_RETRY_S = 0.1
log = logging.getLogger("kcli.sandbox")


@dataclass(frozen=True, slots=True, kw_only=True)
class TxnSettings:
    """TransactionStateManagerConfig's values (Kafka 4.4 defaults)."""

    partitions: int = 50  # transaction.state.log.num.partitions
    max_timeout_ms: int = 900_000  # transaction.max.timeout.ms
    abort_interval_ms: int = 10_000  # transaction.abort.timed.out.transaction.cleanup.interval.ms
    expiration_ms: int = 7 * 24 * 3600 * 1000  # transactional.id.expiration.ms
    expiration_check_ms: int = 3_600_000  # transaction.remove.expired.transaction.cleanup.interval.ms
    server_version: int = 2  # transaction.version finalized on the cluster


class MarkerWriter(Protocol):
    """Writes a transaction marker to a partition's leader (WriteTxnMarkers); the Kafka error code."""

    async def __call__(
        self,
        topic: str,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        commit: bool,
        coordinator_epoch: int,
        transaction_version: int,
    ) -> ErrorCode: ...


def _expiring(expiration_ms: int) -> Callable[[TxnShard], Any]:
    return lambda shard: shard.expire(expiration_ms)


class TxnCoordinator:
    """Every transaction shard of one emulated cluster."""

    def __init__(
        self,
        logs: Callable[[], PartitionLogs],
        settings: Callable[[], TxnSettings],
        *,
        producer_ids: Callable[[], Awaitable[int]],
        markers: MarkerWriter,
        coordinator_epoch: Callable[[int], int],
        clock: Any = None,
    ) -> None:
        self.settings = settings
        self._producer_ids = producer_ids
        self._markers = markers
        self._coordinator_epoch = coordinator_epoch
        self.runtime: Runtime[TxnShard] = Runtime(
            TRANSACTIONS_TOPIC, logs, self._shard, transactions=True, clock=clock
        )
        self._tasks: set[asyncio.Task[Any]] = set()
        self._sweeper: asyncio.Task[None] | None = None

    def _shard(self, partition: int, timer: Any) -> TxnShard:
        return TxnShard(
            partition,
            clock=self.runtime.clock,
            server_version=lambda: self.settings().server_version,
            on_prepared=lambda txn: self._spawn(self._send_markers(partition, txn)),
        )

    def partition_for(self, transactional_id: str) -> int:
        return partition_for(transactional_id, self.settings().partitions)

    def _spawn(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        if self._sweeper is None:
            self._sweeper = asyncio.ensure_future(self._sweep())

    def start(self) -> None:
        """Start the timeout sweep (once an event loop runs)."""
        if self._sweeper is None:
            self._sweeper = asyncio.ensure_future(self._sweep())

    # ---------------------------------------------------------------- requests

    async def init_producer_id(
        self, transactional_id: str, timeout_ms: int, expected: tuple[int, int] | None
    ) -> tuple[ErrorCode, int, int]:
        if not transactional_id:
            return E.invalid_request, -1, -1
        if not 0 < timeout_ms <= self.settings().max_timeout_ms:
            return E.invalid_transaction_timeout, -1, -1
        self.start()
        try:
            new_id = await self._producer_ids()
            ended: Ended = await self.runtime.write(
                self.partition_for(transactional_id),
                lambda shard: shard.init_producer_id(transactional_id, timeout_ms, expected, new_id),
            )
        except CoordinatorError as error:
            return error.code, -1, -1
        self._after(transactional_id, ended)
        return ended.error, ended.producer_id, ended.producer_epoch

    async def add_partitions(
        self,
        transactional_id: str,
        producer_id: int,
        epoch: int,
        partitions: set[tuple[str, int]],
        client_version: int,
    ) -> ErrorCode:
        return await self.runtime.write(
            self.partition_for(transactional_id),
            lambda shard: shard.add_partitions(
                transactional_id, producer_id, epoch, partitions, client_version
            ),
        )

    def verify(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: set[tuple[str, int]]
    ) -> dict[tuple[str, int], ErrorCode]:
        return self.runtime.read(
            self.partition_for(transactional_id or " "),
            lambda shard: shard.verify(transactional_id, producer_id, epoch, partitions),
        )

    async def end_txn(
        self, transactional_id: str, producer_id: int, epoch: int, commit: bool, client_version: int
    ) -> tuple[ErrorCode, int, int]:
        if not transactional_id:
            return E.invalid_request, -1, -1
        partition = self.partition_for(transactional_id)
        rotate_to = -1
        current = self.runtime.shard(partition).txns.get(transactional_id)
        if current is not None and current.exhausted and client_version >= 2:
            rotate_to = await self._producer_ids()
        ended: Ended = await self.runtime.write(
            partition,
            lambda shard: shard.end_txn(
                transactional_id, producer_id, epoch, commit, client_version, rotate_to
            ),
        )
        self._after(transactional_id, ended)
        return ended.error, ended.producer_id, ended.producer_epoch

    def _after(self, transactional_id: str, ended: Ended) -> None:
        if ended.markers is not None:
            self._spawn(self._send_markers(self.partition_for(transactional_id), ended.markers))

    def describe(self, transactional_id: str) -> Txn:
        return self.runtime.read(
            self.partition_for(transactional_id or " "), lambda shard: shard.describe(transactional_id)
        )

    def list(
        self,
        partitions: list[int],
        producer_ids: set[int],
        state_names: set[str],
        duration_ms: int,
        pattern: str | None,
    ) -> tuple[list[Listed], list[str]]:
        """(the transactions of `partitions` passing the filters, the unknown state names)."""
        states = {s for name in state_names if (s := TxnState.named(name)) is not None}
        unknown = sorted(name for name in state_names if TxnState.named(name) is None)
        compiled = None
        if pattern:
            try:
                compiled = re.compile(pattern)
            except re.error as error:
                raise CoordinatorError(
                    E.invalid_regular_expression,
                    f"Transaction ID pattern `{pattern}` is not a valid regular expression: {error}.",
                ) from None
        out: list[Listed] = []
        for partition in partitions:
            out.extend(
                self.runtime.read(
                    partition,
                    lambda shard: shard.list(producer_ids, states, bool(state_names), duration_ms, compiled),
                )
            )
        return out, unknown

    # ---------------------------------------------------------------- markers, timeouts

    async def _send_markers(self, partition: int, prepared: Txn) -> None:
        commit = prepared.state is TxnState.PREPARE_COMMIT
        for topic, index in sorted(prepared.partitions):
            while True:
                code = await self._markers(
                    topic,
                    index,
                    producer_id=prepared.producer_id,
                    producer_epoch=prepared.producer_epoch,
                    commit=commit,
                    coordinator_epoch=self._coordinator_epoch(partition),
                    transaction_version=prepared.client_version,
                )
                if code in (E.none, E.unknown_topic_or_partition, E.unknown_topic_id):
                    break
                log.debug(
                    "marker of %s on %s-%d refused (%s): trying again",
                    prepared.transactional_id,
                    topic,
                    index,
                    code,
                )
                await asyncio.sleep(MARKER_RETRY_S)
        try:
            await self.runtime.write(
                partition, lambda shard: shard.complete(prepared.transactional_id, prepared)
            )
        except CoordinatorError as error:
            log.warning("transaction %s could not complete: %s", prepared.transactional_id, error)

    async def _sweep(self) -> None:
        expired_at = self.runtime.clock.now_ms()
        while True:
            await asyncio.sleep(self.settings().abort_interval_ms / 1000)
            settings = self.settings()
            for partition, shard in list(self.runtime.loaded_shards()):
                for txn in shard.timed_out():
                    await self._abort_timed_out(partition, txn)
                if self.runtime.clock.now_ms() - expired_at >= settings.expiration_check_ms:
                    await self.runtime.write(partition, _expiring(settings.expiration_ms))
            if self.runtime.clock.now_ms() - expired_at >= settings.expiration_check_ms:
                expired_at = self.runtime.clock.now_ms()

    async def _abort_timed_out(self, partition: int, txn: Txn) -> None:
        rotate_to = await self._producer_ids() if txn.exhausted else -1
        try:
            ended: Ended = await self.runtime.write(
                partition,
                lambda shard: shard.abort_timed_out(txn.transactional_id, txn.producer_id, rotate_to),
            )
        except CoordinatorError as error:
            log.warning("could not abort the timed out transaction %s: %s", txn.transactional_id, error)
            return
        self._after(txn.transactional_id, ended)

    def close(self) -> None:
        for task in [*self._tasks, *([self._sweeper] if self._sweeper else [])]:
            task.cancel()
        self._tasks.clear()
        self._sweeper = None
        self.runtime.close()
