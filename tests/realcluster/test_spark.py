"""`kcli spark audit` of the real cluster in one run: it collects a snapshot through SASL_SSL (what
`spark collect` writes) and audits it with the controller's newest metadata snapshot, on a local Spark session.
The collected rows are checked against kafka-python, the findings against those rows."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

# `spark`: the audit tests' local session; kcli's audit takes a session that is already running, so a
# whole test run starts one Spark JVM.
from tests.audit.conftest import spark  # noqa: F401
from tests.conftest import invoke
from tests.realcluster.conftest import cluster_of

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow, pytest.mark.spark]


def _table(out: Path, name: str) -> list[dict[str, Any]]:
    import pyarrow.dataset as ds

    return ds.dataset(out / name, format="parquet", partitioning="hive").to_table().to_pylist()


def test_collect_and_audit_the_real_cluster(
    real_kafka: Any, kafka_admin: Any, new_topic: Any, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    request.getfixturevalue("spark")  # after real_kafka, which skips (or fails in CI) without Java
    cluster = cluster_of(real_kafka)
    topic = new_topic("audit", partitions=3, replication=2)
    # the controller's newest snapshot (what the suite's cluster writes every few KiB), not its whole log
    log_dir = real_kafka.metadata_log_dir(real_kafka.controller_ids[0])
    snapshot = sorted(p for p in log_dir.glob("*.checkpoint") if not p.name.startswith("00000000000000000000-"))
    metadata = tmp_path / "metadata" / "__cluster_metadata-0"
    metadata.mkdir(parents=True)
    shutil.copy(snapshot[-1] if snapshot else sorted(log_dir.glob("*.checkpoint"))[-1], metadata)
    out = tmp_path / "findings"
    audited = invoke(
        "spark", "audit", *cluster.broker_args(), "--metadata-dir", str(metadata.parent), "--out", str(out),
        "-o", "json",
    )  # fmt: skip
    assert audited.code in (0, 1), audited.stderr
    snapshots = out / "snapshots"

    brokers = _table(snapshots, "brokers")
    assert sorted(b["broker_id"] for b in brokers) == sorted(real_kafka.broker_ids)
    assert {b["cluster_id"] for b in brokers} == {real_kafka.cluster_id}
    partitions = {(p["topic"], p["partition"]): p for p in _table(snapshots, "partitions")}
    (described,) = kafka_admin.describe_topics([topic])
    for peer in described["partitions"]:
        ours = partitions[(topic, peer["partition_index"])]
        assert list(ours["replicas"]) == list(peer["replica_nodes"])
        assert ours["leader"] == peer["leader_id"]
    assert {t for t, _ in partitions} >= {topic}
    # the quorum as collected: its leader is a voter kafka-python reads (an election on a busy machine
    # may have moved the leadership since)
    quorum = kafka_admin.describe_metadata_quorum()["topics"][0]["partitions"][0]
    (leader,) = [q["replica_id"] for q in _table(snapshots, "quorum") if q["role"] == "leader"]
    assert leader in {v["replica_id"] for v in quorum["current_voters"]}

    summary = audited.json
    assert summary["clusters"] == 1
    assert summary["partitions"] == len(partitions)
    by_rule = {r["rule_id"]: r["findings"] for r in summary["by_rule"]}
    low_rf = {t for (t, _), p in partitions.items() if len(p["replicas"]) < 3}
    assert by_rule.get("replication-factor-below-floor", 0) == len(low_rf)
    assert by_rule.get("offline-partitions", 0) == 0
