"""The audit summary as plain text: counted words, header rows, no box drawing, no padding."""

from __future__ import annotations

from kcli.audit.job import AuditResult, AuditWarning, Finding, RuleCount
from kcli.audit.progress import SparkWork
from kcli.audit.rules import Severity
from kcli.audit.summary import audit_json, audit_text, headline

BOX_DRAWING = set("─│┃━┏┓┗┛┌┐└┘├┤┬┴┼╭╮╯╰═║")


def result(*, clusters: int, findings: int, logs: int = 0, warnings: int = 0) -> AuditResult:
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
        partitions=1 if clusters else 0,
        history_rows=5 if logs else 0,
        metadata_logs=logs,
        counts=(
            RuleCount(rule_id="min-isr-below-2", severity=Severity.medium, findings=findings),
            RuleCount(rule_id="offline-partitions", severity=Severity.high, findings=0),
        ),
        worst=worst,
        out="file:///tmp/findings",
        stage_seconds={},
        warnings=tuple(AuditWarning(source="collect", message=f"w{i}") for i in range(warnings)),
        spark=SparkWork(master="local[2]", jobs=3, stages=3, tasks=4),
    )


def test_the_headline_says_what_was_audited_in_plain_words() -> None:
    assert headline(result(clusters=1, findings=1)) == "Audited 1 cluster (1 partition): 1 finding"
    assert headline(result(clusters=3, findings=2)) == "Audited 3 clusters (1 partition): 2 findings"
    assert headline(result(clusters=0, findings=0, logs=2)) == (
        "Audited 2 metadata logs (5 broker or leader events): 0 findings"
    )
    assert headline(result(clusters=1, findings=0, logs=1)) == (
        "Audited 1 cluster (1 partition) and 1 metadata log (5 broker or leader events): 0 findings"
    )
    assert "metadata-history" not in headline(result(clusters=1, findings=0, logs=1))


def test_text_is_plain_lines_with_a_header_row_per_block() -> None:
    lines = list(audit_text(result(clusters=1, findings=2)))
    assert lines == [
        "Audited 1 cluster (1 partition): 2 findings (high 0, medium 2, low 0, info 0)",
        "RULE\tSEVERITY\tFINDINGS",
        "min-isr-below-2\tmedium\t2",
        "SEVERITY\tRULE\tCLUSTER\tRESOURCE\tMESSAGE",
        "medium\tmin-isr-below-2\tMkU3OEVBNTcwNTJENDM2Qg\ttopic:t0\tmin.insync.replicas=1",
        "medium\tmin-isr-below-2\tMkU3OEVBNTcwNTJENDM2Qg\ttopic:t1\tmin.insync.replicas=1",
        "Findings written to /tmp/findings",
    ]
    assert not BOX_DRAWING & set("".join(lines))
    assert all(line == line.rstrip() for line in lines)


def test_no_findings_means_no_header_rows() -> None:
    lines = list(audit_text(result(clusters=1, findings=0)))
    assert lines == [
        "Audited 1 cluster (1 partition): 0 findings (high 0, medium 0, low 0, info 0)",
        "Findings written to /tmp/findings",
    ]


def test_json_lists_warnings_completeness_and_the_spark_work() -> None:
    complete = audit_json(result(clusters=1, findings=1))
    assert complete["complete"] is True and complete["warnings"] == []
    assert complete["spark"] == {"master": "local[2]", "jobs": 3, "stages": 3, "tasks": 4}
    incomplete = audit_json(result(clusters=1, findings=1, warnings=2))
    assert incomplete["complete"] is False
    assert incomplete["warnings"] == [
        {"source": "collect", "message": "w0"},
        {"source": "collect", "message": "w1"},
    ]
