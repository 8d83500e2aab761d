"""A transactional id's state, as Kafka's TransactionMetadata keeps it and __transaction_state records it.

Behavior:
- States and their allowed predecessors are Kafka's TransactionState; a change is a new value
  (Kafka's TxnTransitMetadata) written as a TransactionLogValue record (v1 when transaction.version
  is 2, else v0) and applied once the record is replayed.
- An epoch is exhausted at 32766 (Short.MAX_VALUE - 1): the next epoch bump rotates the producer id.
- Transaction version 2 (KIP-890): every end of a transaction bumps the epoch (the answer carries it),
  and an abort may end a transaction with no partitions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, replace
from typing import Any

from kcli.sandbox.emulator.groups import generated_records
from kcli.sandbox.emulator.groups import records as R

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
G: Any = generated_records

NO_PRODUCER_ID = -1
NO_PRODUCER_EPOCH = -1
MAX_EPOCH = 32767  # Short.MAX_VALUE


class TxnState(enum.Enum):
    """TransactionState: its id in the log and the name DescribeTransactions/ListTransactions show."""

    EMPTY = (0, "Empty")
    ONGOING = (1, "Ongoing")
    PREPARE_COMMIT = (2, "PrepareCommit")
    PREPARE_ABORT = (3, "PrepareAbort")
    COMPLETE_COMMIT = (4, "CompleteCommit")
    COMPLETE_ABORT = (5, "CompleteAbort")
    DEAD = (6, "Dead")
    PREPARE_EPOCH_FENCE = (7, "PrepareEpochFence")

    @property
    def id(self) -> int:
        return self.value[0]

    @property
    def label(self) -> str:
        return self.value[1]

    @classmethod
    def of(cls, state_id: int) -> TxnState:
        return next(s for s in cls if s.id == state_id)

    @classmethod
    def named(cls, name: str) -> TxnState | None:
        return next((s for s in cls if s.label == name), None)


T = TxnState
PREVIOUS = {
    T.EMPTY: {T.EMPTY, T.COMPLETE_COMMIT, T.COMPLETE_ABORT},
    T.ONGOING: {T.ONGOING, T.EMPTY, T.COMPLETE_COMMIT, T.COMPLETE_ABORT},
    T.PREPARE_COMMIT: {T.ONGOING},
    T.PREPARE_ABORT: {T.ONGOING, T.PREPARE_EPOCH_FENCE, T.EMPTY, T.COMPLETE_COMMIT, T.COMPLETE_ABORT},
    T.COMPLETE_COMMIT: {T.PREPARE_COMMIT},
    T.COMPLETE_ABORT: {T.PREPARE_ABORT},
    T.DEAD: {T.EMPTY, T.COMPLETE_ABORT, T.COMPLETE_COMMIT},
    T.PREPARE_EPOCH_FENCE: {T.ONGOING},
}
EXPIRABLE = {T.EMPTY, T.COMPLETE_COMMIT, T.COMPLETE_ABORT}


def epoch_exhausted(epoch: int) -> bool:
    return epoch >= MAX_EPOCH - 1


@dataclass(frozen=True, slots=True, kw_only=True)
class Txn:
    """One transactional id's state."""

    transactional_id: str
    producer_id: int
    prev_producer_id: int = NO_PRODUCER_ID
    next_producer_id: int = NO_PRODUCER_ID
    producer_epoch: int = NO_PRODUCER_EPOCH
    last_producer_epoch: int = NO_PRODUCER_EPOCH  # not in the log: -1 after a reload, as on Kafka
    timeout_ms: int = 60_000
    state: TxnState = T.EMPTY
    # In the order they joined (a HashSet<TopicPartition> keeps it within a bucket: java_order).
    partitions: tuple[tuple[str, int], ...] = ()
    start_ms: int = -1
    update_ms: int = -1
    client_version: int = 0  # the transaction version the client uses (EndTxn v5+: 2)

    @property
    def exhausted(self) -> bool:
        return epoch_exhausted(self.producer_epoch)

    def to(self, state: TxnState, **changes: Any) -> Txn:
        """The next state (Kafka's prepareTransitionTo); prev_producer_id keeps the id being replaced."""
        if self.state not in PREVIOUS[state]:
            raise RuntimeError(
                f"transactional id {self.transactional_id}: {self.state.label} cannot become {state.label}"
            )
        return replace(self, state=state, prev_producer_id=self.producer_id, **changes)

    def record(self, log_version: int) -> R.CoordinatorRecord:
        """The TransactionLogValue of this state (no partitions listed while Empty)."""
        partitions = None
        if self.state is not T.EMPTY:
            by_topic: dict[str, list[int]] = {}
            for topic, partition in sorted(self.partitions):
                by_topic.setdefault(topic, []).append(partition)
            schema = G.PartitionsSchemaV1 if log_version >= 1 else G.PartitionsSchema
            partitions = tuple(schema(topic=t, partition_ids=tuple(ps)) for t, ps in by_topic.items())
        common = {
            "producer_id": self.producer_id,
            "producer_epoch": self.producer_epoch,
            "transaction_timeout_ms": self.timeout_ms,
            "transaction_status": self.state.id,
            "transaction_partitions": partitions,
            "transaction_last_update_timestamp_ms": self.update_ms,
            "transaction_start_timestamp_ms": self.start_ms,
        }
        if log_version >= 1:
            value = G.TransactionLogValueV1(
                **common,
                previous_producer_id=self.prev_producer_id,
                next_producer_id=self.next_producer_id,
                client_transaction_version=self.client_version,
            )
        else:
            value = G.TransactionLogValueV0(**common)
        return R.CoordinatorRecord(
            G.TransactionLogKeyV0(transactional_id=self.transactional_id), value, log_version
        )

    @classmethod
    def from_record(cls, transactional_id: str, value: Any) -> Txn:
        state = TxnState.of(int(value.transaction_status))
        partitions: dict[tuple[str, int], None] = {}
        if state is not T.EMPTY:
            for schema in value.transaction_partitions or ():
                partitions.update(dict.fromkeys((schema.topic, int(p)) for p in schema.partition_ids))
        return cls(
            transactional_id=transactional_id,
            producer_id=int(value.producer_id),
            prev_producer_id=int(getattr(value, "previous_producer_id", NO_PRODUCER_ID)),
            next_producer_id=int(getattr(value, "next_producer_id", NO_PRODUCER_ID)),
            producer_epoch=int(value.producer_epoch),
            timeout_ms=int(value.transaction_timeout_ms),
            state=state,
            partitions=tuple(partitions),
            start_ms=int(value.transaction_start_timestamp_ms),
            update_ms=int(value.transaction_last_update_timestamp_ms),
            client_version=int(getattr(value, "client_transaction_version", 0)),
        )


def tombstone(transactional_id: str) -> R.CoordinatorRecord:
    return R.CoordinatorRecord(G.TransactionLogKeyV0(transactional_id=transactional_id))
