"""One __transaction_state partition's transactional ids: InitProducerId, AddPartitionsToTxn, EndTxn.

Behavior (Kafka 4.4's TransactionCoordinator):
- InitProducerId gives a new id a producer id at epoch 0; an existing one gets its epoch bumped (a
  new producer id once the epoch is exhausted), which fences the older producer. A resuming producer
  (v3+: its producer id and epoch) must name the current or, after an exhausted epoch, the previous
  producer id (else PRODUCER_FENCED). An open transaction is aborted first: PREPARE_ABORT at a bumped
  epoch, and CONCURRENT_TRANSACTIONS until its markers are written.
- AddPartitionsToTxn (and AddOffsetsToTxn, for the group's __consumer_offsets partition) makes the
  transaction Ongoing; a producer id or epoch that does not match is INVALID_PRODUCER_ID_MAPPING or
  PRODUCER_FENCED; while the previous transaction's markers are written, CONCURRENT_TRANSACTIONS.
- EndTxn moves an Ongoing transaction to PrepareCommit/PrepareAbort (answered once durable), then the
  markers are written to every partition and the transaction completes. Transaction version 2 (EndTxn
  v5+) bumps the epoch at each end and answers the new id and epoch; retries are answered as Kafka
  answers them (its table of Empty/CompleteCommit/CompleteAbort with the current or previous epoch).
- A transaction Ongoing for longer than its timeout is aborted by the coordinator (at a bumped epoch).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.model import EMPTY, Clock, CoordinatorError, Result
from kcli.sandbox.emulator.groups.txn_state import (
    EXPIRABLE,
    NO_PRODUCER_EPOCH,
    NO_PRODUCER_ID,
    T,
    Txn,
    TxnState,
    epoch_exhausted,
    tombstone,
)

E = ErrorCode
TV2 = 2


@dataclass(frozen=True, slots=True, kw_only=True)
class Ended:
    """An EndTxn's answer, and the markers it leaves to write (None: nothing to write)."""

    error: ErrorCode
    producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH
    markers: Txn | None = None  # the PREPARE state whose markers go out


@dataclass(frozen=True, slots=True, kw_only=True)
class Listed:
    transactional_id: str
    producer_id: int
    state: str


