"""Output of `kcli transactions`: kafka-transactions.sh's tables (ToolsUtils.prettyPrintTable), JSON, rich tables.

Kafka's table: every cell padded to its column's width (the longest of header and values) and
followed by a tab, the header row first. A transaction's partitions are listed sorted (Kafka's come
in a Java HashSet's order); -1 values Kafka shows for absent ones stay -1 or None as Kafka prints them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops.transactions import duration_minutes

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.ops.reassign.model import TopicPartition
    from kcli.ops.transactions import (
        AbortSpec,
        HangingReport,
        OpenTransaction,
        PartitionProducers,
        ProducerState,
        TransactionDescription,
        TransactionListing,
    )

LIST_HEADERS = ("TransactionalId", "Coordinator", "ProducerId", "TransactionState")
DESCRIBE_HEADERS = (
    "CoordinatorId",
    "TransactionalId",
    "ProducerId",
    "ProducerEpoch",
    "TransactionState",
    "TransactionTimeoutMs",
    "CurrentTransactionStartTimeMs",
    "TransactionDurationMs",
    "TopicPartitions",
)
PRODUCER_HEADERS = (
    "ProducerId",
    "ProducerEpoch",
    "LatestCoordinatorEpoch",
    "LastSequence",
    "LastTimestamp",
    "CurrentTransactionStartOffset",
)
HANGING_HEADERS = (
    "Topic",
    "Partition",
    "ProducerId",
    "ProducerEpoch",
    "CoordinatorEpoch",
    "StartOffset",
    "LastTimestamp",
    "Duration(min)",
)


def pretty_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """ToolsUtils.prettyPrintTable: cells padded to the column width, each followed by a tab."""
    widths = [max([len(h), *(len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    return [
        "".join(f"{cell:<{width}}\t" for cell, width in zip(row, widths, strict=True))
        for row in (headers, *rows)
    ]


def _partitions(partitions: Sequence[TopicPartition]) -> list[TopicPartition]:
    return sorted(partitions, key=lambda tp: (tp.topic, tp.partition))


# ---- list


def list_lines(listings: Sequence[TransactionListing]) -> list[str]:
    rows = [(t.transactional_id, str(t.coordinator), str(t.producer_id), t.state) for t in listings]
    return pretty_table(LIST_HEADERS, rows)


def list_json(listings: Sequence[TransactionListing]) -> dict[str, Any]:
    return {
        "transactions": [
            {
                "transactional_id": t.transactional_id,
                "coordinator": t.coordinator,
                "producer_id": t.producer_id,
                "state": t.state,
            }
            for t in listings
        ]
    }


def list_table(listings: Sequence[TransactionListing]) -> RenderableType:
    return _rich(
        LIST_HEADERS,
        [(t.transactional_id, str(t.coordinator), str(t.producer_id), t.state) for t in listings],
    )


# ---- describe


def _describe_row(description: TransactionDescription, now_ms: int) -> tuple[str, ...]:
    start = description.start_time_ms
    return (
        str(description.coordinator_id),
        description.transactional_id,
        str(description.producer_id),
        str(description.producer_epoch),
        description.state,
        str(description.timeout_ms),
        "None" if start is None else str(start),
        "None" if start is None else str(now_ms - start),
        ",".join(str(tp) for tp in _partitions(description.topic_partitions)),
    )


def describe_lines(result: tuple[TransactionDescription, int]) -> list[str]:
    return pretty_table(DESCRIBE_HEADERS, [_describe_row(*result)])


def describe_json(result: tuple[TransactionDescription, int]) -> dict[str, Any]:
    description, now_ms = result
    start = description.start_time_ms
    return {
        "coordinator_id": description.coordinator_id,
        "transactional_id": description.transactional_id,
        "producer_id": description.producer_id,
        "producer_epoch": description.producer_epoch,
        "state": description.state,
        "timeout_ms": description.timeout_ms,
        "start_time_ms": start,
        "duration_ms": None if start is None else now_ms - start,
        "topic_partitions": [
            {"topic": tp.topic, "partition": tp.partition} for tp in _partitions(description.topic_partitions)
        ],
    }


def describe_table(result: tuple[TransactionDescription, int]) -> RenderableType:
    return _rich(DESCRIBE_HEADERS, [_describe_row(*result)])


# ---- describe-producers


def _producer_row(p: ProducerState) -> tuple[str, ...]:
    return (
        str(p.producer_id),
        str(p.producer_epoch),
        str(p.coordinator_epoch if p.coordinator_epoch is not None else -1),
        str(p.last_sequence),
        str(p.last_timestamp),
        "None" if p.txn_start_offset is None else str(p.txn_start_offset),
    )


def producers_lines(result: PartitionProducers) -> list[str]:
    return pretty_table(PRODUCER_HEADERS, [_producer_row(p) for p in result.producers])


def producers_json(result: PartitionProducers) -> dict[str, Any]:
    return {
        "topic": result.partition.topic,
        "partition": result.partition.partition,
        "broker_id": result.broker_id,
        "producers": [
            {
                "producer_id": p.producer_id,
                "producer_epoch": p.producer_epoch,
                "coordinator_epoch": p.coordinator_epoch,
                "last_sequence": p.last_sequence,
                "last_timestamp": p.last_timestamp,
                "current_transaction_start_offset": p.txn_start_offset,
            }
            for p in result.producers
        ],
    }


def producers_table(result: PartitionProducers) -> RenderableType:
    return _rich(PRODUCER_HEADERS, [_producer_row(p) for p in result.producers])


# ---- find-hanging


def _hanging_row(t: OpenTransaction, now_ms: int) -> tuple[str, ...]:
    p = t.producer
    return (
        t.partition.topic,
        str(t.partition.partition),
        str(p.producer_id),
        str(p.producer_epoch),
        str(p.coordinator_epoch if p.coordinator_epoch is not None else -1),
        str(p.txn_start_offset if p.txn_start_offset is not None else -1),
        str(p.last_timestamp),
        str(duration_minutes(now_ms, p.last_timestamp)),
    )


def hanging_lines(report: HangingReport) -> list[str]:
    return pretty_table(HANGING_HEADERS, [_hanging_row(t, report.now_ms) for t in report.hanging])


def hanging_json(report: HangingReport, abort_command: Any) -> dict[str, Any]:
    """`abort_command(transaction)` is the kcli command line that aborts it."""
    return {
        "hanging": [
            {
                "topic": t.partition.topic,
                "partition": t.partition.partition,
                "producer_id": t.producer.producer_id,
                "producer_epoch": t.producer.producer_epoch,
                "coordinator_epoch": t.producer.coordinator_epoch,
                "start_offset": t.producer.txn_start_offset,
                "last_timestamp": t.producer.last_timestamp,
                "duration_minutes": duration_minutes(report.now_ms, t.producer.last_timestamp),
                "abort_command": abort_command(t),
            }
            for t in report.hanging
        ]
    }


def hanging_table(report: HangingReport) -> RenderableType:
    return _rich(HANGING_HEADERS, [_hanging_row(t, report.now_ms) for t in report.hanging])


# ---- abort, forceTerminateTransaction


def aborted_line(spec: AbortSpec) -> str:
    return (
        f"Aborted the open transaction of producer {spec.producer_id} (epoch {spec.producer_epoch}, "
        f"coordinator epoch {spec.coordinator_epoch}) on {spec.partition}."
    )


def abort_json(spec: AbortSpec) -> dict[str, Any]:
    return {
        "topic": spec.partition.topic,
        "partition": spec.partition.partition,
        "producer_id": spec.producer_id,
        "producer_epoch": spec.producer_epoch,
        "coordinator_epoch": spec.coordinator_epoch,
        "aborted": True,
    }


def terminated_line(transactional_id: str, fenced: tuple[int, int]) -> str:
    return (
        f"Terminated the transaction of transactional id `{transactional_id}`: its producer is fenced "
        f"(producer id {fenced[0]}, epoch now {fenced[1]})."
    )


def terminate_json(transactional_id: str, fenced: tuple[int, int]) -> dict[str, Any]:
    return {"transactional_id": transactional_id, "producer_id": fenced[0], "producer_epoch": fenced[1]}


def _rich(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> RenderableType:
    from rich.table import Table

    table = Table()
    for header in headers:
        table.add_column(header)
    for row in rows:
        table.add_row(*row)
    return table
