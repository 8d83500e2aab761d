"""The KIPs kcli's client is built on, on real nodes:

- KIP-919: each bootstrap kind pointed at the other kind of node is one clear error, for every tool;
- KIP-78: expected.cluster.id pins the cluster (checked against a second real cluster);
- KIP-1242: what Kafka 4.4 does with ApiVersions v5's ClusterId and NodeId, as the nodes answer it;
- KIP-899: every broker replaced behind the bootstrap list, in both ways the engine can (the old
  addresses reach the new brokers, or all of them go dead), while a kcli process runs.
The voter changes of KIP-853 and a misrouted plaintext broker are in test_cluster_changes.py.
"""

from __future__ import annotations

import json
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import kill_child, signal_child
from tests.conftest import invoke
from tests.realcluster.conftest import cluster_of
from tests.realcluster.peers import kcli_process, peer_admin, topic_configs

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow]

# One read-only command line of each tool that talks to a cluster.
EVERY_TOOL = [
    ["cluster-id"],
    ["cluster", "list-endpoints"],
    ["cluster", "api-versions"],
    ["configs", "--describe", "--broker-defaults"],
    ["acls", "--list"],
    ["features", "describe"],
    ["metadata-quorum", "describe", "--status"],
    ["reassign-partitions", "--list"],
]


def _with_bootstrap(words: list[str], flag: str, address: str, config: str | None) -> list[str]:
    """The command line with the bootstrap option where its tool takes it (features and metadata-quorum
    take it before their subcommand)."""
    extra = [flag, address, *(["--command-config", config] if config else [])]
    if words[0] in ("features", "metadata-quorum", "cluster"):
        return [words[0], *extra, *words[1:]]
    return [*words, *extra]


@pytest.mark.parametrize("kafka", ["real_kafka", "real_kafka_oldest"])
def test_each_bootstrap_kind_at_the_other_kind_of_node_is_one_clear_error(request: pytest.FixtureRequest, kafka: str) -> None:
    sandbox = request.getfixturevalue(kafka)
    cluster = cluster_of(sandbox)
    broker = sandbox.bootstrap_servers.split(",")[0]
    controller = sandbox.bootstrap_controllers.split(",")[0]
    for words in EVERY_TOOL:
        for flag, address, message in (
            ("--bootstrap-controller", broker, f"{broker} is a broker; use --bootstrap-server"),
            ("--bootstrap-server", controller, f"{controller} is a controller; use --bootstrap-controller"),
        ):
            wrong = invoke(*_with_bootstrap(words, flag, address, cluster.command_config))
            assert wrong.code in (1, 2), (words, flag, wrong.stdout)
            assert wrong.stdout == "", (words, flag)
            (line,) = wrong.stderr.strip().splitlines()
            assert message in line, (words, flag, line)


def test_expected_cluster_id_refuses_another_real_cluster(real_kafka: Any, real_kafka_oldest: Any, tmp_path: Path) -> None:
    oldest = cluster_of(real_kafka_oldest)
    pinned = {"KCLI_EXPECTED_CLUSTER_ID": real_kafka.cluster_id}
    peer = peer_admin(real_kafka_oldest.bootstrap_servers, None)
    try:
        from kafka.admin import NewTopic

        topic = "kcli-pinned"
        peer.create_topics([NewTopic(topic, 1, 1)])
        for args in oldest.bootstrap_kinds():
            refused = invoke("configs", *args, "--alter", "--topic", topic, "--add-config", "retention.ms=1", environ=pinned)
            assert refused.code == 1
            assert (
                f"has cluster id {real_kafka_oldest.cluster_id}, but expected.cluster.id is {real_kafka.cluster_id}; "
                "refusing to act on it" in refused.stderr
            )
        assert topic_configs(peer, topic)["retention.ms"] == "604800000"
        right = invoke(
            "configs", *oldest.broker_args(), "--alter", "--topic", topic, "--add-config", "retention.ms=2",
            environ={"KCLI_EXPECTED_CLUSTER_ID": real_kafka_oldest.cluster_id},
        )  # fmt: skip
        assert right.code == 0, right.stderr
        assert topic_configs(peer, topic)["retention.ms"] == "2"
        peer.delete_topics([topic])
    finally:
        peer.close()
    # the pin also holds on the newest release, through SASL_SSL
    newest = cluster_of(real_kafka)
    wrong = invoke("cluster-id", *newest.broker_args(), environ={"KCLI_EXPECTED_CLUSTER_ID": real_kafka_oldest.cluster_id})
    assert wrong.code == 1 and "refusing to act on it" in wrong.stderr


def _probe(address: str, config: Any, node_id: int, cluster_id: str) -> str:
    """Open a connection sending ApiVersions v5 with `cluster_id` and `node_id`: "ok" or the error's name."""
    import asyncio

    from kcli.client.connection import Connection, RebootstrapRequired
    from kcli.client.endpoints import parse_endpoints
    from kcli.client.errors import KafkaError

    (endpoint,) = parse_endpoints(address, source="probe")

    async def go() -> str:
        try:
            connection = await Connection.open(
                endpoint, config=config, deadline=time.monotonic() + 20, node_id=node_id, cluster_id=cluster_id
            )
        except RebootstrapRequired:
            return "REBOOTSTRAP_REQUIRED"
        except KafkaError as error:
            return error.name
        version = int(type(connection.api_versions_response).__version__)
        await connection.close()
        return f"ok v{version}"

    return asyncio.run(go())


