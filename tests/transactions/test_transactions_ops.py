"""kafka-transactions.sh's rules and tables without a cluster (kcli.ops.transactions, kcli.render.transactions).

The expected lines are what Kafka 4.4.0's TransactionsCommand printed for the same state on a real cluster.
"""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops import transactions as rules
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import (
    OpenTransaction,
    PartitionProducers,
    ProducerState,
    TransactionDescription,
    TransactionListing,
)
from kcli.render import transactions as view

TP = TopicPartition("txt", 2)


def producer(
    pid: int, *, start: int | None, last: int = 1_000, epoch: int = 0, coordinator: int | None = 0
) -> ProducerState:
    return ProducerState(
        producer_id=pid,
        producer_epoch=epoch,
        last_sequence=1,
        last_timestamp=last,
        coordinator_epoch=coordinator,
        txn_start_offset=start,
    )


def test_the_list_table_pads_every_cell_and_ends_each_with_a_tab() -> None:
    listings = [
        TransactionListing(transactional_id="tx-open", coordinator=1, producer_id=2, state="Ongoing"),
        TransactionListing(
            transactional_id="tx-aborted", coordinator=1, producer_id=1, state="CompleteAbort"
        ),
    ]
    assert view.list_lines(listings) == [
        "TransactionalId\tCoordinator\tProducerId\tTransactionState\t",
        "tx-open        \t1          \t2         \tOngoing         \t",
        "tx-aborted     \t1          \t1         \tCompleteAbort   \t",
    ]
    assert view.list_lines([]) == ["TransactionalId\tCoordinator\tProducerId\tTransactionState\t"]


def test_describe_shows_the_duration_and_none_without_a_start() -> None:
    open_ = TransactionDescription(
        coordinator_id=1,
        transactional_id="tx-open",
        producer_id=2,
        producer_epoch=0,
        state="Ongoing",
        timeout_ms=60000,
        start_time_ms=1796161307881,
        topic_partitions=(TopicPartition("txt", 2), TopicPartition("txt", 0), TopicPartition("txt", 1)),
    )
    lines = view.describe_lines((open_, 1796161307881 + 19695))
    assert lines[1] == (
        "1            \ttx-open        \t2         \t0            \tOngoing         \t60000               \t"
        "1796161307881                \t19695                \ttxt-0,txt-1,txt-2\t"
    )
    fresh = TransactionDescription(
        coordinator_id=1,
        transactional_id="nope",
        producer_id=3,
        producer_epoch=0,
        state="Empty",
        timeout_ms=30000,
        start_time_ms=None,
        topic_partitions=(),
    )
    assert view.describe_lines((fresh, 5))[1] == (
        "1            \tnope           \t3         \t0            \tEmpty           \t30000               \t"
        "None                         \tNone                 \t               \t"
    )
    assert view.describe_json((fresh, 5))["duration_ms"] is None


def test_describe_producers_prints_none_for_no_open_transaction_and_minus_one_coordinator_epoch() -> None:
    result = PartitionProducers(
        partition=TP,
        broker_id=1,
        producers=(
            producer(0, start=None, last=1796161307706),
            producer(6, start=6, last=1796162381335, coordinator=None),
        ),
    )
    assert view.producers_lines(result) == [
        "ProducerId\tProducerEpoch\tLatestCoordinatorEpoch\tLastSequence\tLastTimestamp\tCurrentTransactionStartOffset\t",
        "0         \t0            \t0                     \t1           \t1796161307706\tNone                         \t",
        "6         \t0            \t-1                    \t1           \t1796162381335\t6                            \t",
    ]


def test_abort_takes_the_start_offset_or_the_three_ids_in_kafkas_order() -> None:
    with pytest.raises(UsageError, match="must be identified either with --start-offset"):
        rules.check_abort_identified(None, None)
    rules.check_abort_identified(5, None)
    with pytest.raises(UsageError, match=r"^Missing required argument --producer-epoch$"):
        rules.abort_spec_from_ids(TP, producer_id=5, producer_epoch=None, coordinator_epoch=None)
    with pytest.raises(UsageError, match=r"^Missing required argument --coordinator-epoch$"):
        rules.abort_spec_from_ids(TP, producer_id=5, producer_epoch=0, coordinator_epoch=None)
    # a producer that hung before its first marker reports coordinator epoch -1: sent as 0
    spec = rules.abort_spec_from_ids(TP, producer_id=5, producer_epoch=0, coordinator_epoch=-1)
    assert spec.coordinator_epoch == 0
    assert str(spec) == (
        "AbortTransactionSpec(topicPartition=txt-2, producerId=5, producerEpoch=0, coordinatorEpoch=0)"
    )


