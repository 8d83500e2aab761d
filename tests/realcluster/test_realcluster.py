"""End-to-end checks of every tool against a real cluster (see conftest.py for how to name one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.realcluster.conftest import RealCluster

pytestmark = pytest.mark.realcluster


def test_cluster_id_is_the_same_through_brokers_and_controllers(real_cluster: RealCluster) -> None:
    by_broker = invoke("cluster-id", *real_cluster.broker_args())
    assert by_broker.code == 0, by_broker.stderr
    assert by_broker.stdout.startswith("Cluster ID: ")
    if real_cluster.bootstrap_controller:
        by_controller = invoke("cluster-id", *real_cluster.controller_args(), "-o", "json")
        assert by_controller.code == 0, by_controller.stderr
        assert by_controller.json["cluster_id"] == by_broker.stdout.split(": ", 1)[1].strip()
        assert by_controller.json["endpoint_type"] == "controllers"


def test_wrong_endpoint_kind_is_named(real_cluster: RealCluster) -> None:
    wrong = invoke(
        "cluster-id", "--bootstrap-controller", real_cluster.bootstrap_server, *real_cluster._config_args()
    )
    assert wrong.code != 0
    assert "--bootstrap-server" in wrong.stderr


def test_list_endpoints_matches_kafka_python(real_cluster: RealCluster) -> None:
    listed = invoke("cluster", "list-endpoints", *real_cluster.broker_args(), "-o", "json")
    assert listed.code == 0, listed.stderr
    admin = real_cluster.peer_admin()
    try:
        peer_ids = sorted(int(b["broker_id"]) for b in admin.describe_cluster()["brokers"])
    finally:
        admin.close()
    assert sorted(n["id"] for n in listed.json["nodes"]) == peer_ids


def test_quorum_status_and_features(real_cluster: RealCluster) -> None:
    status = invoke("metadata-quorum", *real_cluster.broker_args(), "describe", "--status", "-o", "json")
    assert status.code == 0, status.stderr
    quorum = status.json
    voters = {voter["id"] for voter in quorum["voters"]}
    assert quorum["leader_id"] in voters and quorum["leader_epoch"] > 0 and quorum["high_watermark"] > 0
    features = invoke("features", *real_cluster.broker_args(), "describe")
    assert features.code == 0, features.stderr
    assert any(line.startswith("Feature: metadata.version\t") for line in features.lines)


def test_topic_config_round_trip_read_back_by_kafka_python(
    real_cluster: RealCluster, scratch_topic: str
) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType

    altered = invoke(
        "configs",
        *real_cluster.broker_args(),
        "--alter",
        "--topic",
        scratch_topic,
        "--add-config",
        "retention.ms=7200000,cleanup.policy=[compact,delete]",
    )
    assert altered.code == 0, altered.stderr
    admin = real_cluster.peer_admin()
    try:
        result = admin.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, scratch_topic)], config_filter="all"
        )
    finally:
        admin.close()
    (entries,) = next(iter(result.values())).values()
    values = {key: entry["value"] for key, entry in entries.items()}
    assert values["retention.ms"] == "7200000"
    assert values["cleanup.policy"] == "compact,delete"
    described = invoke("configs", *real_cluster.broker_args(), "--describe", "--topic", scratch_topic)
    assert "retention.ms=7200000" in described.stdout


def test_reassign_generate_and_list(real_cluster: RealCluster, scratch_topic: str, tmp_path: Path) -> None:
    topics = tmp_path / "topics.json"
    topics.write_text(json.dumps({"version": 1, "topics": [{"topic": scratch_topic}]}))
    brokers = invoke("cluster", "list-endpoints", *real_cluster.broker_args(), "-o", "json").json["nodes"]
    ids = ",".join(str(n["id"]) for n in brokers)
    plan = invoke(
        "reassign-partitions",
        *real_cluster.broker_args(),
        "--generate",
        "--topics-to-move-json-file",
        str(topics),
        "--broker-list",
        ids,
    )
    assert plan.code == 0, plan.stderr
    assert "Proposed partition reassignment configuration" in plan.stdout
    listed = invoke("reassign-partitions", *real_cluster.broker_args(), "--list")
    assert listed.code == 0, listed.stderr


def test_doctor_reports_a_health_verdict(real_cluster: RealCluster) -> None:
    args = real_cluster.broker_args()
    if real_cluster.bootstrap_controller:
        args += ["--bootstrap-controller", real_cluster.bootstrap_controller]
    doctor = invoke("cluster", "doctor", *args, "-o", "json", "--fail-on", "critical")
    assert doctor.code in (0, 1), doctor.stderr
    assert doctor.json["cluster_id"]
