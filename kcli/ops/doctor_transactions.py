"""The doctor's transaction check: partitions whose last stable offset is stuck behind an open transaction.

A partition's last stable offset (LSO) is where read_committed consumers stop: the first offset of
its oldest open transaction. An open transaction older than the brokers' transaction.max.timeout.ms
should have been aborted by its coordinator long ago. When no coordinator knows it any more (its
producer id is unknown, or the coordinator's transaction does not hold that partition: what
kafka-transactions.sh find-hanging calls hanging) nothing will ever close it: consumers in
read_committed stay stuck, and the log cannot be compacted or deleted past it. The finding names
the exact `kcli transactions ... abort` command that writes the abort marker.

Facts come from kcli.workflows.doctor_transactions; nothing here touches the network.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable
from dataclasses import dataclass

from kcli.kafka import Severity
from kcli.ops.doctor_finding import Finding
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import OpenTransaction, duration_minutes

CHECK = "hanging-transactions"


@dataclass(frozen=True, slots=True, kw_only=True)
class StuckPartition:
    """A partition held back by an open transaction older than the threshold.

    coordinator_state is the state its coordinator reports for the transaction's id; None when no
    coordinator knows the producer (hanging).
    """

    partition: TopicPartition
    last_stable_offset: int
    high_watermark: int
    transaction: OpenTransaction
    hanging: bool
    transactional_id: str | None = None
    coordinator_state: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class TransactionFacts:
    """What the transaction scan found (error: why it could not finish)."""

    partitions: int  # partitions whose offsets were read
    open_partitions: int  # of those, partitions with an open transaction (LSO below the high watermark)
    threshold_ms: (
        int  # how long a producer may be silent (--max-transaction-timeout, else transaction.max.timeout.ms)
    )
    stuck: tuple[StuckPartition, ...] = ()
    now_ms: int = 0
    abort_prefix: tuple[str, ...] = ("kcli", "transactions")  # argv before `abort`
    error: str | None = None


def abort_command(facts: TransactionFacts, stuck: StuckPartition) -> str:
    tp = stuck.partition
    start = stuck.transaction.producer.txn_start_offset
    argv = [*facts.abort_prefix, "abort", "--topic", tp.topic, "--partition", str(tp.partition)]
    return shlex.join([*argv, "--start-offset", str(start)])


def findings(facts: TransactionFacts | None) -> Iterable[Finding]:
    if facts is None:
        return
    if facts.error is not None:
        yield Finding(
            check=CHECK,
            severity=Severity.info,
            subject="transactions",
            message=f"open transactions not checked: {facts.error}",
        )
        return
    for stuck in facts.stuck:
        producer = stuck.transaction.producer
        age = duration_minutes(facts.now_ms, producer.last_timestamp)
        held = (
            f"offset {producer.txn_start_offset} held open by producer {producer.producer_id} "
            f"(epoch {producer.producer_epoch}), silent for {age} min (over {facts.threshold_ms // 60_000} min)"
        )
        lag = f"read_committed consumers stop at the last stable offset {stuck.last_stable_offset} " + (
            f"(high watermark {stuck.high_watermark})"
        )
        if stuck.hanging:
            owner = (
                f"its coordinator no longer lists this partition in `{stuck.transactional_id}` "
                f"({stuck.coordinator_state})"
                if stuck.transactional_id
                else "no coordinator knows the producer"
            )
            yield Finding(
                check=CHECK,
                severity=Severity.high,
                subject=f"partition {stuck.partition}",
                message=f"hanging transaction: {held}; {owner}, so nothing will close it: {lag}",
                hint=f"abort it: {abort_command(facts, stuck)}",
            )
        else:
            yield Finding(
                check=CHECK,
                severity=Severity.medium,
                subject=f"partition {stuck.partition}",
                message=f"long open transaction: {held}; its coordinator still holds "
                f"`{stuck.transactional_id}` ({stuck.coordinator_state}): {lag}",
                hint="the coordinator should write its markers; check the partition's leader and the "
                f"coordinator (kcli transactions describe --transactional-id {stuck.transactional_id})",
            )
