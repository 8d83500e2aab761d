"""Output of `kcli get-offsets`: kafka-get-offsets.sh's `topic:partition:offset` lines, JSON, a table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.ops.get_offsets import offset_lines

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.workflows.get_offsets import PartitionOffsets


def lines(result: PartitionOffsets) -> list[str]:
    return offset_lines(result.offsets)


def skipped_lines(result: PartitionOffsets) -> list[str]:
    """What GetOffsetShell prints on stderr for a partition it skips."""
    from kcli.render.consumer_groups import exception_line

    return [
        f"Skip getting offsets for topic-partition {tp} due to error: {exception_line(error)}"
        for tp, error in result.skipped
    ]


def as_json(result: PartitionOffsets) -> dict[str, Any]:
    ordered = sorted(result.offsets, key=str)
    return {
        "time": result.timestamp,
        "offsets": [
            {
                "topic": tp.topic,
                "partition": tp.partition,
                "offset": result.offsets[tp],
                "timestamp": None if result.timestamps.get(tp, -1) < 0 else result.timestamps[tp],
            }
            for tp in ordered
        ],
        "skipped": [
            {"topic": tp.topic, "partition": tp.partition, "error": e.line()} for tp, e in result.skipped
        ],
    }


def table(result: PartitionOffsets) -> RenderableType:
    from rich.table import Table

    out = Table()
    for column in ("Topic", "Partition", "Offset"):
        out.add_column(column, justify="left" if column == "Topic" else "right")
    for tp in sorted(result.offsets, key=str):
        out.add_row(tp.topic, str(tp.partition), str(result.offsets[tp]))
    return out
