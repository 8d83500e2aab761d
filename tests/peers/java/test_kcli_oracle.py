"""kcli's `-o json` against Kafka's Java AdminClient on the same cluster state, field by field.

The Java client is what kafka-*.sh run on; where kcli reports another value for the same state, kcli is
wrong. Each test reads the Java view and kcli's view of one state (writes done once, before both).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.dataplane.filling import fill
from tests.peers.java import state
from tests.peers.java.conftest import client_props
from tests.peers.java.peer import JavaAdmin, JavaPeer, unwrap
from tests.peers.java.test_sandbox_fidelity import poll

pytestmark = pytest.mark.java


def kcli_json(*args: str) -> Any:
    result = invoke(*args, "-o", "json")
    assert result.code == 0, (args, result.stderr)
    return result.json


def _b(sb: Any) -> tuple[str, str]:
    return ("-b", sb.bootstrap_servers)


def _c(sb: Any) -> tuple[str, str]:
    return ("-C", sb.bootstrap_controllers)


# ------------------------------------------------------------------ cluster id, controller, nodes, racks


@pytest.mark.parametrize("via", ["java_brokers", "java_controllers"])
def test_cluster_id_controller_nodes_and_racks(
    via: str, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    bootstrap = _b(peer_sandbox) if via == "java_brokers" else _c(peer_sandbox)
    seen = java.call("describeCluster")
    ident = kcli_json("cluster-id", *bootstrap)
    assert ident["cluster_id"] == seen["clusterId"]
    assert ident["controller_id"] == seen["controller"]["id"]
    endpoints = kcli_json("cluster", *bootstrap, "list-endpoints")
    assert endpoints["cluster_id"] == seen["clusterId"]
    assert [
        {k: n[k] for k in ("id", "host", "port", "rack")}
        for n in sorted(endpoints["nodes"], key=lambda n: n["id"])
    ] == seen["nodes"]


# ------------------------------------------------------------------ configs


def _java_entries(java: JavaAdmin, resource_type: str, name: str) -> dict[str, dict[str, Any]]:
    entries = unwrap(java.call("describeConfigs", resources=[{"type": resource_type, "name": name}])[
        f"{resource_type}:{name}"
    ])  # fmt: skip
    return {e["name"]: e for e in entries}


def _kcli_entries(*args: str) -> dict[str, dict[str, Any]]:
    out = kcli_json("configs", *args, "--describe", "--all")
    (resource,) = out["resources"]
    assert resource["error"] is None
    return {c["name"]: c for c in resource["configs"]}


def _same_configs(kcli: dict[str, dict[str, Any]], java: dict[str, dict[str, Any]]) -> None:
    """name, value, source, sensitive, read-only, type and synonyms of every config."""
    assert sorted(kcli) == sorted(java)
    for name, j in java.items():
        k = kcli[name]
        assert (k["value"], k["source"], k["sensitive"], k["read_only"], k["type"]) == (
            j["value"], j["source"], j["sensitive"], j["readOnly"], j["type"]
        ), name  # fmt: skip
        assert k["synonyms"] == j["synonyms"], name


@pytest.fixture(scope="module")
def configured(java_brokers: JavaAdmin, peer_sandbox: Any) -> Iterator[str]:
    """A topic with dynamic configs, a broker override and cluster-wide defaults, set by the Java client.

    Any broker may answer a topic's DescribeConfigs, and its own overrides show as synonyms: so no broker
    overrides a key that a topic config falls back to, and both clients see the same synonyms.
    """
    topic = "oracle-configs"
    unwrap(java_brokers.call("createTopics", topics=[{"name": topic, "partitions": 2, "configs": {
        "retention.ms": "86400000", "cleanup.policy": "compact,delete", "min.insync.replicas": "1",
    }}])[topic])  # fmt: skip
    java_brokers.call("incrementalAlterConfigs", resources=[
        {"type": "BROKER", "name": "2", "ops": [{"name": "log.cleaner.threads", "value": "2"}]},
        {"type": "BROKER", "name": "", "ops": [{"name": "log.retention.bytes", "value": "1073741824"},
                                               {"name": "log.retention.ms", "value": "3600000"},
                                               {"name": "log.segment.bytes", "value": "536870912"}]},
    ])  # fmt: skip
    yield topic
    java_brokers.call("incrementalAlterConfigs", resources=[
        {"type": "BROKER", "name": "2", "ops": [{"name": "log.cleaner.threads", "op": "DELETE"}]},
        {"type": "BROKER", "name": "", "ops": [{"name": "log.retention.bytes", "op": "DELETE"},
                                               {"name": "log.retention.ms", "op": "DELETE"},
                                               {"name": "log.segment.bytes", "op": "DELETE"}]},
    ])  # fmt: skip
    java_brokers.call("deleteTopics", names=[topic])


def test_topic_configs(configured: str, java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    java = _java_entries(java_brokers, "TOPIC", configured)
    _same_configs(_kcli_entries(*_b(peer_sandbox), "--topic", configured), java)
    assert [(s["name"], s["source"]) for s in java["retention.ms"]["synonyms"]] == [
        ("retention.ms", "DYNAMIC_TOPIC_CONFIG"),
        ("log.retention.ms", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
        ("log.retention.hours", "DEFAULT_CONFIG"),
    ]
    # without --all: the dynamic ones, as kafka-configs.sh lists them
    dynamic = kcli_json("configs", *_b(peer_sandbox), "--describe", "--topic", configured)["resources"][0][
        "configs"
    ]
    assert {c["name"]: c["value"] for c in dynamic} == {
        name: e["value"] for name, e in java.items() if e["source"] == "DYNAMIC_TOPIC_CONFIG"
    }


def test_every_topic_and_every_broker(configured: str, java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    """--entity-type without a name: each topic's (each broker's) dynamic configs, as the Java client sees them."""
    topics = java_brokers.call("listTopics")
    described = java_brokers.call("describeConfigs", resources=[{"type": "TOPIC", "name": t} for t in topics])
    listed = kcli_json("configs", *_b(peer_sandbox), "--describe", "--entity-type", "topics")["resources"]
    assert {r["entity"]["name"]: {c["name"]: c["value"] for c in r["configs"]} for r in listed} == {
        t: {
            e["name"]: e["value"]
            for e in unwrap(described[f"TOPIC:{t}"])
            if e["source"] == "DYNAMIC_TOPIC_CONFIG"
        }
        for t in topics
    }
    brokers = [str(b) for b in peer_sandbox.broker_ids]
    described = java_brokers.call(
        "describeConfigs", resources=[{"type": "BROKER", "name": b} for b in [*brokers, ""]]
    )
    listed = kcli_json("configs", *_b(peer_sandbox), "--describe", "--entity-type", "brokers")["resources"]
    # kafka-configs.sh keeps a broker's own overrides (the defaults: DYNAMIC_DEFAULT_BROKER_CONFIG)
    source = {
        b: "DYNAMIC_DEFAULT_BROKER_CONFIG" if b == "" else "DYNAMIC_BROKER_CONFIG" for b in [*brokers, ""]
    }
    assert {r["entity"]["name"] or "": {c["name"]: c["value"] for c in r["configs"]} for r in listed} == {
        b: {e["name"]: e["value"] for e in unwrap(described[f"BROKER:{b}"]) if e["source"] == source[b]}
        for b in [*brokers, ""]
    }


def test_sensitive_configs_over_sasl_ssl(java_peer: JavaPeer, secure_sandbox: Any) -> None:
    java = java_peer.client(client_props(secure_sandbox))
    try:
        entries = _java_entries(java, "BROKER", "1")
    finally:
        java.close()
    assert any(e["sensitive"] for e in entries.values())
    command_config = str(secure_sandbox.command_config("admin", "SCRAM-SHA-256"))
    _same_configs(_kcli_entries(*_b(secure_sandbox), "-c", command_config, "--broker", "1"), entries)


@pytest.mark.parametrize("broker", ["1", "2"])
def test_broker_configs(broker: str, configured: str, java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    _same_configs(
        _kcli_entries(*_b(peer_sandbox), "--broker", broker), _java_entries(java_brokers, "BROKER", broker)
    )


def test_broker_default_configs(configured: str, java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    java = _java_entries(java_brokers, "BROKER", "")
    # min.insync.replicas: the cluster-level value Kafka's controller keeps while ELR is on
    assert sorted(java) == [
        "log.retention.bytes",
        "log.retention.ms",
        "log.segment.bytes",
        "min.insync.replicas",
    ]
    _same_configs(_kcli_entries(*_b(peer_sandbox), "--broker-defaults"), java)


def test_controller_configs_through_controllers(
    configured: str, java_controllers: JavaAdmin, peer_sandbox: Any
) -> None:
    controller = str(peer_sandbox.controller_ids[-1])
    _same_configs(
        _kcli_entries(*_c(peer_sandbox), "--broker", controller),
        _java_entries(java_controllers, "BROKER", controller),
    )


# ------------------------------------------------------------------ quorum and features


def _leader_free(
    replicas: list[dict[str, Any]], leader: int, fields: tuple[str, ...]
) -> list[tuple[Any, ...]]:
    """The replicas' fields, the leader's fetch times left out (the leader reports "now")."""
    return [
        tuple(None if r[fields[0]] == leader and f.startswith("last") else r[f] for f in fields)
        for r in replicas
    ]


def _without_leader_times(quorum: dict[str, Any]) -> dict[str, Any]:
    leader = quorum["leaderId"]
    return {
        **quorum,
        "voters": [
            {k: v for k, v in r.items() if r["replicaId"] != leader or not k.startswith("last")}
            for r in quorum["voters"]
        ],
    }


def _quorum_views(java: JavaAdmin, bootstrap: tuple[str, str]) -> tuple[dict[str, Any], ...]:
    """(Java before, kcli --status, kcli --replication, Java after), retried until the quorum held still."""
    for _ in range(5):
        seen = java.call("describeMetadataQuorum")
        status = kcli_json("metadata-quorum", *bootstrap, "describe", "--status")
        replication = kcli_json("metadata-quorum", *bootstrap, "describe", "--replication")
        again = java.call("describeMetadataQuorum")
        if _without_leader_times(seen) == _without_leader_times(again):
            break
    assert _without_leader_times(seen) == _without_leader_times(again), "the quorum kept moving"
    return seen, status, replication, again


def _same_quorum(
    seen: dict[str, Any], again: dict[str, Any], status: dict[str, Any], replication: list[Any]
) -> None:
    """leader, epoch, high watermark, voters and observers with offsets, timestamps, lag and endpoints."""
    leader = seen["leaderId"]
    assert (status["leader_id"], status["leader_epoch"], status["high_watermark"]) == (
        leader, seen["leaderEpoch"], seen["highWatermark"]
    )  # fmt: skip
    java_fields = (
        "replicaId",
        "replicaDirectoryId",
        "logEndOffset",
        "lastFetchTimestamp",
        "lastCaughtUpTimestamp",
    )
    kcli_fields = ("id", "directory_id", "log_end_offset", "last_fetch_timestamp", "last_caught_up_timestamp")
    for group in ("voters", "observers"):
        assert _leader_free(status[group], leader, kcli_fields) == _leader_free(
            seen[group], leader, java_fields
        )
    for voter in status["voters"]:
        assert voter["endpoints"] == [
            f"{e['name']}://{e['host']}:{e['port']}" for e in seen["nodes"][str(voter["id"])]
        ]
    # as kafka-metadata-quorum computes them: against the first voter with the smallest log end offset
    first, last = (next(r for r in q["voters"] if r["replicaId"] == leader) for q in (seen, again))
    laggiest = min(seen["voters"], key=lambda r: r["logEndOffset"])
    assert status["max_follower_lag"] == first["logEndOffset"] - laggiest["logEndOffset"]
    if laggiest["replicaId"] == leader:
        assert status["max_follower_lag_time_ms"] == 0
    else:
        caught_up = laggiest["lastCaughtUpTimestamp"]
        assert first["lastCaughtUpTimestamp"] - caught_up <= status["max_follower_lag_time_ms"]
        assert status["max_follower_lag_time_ms"] <= last["lastCaughtUpTimestamp"] - caught_up
    rows = {r["node_id"]: r for r in replication}
    assert len(rows) == len(seen["voters"]) + len(seen["observers"])
    for group, kind in (("voters", "Follower"), ("observers", "Observer")):
        for r in seen[group]:
            row = rows[r["replicaId"]]
            assert row["directory_id"] == r["replicaDirectoryId"]
            assert row["log_end_offset"] == r["logEndOffset"]
            assert row["lag"] == first["logEndOffset"] - r["logEndOffset"]
            assert row["status"] == ("Leader" if r["replicaId"] == leader else kind)
            if r["replicaId"] != leader:
                assert (row["last_fetch_timestamp"], row["last_caught_up_timestamp"]) == (
                    r["lastFetchTimestamp"], r["lastCaughtUpTimestamp"]
                )  # fmt: skip


@pytest.mark.parametrize("via", ["java_brokers", "java_controllers"])
def test_quorum_status_and_replication(via: str, peer_sandbox: Any, request: pytest.FixtureRequest) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    bootstrap = _b(peer_sandbox) if via == "java_brokers" else _c(peer_sandbox)
    seen, status, replication, again = _quorum_views(java, bootstrap)
    _same_quorum(seen, again, status, replication)


def test_quorum_with_lagging_replicas(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    """A stopped voter and a stopped broker fall behind while the log grows: offsets and lag differ."""
    voter = peer_sandbox.controller_ids[-1]
    broker = peer_sandbox.broker_ids[-1]
    peer_sandbox.stop_node(voter)
    peer_sandbox.stop_node(broker)
    try:
        unwrap(
            java_brokers.call(
                "createTopics", topics=[{"name": "oracle-lag", "partitions": 3, "replicationFactor": 2}]
            )["oracle-lag"]
        )
        seen, status, replication, again = _quorum_views(java_brokers, _b(peer_sandbox))
        lags = {r["node_id"]: r["lag"] for r in replication}
        assert lags[voter] > 0 and lags[broker] > 0, lags
        assert status["max_follower_lag"] == lags[voter]
        _same_quorum(seen, again, status, replication)
    finally:
        peer_sandbox.start_node(voter)
        peer_sandbox.start_node(broker)
    poll(
        lambda: all(r["logEndOffset"] == q["highWatermark"] for q in [java_brokers.call("describeMetadataQuorum")]
                    for r in q["voters"] + q["observers"]),
        what="every replica caught up again",
    )  # fmt: skip
    unwrap(java_brokers.call("deleteTopics", names=["oracle-lag"])["oracle-lag"])


@pytest.mark.parametrize("via", ["java_brokers", "java_controllers"])
def test_finalized_and_supported_features(
    via: str, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    bootstrap = _b(peer_sandbox) if via == "java_brokers" else _c(peer_sandbox)
    seen = java.call("describeFeatures")
    described = kcli_json("features", *bootstrap, "describe")
    assert described["finalized_epoch"] == seen["finalizedEpoch"]
    by_name = {f["name"]: f for f in described["features"]}
    assert sorted(by_name) == sorted(seen["supported"])
    for name, supported in seen["supported"].items():
        row = by_name[name]
        assert (row["supported_min_version"], row["supported_max_version"]) == (
            supported["min"],
            supported["max"],
        )
        finalized = seen["finalized"].get(name)
        assert row["finalized_version_level"] == (finalized["max"] if finalized else 0), name


# ------------------------------------------------------------------ SCRAM users and client quotas


@pytest.fixture(scope="module")
def users_and_quotas(java_brokers: JavaAdmin) -> Iterator[None]:
    # one alteration per user and request: Kafka 4.4's controller refuses a user altered twice in one
    java_brokers.call("alterUserScramCredentials", upserts=[
        {"user": "oracle-erin", "mechanism": "SCRAM-SHA-256", "iterations": 8192, "password": "e-secret"},
        {"user": "oracle-frank", "mechanism": "SCRAM-SHA-512", "iterations": 4096, "password": "f-secret"},
    ])  # fmt: skip
    java_brokers.call("alterUserScramCredentials", upserts=[
        {"user": "oracle-erin", "mechanism": "SCRAM-SHA-512", "iterations": 10000, "password": "e-secret"},
    ])  # fmt: skip
    java_brokers.call("alterClientQuotas", alterations=[
        {"entity": {"user": "oracle-erin"}, "values": {"producer_byte_rate": 1048576.0, "request_percentage": 25.0}},
        {"entity": {"user": "oracle-erin", "client-id": "etl"}, "values": {"consumer_byte_rate": 2097152.0}},
        {"entity": {"user": None}, "values": {"producer_byte_rate": 524288.0}},
        {"entity": {"client-id": "billing"}, "values": {"controller_mutation_rate": 10.0}},
        {"entity": {"client-id": None}, "values": {"consumer_byte_rate": 4096.0}},
        {"entity": {"ip": "10.1.2.3"}, "values": {"connection_creation_rate": 7.0}},
        {"entity": {"ip": None}, "values": {"connection_creation_rate": 50.0}},
    ])  # fmt: skip
    yield
    for mechanism in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
        java_brokers.call(
            "alterUserScramCredentials", deletions=[{"user": "oracle-erin", "mechanism": mechanism}]
        )
    java_brokers.call(
        "alterUserScramCredentials", deletions=[{"user": "oracle-frank", "mechanism": "SCRAM-SHA-512"}]
    )
    for q in java_brokers.call("describeClientQuotas"):
        java_brokers.call("alterClientQuotas", alterations=[
            {"entity": q["entity"], "values": dict.fromkeys(q["values"])},
        ])  # fmt: skip


def test_scram_users(users_and_quotas: None, java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    seen = {user: unwrap(v) for user, v in java_brokers.call("describeUserScramCredentials").items()}
    listed = kcli_json("configs", *_b(peer_sandbox), "--describe", "--entity-type", "users")
    assert {u["user"]: u["credentials"] for u in listed["scram"] if u["error"] is None} == seen
    one = kcli_json(
        "configs", *_b(peer_sandbox), "--describe", "--entity-type", "users", "--entity-name", "oracle-erin"
    )
    assert [u["credentials"] for u in one["scram"]] == [seen["oracle-erin"]]


def _kcli_quotas(listed: dict[str, Any]) -> list[dict[str, Any]]:
    return sorted(
        (
            {"entity": {e["type"]: e["name"] for e in q["entity"]}, "values": q["values"]}
            for q in listed["quotas"]
        ),
        key=lambda q: str(sorted(q["entity"].items(), key=str)),
    )


def _java_quotas(quotas: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(quotas, key=lambda q: str(sorted(q["entity"].items(), key=str)))


@pytest.mark.parametrize(
    ("args", "components"),
    [
        (("--entity-type", "users"), [{"entityType": "user"}]),
        (("--entity-type", "clients"), [{"entityType": "client-id"}]),
        (("--entity-type", "ips"), [{"entityType": "ip"}]),
        (
            ("--entity-type", "users", "--entity-name", "oracle-erin"),
            [{"entityType": "user", "name": "oracle-erin"}],
        ),
        (("--entity-type", "users", "--entity-default"), [{"entityType": "user", "default": True}]),
        (("--entity-type", "clients", "--entity-default"), [{"entityType": "client-id", "default": True}]),
        (("--entity-type", "ips", "--entity-name", "10.1.2.3"), [{"entityType": "ip", "name": "10.1.2.3"}]),
        (
            (
                "--entity-type",
                "users",
                "--entity-name",
                "oracle-erin",
                "--entity-type",
                "clients",
                "--entity-name",
                "etl",
            ),
            [{"entityType": "user", "name": "oracle-erin"}, {"entityType": "client-id", "name": "etl"}],
        ),
    ],
)
def test_client_quotas(
    args: tuple[str, ...], components: list[dict[str, Any]], users_and_quotas: None, java_brokers: JavaAdmin,
    peer_sandbox: Any,
) -> None:  # fmt: skip
    """Each kcli selection shows what kafka-configs.sh shows: the Java describe with the same filter,
    strict (only entities of exactly those types), as ConfigCommand asks."""
    seen = java_brokers.call("describeClientQuotas", components=components, strict=True)
    assert seen, "the selection matches something"
    listed = kcli_json("configs", *_b(peer_sandbox), "--describe", *args)
    assert _kcli_quotas(listed) == _java_quotas(seen)


# ------------------------------------------------------------------ reassignments, log dirs, sizes


def _file(tmp_path: Path, name: str, content: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(content), encoding="utf-8")
    return str(path)


def _sizes(java: JavaAdmin, brokers: list[int]) -> dict[tuple[str, int], int]:
    """Replica size by (topic-partition, broker) from the Java client's DescribeLogDirs."""
    out = {}
    for broker, dirs in java.call("describeLogDirs", brokers=brokers).items():
        for described in unwrap(dirs).values():
            for tp, replica in described["replicas"].items():
                if not replica["isFuture"]:
                    out[(tp, int(broker))] = replica["size"]
    return out