class TxnShard:
    """The transactional ids of one __transaction_state partition."""

    def __init__(
        self,
        partition: int,
        *,
        clock: Clock,
        server_version: Callable[[], int],
        on_prepared: Callable[[Txn], None] = lambda txn: None,
    ) -> None:
        self.partition = partition
        self.clock = clock
        self.server_version = server_version  # transaction.version finalized on the cluster
        self.on_prepared = on_prepared  # markers still to write, found when the log is read back
        self.txns: dict[str, Txn] = {}

    # ---------------------------------------------------------------- replay

    def replay(self, record: R.CoordinatorRecord, *, record_offset: int = -1, producer_id: int = -1) -> None:
        transactional_id = record.key.transactional_id
        if record.value is None:
            self.txns.pop(transactional_id, None)
            return
        loaded = Txn.from_record(transactional_id, record.value)
        current = self.txns.get(transactional_id)
        if current is not None and current.producer_id == loaded.producer_id:
            loaded = replace(loaded, last_producer_epoch=current.last_producer_epoch)
        if current is not None:
            # Kafka keeps the set it built in memory (the log's is grouped by topic): the partitions
            # that stay keep the order they joined in, the new ones follow.
            kept = tuple(p for p in current.partitions if p in loaded.partitions)
            loaded = replace(loaded, partitions=kept + tuple(p for p in loaded.partitions if p not in kept))
        self.txns[transactional_id] = loaded

    def replay_marker(self, producer_id: int, commit: bool) -> None:
        return None  # __transaction_state holds no transactional data

    def loaded(self) -> None:
        for txn in self.txns.values():
            if txn.state in (T.PREPARE_COMMIT, T.PREPARE_ABORT):
                self.on_prepared(txn)

    def _write(self, txn: Txn, response: Any) -> Result[Any]:
        version = 1 if self.server_version() >= TV2 else 0
        return Result(records=[txn.record(version)], response=response)

    # ---------------------------------------------------------------- InitProducerId

    def init_producer_id(
        self, transactional_id: str, timeout_ms: int, expected: tuple[int, int] | None, new_producer_id: int
    ) -> Result[Ended]:
        now = self.clock.now_ms()
        txn = self.txns.get(transactional_id)
        if txn is None:
            txn = Txn(
                transactional_id=transactional_id,
                producer_id=new_producer_id,
                timeout_ms=timeout_ms,
                update_ms=now,
            )
            self.txns[transactional_id] = txn
        if expected is not None and not (
            txn.producer_epoch == NO_PRODUCER_EPOCH
            or expected[0] == txn.producer_id
            or (expected[0] == txn.prev_producer_id and epoch_exhausted(expected[1]))
        ):
            return Result(response=Ended(error=E.producer_fenced))
        if txn.state in (T.PREPARE_ABORT, T.PREPARE_COMMIT):
            return Result(response=Ended(error=E.concurrent_transactions))
        if txn.state is T.ONGOING:  # abort it first, at a fencing epoch; the client retries
            aborted = self._end(
                txn,
                txn.producer_id,
                txn.producer_epoch + 1,
                False,
                self.server_version(),
                False,
                new_producer_id,
                fence=True,
            )
            if aborted.markers is None:
                return Result(response=Ended(error=aborted.error))
            return self._write(
                aborted.markers, Ended(error=E.concurrent_transactions, markers=aborted.markers)
            )
        empty = {"partitions": (), "start_ms": -1, "update_ms": now, "timeout_ms": timeout_ms}
        if txn.exhausted and (expected is None or expected[1] == txn.producer_epoch):
            last = txn.producer_epoch if expected is not None else NO_PRODUCER_EPOCH
            new = txn.to(
                T.EMPTY, producer_id=new_producer_id, producer_epoch=0, last_producer_epoch=last, **empty
            )
        elif expected is None:
            new = txn.to(
                T.EMPTY, producer_epoch=txn.producer_epoch + 1, last_producer_epoch=NO_PRODUCER_EPOCH, **empty
            )
        elif txn.producer_epoch == NO_PRODUCER_EPOCH or expected[1] == txn.producer_epoch:
            new = txn.to(
                T.EMPTY,
                producer_epoch=txn.producer_epoch + 1,
                last_producer_epoch=txn.producer_epoch,
                **empty,
            )
        elif expected[1] == txn.last_producer_epoch:
            new = txn.to(T.EMPTY, **empty)
        else:
            return Result(response=Ended(error=E.producer_fenced))
        return self._write(
            new, Ended(error=E.none, producer_id=new.producer_id, producer_epoch=new.producer_epoch)
        )

    # ---------------------------------------------------------------- AddPartitionsToTxn

    def add_partitions(
        self,
        transactional_id: str,
        producer_id: int,
        epoch: int,
        partitions: set[tuple[str, int]],
        client_version: int,
    ) -> Result[ErrorCode]:
        if not transactional_id:
            return Result(response=E.invalid_request)
        txn = self.txns.get(transactional_id)
        if txn is None or txn.producer_id != producer_id:
            return Result(response=E.invalid_producer_id_mapping)
        if txn.producer_epoch != epoch:
            return Result(response=E.producer_fenced)
        if txn.state in (T.PREPARE_COMMIT, T.PREPARE_ABORT):
            return Result(response=E.concurrent_transactions)
        if txn.state is T.ONGOING and partitions <= set(txn.partitions):
            return Result(response=E.none)
        now = self.clock.now_ms()
        start = now if txn.state in (T.EMPTY, T.COMPLETE_ABORT, T.COMPLETE_COMMIT) else txn.start_ms
        new = txn.to(
            T.ONGOING,
            partitions=txn.partitions + tuple(sorted(partitions - set(txn.partitions))),
            start_ms=start,
            update_ms=now,
            client_version=client_version,
        )
        return self._write(new, E.none)

    def verify(
        self, transactional_id: str, producer_id: int, epoch: int, partitions: set[tuple[str, int]]
    ) -> dict[tuple[str, int], ErrorCode]:
        """Whether each partition is in the producer's open transaction (KIP-890 verification)."""
        if not transactional_id:
            return dict.fromkeys(partitions, E.invalid_request)
        txn = self.txns.get(transactional_id)
        if txn is None or txn.producer_id != producer_id:
            return dict.fromkeys(partitions, E.invalid_producer_id_mapping)
        if txn.producer_epoch != epoch:
            return dict.fromkeys(partitions, E.producer_fenced)
        if txn.state in (T.PREPARE_COMMIT, T.PREPARE_ABORT):
            return dict.fromkeys(partitions, E.concurrent_transactions)
        return {p: E.none if p in txn.partitions else E.transaction_abortable for p in partitions}

    # ---------------------------------------------------------------- EndTxn

    def end_txn(
        self,
        transactional_id: str,
        producer_id: int,
        epoch: int,
        commit: bool,
        client_version: int,
        rotate_to: int = -1,
    ) -> Result[Ended]:
        if not transactional_id:
            return Result(response=Ended(error=E.invalid_request))
        txn = self.txns.get(transactional_id)
        if txn is None:
            return Result(response=Ended(error=E.invalid_producer_id_mapping))
        ended = self._end(txn, producer_id, epoch, commit, client_version, True, rotate_to)
        if ended.markers is None:
            return Result(response=ended)
        return self._write(ended.markers, ended)

    def _end(
        self,
        txn: Txn,
        producer_id: int,
        epoch: int,
        commit: bool,
        version: int,
        from_client: bool,
        rotate_to: int,
        *,
        fence: bool = False,
    ) -> Ended:
        if version < TV2:
            return self._end_v1(txn, producer_id, epoch, commit, from_client, fence)
        retry_overflow = (
            not fence and txn.prev_producer_id == producer_id and epoch == 32766 and txn.producer_epoch == 0
        )
        retry_bump = not fence and txn.producer_epoch == epoch + 1
        if fence:
            valid = epoch >= txn.producer_epoch
        elif txn.state in (T.ONGOING, T.EMPTY, T.DEAD, T.PREPARE_EPOCH_FENCE):
            valid = epoch == txn.producer_epoch
        elif txn.state in (T.PREPARE_COMMIT, T.PREPARE_ABORT):
            valid = retry_bump
        else:
            valid = retry_bump or retry_overflow or epoch == txn.producer_epoch
        retry = retry_bump or retry_overflow
        if txn.producer_id != producer_id and not retry_overflow:
            return Ended(error=E.invalid_producer_id_mapping)
        if not valid:
            return Ended(error=E.producer_fenced)
        state = txn.state
        if state is T.ONGOING:
            return self._prepare(
                txn, T.PREPARE_COMMIT if commit else T.PREPARE_ABORT, version, False, rotate_to
            )
        if state is T.COMPLETE_COMMIT:
            if commit:
                return self._done(txn) if retry else Ended(error=E.invalid_txn_state)
            return (
                Ended(error=E.invalid_txn_state)
                if retry
                else self._prepare(txn, T.PREPARE_ABORT, version, True, rotate_to)
            )
        if state is T.COMPLETE_ABORT:
            if not commit:
                return (
                    self._done(txn)
                    if retry
                    else self._prepare(txn, T.PREPARE_ABORT, version, True, rotate_to)
                )
            return Ended(error=E.invalid_txn_state)
        if state is T.PREPARE_COMMIT:
            return Ended(error=E.concurrent_transactions if commit else E.invalid_txn_state)
        if state is T.PREPARE_ABORT:
            return Ended(error=E.invalid_txn_state if commit else E.concurrent_transactions)
        if state is T.EMPTY and not commit:
            return self._prepare(txn, T.PREPARE_ABORT, version, True, rotate_to)
        return Ended(error=E.invalid_txn_state)

    def _end_v1(
        self, txn: Txn, producer_id: int, epoch: int, commit: bool, from_client: bool, fence: bool
    ) -> Ended:
        if txn.producer_id != producer_id:
            return Ended(error=E.invalid_producer_id_mapping)
        if (from_client and epoch != txn.producer_epoch) or epoch < txn.producer_epoch:
            return Ended(error=E.producer_fenced)
        state = txn.state
        if state is T.ONGOING:
            if fence:
                txn = replace(txn, producer_epoch=epoch, last_producer_epoch=NO_PRODUCER_EPOCH)
            target = T.PREPARE_COMMIT if commit else T.PREPARE_ABORT
            now = self.clock.now_ms()
            new = txn.to(target, next_producer_id=NO_PRODUCER_ID, update_ms=now, client_version=0)
            return Ended(error=E.none, markers=new)
        if state is T.COMPLETE_COMMIT:
            return Ended(error=E.none) if commit else Ended(error=E.invalid_txn_state)
        if state is T.COMPLETE_ABORT:
            return Ended(error=E.invalid_txn_state) if commit else Ended(error=E.none)
        if state is T.PREPARE_COMMIT:
            return Ended(error=E.concurrent_transactions if commit else E.invalid_txn_state)
        if state is T.PREPARE_ABORT:
            return Ended(error=E.invalid_txn_state if commit else E.concurrent_transactions)
        return Ended(error=E.invalid_txn_state)

    def _prepare(
        self, txn: Txn, target: TxnState, version: int, no_partitions: bool, rotate_to: int
    ) -> Ended:
        """PrepareCommit/PrepareAbort with transaction version 2: the epoch is bumped now, and an exhausted
        epoch names the producer id the transaction completes with (`rotate_to`)."""
        now = self.clock.now_ms()
        next_id = NO_PRODUCER_ID
        if txn.exhausted:
            if rotate_to == NO_PRODUCER_ID:
                raise CoordinatorError(E.concurrent_transactions, "a new producer id is needed first")
            next_id = rotate_to
        new = txn.to(
            target,
            producer_epoch=txn.producer_epoch + 1 if txn.producer_epoch < 32767 else txn.producer_epoch,
            last_producer_epoch=txn.producer_epoch,
            start_ms=now if no_partitions else txn.start_ms,
            next_producer_id=next_id,
            update_ms=now,
            client_version=version,
        )
        return Ended(
            error=E.none, producer_id=new.producer_id, producer_epoch=new.producer_epoch, markers=new
        )

    @staticmethod
    def _done(txn: Txn) -> Ended:
        return Ended(error=E.none, producer_id=txn.producer_id, producer_epoch=txn.producer_epoch)

    def complete(self, transactional_id: str, prepared: Txn) -> Result[Any]:
        """The markers of `prepared` are written: the transaction completes (Kafka's prepareComplete)."""
        txn = self.txns.get(transactional_id)
        if txn is None or txn.state is not prepared.state or txn.producer_id != prepared.producer_id:
            return EMPTY
        rotated = txn.client_version >= TV2 and txn.next_producer_id != NO_PRODUCER_ID
        new = txn.to(
            T.COMPLETE_COMMIT if txn.state is T.PREPARE_COMMIT else T.COMPLETE_ABORT,
            producer_id=txn.next_producer_id if rotated else txn.producer_id,
            producer_epoch=0 if rotated else txn.producer_epoch,
            next_producer_id=NO_PRODUCER_ID,
            partitions=(),
            update_ms=self.clock.now_ms(),
        )
        return self._write(new, None)

    # ---------------------------------------------------------------- timeouts, expiry

    def timed_out(self) -> list[Txn]:
        now = self.clock.now_ms()
        return [t for t in self.txns.values() if t.state is T.ONGOING and t.start_ms + t.timeout_ms < now]

    def abort_timed_out(self, transactional_id: str, producer_id: int, rotate_to: int = -1) -> Result[Ended]:
        txn = self.txns.get(transactional_id)
        if txn is None or txn.producer_id != producer_id or txn.state is not T.ONGOING:
            return Result(response=Ended(error=E.invalid_producer_id_mapping))
        aborted = self._end(
            txn,
            producer_id,
            txn.producer_epoch + 1,
            False,
            self.server_version(),
            False,
            rotate_to,
            fence=True,
        )
        if aborted.markers is None:
            return Result(response=aborted)
        return self._write(aborted.markers, aborted)

    def expire(self, expiration_ms: int) -> Result[Any]:
        """Tombstones of transactional ids idle past transactional.id.expiration.ms."""
        now = self.clock.now_ms()
        gone = [t for t in self.txns.values() if t.state in EXPIRABLE and t.update_ms + expiration_ms <= now]
        return Result(records=[tombstone(t.transactional_id) for t in gone])

    # ---------------------------------------------------------------- reads

    def describe(self, transactional_id: str) -> Txn:
        if not transactional_id:
            raise CoordinatorError(E.invalid_request)
        txn = self.txns.get(transactional_id)
        if txn is None or txn.state is T.DEAD:
            raise CoordinatorError(E.transactional_id_not_found)
        return txn

    def list(
        self,
        producer_ids: set[int],
        states: set[TxnState],
        names_given: bool,
        duration_ms: int,
        pattern: re.Pattern[str] | None,
    ) -> list[Listed]:
        now = self.clock.now_ms()
        out = []
        for txn in self.txns.values():
            if txn.state is T.DEAD:
                continue
            if producer_ids and txn.producer_id not in producer_ids:
                continue
            if names_given and txn.state not in states:
                continue
            if duration_ms >= 0 and now - txn.start_ms <= duration_ms:
                continue
            if pattern is not None and not pattern.fullmatch(txn.transactional_id):
                continue
            out.append(
                Listed(
                    transactional_id=txn.transactional_id, producer_id=txn.producer_id, state=txn.state.label
                )
            )
        return out
