"""`kcli cluster-id` and `kcli cluster list-endpoints|api-versions|doctor` on a real cluster.

`cluster unregister` needs a broker that is gone: it runs on a cluster of its own (test_scratch.py).
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import OLDEST
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import kafka_tool

pytestmark = pytest.mark.realcluster

API_VERSIONS, METADATA, DESCRIBE_QUORUM = 18, 3, 55


def test_cluster_id_is_the_same_through_brokers_and_controllers(real_cluster: RealCluster) -> None:
    by_broker = invoke("cluster-id", *real_cluster.broker_args())
    assert by_broker.code == 0, by_broker.stderr
    assert by_broker.stdout.startswith("Cluster ID: ")
    cluster_id = by_broker.stdout.split(": ", 1)[1].strip()
    admin = real_cluster.peer_admin()
    try:
        assert admin.describe_cluster()["cluster_id"] == cluster_id
    finally:
        admin.close()
    if real_cluster.bootstrap_controller:
        by_controller = invoke("cluster-id", *real_cluster.controller_args(), "-o", "json")
        assert by_controller.code == 0, by_controller.stderr
        assert by_controller.json["cluster_id"] == cluster_id
        assert by_controller.json["endpoint_type"] == "controllers"
        through_cluster = invoke("cluster", "cluster-id", *real_cluster.controller_args())
        assert through_cluster.stdout == by_broker.stdout


def test_list_endpoints_matches_kafka_python(real_cluster: RealCluster) -> None:
    listed = invoke("cluster", "list-endpoints", *real_cluster.broker_args(), "-o", "json")
    assert listed.code == 0, listed.stderr
    admin = real_cluster.peer_admin()
    try:
        described = admin.describe_cluster()
        quorum = admin.describe_metadata_quorum()
    finally:
        admin.close()
    peer = sorted((b["broker_id"], b["host"], b["port"], b["rack"]) for b in described["brokers"])
    assert sorted((n["id"], n["host"], n["port"], n["rack"]) for n in listed.json["nodes"]) == peer
    assert all(n["fenced"] is False for n in listed.json["nodes"])
    if real_cluster.bootstrap_controller:
        controllers = invoke("cluster", "list-endpoints", *real_cluster.controller_args(), "-o", "json")
        assert controllers.code == 0, controllers.stderr
        voters = {v["replica_id"] for v in quorum["topics"][0]["partitions"][0]["current_voters"]}
        assert {n["id"] for n in controllers.json["nodes"]} == voters
        refused = invoke(
            "cluster", "list-endpoints", *real_cluster.controller_args(), "--include-fenced-brokers"
        )
        assert refused.code == 2
        assert "--include-fenced-brokers is only supported with --bootstrap-server" in refused.stderr


def test_api_versions_of_every_broker_are_what_kafka_python_was_told(real_cluster: RealCluster) -> None:
    shown = invoke("cluster", "api-versions", *real_cluster.broker_args(), "-o", "json")
    assert shown.code == 0, shown.stderr
    admin = real_cluster.peer_admin()
    try:
        for node in shown.json["nodes"]:
            assert node["error"] is None, node
            peer = admin.get_broker_version_data(node["id"]).api_versions
            offered = {
                api["api_key"]: (api["min_version"], api["max_version"])
                for api in node["apis"]
                if api["max_version"] is not None
            }
            assert offered == {int(key): tuple(versions) for key, versions in peer.items()}
            assert METADATA in offered
    finally:
        admin.close()


@pytest.mark.parametrize("kind", ["brokers", "controllers"])
def test_api_versions_name_each_node_of_the_kind_asked(real_cluster: RealCluster, kind: str) -> None:
    if kind == "controllers" and not real_cluster.bootstrap_controller:
        pytest.skip("no controllers named (KCLI_TEST_BOOTSTRAP_CONTROLLER)")
    args = real_cluster.broker_args() if kind == "brokers" else real_cluster.controller_args()
    shown = invoke("cluster", "api-versions", *args, "-o", "json")
    assert shown.code == 0, shown.stderr
    nodes = invoke("cluster", "list-endpoints", *args, "-o", "json").json["nodes"]
    assert sorted(n["id"] for n in shown.json["nodes"]) == sorted(n["id"] for n in nodes)
    for node in shown.json["nodes"]:
        offered = {api["api_key"] for api in node["apis"] if api["max_version"] is not None}
        # Controllers never serve Metadata; both kinds serve DescribeQuorum (brokers forward it).
        assert (METADATA in offered) is (kind == "brokers")
        assert DESCRIBE_QUORUM in offered


def test_doctor_reports_a_health_verdict(real_cluster: RealCluster) -> None:
    args = real_cluster.broker_args()
    if real_cluster.bootstrap_controller:
        args += ["--bootstrap-controller", real_cluster.bootstrap_controller]
    doctor = invoke("cluster", "doctor", *args, "-o", "json", "--fail-on", "critical")
    assert doctor.code in (0, 1), doctor.stderr
    assert doctor.json["cluster_id"]


@pytest.mark.realkafka
@pytest.mark.slow
def test_doctor_finds_real_kafka_healthy_and_verifies_every_node(real_kafka: Any) -> None:
    cluster = cluster_of(real_kafka)
    doctor = invoke(
        "cluster", "doctor", *cluster.broker_args(), "--bootstrap-controller", real_kafka.bootstrap_controllers,
        "-o", "json",
    )  # fmt: skip
    assert doctor.code == 0, doctor.stdout + doctor.stderr
    report = doctor.json
    assert report["cluster_id"] == real_kafka.cluster_id
    assert report["healthy"] is True
    assert not [f for f in report["findings"] if f["severity"] in ("medium", "high", "critical")]
    nodes = {(e["role"], e["node_id"]): e for e in report["endpoints"] if e["role"] != "bootstrap"}
    expected = {("broker", n) for n in real_kafka.broker_ids} | {("controller", n) for n in real_kafka.controller_ids}
    assert set(nodes) == expected
    # On SASL listeners a broker checks ApiVersions v5's ids only after login; controllers never do,
    # so they are asked for their own config resource (tests/realcluster/test_kips.py shows both).
    method = {"broker": "api_versions_v5_after_login", "controller": "describe_configs"}
    for (role, _), endpoint in nodes.items():
        assert endpoint["ok"] and endpoint["cluster_id"] == real_kafka.cluster_id, endpoint
        assert endpoint["identity"]["verified"] is True, endpoint
        assert endpoint["identity"]["method"] == method[role], endpoint


@pytest.mark.realkafka
@pytest.mark.slow
def test_include_fenced_brokers_reads_as_kafka_cluster_sh_does(real_kafka: Any) -> None:
    cluster = cluster_of(real_kafka)
    ours = invoke("cluster", "list-endpoints", *cluster.broker_args(), "--include-fenced-brokers")
    assert ours.code == 0, ours.stderr
    theirs = kafka_tool(
        real_kafka.settings.kafka_home, "kafka-cluster.sh", "list-endpoints", *cluster.broker_args(),
        "--include-fenced-brokers",
    )  # fmt: skip
    assert theirs.returncode == 0, theirs.stderr
    assert ours.stdout == theirs.stdout


@pytest.mark.realkafka
@pytest.mark.slow
def test_the_oldest_release_answers_both_bootstrap_kinds(real_kafka_oldest: Any) -> None:
    cluster = cluster_of(real_kafka_oldest)
    for args in cluster.bootstrap_kinds():
        shown = invoke("cluster", "api-versions", *args, "-o", "json")
        assert shown.code == 0, shown.stderr
        (node,) = shown.json["nodes"]
        api_versions = next(api for api in node["apis"] if api["api_key"] == API_VERSIONS)
        # Kafka 4.0 predates ApiVersions v5 (KIP-1242): kcli negotiates v4 with it
        assert (api_versions["max_version"], api_versions["usable_version"]) == (4, 4)
        listed = invoke("cluster", "list-endpoints", *args, "-o", "json")
        assert [n["id"] for n in listed.json["nodes"]] == [1]
    doctor = invoke(
        "cluster", "doctor", *cluster.broker_args(), "--bootstrap-controller", real_kafka_oldest.bootstrap_controllers,
        "-o", "json", "--fail-on", "critical",
    )  # fmt: skip
    assert doctor.code == 0, doctor.stdout + doctor.stderr
    identities = [e["identity"] for e in doctor.json["endpoints"] if e["role"] != "bootstrap"]
    assert identities and all(i["verified"] is True and i["method"] == "describe_configs" for i in identities)
    assert real_kafka_oldest.kafka_version == OLDEST
