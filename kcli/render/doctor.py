"""Output of `kcli cluster doctor`: one line per finding, a rich table, or JSON for CI."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from kcli.kafka import Severity
from kcli.ops.doctor import DoctorReport

if TYPE_CHECKING:
    from rich.console import RenderableType

_STYLE = {
    Severity.info: "dim",
    Severity.low: "cyan",
    Severity.medium: "yellow",
    Severity.high: "red",
    Severity.critical: "bold red",
}


def summary_line(report: DoctorReport) -> str:
    reached = sum(1 for e in report.endpoints if e.ok)
    refused = sum(1 for e in report.endpoints if e.auth_failed)
    counts = ", ".join(
        f"{sum(1 for f in report.findings if f.severity is s)} {s.name}"
        for s in sorted(Severity, reverse=True)
        if any(f.severity is s for f in report.findings)
    )
    verdict = "UNHEALTHY" if report.failed else "HEALTHY"
    return (
        f"{verdict}: cluster {report.cluster_id or '(unknown)'}, {reached}/{len(report.endpoints)} endpoints "
        f"answered{f' ({refused} failed authentication)' if refused else ''}, "
        f"{len(report.findings)} finding(s){' (' + counts + ')' if counts else ''}, "
        f"fail-on {report.fail_on.name}"
    )


def text_lines(report: DoctorReport) -> list[str]:
    """`SEVERITY  check  subject: message (hint)` per finding, then the verdict line."""
    lines = []
    for finding in report.findings:
        hint = f" ({finding.hint})" if finding.hint else ""
        lines.append(
            f"{finding.severity.name.upper():<8} {finding.check:<30} {finding.subject}: {finding.message}{hint}"
        )
    lines.append(summary_line(report))
    return lines


def json_value(report: DoctorReport) -> dict[str, Any]:
    return {
        "cluster_id": report.cluster_id,
        "healthy": not report.failed,
        "fail_on": report.fail_on.name,
        "worst": report.worst.name if report.worst is not None else None,
        "findings": [
            {
                "check": f.check,
                "severity": f.severity.name,
                "subject": f.subject,
                "message": f.message,
                "hint": f.hint,
            }
            for f in report.findings
        ],
        "checked": list(report.checked),
        "not_checked": list(report.not_checked),
        "endpoints": [
            {
                "role": e.role,
                "node_id": e.node_id,
                "address": e.address,
                "ok": e.ok,
                "error": e.error,
                "latency_ms": None if e.latency_ms is None else round(e.latency_ms, 2),
                "cluster_id": e.cluster_id,
                "controller_id": e.controller_id,
                "identity": None
                if e.identity is None
                else {
                    "method": e.identity.method,
                    "verified": e.identity.verified,
                    "actual_node_id": e.identity.actual_node_id,
                    "detail": e.identity.detail,
                },
                "finalized_metadata_version": e.finalized_metadata_version,
            }
            for e in report.endpoints
        ],
    }


def table(report: DoctorReport) -> RenderableType:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    endpoints = Table(title="Endpoints")
    for column in ("Role", "Node", "Address", "Answers", "Identity", "ClusterId", "Latency"):
        endpoints.add_column(column)
    for e in report.endpoints:
        ident = "-"
        if e.identity is not None:
            ident = {True: "[green]ok[/]", False: "[bold red]MISMATCH[/]", None: "[dim]unchecked[/]"}[
                e.identity.verified
            ] + f" ({e.identity.method})"
        endpoints.add_row(
            e.role,
            "-" if e.node_id is None else str(e.node_id),
            e.address,
            "[green]yes[/]" if e.ok else f"[red]no[/] {e.error or ''}",
            ident,
            e.cluster_id or "-",
            "-" if e.latency_ms is None else f"{e.latency_ms:.1f} ms",
        )
    findings = Table(title="Findings")
    for column in ("Severity", "Check", "Subject", "Message"):
        findings.add_column(column)
    for f in report.findings:
        style = _STYLE[f.severity]
        findings.add_row(
            f"[{style}]{f.severity.name}[/]",
            f.check,
            f.subject,
            f.message + (f"\n[dim]{f.hint}[/]" if f.hint else ""),
        )
    verdict = Text(summary_line(report), style="bold red" if report.failed else "bold green")
    if not report.findings:
        return Group(endpoints, verdict)  # the verdict line already says "0 finding(s)"
    return Group(endpoints, findings, verdict)
