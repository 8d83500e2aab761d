"""The data plane's log interface: what the group and transaction coordinators build on.

`PartitionLogs` is the whole contract. It names partitions by topic name and index, reads and writes
RecordBatch v2 bytes (kcli.sandbox.emulator.data.records builds and reads them), and raises
`LogError` carrying the Kafka error code a broker answers with. Offsets are Kafka's: the log start,
the log end (the next offset to be written), the high watermark (what the in-sync replicas all hold:
what a consumer may read) and the last stable offset (read_committed consumers stop there: the first
offset of the oldest open transaction, else the high watermark).

Every method reads or writes the partition's leader replica; `node`, when given, is the broker the
request reached, and a broker that does not lead the partition is NOT_LEADER_OR_FOLLOWER.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Protocol


class Isolation(enum.IntEnum):
    """A fetch's or a ListOffsets' isolation level (their IsolationLevel field)."""

    READ_UNCOMMITTED = 0
    READ_COMMITTED = 1


class Marker(enum.IntEnum):
    """What an end-transaction control record says (its ControlRecordType)."""

    ABORT = 0
    COMMIT = 1


class Origin(enum.Enum):
    """Who appends (Kafka's AppendOrigin), which says how much is checked."""

    CLIENT = "client"  # a producer: sequence numbers, epochs, the batch as the client framed it
    COORDINATOR = "coordinator"  # a group or transaction coordinator's own writes: epochs only


class LogError(Exception):
    """A write or read the partition refuses, with the Kafka error code a broker answers."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True, kw_only=True)
class LogOffsets:
    """Where a partition's leader replica stands."""

    log_start_offset: int
    local_log_start_offset: int  # KIP-1005 earliest-local (the log start: no tiered storage here)
    log_end_offset: int
    high_watermark: int
    last_stable_offset: int


@dataclass(frozen=True, slots=True, kw_only=True)
class AppendResult:
    """A completed append: the offsets the leader gave the batches."""

    base_offset: int
    last_offset: int
    log_append_time_ms: int  # -1 unless the topic's message.timestamp.type is LogAppendTime
    log_start_offset: int
    duplicate: bool = False  # an idempotent retry of a batch already in the log: its first offsets


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortedTransaction:
    """One aborted transaction overlapping a read (a FetchResponse's AbortedTransactions entry)."""

    producer_id: int
    first_offset: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ReadResult:
    """Whole batches from the one holding the asked offset, and where the partition stands."""

    records: bytes
    offsets: LogOffsets
    aborted: tuple[AbortedTransaction, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class TimestampOffset:
    """An offset found by time (ListOffsets): the record's offset, timestamp and leader epoch."""

    offset: int
    timestamp_ms: int
    leader_epoch: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ProducerState:
    """A producer's state on one partition (DescribeProducers)."""

    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp_ms: int
    coordinator_epoch: int
    current_txn_start_offset: int  # -1 when no transaction is open


class PartitionLogs(Protocol):
    """The partition logs of one emulated cluster, as the coordinators use them."""

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
        """Append whole RecordBatch v2 batches; the leader assigns their offsets.

        acks -1 returns once every in-sync replica holds them (the high watermark passed them),
        1 once the leader wrote them; fewer in-sync replicas than min.insync.replicas with acks -1
        is NOT_ENOUGH_REPLICAS, and a wait past `timeout_ms` REQUEST_TIMED_OUT.
        """
        ...

    def read(
        self,
        topic: str,
        partition: int,
        offset: int,
        max_bytes: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
    ) -> ReadResult:
        """Whole batches from `offset` up to the high watermark (read_committed: the last stable
        offset), at most `max_bytes` unless the first batch alone is larger (Kafka returns it whole).
        An offset outside [log start, end] is OFFSET_OUT_OF_RANGE."""
        ...

    def offsets(self, topic: str, partition: int, *, node: int | None = None) -> LogOffsets:
        """Log start, end, high watermark and last stable offset of the partition."""
        ...

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
        """End `producer_id`'s transaction on the partition with a COMMIT or ABORT control batch
        (WriteTxnMarkers); returns the marker's offset once it is replicated. A marker with a
        stale epoch is INVALID_PRODUCER_EPOCH, one from an older coordinator epoch
        TRANSACTION_COORDINATOR_FENCED."""
        ...

    def offset_for_timestamp(
        self,
        topic: str,
        partition: int,
        timestamp_ms: int,
        isolation: Isolation = Isolation.READ_UNCOMMITTED,
        *,
        node: int | None = None,
    ) -> TimestampOffset | None:
        """The first record whose timestamp is at or after `timestamp_ms` (None when there is none).
        ListOffsets' special timestamps are offsets(), not this."""
        ...

    def producers(self, topic: str, partition: int, *, node: int | None = None) -> tuple[ProducerState, ...]:
        """The producers with state on the partition, by producer id."""
        ...


class TransactionGate(Protocol):
    """What a broker asks the transaction coordinator before it appends a transactional batch
    (KIP-890's verification): 0 when `producer_id` at `producer_epoch` has the partition in its
    open transaction (`add`: add it, as transaction.version 2 lets the broker do), else the error
    code to answer the produce with (INVALID_TXN_STATE, INVALID_PRODUCER_EPOCH, ...)."""

    async def verify(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        topic: str,
        partition: int,
        *,
        add: bool,
    ) -> int: ...
