"""Output of `kcli log-dirs --describe`: kafka-log-dirs.sh's lines (its JSON line byte for byte), kcli's
JSON, and a table of sizes by broker, log dir or topic."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from kcli.ops.log_dirs import GroupBy, LogDirsDescription, human_bytes, kafka_json, usage_rows

if TYPE_CHECKING:
    from rich.console import RenderableType

QUERYING = "Querying brokers for log directories information"


def text_lines(description: LogDirsDescription) -> Iterator[str]:
    """The lines after `Querying brokers ...` (printed before the brokers are asked)."""
    yield f"Received log directory information from brokers {','.join(map(str, description.queried))}"
    yield kafka_json(description)


def json_value(description: LogDirsDescription) -> dict[str, Any]:
    brokers = []
    for broker in sorted(description.reports):
        dirs = []
        for d in sorted(description.reports[broker].dirs, key=lambda d: d.path):
            shown = description.shown(d)
            dirs.append(
                {
                    "path": d.path,
                    "error": d.error_class,
                    "total_bytes": None if d.total_bytes < 0 else d.total_bytes,
                    "usable_bytes": None if d.usable_bytes < 0 else d.usable_bytes,
                    "cordoned": d.cordoned,
                    "size": sum(r.size for r in shown if not r.is_future),
                    "replicas": [
                        {
                            "topic": r.topic,
                            "partition": r.partition,
                            "size": r.size,
                            "offset_lag": r.offset_lag,
                            "is_future": r.is_future,
                        }
                        for r in sorted(shown, key=lambda r: (r.topic, r.partition, r.is_future))
                    ],
                }
            )
        brokers.append({"broker": broker, "log_dirs": dirs})
    return {"brokers": brokers, "topics": sorted(description.topics) or None}


def table(description: LogDirsDescription, by: GroupBy = GroupBy.DIR) -> RenderableType:
    """Sizes by broker, dir or topic; space on the dirs' volumes; cordoned and offline dirs; future
    replicas (moves between dirs) and their lag; each row's bytes against the mean of the rows."""
    from rich.table import Table

    rows = usage_rows(description, by)
    grid = Table(title=f"Log dirs by {by.value}")
    head = {GroupBy.BROKER: ("Broker",), GroupBy.DIR: ("Broker", "Log dir"), GroupBy.TOPIC: ("Topic",)}[by]
    for column in head:
        grid.add_column(column)
    for column in ("Replicas", "Size"):
        grid.add_column(column, justify="right")
    if by is not GroupBy.TOPIC:
        for column in ("Usable", "Total", "State"):
            grid.add_column(column, justify="right" if column != "State" else "left")
    grid.add_column("Future (lag)", justify="right")
    if by is not GroupBy.TOPIC:
        grid.add_column("vs mean", justify="right")
    for row in rows:
        cells = [str(row.broker)] if by is GroupBy.BROKER else [str(row.broker), str(row.path)]
        if by is GroupBy.TOPIC:
            cells = [row.key]
        cells += [str(row.replicas), human_bytes(row.size)]
        if by is not GroupBy.TOPIC:
            cells += [
                human_bytes(row.usable_bytes),
                human_bytes(row.total_bytes),
                _state(row.cordoned, row.offline),
            ]
        cells.append(f"{row.future} ({row.future_lag})" if row.future else "-")
        if by is not GroupBy.TOPIC:
            cells.append("-" if row.skew is None else f"{row.skew * 100:+.1f}%")
        grid.add_row(*cells)
    return grid


def _state(cordoned: int, offline: int) -> str:
    states = [f"{offline} offline" if offline else "", f"{cordoned} cordoned" if cordoned else ""]
    return ", ".join(s for s in states if s) or "online"
