"""The doctor's hanging-transaction check as a pure function of its facts (kcli.ops.doctor_transactions)."""

from __future__ import annotations

import shlex

from kcli.kafka import Severity
from kcli.ops.doctor import ClusterFacts, diagnose
from kcli.ops.doctor_transactions import StuckPartition, TransactionFacts, findings
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import OpenTransaction, ProducerState

NOW = 10_000_000
PREFIX = ("kcli", "transactions", "--bootstrap-server", "b1:9092", "--command-config", "my client.properties")


def _stuck(*, hanging: bool, transactional_id: str | None = None, state: str | None = None) -> StuckPartition:
    producer = ProducerState(
        producer_id=7,
        producer_epoch=0,
        last_sequence=0,
        last_timestamp=NOW - 20 * 60_000,
        coordinator_epoch=None,
        txn_start_offset=9,
    )
    return StuckPartition(
        partition=TopicPartition("orders", 3),
        last_stable_offset=9,
        high_watermark=42,
        transaction=OpenTransaction(partition=TopicPartition("orders", 3), producer=producer),
        hanging=hanging,
        transactional_id=transactional_id,
        coordinator_state=state,
    )


def _facts(*stuck: StuckPartition, error: str | None = None) -> TransactionFacts:
    return TransactionFacts(
        partitions=12, open_partitions=len(stuck), threshold_ms=15 * 60_000, stuck=stuck, now_ms=NOW,
        abort_prefix=PREFIX, error=error,
    )  # fmt: skip


def test_a_hanging_transaction_is_high_and_names_the_exact_abort_command() -> None:
    (finding,) = findings(_facts(_stuck(hanging=True)))
    assert finding.severity is Severity.high and finding.check == "hanging-transactions"
    assert finding.subject == "partition orders-3"
    assert "producer 7 (epoch 0), silent for 20 min (over 15 min)" in finding.message
    assert "last stable offset 9 (high watermark 42)" in finding.message
    assert finding.hint is not None
    command = finding.hint.removeprefix("abort it: ")
    assert shlex.split(command) == [
        *PREFIX, "abort", "--topic", "orders", "--partition", "3", "--start-offset", "9",
    ]  # fmt: skip


def test_a_transaction_its_coordinator_still_holds_is_medium() -> None:
    (finding,) = findings(_facts(_stuck(hanging=False, transactional_id="app-1", state="PrepareAbort")))
    assert finding.severity is Severity.medium
    assert "`app-1` (PrepareAbort)" in finding.message and "abort" not in (finding.hint or "").split(":")[0]


def test_a_scan_that_could_not_finish_is_a_notice_and_no_scan_is_nothing() -> None:
    (finding,) = findings(_facts(error="ListOffsets timed out"))
    assert finding.severity is Severity.info and "not checked: ListOffsets timed out" in finding.message
    assert list(findings(None)) == []


def test_diagnose_runs_the_check_and_fails_on_high() -> None:
    facts = ClusterFacts(
        cluster_id="c",
        bootstrap_kind="brokers",
        bootstrap=(),
        now_ms=NOW,
        transactions=_facts(_stuck(hanging=True)),
    )
    report = diagnose(facts, fail_on=Severity.high)
    assert "hanging-transactions" in report.checked
    assert report.failed and [f.check for f in report.findings] == ["hanging-transactions"]
