"""Pure renderings of audit results and rule lists: text lines, rich tables and JSON values."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from kcli.audit.job import AuditResult
from kcli.audit.rules import Rule
from kcli.audit.snapshot import WrittenSnapshot
from kcli.kafka import Severity

if TYPE_CHECKING:
    from rich.console import RenderableType

SEVERITY_STYLE = {
    Severity.high: "bold red",
    Severity.medium: "yellow",
    Severity.low: "cyan",
    Severity.info: "dim",
}


def audit_json(result: AuditResult) -> dict[str, Any]:
    return {
        "clusters": result.clusters,
        "partitions": result.partitions,
        "metadata_logs": result.metadata_logs,
        "history_rows": result.history_rows,
        "findings": result.total,
        "by_severity": result.by_severity(),
        "by_rule": [
            {"rule_id": count.rule_id, "severity": count.severity.name, "findings": count.findings}
            for count in result.counts
        ],
        "worst": [finding.as_json() for finding in result.worst],
        "complete": result.complete,
        "warnings": [warning.as_json() for warning in result.warnings],
        "out": result.out,
        "stage_seconds": {stage: round(seconds, 3) for stage, seconds in result.stage_seconds.items()},
        "spark": None
        if result.spark is None
        else {
            "master": result.spark.master,
            "jobs": result.spark.jobs,
            "stages": result.spark.stages,
            "tasks": result.spark.tasks,
        },
    }


def shown_location(uri: str) -> str:
    """A local directory as its path, anything else as its URI."""
    from kcli.audit.storage import local_path

    path = local_path(uri)
    return str(path) if path is not None else uri


def counted(count: int, word: str, *, grouped: bool = False) -> str:
    """`1 cluster`, `2 clusters` (`1,234 partitions` when grouped)."""
    number = f"{count:,}" if grouped else str(count)
    return f"{number} {word}" if count == 1 else f"{number} {word}s"


def headline(result: AuditResult, *, grouped: bool = False) -> str:
    """`Audited 1 cluster (6 partitions): 2 findings`, and the metadata logs when there were some."""
    parts = []
    if result.clusters or not result.metadata_logs:
        partitions = counted(result.partitions, "partition", grouped=grouped)
        parts.append(f"{counted(result.clusters, 'cluster')} ({partitions})")
    if result.metadata_logs:
        events = counted(result.history_rows, "broker or leader event", grouped=grouped)
        parts.append(f"{counted(result.metadata_logs, 'metadata log')} ({events})")
    return f"Audited {' and '.join(parts)}: {counted(result.total, 'finding', grouped=grouped)}"


RULE_HEADER = "RULE\tSEVERITY\tFINDINGS"
FINDING_HEADER = "SEVERITY\tRULE\tCLUSTER\tRESOURCE\tMESSAGE"


def audit_text(result: AuditResult) -> Iterable[str]:
    """Plain lines (no box drawing): a headline, findings by rule, then the worst findings.

    Each block of tab-separated rows starts with a header row.
    """
    severities = ", ".join(f"{name} {count}" for name, count in result.by_severity().items())
    yield f"{headline(result)} ({severities})"
    ruled = [count for count in _ordered_counts(result) if count.findings]
    if ruled:
        yield RULE_HEADER
    for count in ruled:
        yield f"{count.rule_id}\t{count.severity.name}\t{count.findings}"
    if result.worst:
        yield FINDING_HEADER
    for finding in result.worst:
        yield f"{finding.severity.name}\t{finding.rule_id}\t{finding.cluster_id}\t{finding.resource}\t{finding.message}"
    if result.out is not None:
        yield f"Findings written to {shown_location(result.out)}"


def audit_table(result: AuditResult) -> RenderableType:
    """The rich summary: totals, counts by rule and severity, the worst findings."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    totals = result.by_severity()
    header = Text(headline(result, grouped=True))
    severity_table = Table(title="Findings by severity", title_justify="left")
    severity_table.add_column("severity")
    severity_table.add_column("findings", justify="right")
    for name, count in totals.items():
        severity_table.add_row(Text(name, style=SEVERITY_STYLE[Severity[name]]), f"{count:,}")
    rule_table = Table(title="Findings by rule", title_justify="left")
    rule_table.add_column("rule")
    rule_table.add_column("severity")
    rule_table.add_column("findings", justify="right")
    for count in _ordered_counts(result):
        rule_table.add_row(
            count.rule_id,
            Text(count.severity.name, style=SEVERITY_STYLE[count.severity]),
            f"{count.findings:,}",
            style=None if count.findings else "dim",
        )
    parts: list[RenderableType] = [header]
    if result.warnings:
        parts.append(
            Text(
                f"Input incomplete: {counted(len(result.warnings), 'warning')} (on stderr); "
                "findings that need the missing data may be absent",
                style="yellow",
            )
        )
    parts += [severity_table, rule_table]
    if result.worst:
        worst = Table(title=f"Worst {len(result.worst)} findings", title_justify="left")
        for column in ("severity", "rule", "cluster", "resource", "message"):
            worst.add_column(column, overflow="fold")
        for finding in result.worst:
            worst.add_row(
                Text(finding.severity.name, style=SEVERITY_STYLE[finding.severity]),
                finding.rule_id,
                finding.cluster_id,
                finding.resource,
                finding.message,
            )
        parts.append(worst)
    if result.out is not None:
        parts.append(Text(f"Findings written to {shown_location(result.out)}"))
    return Group(*parts)


def _ordered_counts(result: AuditResult) -> list[Any]:
    return sorted(result.counts, key=lambda count: (-count.severity, -count.findings, count.rule_id))


def rules_json(rules: Sequence[Rule]) -> list[dict[str, Any]]:
    return [
        {
            "id": rule.id,
            "severity": rule.severity.name,
            "description": rule.description,
            "params": dict(rule.params),
            "source": rule.source,
        }
        for rule in rules
    ]


def rules_text(rules: Sequence[Rule]) -> Iterable[str]:
    for rule in rules:
        yield f"{rule.id}\t{rule.severity.name}\t{rule.description}"


def rules_table(rules: Sequence[Rule]) -> RenderableType:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{len(rules)} audit rules", title_justify="left")
    table.add_column("id", no_wrap=True)
    table.add_column("severity")
    table.add_column("description", overflow="fold")
    table.add_column("params", overflow="fold")
    for rule in rules:
        params = ", ".join(f"{key}={value}" for key, value in rule.params.items())
        table.add_row(
            rule.id, Text(rule.severity.name, style=SEVERITY_STYLE[rule.severity]), rule.description, params
        )
    return table


def collect_json(snapshots: Sequence[WrittenSnapshot]) -> list[dict[str, Any]]:
    return [
        {"cluster_id": s.cluster_id, "collected_at": s.collected_at, "rows": dict(s.rows)} for s in snapshots
    ]


def collect_text(snapshots: Sequence[WrittenSnapshot]) -> Iterable[str]:
    for snapshot in snapshots:
        rows = snapshot.rows
        yield (
            f"Collected cluster {snapshot.cluster_id} at {snapshot.collected_at}: "
            f"{rows.get('brokers', 0)} brokers, {rows.get('topics', 0)} topics, "
            f"{rows.get('partitions', 0)} partitions, {rows.get('acls', 0)} ACLs"
        )