def test_generate_reports_log_dirs_and_sizes(
    java_brokers: JavaAdmin, peer_sandbox: Any, tmp_path: Path
) -> None:
    topic = "oracle-generate"
    unwrap(
        java_brokers.call(
            "createTopics", topics=[{"name": topic, "assignments": [[1, 2], [2, 3], [3, 1], [2, 1]]}]
        )[topic]
    )
    brokers = list(peer_sandbox.broker_ids)
    plan = kcli_json(
        "reassign-partitions", *_b(peer_sandbox), "--generate", "--broker-list", "1,2",
        "--topics-to-move-json-file", _file(tmp_path, "topics.json", {"version": 1, "topics": [{"topic": topic}]}),
        "--seed", "3",
    )  # fmt: skip
    replicas = [
        {"topic": topic, "partition": p["partition"], "broker": b}
        for p in plan["current"]["partitions"]
        for b in p["replicas"]
    ]
    where = java_brokers.call("describeReplicaLogDirs", replicas=replicas)
    for p in plan["current"]["partitions"]:
        assert p["log_dirs"] == [
            unwrap(where[f"{topic}-{p['partition']}-{b}"])["currentDir"] for b in p["replicas"]
        ]
    sizes = _sizes(java_brokers, brokers)
    current = {p["partition"]: set(p["replicas"]) for p in plan["current"]["partitions"]}
    moved = [
        (p["partition"], b)
        for p in plan["proposed"]["partitions"]
        for b in p["replicas"]
        if b not in current[p["partition"]]
    ]
    assert plan["stats"]["replicas_moved"] == len(moved)
    # a moved replica copies the whole partition: its size on a replica that has it
    assert moved
    assert plan["stats"]["bytes_moved"] == sum(
        sizes[(f"{topic}-{p}", next(iter(current[p])))] for p, _ in moved
    )
    unwrap(java_brokers.call("deleteTopics", names=[topic])[topic])


