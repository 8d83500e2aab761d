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


def test_a_cluster_without_an_authorizer_is_collected_complete(audit_sandbox: Any, tmp_path: Path) -> None:
    out = tmp_path / "snapshots"
    collected = invoke(
        "spark", "collect", "-b", audit_sandbox.bootstrap_servers, "--out", str(out), "-o", "json"
    )
    assert collected.code == 0, collected.stderr
    assert not [line for line in collected.stderr.splitlines() if line.startswith("Warning")]
    [cluster] = _table(out, "clusters")
    assert cluster["warnings"] == []
    endpoints = _table(out, "endpoints")
    assert sorted((e["role"], e["node_id"]) for e in endpoints) == sorted(
        [("broker", b) for b in audit_sandbox.broker_ids]
        + [("controller", c) for c in audit_sandbox.controller_ids]
    )
    assert {(e["answered"], e["identity"]) for e in endpoints} == {(True, "verified")}
    assert all(e["served_by_node_id"] == e["node_id"] for e in endpoints)


def test_a_misrouted_then_a_stopped_broker(spark: Any, make_sandbox: Any, tmp_path: Path) -> None:
    sb = make_sandbox(controllers=1, brokers=3, topics=2, partitions=3)
    sb.misroute(2, 1)
    misrouted = invoke("spark", "audit", "-b", sb.bootstrap_servers, "--fail-on", "high", "-o", "json")
    # The endpoint finding is high: exit 1 (findings reached --fail-on), though the input is incomplete.
    assert misrouted.code == 1, misrouted.stderr
    warnings = [w["message"] for w in misrouted.json["warnings"]]
    assert any("configs of broker 2 not collected" in w and "misrouted" in w for w in warnings), warnings
    assert [line for line in misrouted.stderr.splitlines() if line.startswith("Warning: ")] == [
        f"Warning: {w}" for w in warnings
    ]
    identity = {f["resource"] for f in misrouted.json["worst"] if f["rule_id"] == "endpoint-identity"}
    assert f"endpoint:127.0.0.1:{sb.port_of(1)}" in identity

    sb.misroute(2, 2)  # advertising its own endpoint again ends the misroute
    sb.stop_node(3)
    stopped = invoke("spark", "audit", "-b", sb.bootstrap_servers, "--fail-on", "high", "-o", "json")
    assert stopped.code == 3, stopped.stderr  # nothing reached high, but broker 3's data is missing
    warnings = [w["message"] for w in stopped.json["warnings"]]
    assert any("broker 3 is fenced" in w for w in warnings), warnings
    assert stopped.stderr.strip().splitlines()[-1].startswith("Error: the audit's input is incomplete (")
    strict = invoke("spark", "audit", "-b", sb.bootstrap_servers, "--strict")
    assert strict.code == 3 and strict.stdout == ""
    assert strict.stderr.strip().splitlines()[-1].startswith("Error: the audit's input is incomplete (")
