"""`kcli spark` through the CLI: start-up without pyspark, the exit-code contract, URIs, rule errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kcli.audit.storage import to_uri
from tests.audit.crafted import write_clean_fleet
from tests.conftest import KRAFT_FIXTURES, invoke

CORRUPT = KRAFT_FIXTURES / "apache-kafka-pr15553"  # the negative fixture: 6 problems in its files

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
    assert result.lines[0].startswith("Audited 4 clusters (111 partitions): 1 finding")
    assert result.lines[1:5] == [
        "RULE\tSEVERITY\tFINDINGS",
        "fenced-brokers\tmedium\t1",
        "SEVERITY\tRULE\tCLUSTER\tRESOURCE\tMESSAGE",
        "medium\tfenced-brokers\tdirty-a\tbroker:5\tfenced",
    ]


@pytest.mark.spark
def test_the_default_output_off_a_terminal_is_plain_lines(
    spark: Any, crafted_fleet: tuple[Path, Path]
) -> None:
    snapshots, _logs = crafted_fleet
    result = invoke("spark", "audit", "-i", str(snapshots), "--conf", "spark.sql.shuffle.partitions=2")
    assert result.code == 0, result.stderr
    assert result.stderr == ""  # off a terminal: no progress, no Spark output
    assert result.lines[0].startswith("Audited 4 clusters (")
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


@pytest.fixture(scope="module")
def clean_fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_clean_fleet(tmp_path_factory.mktemp("clean") / "snapshots")


@pytest.mark.spark
def test_a_clean_complete_input_exits_0_and_prints_nothing_on_stderr(spark: Any, clean_fleet: Path) -> None:
    result = invoke("spark", "audit", "-i", str(clean_fleet), "--fail-on", "info", "-o", "json")
    assert (result.code, result.stderr) == (0, "")
    assert result.json["findings"] == 0 and result.json["complete"] is True


@pytest.mark.spark
def test_a_corrupt_metadata_file_makes_the_input_incomplete_exit_3(spark: Any, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("spark", "audit", "--metadata-dir", str(CORRUPT), "--out", str(out), "-o", "json")
    assert result.code == 3
    summary = result.json
    assert summary["complete"] is False and len(summary["warnings"]) == 6
    assert {w["source"] for w in summary["warnings"]} == {"metadata"}
    lines = result.stderr.strip().splitlines()
    assert [line.removeprefix("Warning: ") for line in lines[:-1]] == [
        w["message"] for w in summary["warnings"]
    ]
    assert lines[-1] == (
        "Error: the audit's input is incomplete (6 warnings above): "
        "findings that need the missing data may be absent"
    )
    listed = [json.loads(line) for line in (out / "warnings.jsonl").read_text().splitlines()]
    assert listed == summary["warnings"]
    import pyarrow.parquet as pq

    assert pq.read_table(out / "warnings.parquet").to_pylist() == summary["warnings"]
    assert (out / "findings.jsonl").is_file()  # the audit still ran on what it could read


@pytest.mark.spark
def test_strict_stops_an_incomplete_audit_before_any_rule_runs(spark: Any, tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = invoke("spark", "audit", "--metadata-dir", str(CORRUPT), "--out", str(out), "--strict")
    assert result.code == 3
    assert result.stdout == ""
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("Error: the audit's input is incomplete (6 warnings; --strict) (")
    assert not (out / "findings.jsonl").exists()


@pytest.mark.spark
def test_findings_at_fail_on_exit_1_even_when_the_input_is_incomplete(
    spark: Any, crafted_fleet: tuple[Path, Path]
) -> None:
    snapshots, _logs = crafted_fleet
    result = invoke(
        "spark", "audit", "-i", str(snapshots), "--metadata-dir", str(CORRUPT), "--fail-on", "high"
    )
    assert result.code == 1
    assert result.stderr.strip().splitlines()[-1].endswith("(--fail-on high)")
    assert sum(line.startswith("Warning: ") for line in result.stderr.splitlines()) == 6


@pytest.mark.spark
def test_a_failing_spark_job_exits_3_in_one_line(spark: Any, clean_fleet: Path, tmp_path: Path) -> None:
    rules = tmp_path / "boom.toml"
    rules.write_text(
        '[[rule]]\nid = "boom"\nseverity = "low"\ndescription = "d"\n'
        "sql = \"SELECT cluster_id, topic AS resource, raise_error('boom in a task') AS message FROM topics\"\n"
    )
    result = invoke("spark", "audit", "-i", str(clean_fleet), "--rules", str(rules), "--no-builtin-rules")
    assert result.code == 3
    lines = result.stderr.strip().splitlines()
    assert (
        len(lines) == 1 and lines[0].startswith("Error: Spark job failed: ") and "boom in a task" in lines[0]
    )


@pytest.mark.spark
def test_a_filesystem_hadoop_cannot_reach_exits_3_in_one_line(spark: Any) -> None:
    result = invoke("spark", "audit", "-i", "nosuchfs://bucket/fleet")
    assert result.code == 3
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("Error: --input nosuchfs://bucket/fleet: cannot read it: ")
    assert "nosuchfs" in lines[0].split("cannot read it: ", 1)[1]


@pytest.mark.spark
def test_file_uris_and_local_paths_give_the_same_audit(
    spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path
) -> None:
    snapshots, logs = crafted_fleet
    by_path = tmp_path / "by path"
    by_uri = tmp_path / "by uri with spaces"
    first = invoke(
        "spark",
        "audit",
        "-i",
        str(snapshots),
        "--metadata-dir",
        str(logs),
        "--out",
        str(by_path),
        "-o",
        "json",
    )
    second = invoke(
        "spark", "audit", "-i", to_uri(str(snapshots)), "--metadata-dir", to_uri(str(logs)),
        "--out", to_uri(str(by_uri)), "-o", "json",
    )  # fmt: skip
    assert first.code == second.code == 0, (first.stderr, second.stderr)
    assert to_uri(str(snapshots)).startswith("file:///")
    assert (first.json["by_rule"], first.json["history_rows"]) == (
        second.json["by_rule"],
        second.json["history_rows"],
    )
    assert second.json["out"] == to_uri(str(by_uri))
    assert sorted((by_path / "findings.jsonl").read_text().splitlines()) == sorted(
        (by_uri / "findings.jsonl").read_text().splitlines()
    )
    assert {p.name for p in by_uri.iterdir()} == {
        "findings.parquet", "findings.jsonl", "warnings.parquet", "warnings.jsonl",
    }  # fmt: skip


@pytest.mark.spark
def test_a_small_audit_runs_a_handful_of_single_task_jobs(
    spark: Any, crafted_fleet: tuple[Path, Path]
) -> None:
    snapshots, logs = crafted_fleet
    result = invoke("spark", "audit", "-i", str(snapshots), "--metadata-dir", str(logs), "-o", "json")
    assert result.code == 0, result.stderr
    work = result.json["spark"]
    # Before: 21 jobs and 449 tasks for a 12-partition audit. Now one partition per table: the
    # metadata pass, the clusters rows, and the rules' summary with the few shuffles it still needs.
    assert work["jobs"] <= 8 and work["tasks"] <= 12, work


@pytest.mark.spark
def test_an_out_path_with_glob_characters_gets_every_finding(
    spark: Any, crafted_fleet: tuple[Path, Path], tmp_path: Path
) -> None:
    snapshots, logs = crafted_fleet
    fleet = tmp_path / "fleet [1]{x,y} *?"  # Hadoop glob characters, taken literally
    shutil.copytree(snapshots, fleet / "snapshots")
    shutil.copytree(logs, fleet / "logs")
    out = tmp_path / "audit [2026]{a,b} *?"
    result = invoke(
        "spark", "audit", "-i", str(fleet / "snapshots"), "--metadata-dir", str(fleet / "logs"),
        "--out", str(out), "-o", "json",
    )  # fmt: skip
    assert result.code == 0, result.stderr
    assert result.json["history_rows"] > 0
    findings = [json.loads(line) for line in (out / "findings.jsonl").read_text().splitlines()]
    assert result.json["findings"] > 0 and len(findings) == result.json["findings"]
    assert {p.name for p in out.iterdir()} == {
        "findings.parquet", "findings.jsonl", "warnings.parquet", "warnings.jsonl",
    }  # fmt: skip


WITHOUT = """
import sys
for name in {missing}:
    sys.modules[name] = None  # as if not installed: importing it raises ImportError