def test_reassignment_in_flight(java_brokers: JavaAdmin, peer_sandbox: Any, tmp_path: Path) -> None:
    """kcli starts a throttled move; its --list, --verify and --wait progress match the Java view."""
    topic = "oracle-moving"
    unwrap(
        java_brokers.call("createTopics", topics=[{"name": topic, "assignments": [[1, 2], [2, 3]]}])[topic]
    )
    fill(peer_sandbox, topic, [0], 2_000)  # bytes to copy, so the throttle keeps the move in flight
    target = {
        "version": 1,
        "partitions": [{"topic": topic, "partition": 0, "replicas": [3, 1], "log_dirs": ["any", "any"]}],
    }
    plan = _file(tmp_path, "move.json", target)
    started = invoke(
        "reassign-partitions", *_b(peer_sandbox), "--execute", "--reassignment-json-file", plan,
        "--throttle", "1", "--rollback-file", str(tmp_path / "rollback.json"), "-o", "json",
    )  # fmt: skip
    assert started.code == 0, started.stderr
    try:
        seen = java_brokers.call("listPartitionReassignments")
        listed = kcli_json("reassign-partitions", *_b(peer_sandbox), "--list")
        assert {f"{r['topic']}-{r['partition']}": {k: r[k] for k in ("replicas", "adding", "removing")}
                for r in listed["reassignments"]} == seen  # fmt: skip
        assert seen == {f"{topic}-0": {"replicas": [3, 1, 2], "adding": [3], "removing": [2]}}

        verified = kcli_json("reassign-partitions", *_b(peer_sandbox), "--verify", "--reassignment-json-file", plan,
                             "--preserve-throttles")  # fmt: skip
        described = unwrap(java_brokers.call("describeTopics", names=[topic])[topic])
        (state_row,) = verified["partitions"]
        assert state_row["replicas"] == described["partitions"][0]["replicas"]
        assert state_row["target"] == [3, 1]
        assert verified["any_reassignment_running"] is True and verified["complete"] is False

        before = _sizes(java_brokers, [1, 3])
        waited = invoke(
            "reassign-partitions", *_b(peer_sandbox), "--execute", "--reassignment-json-file", plan, "--additional",
            "--throttle", "1", "--wait", "--timeout", "300", "--rollback-file", str(tmp_path / "rollback-2.json"),
            "-o", "json",
        )  # fmt: skip
        after = _sizes(java_brokers, [1, 3])
        progress = {p["partition"]: p for p in waited.json["wait"]["partitions"]}[f"{topic}-0"]
        # bytes_total: the partition's size on a replica that holds it; bytes_done: the new replica's
        assert progress["bytes_total"] == before[(f"{topic}-0", 1)] == after[(f"{topic}-0", 1)]
        assert before[(f"{topic}-0", 3)] <= progress["bytes_done"] <= after[(f"{topic}-0", 3)]
    finally:
        cancelled = invoke(
            "reassign-partitions", *_b(peer_sandbox), "--cancel", "--reassignment-json-file", plan,
        )  # fmt: skip
        assert cancelled.code == 0, cancelled.stderr
    assert java_brokers.call("listPartitionReassignments") == {}
    poll(
        lambda: not state.dynamic_configs(peer_sandbox, state.BROKER_RESOURCE, "1"), what="throttles cleared"
    )
    unwrap(java_brokers.call("deleteTopics", names=[topic])[topic])


