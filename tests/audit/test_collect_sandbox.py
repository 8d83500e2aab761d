"""End to end: snapshots collected from the sandbox through the client layer audit with Spark."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pytest

from tests.conftest import invoke

pytestmark = [pytest.mark.sandbox, pytest.mark.spark]


def _table(out: Path, name: str) -> list[dict[str, Any]]:
    return ds.dataset(out / name, format="parquet", partitioning="hive").to_table().to_pylist()


def test_collect_then_audit_the_sandbox(spark: Any, sandbox: Any, tmp_path: Path) -> None:
    out = tmp_path / "snapshots"
    collected = invoke(
        "spark", "collect", "--bootstrap-server", sandbox.bootstrap_servers, "--out", str(out), "-o", "json"
    )
    assert collected.code == 0, collected.stderr
    [written] = collected.json
    assert written["cluster_id"] == sandbox.cluster_id

    brokers = _table(out, "brokers")
    assert sorted(b["broker_id"] for b in brokers) == list(sandbox.broker_ids)
    assert all(b["cluster_id"] == sandbox.cluster_id for b in brokers)
    partitions = _table(out, "partitions")
    assert len(partitions) == written["rows"]["partitions"]
    assert all(p["leader"] in p["replicas"] for p in partitions)
    configs = _table(out, "broker_configs")
    assert {c["broker_id"] for c in configs} == set(sandbox.broker_ids)
    assert all(c["source"] for c in configs)
    assert [q["replica_id"] for q in _table(out, "quorum") if q["role"] == "leader"] == [
        sandbox.active_controller_id
    ]

    # `audit --bootstrap-server` collects again (into OUT/snapshots) and audits in one go.
    findings = tmp_path / "findings"
    result = invoke(
        "spark",
        "audit",
        "--bootstrap-server",
        sandbox.bootstrap_servers,
        "-o",
        "json",
        "--out",
        str(findings),
    )
    assert result.code == 0, result.stderr
    assert {b["broker_id"] for b in _table(findings / "snapshots", "brokers")} == set(sandbox.broker_ids)
    # Other tests share this sandbox and may add topics meanwhile: compare with what was audited.
    partitions = _table(findings / "snapshots", "partitions")
    summary = result.json
    assert summary["clusters"] == 1
    assert summary["partitions"] == len(partitions)
    by_rule = {r["rule_id"]: r["findings"] for r in summary["by_rule"]}
    # Independent check of two rules against the collected rows.
    low_rf = {p["topic"] for p in partitions if len(p["replicas"]) < 3}
    assert by_rule["replication-factor-below-floor"] == len(low_rf)
    offline = [p for p in partitions if p["leader"] < 0]
    assert by_rule["offline-partitions"] == len(offline)
