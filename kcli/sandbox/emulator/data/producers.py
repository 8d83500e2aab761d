"""Producer state of one partition replica: idempotent sequences and open transactions.

Behavior (as Kafka's ProducerStateManager and ProducerAppendInfo, for what clients rely on):
- Each producer id keeps its epoch, the metadata of its last 5 batches (first and last sequence,
  last offset), its last timestamp, its coordinator epoch and the first offset of its open
  transaction.
- A client's batch whose epoch and sequence range match one of the last 5 is a duplicate: it is
  not appended again, and the append answers with the offsets it had (an idempotent retry).
- A client's batch with an older epoch is INVALID_PRODUCER_EPOCH; with a newer epoch it must start
  at sequence 0 unless the producer had no epoch (OUT_OF_ORDER_SEQUENCE_NUMBER); with the same
  epoch its first sequence must follow the last one (wrapping at 2^31 - 1). A producer without
  state on the partition may start at any sequence (KIP-360).
- A transactional batch opens a transaction at its first offset; a non-transactional batch while
  one is open is INVALID_TXN_STATE. An end-transaction marker closes it (a stale epoch is
  INVALID_PRODUCER_EPOCH; TV2 markers need a newer epoch; an older coordinator epoch is
  TRANSACTION_COORDINATOR_FENCED) and, for an abort, yields the aborted transaction.
- Followers and reopening replay batches without checks (AppendOrigin REPLICATION).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.interface import LogError, ProducerState
from kcli.sandbox.emulator.data.records import NO_SEQUENCE, BatchHeader

BATCHES_TO_RETAIN = 5  # ProducerStateEntry.NUM_BATCHES_TO_RETAIN
NO_EPOCH = -1
MAX_SEQUENCE = 2**31 - 1


@dataclass(frozen=True, slots=True)
class BatchMetadata:
    """What a producer's recent batch was given: its sequences and offsets."""

    first_sequence: int
    last_sequence: int
    first_offset: int
    last_offset: int
    timestamp: int  # the batch's max timestamp (an idempotent retry answers it as the append time)


@dataclass(slots=True)
class ProducerEntry:
    """One producer's state on the partition."""

    producer_id: int
    epoch: int = NO_EPOCH
    batches: deque[BatchMetadata] = field(default_factory=lambda: deque(maxlen=BATCHES_TO_RETAIN))
    last_timestamp: int = -1
    coordinator_epoch: int = -1
    txn_first_offset: int = -1  # -1: no open transaction

    @property
    def last_sequence(self) -> int:
        return self.batches[-1].last_sequence if self.batches else NO_SEQUENCE

    def duplicate_of(self, header: BatchHeader) -> BatchMetadata | None:
        if header.producer_epoch != self.epoch:
            return None
        for batch in self.batches:
            if batch.first_sequence == header.base_sequence and batch.last_sequence == header.last_sequence:
                return batch
        return None

    def _set_epoch(self, epoch: int) -> None:
        if epoch != self.epoch:
            self.batches.clear()
            self.epoch = epoch


@dataclass(frozen=True, slots=True)
class CompletedTxn:
    """A transaction an end marker closed."""

    producer_id: int
    first_offset: int
    last_offset: int  # the marker's offset
    aborted: bool


def _in_sequence(last: int, first: int) -> bool:
    return first == last + 1 or (first == 0 and last == MAX_SEQUENCE)


