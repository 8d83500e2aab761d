"""`kcli spark` through the CLI: start-up without pyspark, audits with --fail-on, rule errors."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke

NO_PYSPARK = """
import sys
from kcli.cli.main import main
for argv in ({argvs}):
    main(argv)
heavy = sorted(name for name in ("pyspark", "py4j", "pyarrow") if name in sys.modules)
print("loaded:", ",".join(heavy))
"""


@pytest.mark.parametrize(
    "argvs",
    [
        [["--help"]],
        [["spark", "--help"], ["spark", "audit", "--help"], ["spark", "collect", "--help"]],
        [["spark", "rules", "-o", "json"], ["configs", "--help"]],
    ],
)
def test_pyspark_is_not_imported_outside_an_audit(argvs: list[list[str]]) -> None:
    code = NO_PYSPARK.format(argvs=", ".join(repr(a) for a in argvs) + ",")
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=120,
        env={"NO_COLOR": "1", "PATH": ""},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "loaded:"


def test_audit_needs_something_to_audit() -> None:
    result = invoke("spark", "audit")
    assert result.code == 2
    assert "nothing to audit" in result.stderr


def test_audit_rejects_a_bad_fail_on_and_conf(tmp_path: Path) -> None:
    result = invoke("spark", "audit", "-i", str(tmp_path), "--fail-on", "severe")
    assert result.code == 2
    assert result.stderr.strip() == "Error: --fail-on: unknown severity 'severe' (use info|low|medium|high)"


@pytest.mark.spark
def test_audit_of_the_crafted_fleet_fails_on_high_and_writes_findings(
    spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path
) -> None:
    snapshots, _logs = crafted_fleet
    out = tmp_path / "out"
    result = invoke(
        "spark", "audit", "-i", str(snapshots), "--out", str(out), "--fail-on", "high", "-o", "json",
        "--conf", "spark.sql.shuffle.partitions=2",
    )  # fmt: skip
    assert result.code == 1
    summary = result.json
    high = summary["by_severity"]["high"]
    assert high > 0
    assert (
        result.stderr.strip().splitlines()[-1] == f"Error: {high} findings at or above high (--fail-on high)"
    )
    lines = (out / "findings.jsonl").read_text().splitlines()
    assert len(lines) == summary["findings"]
    assert {json.loads(line)["rule_id"] for line in lines} >= {
        "acl-wildcard-principal-all",
        "offline-partitions",
    }
    assert summary["worst"][0]["severity"] == "high"


@pytest.mark.spark
def test_user_rules_alone_and_the_text_summary(
    spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path
) -> None:
    snapshots, _logs = crafted_fleet
    rules = tmp_path / "mine.toml"
    rules.write_text(
        """
[[rule]]
id = "fenced-brokers"
severity = "medium"
description = "Fenced brokers."
sql = "SELECT cluster_id, concat('broker:', broker_id) AS resource, 'fenced' AS message FROM brokers WHERE fenced"
"""
    )
    result = invoke(
        "spark", "audit", "-i", str(snapshots), "--rules", str(rules), "--no-builtin-rules",
        "--fail-on", "high", "-o", "text",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    assert result.lines[0].startswith("Audited 4 clusters, ")
    assert "fenced-brokers\tmedium\t1" in result.lines
    assert "medium\tfenced-brokers\tdirty-a\tbroker:5\tfenced" in result.lines


@pytest.mark.spark
def test_the_default_output_off_a_terminal_is_plain_lines(
    spark: Any, crafted_fleet: tuple[Path, Path]
) -> None:
    snapshots, _logs = crafted_fleet
    result = invoke("spark", "audit", "-i", str(snapshots), "--conf", "spark.sql.shuffle.partitions=2")
    assert result.code == 0, result.stderr
    assert result.lines[0].startswith("Audited 4 clusters, ")
    assert not set("─│┃━┏┓┗┛┌┐└┘╭╮╯╰") & set(result.stdout)
    assert all(line == line.rstrip() for line in result.stdout.splitlines())
    assert "offline-partitions\thigh\t" in result.stdout
    table = invoke(
        "spark", "audit", "-i", str(snapshots), "-o", "table", "--conf", "spark.sql.shuffle.partitions=2"
    )
    assert table.code == 0 and "Findings by rule" in table.stdout  # -o table keeps the rich tables


@pytest.mark.spark
@pytest.mark.parametrize(
    ("sql", "expected"),
    [
        (
            "SELECT cluster_id, topic AS resource, 'm' AS message FROM nosuch",
            "unknown table nosuch (tables: clusters,",
        ),
        ("SELECT cluster_id, colour AS resource, 'm' AS message FROM topics", "unknown column colour"),
        ("SELEC cluster_id FROM topics", "SQL syntax error:"),
        ("SELECT cluster_id, topic AS resource FROM topics", "missing message"),
    ],
)
def test_bad_rule_sql_is_one_line_naming_the_rule(
    spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path, sql: str, expected: str
) -> None:
    snapshots, _logs = crafted_fleet
    rules = tmp_path / "bad.toml"
    rules.write_text(f'[[rule]]\nid = "broken"\nseverity = "low"\ndescription = "d"\nsql = "{sql}"\n')
    result = invoke("spark", "audit", "-i", str(snapshots), "--rules", str(rules))
    assert result.code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"Error: rule broken ({rules}): ")
    assert expected in lines[0]