# ------------------------------------------------------------------ ACL bindings (authorizer, SASL_SSL)


def test_acl_bindings(java_peer: JavaPeer, secure_sandbox: Any) -> None:
    java = java_peer.client(client_props(secure_sandbox))
    try:
        created = java.call("createAcls", bindings=[
            {"resourceType": "TOPIC", "name": "orders", "principal": "User:alice", "operation": "READ"},
            {"resourceType": "TOPIC", "name": "pay-", "patternType": "PREFIXED", "principal": "User:alice",
             "operation": "WRITE", "host": "10.0.0.7"},
            {"resourceType": "GROUP", "name": "*", "principal": "User:bob", "operation": "READ", "permission": "DENY"},
            {"resourceType": "CLUSTER", "name": "kafka-cluster", "principal": "User:bob", "operation": "ALTER_CONFIGS"},
            {"resourceType": "TRANSACTIONAL_ID", "name": "tx", "principal": "User:bob", "operation": "DESCRIBE"},
        ])  # fmt: skip
        assert all("ok" in c for c in created), created
        seen = sorted(java.call("describeAcls"), key=state.acl_key)
        command_config = str(secure_sandbox.command_config("admin", "SCRAM-SHA-512"))

        def rows(result: dict[str, Any]) -> list[dict[str, Any]]:
            return sorted(
                ({**{k: a[k] for k in ("resourceType", "name", "patternType", "principal", "host", "operation")},
                  "permission": a["permissionType"]} for a in result["acls"]),
                key=state.acl_key,
            )  # fmt: skip

        for bootstrap in (_b(secure_sandbox), _c(secure_sandbox)):
            listed = kcli_json("acls", *bootstrap, "-c", command_config, "--list")
            assert rows(listed) == seen
        alice = kcli_json(
            "acls", *_b(secure_sandbox), "-c", command_config, "--list", "--principal", "User:alice"
        )
        assert rows(alice) == sorted(
            java.call("describeAcls", filter={"principal": "User:alice"}), key=state.acl_key
        )
        orders = kcli_json("acls", *_b(secure_sandbox), "-c", command_config, "--list", "--topic", "orders")
        assert rows(orders) == sorted(
            java.call(
                "describeAcls", filter={"resourceType": "TOPIC", "name": "orders", "patternType": "LITERAL"}
            ),
            key=state.acl_key,
        )
    finally:
        java.call("deleteAcls", filters=[{}])
        java.close()