class ProducerStates:
    """Every producer's state on one replica."""

    def __init__(self) -> None:
        self.entries: dict[int, ProducerEntry] = {}

    def open_transactions(self) -> list[tuple[int, int]]:
        """(first offset, producer id) of every open transaction, oldest first."""
        return sorted(
            (e.txn_first_offset, e.producer_id) for e in self.entries.values() if e.txn_first_offset >= 0
        )

    def has_open_transaction(self, producer_id: int, epoch: int) -> bool:
        entry = self.entries.get(producer_id)
        return entry is not None and entry.txn_first_offset >= 0 and entry.epoch == epoch

    def duplicate(self, header: BatchHeader) -> BatchMetadata | None:
        """The earlier batch a client's batch repeats (an idempotent retry), if any."""
        entry = self.entries.get(header.producer_id)
        return entry.duplicate_of(header) if entry is not None else None

    def check_data(self, header: BatchHeader, *, sequences: bool) -> None:
        """LogError when a client's (or, without `sequences`, a coordinator's) batch may not be appended."""
        entry = self.entries.get(header.producer_id) or ProducerEntry(header.producer_id)
        epoch = header.producer_epoch
        if epoch < entry.epoch:
            raise LogError(
                ErrorCode.invalid_producer_epoch,
                f"Epoch of producer {header.producer_id} at offset {header.base_offset} is {epoch}, "
                f"which is smaller than the last seen epoch {entry.epoch}",
            )
        if sequences:
            first = header.base_sequence
            if epoch != entry.epoch:
                if first != 0 and entry.epoch != NO_EPOCH:
                    raise LogError(
                        ErrorCode.out_of_order_sequence_number,
                        f"Invalid sequence number for new epoch of producer {header.producer_id}: {epoch} "
                        f"(request epoch), {first} (seq. number), {entry.epoch} (current producer epoch)",
                    )
            elif entry.batches and not _in_sequence(entry.last_sequence, first):
                raise LogError(
                    ErrorCode.out_of_order_sequence_number,
                    f"Out of order sequence number for producer {header.producer_id}: {first} "
                    f"(incoming seq. number), {entry.last_sequence} (current end sequence number)",
                )
        if entry.txn_first_offset >= 0 and not header.is_transactional and epoch == entry.epoch:
            raise LogError(
                ErrorCode.invalid_txn_state,
                f"Expected transactional write from producer {header.producer_id}",
            )

    def check_marker(
        self, producer_id: int, epoch: int, coordinator_epoch: int, transaction_version: int
    ) -> None:
        """LogError when an end-transaction marker may not be written."""
        entry = self.entries.get(producer_id) or ProducerEntry(producer_id)
        stale = epoch <= entry.epoch if transaction_version >= 2 else epoch < entry.epoch
        retry = transaction_version >= 2 and epoch == entry.epoch and entry.txn_first_offset < 0
        if stale and not retry:
            raise LogError(
                ErrorCode.invalid_producer_epoch,
                f"Epoch of producer {producer_id} is {epoch}, which is "
                f"{'<=' if transaction_version >= 2 else '<'} the last seen epoch {entry.epoch} (TV{transaction_version})",
            )
        if entry.coordinator_epoch > coordinator_epoch:
            raise LogError(
                ErrorCode.transaction_coordinator_fenced,
                f"Invalid coordinator epoch for producerId {producer_id}: {coordinator_epoch} (zombie), "
                f"{entry.coordinator_epoch} (current)",
            )

    def applied(self, header: BatchHeader, marker: tuple[int, int] | None) -> CompletedTxn | None:
        """Take in one appended batch (its offsets assigned); a marker batch gives its (type, coordinator
        epoch) and may complete a transaction."""
        if header.producer_id < 0:
            return None
        entry = self.entries.get(header.producer_id)
        if entry is None:
            entry = self.entries[header.producer_id] = ProducerEntry(header.producer_id)
        if header.is_control:
            if marker is None:
                return None
            completed = None
            if entry.txn_first_offset >= 0:
                completed = CompletedTxn(
                    header.producer_id, entry.txn_first_offset, header.base_offset, marker[0] == 0
                )
            entry._set_epoch(header.producer_epoch)
            entry.coordinator_epoch = marker[1]
            entry.txn_first_offset = -1
            entry.last_timestamp = header.max_timestamp
            return completed
        entry._set_epoch(header.producer_epoch)
        if header.base_sequence != NO_SEQUENCE:
            first_sequence = header.base_sequence
            entry.batches.append(
                BatchMetadata(
                    first_sequence,
                    header.last_sequence,
                    header.base_offset,
                    header.last_offset,
                    header.max_timestamp,
                )
            )
        entry.last_timestamp = header.max_timestamp
        if header.is_transactional and entry.txn_first_offset < 0:
            entry.txn_first_offset = header.base_offset
        return None

    def truncated(self) -> None:
        """The log was cut: state is rebuilt by replaying what is left (the caller does)."""
        self.entries.clear()

    def snapshot(self) -> tuple[ProducerState, ...]:
        return tuple(
            ProducerState(
                producer_id=e.producer_id,
                producer_epoch=e.epoch,
                last_sequence=e.last_sequence,
                last_timestamp_ms=e.last_timestamp,
                coordinator_epoch=e.coordinator_epoch,
                current_txn_start_offset=e.txn_first_offset,
            )
            for _, e in sorted(self.entries.items())
        )
