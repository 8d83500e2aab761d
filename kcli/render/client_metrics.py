"""Output of `kcli client-metrics`: kafka-client-metrics.sh's lines (ClientMetricsCommand, Kafka 4.4), JSON, a table."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops.client_metrics import missing_line

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.workflows.client_metrics import Changed, Described


def list_lines(names: Sequence[str]) -> list[str]:
    """The names, one a line; none prints one empty line (Kafka prints the empty join)."""
    return ["\n".join(names)]


def list_json(names: Sequence[str]) -> dict[str, Any]:
    return {"client_metrics": list(names)}


def describe_lines(described: Described) -> list[str]:
    if described.missing is not None:
        return [missing_line(described.missing)]
    lines: list[str] = []
    for subscription in described.subscriptions:
        lines.append(f"Client metrics configs for {subscription.name} are:")
        lines += [f"  {key}={'null' if value is None else value}" for key, value in subscription.configs]
    return lines


def describe_json(described: Described) -> dict[str, Any]:
    return {
        "client_metrics": [{"name": s.name, "configs": dict(s.configs)} for s in described.subscriptions],
        "missing": described.missing,
    }


def describe_table(described: Described) -> RenderableType:
    from rich.table import Table

    table = Table()
    for column in ("Name", "Config", "Value"):
        table.add_column(column)
    for s in described.subscriptions:
        for key, value in s.configs:
            table.add_row(s.name, key, "null" if value is None else value)
    return table


def altered_lines(changed: Changed) -> list[str]:
    return [f"Altered client metrics config for {changed.name}."]


def deleted_lines(changed: Changed) -> list[str]:
    if not changed.existed:
        return [missing_line(changed.name)]
    return [f"Deleted client metrics config for {changed.name}."]


def changed_json(changed: Changed) -> dict[str, Any]:
    return {"name": changed.name, "existed": changed.existed, "changes": dict(changed.changes)}
