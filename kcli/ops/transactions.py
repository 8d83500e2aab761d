"""`kcli transactions`: the transaction models and kafka-transactions.sh's rules, without the network.

Behavior (TransactionsCommand of Kafka 4.4, 4.0 where it differs):
- `abort` takes a transaction by its start offset (the producer is then looked up with
  DescribeProducers), or by --producer-id with --producer-epoch and --coordinator-epoch (brokers
  before 3.0); a coordinator epoch below 0 (a producer that hung before its first marker) is sent as 0;
- `find-hanging` needs --topic or --broker-id, and --partition only with --topic; an open transaction
  is a candidate when its producer last wrote longer ago than --max-transaction-timeout minutes, and
  it hangs when no coordinator knows its producer id, the coordinator no longer knows the
  transactional id, or the coordinator's transaction does not hold that partition;
- `list` shows every coordinator's transactions; --duration-filter needs ListTransactions v1 (3.8),
  --transactional-id-pattern v2 (4.1; an option of the 4.1+ tool).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from kcli.errors import KcliError, UsageError
from kcli.ops.reassign.model import TopicPartition

DEFAULT_MAX_TRANSACTION_TIMEOUT_MIN = 15  # find-hanging's default, Kafka's transaction.max.timeout.ms
BATCH = 500  # find-hanging asks about at most this many topics or partitions per request


@dataclass(frozen=True, slots=True, kw_only=True)
class TransactionListing:
    """One transaction as ListTransactions lists it, with the broker (its coordinator) that listed it."""

    transactional_id: str
    coordinator: int
    producer_id: int
    state: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TransactionDescription:
    """DescribeTransactions' answer for one transactional id (start time None: no transaction started)."""

    coordinator_id: int
    transactional_id: str
    producer_id: int
    producer_epoch: int
    state: str
    timeout_ms: int
    start_time_ms: int | None
    topic_partitions: tuple[TopicPartition, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ProducerState:
    """An active producer of a partition (DescribeProducers): None where Kafka sends -1."""

    producer_id: int
    producer_epoch: int
    last_sequence: int
    last_timestamp: int
    coordinator_epoch: int | None
    txn_start_offset: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionProducers:
    """The active producers of one partition, as the broker that was asked knows them."""

    partition: TopicPartition
    broker_id: int
    producers: tuple[ProducerState, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class OpenTransaction:
    """A transaction a partition's log holds open: the partition and its producer's state."""

    partition: TopicPartition
    producer: ProducerState


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortSpec:
    """What WriteTxnMarkers needs to abort one partition's open transaction (AbortTransactionSpec)."""

    partition: TopicPartition
    producer_id: int
    producer_epoch: int
    coordinator_epoch: int

    def __str__(self) -> str:  # AbortTransactionSpec.toString: Kafka's errors name it so
        return (
            f"AbortTransactionSpec(topicPartition={self.partition}, producerId={self.producer_id}, "
            f"producerEpoch={self.producer_epoch}, coordinatorEpoch={self.coordinator_epoch})"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class HangingReport:
    """find-hanging's answer: the hanging transactions, and the time they were judged at."""

    hanging: tuple[OpenTransaction, ...]
    now_ms: int


# ------------------------------------------------------------------------------------ arguments


def abort_spec_from_ids(
    partition: TopicPartition,
    *,
    producer_id: int,
    producer_epoch: int | None,
    coordinator_epoch: int | None,
) -> AbortSpec:
    """The spec of `abort --producer-id ...` (brokers before 3.0), checked in Kafka's order."""
    if producer_epoch is None:
        raise UsageError("Missing required argument --producer-epoch")
    if coordinator_epoch is None:
        raise UsageError("Missing required argument --coordinator-epoch")
    # A producer that hung before its first marker has coordinator epoch -1 in DescribeProducers:
    # 0 is at most any leader epoch, as Kafka's tool reasons.
    return AbortSpec(
        partition=partition,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        coordinator_epoch=max(coordinator_epoch, 0),
    )


def check_abort_identified(start_offset: int | None, producer_id: int | None) -> None:
    if start_offset is None and producer_id is None:
        raise UsageError(
            "The transaction to abort must be identified either with --start-offset (for brokers on 3.0 "
            "or above) or with --producer-id, --producer-epoch, and --coordinator-epoch (for older brokers)"
        )


def abort_spec_at(
    partition: TopicPartition, start_offset: int, producers: Sequence[ProducerState]
) -> AbortSpec:
    """The spec of the producer whose open transaction starts at `start_offset` (`abort --start-offset`)."""
    found = next((p for p in producers if p.txn_start_offset == start_offset), None)
    if found is None:
        raise NoOpenTransaction(
            f"Could not find any open transactions starting at offset {start_offset} on partition {partition}"
        )
    return AbortSpec(
        partition=partition,
        producer_id=found.producer_id,
        producer_epoch=found.producer_epoch,
        coordinator_epoch=found.coordinator_epoch if found.coordinator_epoch is not None else 0,
    )


class NoOpenTransaction(KcliError):
    """`abort --start-offset N`: no producer of the partition has a transaction starting at N."""


def check_find_hanging_scope(broker_id: int | None, topic: str | None, partition: int | None) -> None:
    if topic is None and broker_id is None:
        raise UsageError(
            "The `find-hanging` command requires either --topic or --broker-id to limit the scope of the search"
        )
    if partition is not None and topic is None:
        raise UsageError("The --partition argument requires --topic to be provided")


# ------------------------------------------------------------------------------------ find-hanging


def candidates(
    described: Iterable[PartitionProducers], *, now_ms: int, max_timeout_ms: int
) -> list[OpenTransaction]:
    """Open transactions whose producer last wrote more than `max_timeout_ms` ago."""
    return [
        OpenTransaction(partition=partition.partition, producer=producer)
        for partition in described
        for producer in partition.producers
        if producer.txn_start_offset is not None and now_ms - producer.last_timestamp > max_timeout_ms
    ]


def by_producer(open_transactions: Iterable[OpenTransaction]) -> dict[int, list[OpenTransaction]]:
    grouped: dict[int, list[OpenTransaction]] = {}
    for transaction in open_transactions:
        grouped.setdefault(transaction.producer.producer_id, []).append(transaction)
    return grouped


def hanging(
    open_by_producer: Mapping[int, Sequence[OpenTransaction]],
    transactional_ids: Mapping[int, str],
    descriptions: Mapping[str, TransactionDescription | None],
) -> list[OpenTransaction]:
    """The candidates no coordinator will close (filterHangingTransactions).

    A coordinator still writes the markers of a partition its transaction lists (ongoing, or pending
    markers in PrepareAbort/PrepareCommit); anything else is hanging.
    """
    found: list[OpenTransaction] = []
    for producer_id, transactions in open_by_producer.items():
        transactional_id = transactional_ids.get(producer_id)
        description = descriptions.get(transactional_id) if transactional_id is not None else None
        if description is None:
            found.extend(transactions)
            continue
        found.extend(t for t in transactions if t.partition not in description.topic_partitions)
    return found


def duration_minutes(now_ms: int, last_timestamp: int) -> int:
    """Whole minutes since the producer's last write, as Java's TimeUnit.toMinutes truncates them."""
    elapsed = now_ms - last_timestamp
    minutes = abs(elapsed) // 60_000  # truncated towards zero, like Java's long division
    return minutes if elapsed >= 0 else -minutes
