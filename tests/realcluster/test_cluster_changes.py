"""A real cluster changed by kcli, step by step: formatted at an older release, its features upgraded,
downgraded and disabled, a controller added to its dynamic quorum and removed (KIP-853), a broker
misrouted by its advertised.listeners (KIP-1242), then stopped and unregistered.

The steps share one small cluster (1 controller + 2 brokers, plaintext, so the brokers check ApiVersions
v5) and run in file order; each reads back what kcli did through kafka-python or Kafka's own tools.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import NEWEST, kafka_home
from tests.polling import wait_for
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import kafka_tool, peer_admin

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow]

FORMATTED_AT = "3.9-IV0"  # metadata.version 21: the first with a dynamic quorum (kraft.version 1)
UPGRADE_TO = "4.0-IV3"


@pytest.fixture(scope="module")
def older(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kcli.sandbox.kafka.handle import KafkaSandbox

    with KafkaSandbox(
        kafka_home(NEWEST),
        tmp_path_factory.mktemp("older-kafka"),
        controllers=1,
        brokers=2,
        release_version=FORMATTED_AT,
        topics=1,
        partitions=2,
    ) as kafka:
        yield kafka


@pytest.fixture(scope="module")
def cluster(older: Any) -> RealCluster:
    return cluster_of(older)


@pytest.fixture
def peer(older: Any) -> Iterator[Any]:
    admin = peer_admin(older.bootstrap_servers, None)
    try:
        yield admin
    finally:
        admin.close()


def _finalized(admin: Any) -> dict[str, int]:
    return {name: f["finalized"][1] for name, f in admin.describe_features().items() if f.get("finalized")}


def test_features_describe_the_release_the_cluster_was_formatted_at(cluster: RealCluster, peer: Any) -> None:
    finalized = _finalized(peer)
    assert finalized["metadata.version"] == 21
    for args in cluster.bootstrap_kinds():
        shown = invoke("features", *args, "describe", "-o", "json")
        assert shown.code == 0, shown.stderr
        ours = {f["name"]: f["finalized_version_level"] for f in shown.json["features"] if f["finalized_version_level"]}
        assert ours == finalized
    text = invoke("features", *cluster.broker_args(), "describe")
    assert any(  # a 4.4 node: kafka-features 4.3+ pads the columns
        line.split()[:2] == ["Feature:", "metadata.version"] and "FinalizedVersionLevel: 3.9-IV0  " in line
        for line in text.lines
    ), text.stdout


def test_the_oldest_release_describes_its_own_features(real_kafka_oldest: Any) -> None:
    admin = peer_admin(real_kafka_oldest.bootstrap_servers, None)
    try:
        finalized = _finalized(admin)
    finally:
        admin.close()
    assert finalized["metadata.version"] == 25  # 4.0-IV3, the latest production level of Kafka 4.0
    for args in cluster_of(real_kafka_oldest).bootstrap_kinds():
        shown = invoke("features", *args, "describe", "-o", "json")
        assert shown.code == 0, shown.stderr
        ours = {f["name"]: f["finalized_version_level"] for f in shown.json["features"] if f["finalized_version_level"]}
        assert ours == finalized


def test_features_upgrade_to_a_release_then_downgrade_and_disable(older: Any, cluster: RealCluster, peer: Any) -> None:
    before = _finalized(peer)
    dry = invoke("features", *cluster.controller_args(), "upgrade", "--release-version", UPGRADE_TO, "--dry-run")
    assert dry.code == 0, dry.stderr
    assert "metadata.version can be upgraded to 25." in dry.lines
    assert _finalized(peer) == before

    upgraded = invoke("features", *cluster.broker_args(), "upgrade", "--release-version", UPGRADE_TO)
    assert upgraded.code == 0, upgraded.stderr
    assert "metadata.version was upgraded to 25." in upgraded.lines
    mapping = invoke("features", "version-mapping", "--release-version", UPGRADE_TO, "-o", "json").json
    wanted = {"metadata.version": mapping["metadata_version"], **{k: v for k, v in mapping["features"].items() if v}}
    assert wait_for(lambda: _finalized(peer) == wanted, timeout=30, interval=0.5, what="features at 4.0-IV3")

    down = invoke("features", *cluster.controller_args(), "downgrade", "--feature", "transaction.version=1")
    assert down.code == 0, down.stderr
    assert down.stdout == "transaction.version was downgraded to 1.\n"
    disabled = invoke("features", *cluster.broker_args(), "disable", "--feature", "group.version")
    assert disabled.code == 0, disabled.stderr
    wanted = {**wanted, "transaction.version": 1}
    wanted.pop("group.version")
    assert wait_for(lambda: _finalized(peer) == wanted, timeout=30, interval=0.5, what="downgraded features")

    # metadata.version never goes down without --unsafe, and Kafka 4 refuses even that: the cluster says why
    refused = invoke("features", *cluster.broker_args(), "downgrade", "--metadata", FORMATTED_AT)
    assert refused.code == 1
    assert "Could not downgrade metadata.version to 21." in refused.stdout
    assert _finalized(peer) == wanted
    theirs = kafka_tool(older.settings.kafka_home, "kafka-features.sh", *cluster.broker_args(), "describe")
    assert theirs.returncode == 0, theirs.stderr
    ours = invoke("features", *cluster.broker_args(), "describe")
    # the same features at the same levels as Kafka's tool (columns aside, which kafka-features pads;
    # the supported maximum of metadata.version is a level kcli's feature table may not name yet)
    def levels(lines: list[str]) -> list[tuple[str, str]]:
        return [(line.split()[1], line.split("FinalizedVersionLevel:")[1].split()[0]) for line in lines]

    assert levels(ours.lines) == levels(theirs.stdout.splitlines())


def test_a_controller_joins_the_dynamic_quorum_and_leaves_it(older: Any, cluster: RealCluster, peer: Any) -> None:
    properties = older.prepare_controller(102)

    def voters() -> set[int]:
        quorum = peer.describe_metadata_quorum()["topics"][0]["partitions"][0]
        return {v["replica_id"] for v in quorum["current_voters"]}

    assert voters() == {101}
    dry = invoke(
        "metadata-quorum", "--bootstrap-server", older.bootstrap_servers, "--command-config", str(properties),
        "add-controller", "--dry-run",
    )  # fmt: skip
    assert dry.code == 0, dry.stderr
    added = invoke(
        "metadata-quorum", "--bootstrap-server", older.bootstrap_servers, "--command-config", str(properties),
        "add-controller",
    )  # fmt: skip
    assert added.code == 0, added.stderr
    wait_for(lambda: voters() == {101, 102}, timeout=60, interval=0.5, what="controller 102 a voter")
    status = invoke("metadata-quorum", *cluster.controller_args(), "describe", "--status", "-o", "json")
    assert {v["id"] for v in status.json["voters"]} == {101, 102}

    directory_id = _directory_id(older, 102)
    removed = invoke(
        "metadata-quorum", *cluster.controller_args(), "remove-controller", "--controller-id", "102",
        "--controller-directory-id", directory_id,
    )  # fmt: skip
    assert removed.code == 0, removed.stderr
    wait_for(lambda: voters() == {101}, timeout=60, interval=0.5, what="controller 102 no longer a voter")
    older.stop_node(102)


def _directory_id(kafka: Any, node_id: int) -> str:
    from kcli.properties import parse_properties

    meta = parse_properties((kafka.metadata_log_dir(node_id).parent / "meta.properties").read_text())
    return meta["directory.id"]


def _advertise(kafka: Any, node_id: int, port: int) -> None:
    """Restart `node_id` advertising `port` for its broker listener (it still listens on its own), through
    the node's overrides.properties (the engine writes server.properties at every start)."""
    from kcli.properties import parse_properties

    kafka.stop_node(node_id)
    written = parse_properties((kafka.directory / str(node_id) / "server.properties").read_text())
    listener = written["advertised.listeners"].split("://", 1)[0]
    overrides = kafka.directory / str(node_id) / "overrides.properties"
    overrides.write_text(f"advertised.listeners={listener}://127.0.0.1:{port}\n", encoding="utf-8")
    kafka.start_node(node_id)


