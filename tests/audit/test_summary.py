"""The audit summary as plain text: counted words, no box drawing, no padding."""

from __future__ import annotations

from pathlib import Path

from kcli.audit.job import AuditResult, Finding, RuleCount
from kcli.audit.rules import Severity
from kcli.audit.summary import audit_text, headline

BOX_DRAWING = set("─│┃━┏┓┗┛┌┐└┘├┤┬┴┼╭╮╯╰═║")


def result(*, clusters: int, findings: int) -> AuditResult:
    worst = tuple(
        Finding(
            rule_id="min-isr-below-2",
            severity=Severity.medium,
            cluster_id="MkU3OEVBNTcwNTJENDM2Qg",
            resource=f"topic:t{i}",
            message="min.insync.replicas=1",
        )
        for i in range(findings)
    )
    return AuditResult(
        clusters=clusters,
        partitions=1,
        history_rows=1,
        counts=(
            RuleCount(rule_id="min-isr-below-2", severity=Severity.medium, findings=findings),
            RuleCount(rule_id="offline-partitions", severity=Severity.high, findings=0),
        ),
        worst=worst,
        out=Path("findings"),
        stage_seconds={},
    )


def test_one_cluster_is_singular() -> None:
    assert headline(result(clusters=1, findings=1)) == (
        "Audited 1 cluster, 1 partition, 1 metadata-history row: 1 finding"
    )
    assert headline(result(clusters=3, findings=2)).startswith("Audited 3 clusters, ")
    assert headline(result(clusters=3, findings=2)).endswith(": 2 findings")


def test_text_is_plain_lines_by_rule_then_worst_findings() -> None:
    lines = list(audit_text(result(clusters=1, findings=2)))
    assert lines == [
        "Audited 1 cluster, 1 partition, 1 metadata-history row: 2 findings (high 0, medium 2, low 0, info 0)",
        "min-isr-below-2\tmedium\t2",
        "medium\tmin-isr-below-2\tMkU3OEVBNTcwNTJENDM2Qg\ttopic:t0\tmin.insync.replicas=1",
        "medium\tmin-isr-below-2\tMkU3OEVBNTcwNTJENDM2Qg\ttopic:t1\tmin.insync.replicas=1",
        "Findings written to findings",
    ]
    assert not BOX_DRAWING & set("".join(lines))
    assert all(line == line.rstrip() for line in lines)
