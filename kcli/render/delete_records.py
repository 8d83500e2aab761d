"""Output of `kcli delete-records`: kafka-delete-records.sh's lines, JSON, and the --dry-run report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kcli.ops.delete_records import HIGH_WATERMARK, DeletedRecords, PartitionRange, result_lines


def text_lines(results: list[DeletedRecords]) -> list[str]:
    """The lines after `Executing records delete operation` (printed before the deletes are sent)."""
    return result_lines(results)


def json_value(results: list[DeletedRecords]) -> dict[str, Any]:
    return {
        "partitions": [
            {
                "topic": r.partition.topic,
                "partition": r.partition.partition,
                "low_watermark": None if r.error else r.low_watermark,
                "error": r.error,
            }
            for r in sorted(results, key=lambda r: r.partition)
        ]
    }


def dry_run_lines(found: list[PartitionRange]) -> Iterator[str]:
    yield "Dry run: nothing was deleted. Each partition's log start offset, high watermark, and what would go:"
    for r in found:
        asked = "-1 (the high watermark)" if r.offset == HIGH_WATERMARK else str(r.offset)
        yield (
            f"partition: {r.partition}\tlog_start: {r.log_start}\thigh_watermark: {r.high_watermark}"
            f"\toffset: {asked}\twould_delete: {r.deleted}\tnew_low_watermark: {max(r.new_start, r.log_start)}"
        )


def dry_run_json(found: list[PartitionRange]) -> dict[str, Any]:
    return {
        "dry_run": True,
        "partitions": [
            {
                "topic": r.partition.topic,
                "partition": r.partition.partition,
                "log_start_offset": r.log_start,
                "high_watermark": r.high_watermark,
                "offset": r.offset,
                "would_delete": r.deleted,
                "new_low_watermark": max(r.new_start, r.log_start),
            }
            for r in found
        ],
    }