def test_apiversions_v5_is_checked_only_by_brokers_before_any_sasl(real_kafka: Any) -> None:
    """What Kafka 4.4 does with KIP-1242's ClusterId/NodeId (kcli's identity checks are built on it):
    a broker's KafkaApis checks them, but on a SASL listener ApiVersions is answered by the SASL
    authenticator before login, unchecked; a controller never checks them. Whether both are set or
    neither is checked everywhere (ApiVersionsRequest.isValid)."""
    from kcli.client.config import config_from_properties

    settings = real_kafka.client_settings()
    config = config_from_properties({**settings, "bootstrap.servers": real_kafka.bootstrap_servers}, warn=lambda _: None)
    broker, controller = real_kafka.broker_ids[0], real_kafka.controller_ids[0]
    broker_address = f"127.0.0.1:{real_kafka.port_of(broker)}"
    controller_address = f"127.0.0.1:{real_kafka.port_of(controller)}"
    wrong_cluster = "AAAAAAAAAAAAAAAAAAAAAA"
    assert _probe(broker_address, config, broker, real_kafka.cluster_id) == "ok v5"
    assert _probe(broker_address, config, broker + 1, real_kafka.cluster_id) == "ok v5"  # SASL: unchecked
    assert _probe(broker_address, config, broker, wrong_cluster) == "ok v5"
    assert _probe(controller_address, config, controller + 1, wrong_cluster) == "ok v5"  # controllers never check
    # a ClusterId without a NodeId (or the other way round) is malformed, on every listener
    assert _probe(broker_address, config, -1, real_kafka.cluster_id) == "INVALID_REQUEST"
    assert _probe(controller_address, config, -1, real_kafka.cluster_id) == "INVALID_REQUEST"


def _watch(cluster: Any, config: Path) -> Any:
    return kcli_process(
        "metadata-quorum", "--bootstrap-server", cluster.bootstrap_servers, "--command-config", str(config),
        "describe", "--status", "--watch", "--interval", "1", "-o", "json",
    )  # fmt: skip


def _refreshes(process: Any, until: Any, timeout: float) -> list[dict[str, Any]]:
    """Read the watch's JSON lines until `until(lines)` holds (or fail after `timeout` seconds)."""
    import selectors

    lines: list[dict[str, Any]] = []
    selector = selectors.DefaultSelector()
    selector.register(process.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while not until(lines):
        if time.monotonic() > deadline or process.poll() is not None:
            raise AssertionError(f"the watch stopped or stalled: {lines[-5:]}, stderr {process.stderr.read() if process.poll() is not None else ''}")
        if selector.select(timeout=1):
            line = process.stdout.readline()
            if line:
                lines.append(json.loads(line))
    return lines


@pytest.mark.timeout(600)  # three broker JVMs start one after the other
def test_every_broker_replaced_while_kcli_runs(make_real_kafka: Any, tmp_path: Path) -> None:
    kafka = make_real_kafka(controllers=1, brokers=1, topics=1, partitions=2)
    old_bootstrap = kafka.bootstrap_servers
    # Kafka's clients wait for a bootstrap address that refuses for default.api.timeout.ms (60 s)
    config = tmp_path / "client.properties"
    config.write_text("default.api.timeout.ms=120000\nrequest.timeout.ms=10000\n")
    watch = _watch(kafka, config)
    try:
        _refreshes(watch, lambda lines: len(lines) >= 2, timeout=60)
        # 1. the new broker takes the old one's port: the bootstrap list reaches it, kcli rebootstraps
        assert kafka.replace_brokers() == {1: 2}
        assert kafka.bootstrap_servers == old_bootstrap and not kafka.running(1)
        seen = _refreshes(watch, lambda lines: len(lines) >= 2, timeout=5)
        after = _refreshes(watch, lambda lines: len(lines) >= 3 and all("error" not in x for x in lines[-3:]), timeout=90)
        assert all(line.get("cluster_id", kafka.cluster_id) == kafka.cluster_id for line in seen + after)
        listed = invoke("cluster", "list-endpoints", "--bootstrap-server", old_bootstrap, "-o", "json")
        assert [n["id"] for n in listed.json["nodes"]] == [2]

        # 2. the next new broker keeps a new port: every address kcli was given is dead
        assert kafka.replace_brokers(fresh_ports=True) == {2: 3}
        dead = _refreshes(watch, lambda lines: len(lines) >= 2 and all("error" in x for x in lines[-2:]), timeout=90)
        assert f"none of the bootstrap brokers answered ({old_bootstrap})" in dead[-1]["error"] or (
            f"cannot connect to {old_bootstrap}" in dead[-1]["error"]
        ), dead[-1]
    finally:
        signal_child(watch, signal.SIGINT)
        try:
            watch.wait(timeout=20)
        finally:
            if watch.poll() is None:
                kill_child(watch)
    # a new run with the dead list fails at once with what to check; the new address works
    fresh = invoke("cluster-id", "--bootstrap-server", old_bootstrap)
    assert fresh.code == 1
    (line,) = fresh.stderr.strip().splitlines()
    assert f"cannot connect to {old_bootstrap}: connection refused" in line
    assert invoke("cluster-id", "--bootstrap-server", kafka.bootstrap_servers).stdout == f"Cluster ID: {kafka.cluster_id}\n"