def test_abort_by_start_offset_finds_the_producer_whose_transaction_starts_there() -> None:
    producers = [producer(1, start=None), producer(6, start=9, epoch=3, coordinator=None)]
    spec = rules.abort_spec_at(TP, 9, producers)
    assert (spec.producer_id, spec.producer_epoch, spec.coordinator_epoch) == (6, 3, 0)
    with pytest.raises(KcliError) as missing:
        rules.abort_spec_at(TP, 99, producers)
    assert (
        missing.value.message
        == "Could not find any open transactions starting at offset 99 on partition txt-2"
    )
    assert not isinstance(missing.value, UsageError)  # the cluster was asked: exit 1


def test_find_hanging_needs_a_scope() -> None:
    with pytest.raises(UsageError, match="requires either --topic or --broker-id"):
        rules.check_find_hanging_scope(None, None, None)
    with pytest.raises(UsageError, match="requires either --topic or --broker-id"):
        rules.check_find_hanging_scope(None, None, 0)  # Kafka checks the scope first
    with pytest.raises(UsageError, match=r"^The --partition argument requires --topic to be provided$"):
        rules.check_find_hanging_scope(1, None, 0)
    rules.check_find_hanging_scope(1, None, None)
    rules.check_find_hanging_scope(None, "t", 0)


def test_a_transaction_hangs_when_no_coordinator_will_close_it_on_that_partition() -> None:
    now = 100 * 60_000
    described = [
        PartitionProducers(
            partition=TopicPartition("t", 0), broker_id=1, producers=(producer(7, start=3, last=0),)
        ),
        PartitionProducers(
            partition=TopicPartition("t", 1), broker_id=1, producers=(producer(8, start=4, last=0),)
        ),
        PartitionProducers(
            partition=TopicPartition("t", 2), broker_id=1, producers=(producer(9, start=5, last=0),)
        ),
        # recent: not a candidate; closed: no start offset
        PartitionProducers(
            partition=TopicPartition("t", 3), broker_id=1, producers=(producer(10, start=5, last=now),)
        ),
        PartitionProducers(
            partition=TopicPartition("t", 4), broker_id=1, producers=(producer(11, start=None, last=0),)
        ),
    ]
    found = rules.candidates(described, now_ms=now, max_timeout_ms=15 * 60_000)
    assert [t.producer.producer_id for t in found] == [7, 8, 9]
    grouped = rules.by_producer(found)
    ongoing = TransactionDescription(
        coordinator_id=1,
        transactional_id="b",
        producer_id=8,
        producer_epoch=0,
        state="Ongoing",
        timeout_ms=60000,
        start_time_ms=0,
        topic_partitions=(TopicPartition("t", 1),),
    )
    moved_on = TransactionDescription(
        coordinator_id=1,
        transactional_id="c",
        producer_id=9,
        producer_epoch=1,
        state="CompleteCommit",
        timeout_ms=60000,
        start_time_ms=0,
        topic_partitions=(),
    )
    result = rules.hanging(grouped, {8: "b", 9: "c"}, {"b": ongoing, "c": moved_on})
    # 7: no transactional id; 8: its coordinator still holds t-1; 9: the coordinator moved on
    assert [t.producer.producer_id for t in result] == [7, 9]
    assert [t.producer.producer_id for t in rules.hanging(grouped, {8: "b"}, {"b": None})] == [7, 8, 9]


def test_the_hanging_table_shows_whole_minutes_as_java_truncates_them() -> None:
    last = 1796162381335
    report = rules.HangingReport(
        hanging=(OpenTransaction(partition=TP, producer=producer(6, start=6, last=last, coordinator=None)),),
        now_ms=last + 119_999,
    )
    assert view.hanging_lines(report) == [
        "Topic\tPartition\tProducerId\tProducerEpoch\tCoordinatorEpoch\tStartOffset\tLastTimestamp\tDuration(min)\t",
        "txt  \t2        \t6         \t0            \t-1              \t6          \t1796162381335\t1            \t",
    ]
    assert rules.duration_minutes(0, 119_999) == -1  # a clock behind the broker's: towards zero
    shown = view.hanging_json(report, lambda t: f"abort {t.partition}")["hanging"][0]
    assert shown["abort_command"] == "abort txt-2" and shown["coordinator_epoch"] is None