def test_a_misrouted_broker_gets_no_request_and_is_named(older: Any, cluster: RealCluster, tmp_path: Path) -> None:
    first, second = older.broker_ids
    _advertise(older, second, older.port_of(first))
    listed = invoke("cluster", "list-endpoints", *cluster.broker_args(), "-o", "json")
    assert {(n["id"], n["port"]) for n in listed.json["nodes"]} == {(first, older.port_of(first)), (second, older.port_of(first))}

    # the broker at that address is `first`: it answers ApiVersions v5 for `second` with REBOOTSTRAP_REQUIRED
    key = "log.cleaner.backoff.ms"
    altered = invoke("configs", *cluster.broker_args(), "--alter", "--broker", str(second), "--add-config", f"{key}=15009")
    assert altered.code == 1
    assert f"node {second} (127.0.0.1:{older.port_of(first)}) is misrouted" in altered.stderr
    peer = peer_admin(f"127.0.0.1:{older.port_of(first)}", None)
    try:
        from tests.realcluster.peers import broker_configs

        assert broker_configs(peer, str(first))[key]["config_source"] == "DEFAULT_CONFIG"
    finally:
        peer.close()

    doctor = invoke("cluster", "doctor", *cluster.broker_args(), "-o", "json")
    assert doctor.code == 1, doctor.stdout
    flagged = [f for f in doctor.json["findings"] if str(second) in f["subject"] or str(second) in f["message"]]
    assert flagged and any(f["severity"] in ("high", "critical") for f in flagged), doctor.json["findings"]


def test_a_stopped_broker_is_fenced_then_unregistered(older: Any, cluster: RealCluster) -> None:
    _, second = older.broker_ids
    older.stop_node(second)

    def fenced() -> list[str]:
        theirs = kafka_tool(
            older.settings.kafka_home, "kafka-cluster.sh", "list-endpoints", *cluster.broker_args(),
            "--include-fenced-brokers",
        )  # fmt: skip
        return theirs.stdout.splitlines()

    ours = invoke("cluster", "list-endpoints", *cluster.broker_args(), "--include-fenced-brokers", "-o", "json")
    assert {n["id"]: n["fenced"] for n in ours.json["nodes"]} == {older.broker_ids[0]: False, second: True}
    assert any(line.split()[:1] == [str(second)] and "fenced" in line.split() for line in fenced())

    refused = invoke("cluster", "unregister", *cluster.broker_args(), "--id", "999")
    assert refused.code == 1
    assert "BROKER_ID_NOT_REGISTERED" in refused.stderr
    unregistered = invoke("cluster", "unregister", *cluster.controller_args(), "--id", str(second))
    assert unregistered.code == 0, unregistered.stderr
    assert unregistered.stdout == f"Broker {second} is no longer registered.\n"
    left = fenced()
    assert not any(line.split()[:1] == [str(second)] for line in left), left