from kcli.cli.main import main
raise SystemExit(main({argv}))
"""


@pytest.mark.parametrize(
    ("missing", "argv", "line"),
    [
        (
            ("pyspark", "py4j"),
            ["spark", "audit", "-i", "."],
            "Error: kcli spark audit needs PySpark, which is not installed (pip install 'kcli-kafka[spark]')",
        ),
        (
            ("pyspark", "py4j", "pyarrow"),
            ["spark", "audit", "-i", "."],
            "Error: kcli spark audit needs PySpark and pyarrow (Parquet), which are not installed "
            "(pip install 'kcli-kafka[spark]')",
        ),
        (
            ("pyarrow",),
            ["spark", "collect", "-b", "127.0.0.1:1", "--out", "snapshots"],
            "Error: kcli spark collect needs pyarrow (Parquet), which is not installed "
            "(pip install 'kcli-kafka[spark]'; pip install pyarrow is enough: collect needs no Spark)",
        ),
    ],
)
def test_without_the_spark_extra_the_line_names_it(
    missing: tuple[str, ...], argv: list[str], line: str, tmp_path: Path
) -> None:
    """Was "unexpected ModuleNotFoundError ... (this is a bug in kcli)"; collect's help says it needs
    no Spark, so it says pyarrow alone is enough. Checked before any cluster is asked (127.0.0.1:1)."""
    code = WITHOUT.format(missing=repr(missing), argv=repr(argv))
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"},
    )  # fmt: skip
    assert done.stderr == line + "\n"
    assert done.returncode == (3 if "audit" in argv else 1)
    assert done.stdout == "" and not (tmp_path / "snapshots").exists()
