"""Sandbox protocol fidelity, judged by Apache Kafka's Java AdminClient (kafka-clients 3.9).

For each admin API the sandbox serves, the Java client's view must equal the sandbox's own state
(tests.peers.java.state), through brokers (bootstrap.servers) and, where the Java client allows it,
through controllers (bootstrap.controllers, KIP-919). A Java exception where an answer was expected,
or a value that differs, is a sandbox bug.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import Any

import pytest

from tests.dataplane.filling import fill
from tests.peers.java import state
from tests.peers.java.peer import JavaAdmin, JavaError, JavaPeer, error_of, unwrap

pytestmark = pytest.mark.java

# bootstrap.servers and bootstrap.controllers: the fixture names of the two Java clients
BOTH = pytest.mark.parametrize("via", ["java_brokers", "java_controllers"])


def poll(check: Callable[[], Any], *, deadline_s: float = 20.0, what: str) -> Any:
    """Call `check` until it returns a truthy value, or fail after the deadline."""
    end = time.monotonic() + deadline_s
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > end:
            pytest.fail(f"{what}: not within {deadline_s:.0f} s")
        time.sleep(0.05)


def stable(read: Callable[[], Any], java: Callable[[], Any]) -> tuple[Any, Any, Any]:
    """(state before, Java's view, state after), retried until the sandbox did not move meanwhile."""
    for _ in range(5):
        before, seen, after = read(), java(), read()
        if before == after:
            return before, seen, after
    return before, seen, after


def test_the_peer_is_kafka_clients_3_9(java_peer: JavaPeer) -> None:
    assert java_peer.version().startswith("3.9.")


# ------------------------------------------------------------------ DescribeCluster, ApiVersions


@BOTH
def test_describe_cluster_matches_the_sandbox(
    via: str, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    seen = java.call("describeCluster")
    assert seen.pop("authorizedOperations") is None  # not asked for
    assert seen == state.cluster_view(peer_sandbox, controllers=via == "java_controllers")


def test_brokers_report_their_racks(java_brokers: JavaAdmin) -> None:
    racks = {n["id"]: n["rack"] for n in java_brokers.call("describeCluster")["nodes"]}
    assert racks == {1: "rack-a", 2: "rack-b", 3: "rack-a"}


@BOTH
def test_features_match_the_sandbox(via: str, peer_sandbox: Any, request: pytest.FixtureRequest) -> None:
    """DescribeFeatures is ApiVersions: supported ranges (v3+ tagged fields) and finalized levels."""
    java: JavaAdmin = request.getfixturevalue(via)
    _, seen, after = stable(lambda: state.features_view(peer_sandbox), lambda: java.call("describeFeatures"))
    assert seen == after


# ------------------------------------------------------------------ DescribeQuorum


@BOTH
def test_quorum_matches_the_sandbox(via: str, peer_sandbox: Any, request: pytest.FixtureRequest) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    before, seen, after = stable(
        lambda: state.quorum_view(peer_sandbox), lambda: java.call("describeMetadataQuorum")
    )
    leader = seen["leaderId"]
    for replicas in (seen["voters"], before["voters"], after["voters"]):
        for r in replicas:
            if r["replicaId"] == leader:
                # The leader reports "now" as its own fetch times; the rest must be equal.
                stamp = r.pop("lastFetchTimestamp"), r.pop("lastCaughtUpTimestamp")
                assert stamp[0] == stamp[1] > 0
    assert seen == after
    assert {r["replicaId"] for r in seen["voters"]} == set(peer_sandbox.controller_ids)
    assert {r["replicaId"] for r in seen["observers"]} == set(peer_sandbox.broker_ids)


# ------------------------------------------------------------------ topics


def _java_topic(described: dict[str, Any]) -> dict[str, Any]:
    return {
        "topicId": described["topicId"],
        "partitions": [
            {k: p[k] for k in ("partition", "leader", "replicas", "isr")} for p in described["partitions"]
        ],
    }


def _sandbox_topic(view: dict[str, Any]) -> dict[str, Any]:
    return {
        "topicId": view["topicId"],
        "partitions": [
            {k: p[k] for k in ("partition", "leader", "replicas", "isr")} for p in view["partitions"]
        ],
    }


def test_topic_lifecycle(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    """CreateTopics, Metadata, DescribeTopicPartitions (paged), CreatePartitions, DeleteTopics."""
    created = java_brokers.call(
        "createTopics",
        topics=[
            {
                "name": "fid-auto",
                "partitions": 5,
                "replicationFactor": 2,
                "configs": {"retention.ms": "3600000"},
            },
            {"name": "fid-placed", "assignments": [[1, 2], [2, 3], [3, 1]]},
            {"name": "fid-too-wide", "partitions": 1, "replicationFactor": 9},
            {"name": "fid-bad-config", "partitions": 1, "configs": {"no.such.config": "1"}},
        ],
    )
    with pytest.raises(JavaError) as wide:
        unwrap(created["fid-too-wide"])
    assert wide.value.type == "InvalidReplicationFactorException"
    with pytest.raises(JavaError) as bad:
        unwrap(created["fid-bad-config"])
    assert bad.value.type == "InvalidConfigurationException"

    topics = state.topics_view(peer_sandbox)
    assert "fid-too-wide" not in topics and "fid-bad-config" not in topics
    auto = unwrap(created["fid-auto"])
    assert unwrap(auto["topicId"]) == topics["fid-auto"]["topicId"]
    assert unwrap(auto["numPartitions"]) == 5 == len(topics["fid-auto"]["partitions"])
    assert unwrap(auto["replicationFactor"]) == 2
    assert {len(p["replicas"]) for p in topics["fid-auto"]["partitions"]} == {2}
    # CreateTopics v5+ returns the new topic's configs: the dynamic one with its source
    returned = {e["name"]: e for e in unwrap(auto["config"])}
    assert returned["retention.ms"]["value"] == "3600000"
    assert returned["retention.ms"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert state.dynamic_configs(peer_sandbox, state.TOPIC_RESOURCE, "fid-auto") == {
        "retention.ms": "3600000"
    }
    # ... and all of them, as DescribeConfigs describes the topic
    described_configs = java_brokers.call(
        "describeConfigs", resources=[{"type": "TOPIC", "name": "fid-auto"}]
    )
    fields = ("value", "source", "sensitive", "readOnly")
    assert {e["name"]: tuple(e[f] for f in fields) for e in unwrap(auto["config"])} == {
        e["name"]: tuple(e[f] for f in fields) for e in unwrap(described_configs["TOPIC:fid-auto"])
    }
    assert [p["replicas"] for p in topics["fid-placed"]["partitions"]] == [[1, 2], [2, 3], [3, 1]]
    assert unwrap(unwrap(created["fid-placed"])["replicationFactor"]) == 2

    again = java_brokers.call("createTopics", topics=[{"name": "fid-auto", "partitions": 1}])
    assert error_of(again["fid-auto"]).type == "TopicExistsException"  # type: ignore[union-attr]
    dry = java_brokers.call("createTopics", topics=[{"name": "fid-dry", "partitions": 2}], validateOnly=True)
    unwrap(dry["fid-dry"])
    assert "fid-dry" not in state.topics_view(peer_sandbox)

    # DescribeTopicPartitions with two partitions per response: the cursor pages through both topics
    described = java_brokers.call(
        "describeTopics", names=["fid-auto", "fid-placed", "fid-nope"], partitionLimit=2
    )
    assert error_of(described["fid-nope"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]
    for name in ("fid-auto", "fid-placed"):
        one = unwrap(described[name])
        assert one["internal"] is False
        assert _java_topic(one) == _sandbox_topic(topics[name])
    # Metadata by topic id (v12)
    by_id = java_brokers.call(
        "describeTopicsById", ids=[topics["fid-placed"]["topicId"], "AAAAAAAAAAAAAAAAAAAAEQ"]
    )
    assert _java_topic(unwrap(by_id[topics["fid-placed"]["topicId"]])) == _sandbox_topic(topics["fid-placed"])
    assert error_of(by_id["AAAAAAAAAAAAAAAAAAAAEQ"]).type == "UnknownTopicIdException"  # type: ignore[union-attr]
    assert java_brokers.call("listTopics", internal=True) == sorted(state.topics_view(peer_sandbox))

    # CreatePartitions: to a count, with explicit placement, and refusals
    grown = java_brokers.call(
        "createPartitions",
        topics={
            "fid-placed": {"count": 5, "assignments": [[2, 1], [3, 2]]},
            "fid-auto": {"count": 3},
            "fid-nope": {"count": 2},
        },
    )
    unwrap(grown["fid-placed"])
    assert error_of(grown["fid-auto"]).type == "InvalidPartitionsException"  # type: ignore[union-attr]
    assert error_of(grown["fid-nope"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]
    placed = state.topics_view(peer_sandbox)["fid-placed"]["partitions"]
    assert [p["replicas"] for p in placed] == [[1, 2], [2, 3], [3, 1], [2, 1], [3, 2]]
    described = unwrap(java_brokers.call("describeTopics", names=["fid-placed"])["fid-placed"])
    assert _java_topic(described) == _sandbox_topic(state.topics_view(peer_sandbox)["fid-placed"])

    deleted = java_brokers.call("deleteTopics", names=["fid-auto", "fid-nope"])
    unwrap(deleted["fid-auto"])
    assert error_of(deleted["fid-nope"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]
    placed_id = topics["fid-placed"]["topicId"]
    by_id = java_brokers.call(
        "deleteTopicsById", ids=[placed_id, "AAAAAAAAAAAAAAAAAAAAEQ"]
    )  # DeleteTopics v6
    unwrap(by_id[placed_id])
    assert error_of(by_id["AAAAAAAAAAAAAAAAAAAAEQ"]).type == "UnknownTopicIdException"  # type: ignore[union-attr]
    remaining = state.topics_view(peer_sandbox)
    assert "fid-auto" not in remaining and "fid-placed" not in remaining


def test_controllers_refuse_topic_calls_as_kafka_does(java_controllers: JavaAdmin) -> None:
    """Through bootstrap.controllers the Java client itself refuses broker-only calls (not the sandbox)."""
    with pytest.raises(JavaError) as refused:
        java_controllers.call("listTopics")
    assert refused.value.type == "UnsupportedEndpointTypeException"


# ------------------------------------------------------------------ configs


def _entry_invariants(entries: list[dict[str, Any]]) -> None:
    """Kafka's shape of a described config: the entry's value and source are those of its first synonym."""
    names = [e["name"] for e in entries]
    assert len(names) == len(set(names)), "a config listed twice"
    for e in entries:
        assert e["source"] != "UNKNOWN", e
        assert e["type"] not in (None, "UNKNOWN"), e
        if e["synonyms"]:
            first = e["synonyms"][0]
            assert (first["value"], first["source"]) == (e["value"], e["source"]), e
        if e["sensitive"]:
            assert e["value"] is None, e


def _dynamic(entries: list[dict[str, Any]], source: str) -> dict[str, str]:
    return {e["name"]: e["value"] for e in entries if e["source"] == source}


@BOTH
def test_topic_configs_round_trip(
    via: str, java_brokers: JavaAdmin, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    topic = f"fid-configs-{via}"
    unwrap(java_brokers.call("createTopics", topics=[{"name": topic, "partitions": 1}])[topic])
    resource = {"type": "TOPIC", "name": topic}
    changed = java.call(
        "incrementalAlterConfigs",
        resources=[
            {**resource, "ops": [
                {"name": "retention.ms", "value": "7200000", "op": "SET"},
                {"name": "cleanup.policy", "value": "compact", "op": "APPEND"},
                {"name": "max.message.bytes", "value": "2000000", "op": "SET"},
            ]},
        ],
    )  # fmt: skip
    unwrap(changed[f"TOPIC:{topic}"])
    dynamic = state.dynamic_configs(peer_sandbox, state.TOPIC_RESOURCE, topic)
    assert dynamic == {
        "retention.ms": "7200000",
        "cleanup.policy": "delete,compact",
        "max.message.bytes": "2000000",
    }

    entries = unwrap(java.call("describeConfigs", resources=[resource])[f"TOPIC:{topic}"])
    _entry_invariants(entries)
    assert _dynamic(entries, "DYNAMIC_TOPIC_CONFIG") == dynamic
    by_name = {e["name"]: e for e in entries}
    assert by_name["retention.ms"]["type"] == "LONG"
    assert by_name["cleanup.policy"]["type"] == "LIST"
    # the broker synonyms of retention.ms start with log.retention.hours, so Kafka lists none of them
    assert by_name["retention.ms"]["synonyms"] == [
        {"name": "retention.ms", "value": "7200000", "source": "DYNAMIC_TOPIC_CONFIG"}
    ]
    assert by_name["segment.ms"] == {
        "name": "segment.ms", "value": "604800000", "source": "DEFAULT_CONFIG", "sensitive": False,
        "readOnly": False, "type": "LONG", "documentation": None, "synonyms": [],
    }  # fmt: skip
    assert by_name["compression.type"]["synonyms"] == [
        {"name": "compression.type", "value": "producer", "source": "DEFAULT_CONFIG"}
    ]

    unwrap(java.call("incrementalAlterConfigs", resources=[{**resource, "ops": [
        {"name": "cleanup.policy", "value": "delete", "op": "SUBTRACT"},
        {"name": "max.message.bytes", "op": "DELETE"},
    ]}])[f"TOPIC:{topic}"])  # fmt: skip
    assert state.dynamic_configs(peer_sandbox, state.TOPIC_RESOURCE, topic) == {
        "retention.ms": "7200000", "cleanup.policy": "compact",
    }  # fmt: skip

    dry = java.call(
        "incrementalAlterConfigs",
        resources=[{**resource, "ops": [{"name": "retention.ms", "value": "1"}]}],
        validateOnly=True,
    )
    unwrap(dry[f"TOPIC:{topic}"])
    assert state.dynamic_configs(peer_sandbox, state.TOPIC_RESOURCE, topic)["retention.ms"] == "7200000"

    refused = java.call(
        "incrementalAlterConfigs",
        resources=[
            {**resource, "ops": [{"name": "no.such.config", "value": "1"}]},
            {"type": "TOPIC", "name": "fid-no-such-topic", "ops": [{"name": "retention.ms", "value": "1"}]},
        ],
    )
    assert error_of(refused[f"TOPIC:{topic}"]).type == "InvalidConfigurationException"  # type: ignore[union-attr]
    missing = error_of(refused["TOPIC:fid-no-such-topic"])
    assert missing is not None and missing.type == "UnknownTopicOrPartitionException"
    described = java.call("describeConfigs", resources=[{"type": "TOPIC", "name": "fid-no-such-topic"}])
    assert error_of(described["TOPIC:fid-no-such-topic"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]

    # AlterConfigs (legacy): the given set replaces every dynamic config of the topic
    unwrap(
        java.call("alterConfigs", resources=[{**resource, "configs": {"segment.ms": "600000"}}])[
            f"TOPIC:{topic}"
        ]
    )
    assert state.dynamic_configs(peer_sandbox, state.TOPIC_RESOURCE, topic) == {"segment.ms": "600000"}
    unwrap(java_brokers.call("deleteTopics", names=[topic])[topic])


@BOTH
def test_node_and_default_configs_round_trip(
    via: str, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    """Broker (or controller) configs, and the cluster-wide default (resource name "")."""
    java: JavaAdmin = request.getfixturevalue(via)
    # through controllers the Java client can only reach controllers, so it names one
    node = "1" if via == "java_brokers" else str(peer_sandbox.controller_ids[0])
    own = {"type": "BROKER", "name": node}
    default = {"type": "BROKER", "name": ""}
    unwrap(
        java.call(
            "incrementalAlterConfigs",
            resources=[{**own, "ops": [{"name": "log.cleaner.threads", "value": "3"}]}],
        )[f"BROKER:{node}"]
    )
    unwrap(java.call("incrementalAlterConfigs", resources=[{**default, "ops": [{"name": "log.retention.bytes", "value": "123456789"}]}])["BROKER:"])  # fmt: skip
    try:
        assert state.dynamic_configs(peer_sandbox, state.BROKER_RESOURCE, node) == {
            "log.cleaner.threads": "3"
        }
        # with ELR on, Kafka's controller keeps a cluster-level min.insync.replicas
        assert state.dynamic_configs(peer_sandbox, state.BROKER_RESOURCE, "") == {
            "log.retention.bytes": "123456789",
            "min.insync.replicas": "1",
        }
        described = java.call("describeConfigs", resources=[own, default])
        entries = unwrap(described[f"BROKER:{node}"])
        _entry_invariants(entries)
        by_name = {e["name"]: e for e in entries}
        assert by_name["log.cleaner.threads"]["source"] == "DYNAMIC_BROKER_CONFIG"
        assert by_name["log.retention.bytes"]["source"] == "DYNAMIC_DEFAULT_BROKER_CONFIG"
        assert [s["source"] for s in by_name["log.retention.bytes"]["synonyms"]] == [
            "DYNAMIC_DEFAULT_BROKER_CONFIG", "DEFAULT_CONFIG",
        ]  # fmt: skip
        assert by_name["node.id"]["value"] == node and by_name["node.id"]["readOnly"] is True
        # Kafka's DynamicBrokerReconfigurationTest: unit synonyms, read-only coarse units
        hours, millis = by_name["log.retention.hours"], by_name["log.retention.ms"]
        assert (hours["value"], hours["readOnly"], hours["synonyms"]) == (
            "168",
            True,
            [{"name": "log.retention.hours", "value": "168", "source": "DEFAULT_CONFIG"}],
        )
        assert (millis["value"], millis["source"], millis["readOnly"], millis["synonyms"]) == (
            None,
            "DEFAULT_CONFIG",
            False,
            [],
        )
        assert by_name["log.roll.hours"]["readOnly"] is True
        assert by_name["node.id"]["source"] == "STATIC_BROKER_CONFIG"
        static = peer_sandbox.run(lambda c: c.broker_config(int(node)))
        for name, value in static.items():
            if (
                name in by_name
                and not by_name[name]["sensitive"]
                and by_name[name]["source"] == "STATIC_BROKER_CONFIG"
            ):
                assert by_name[name]["value"] == value, name
        # the default resource lists only the dynamic defaults
        assert {e["name"]: (e["value"], e["source"]) for e in unwrap(described["BROKER:"])} == {
            "log.retention.bytes": ("123456789", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
            "min.insync.replicas": ("1", "DYNAMIC_DEFAULT_BROKER_CONFIG"),
        }
        refused = java.call(
            "incrementalAlterConfigs",
            resources=[{**own, "ops": [{"name": "node.id", "value": "7"}]}],
            validateOnly=True,
        )
        if via == "java_brokers":
            assert error_of(refused[f"BROKER:{node}"]).type == "InvalidRequestException"  # type: ignore[union-attr]
        else:  # a Kafka 4.4 controller leaves the checks of broker values to the broker that forwards them
            assert error_of(refused[f"BROKER:{node}"]) is None
    finally:
        java.call("incrementalAlterConfigs", resources=[
            {**own, "ops": [{"name": "log.cleaner.threads", "op": "DELETE"}]},
            {**default, "ops": [{"name": "log.retention.bytes", "op": "DELETE"}]},
        ])  # fmt: skip
    assert state.dynamic_configs(peer_sandbox, state.BROKER_RESOURCE, node) == {}


# ------------------------------------------------------------------ log dirs


def test_log_dirs_match_the_sandbox(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    brokers = list(peer_sandbox.broker_ids)
    seen = java_brokers.call("describeLogDirs", brokers=brokers)
    assert sorted(seen) == sorted(str(b) for b in brokers)
    for broker in brokers:
        dirs = unwrap(seen[str(broker)])
        expected = state.log_dirs_view(peer_sandbox, broker)
        assert sorted(dirs) == sorted(expected)
        assert len(dirs) == 2
        for path, described in dirs.items():
            assert described["error"] is None
            sizes = {tp: r["size"] for tp, r in described["replicas"].items()}
            assert sizes == expected[path], (broker, path)
            assert all(r["offsetLag"] == 0 and not r["isFuture"] for r in described["replicas"].values())
            assert described["totalBytes"] == shutil.disk_usage(path).total  # the dir's file system
            assert 0 < described["usableBytes"] <= described["totalBytes"]
    # DescribeLogDirs for replicas: the same dirs, one replica at a time
    topic = "sandbox-topic-00000"
    replicas = [{"topic": topic, "partition": p, "broker": b} for p in range(3) for b in brokers]
    where = java_brokers.call("describeReplicaLogDirs", replicas=replicas)
    for r in replicas:
        info = unwrap(where[f"{topic}-{r['partition']}-{r['broker']}"])
        expected_dir = next(
            path for path, held in state.log_dirs_view(peer_sandbox, r["broker"]).items()
            if f"{topic}-{r['partition']}" in held
        )  # fmt: skip
        assert info["currentDir"] == expected_dir
        assert info["futureDir"] is None


def test_replica_moves_between_log_dirs(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    """AlterReplicaLogDirs: the future replica shows in DescribeLogDirs, then the replica lives there."""
    topic = "sandbox-topic-00001"
    broker = 2
    current = next(
        path for path, held in state.log_dirs_view(peer_sandbox, broker).items() if f"{topic}-0" in held
    )
    target = next(path for path in state.log_dirs_view(peer_sandbox, broker) if path != current)
    moved = java_brokers.call("alterReplicaLogDirs", replicas=[
        {"topic": topic, "partition": 0, "broker": broker, "dir": target},
        {"topic": topic, "partition": 1, "broker": broker, "dir": "/no/such/dir"},
    ])  # fmt: skip
    unwrap(moved[f"{topic}-0-{broker}"])
    assert error_of(moved[f"{topic}-1-{broker}"]).type == "LogDirNotFoundException"  # type: ignore[union-attr]

    def landed() -> bool:
        info = unwrap(java_brokers.call("describeReplicaLogDirs", replicas=[
            {"topic": topic, "partition": 0, "broker": broker},
        ])[f"{topic}-0-{broker}"])  # fmt: skip
        return bool(info["currentDir"] == target and info["futureDir"] is None)

    poll(landed, what="the replica move to the other log dir")
    assert f"{topic}-0" in state.log_dirs_view(peer_sandbox, broker)[target]
    dirs = unwrap(java_brokers.call("describeLogDirs", brokers=[broker])[str(broker)])
    assert f"{topic}-0" in dirs[target]["replicas"] and f"{topic}-0" not in dirs[current]["replicas"]


# ------------------------------------------------------------------ reassignments and elections


def test_reassignment_lifecycle(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    """AlterPartitionReassignments and ListPartitionReassignments against the image, throttled to stay put."""
    topic = "fid-reassign"
    unwrap(
        java_brokers.call("createTopics", topics=[{"name": topic, "assignments": [[1, 2], [2, 3]]}])[topic]
    )
    fill(peer_sandbox, topic, [0], 2_000)  # bytes to copy, so the throttle keeps the move in flight
    # a 1 B/s throttle on every broker and the topic keeps the reassignment in flight
    throttle = [{"name": "leader.replication.throttled.rate", "value": "1"},
                {"name": "follower.replication.throttled.rate", "value": "1"}]  # fmt: skip
    java_brokers.call("incrementalAlterConfigs", resources=[
        {"type": "BROKER", "name": str(b), "ops": throttle} for b in peer_sandbox.broker_ids
    ] + [{"type": "TOPIC", "name": topic, "ops": [
        {"name": "leader.replication.throttled.replicas", "value": "*"},
        {"name": "follower.replication.throttled.replicas", "value": "*"},
    ]}])  # fmt: skip
    try:
        started = java_brokers.call("alterPartitionReassignments", reassignments=[
            {"topic": topic, "partition": 0, "replicas": [3, 1]},
            {"topic": topic, "partition": 9, "replicas": [1, 2]},
        ])  # fmt: skip
        unwrap(started[f"{topic}-0"])
        assert error_of(started[f"{topic}-9"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]
        image = state.topics_view(peer_sandbox)[topic]["partitions"][0]
        assert (image["replicas"], image["adding"], image["removing"]) == ([3, 1, 2], [3], [2])
        listed = java_brokers.call("listPartitionReassignments")
        assert listed == {f"{topic}-0": {"replicas": [3, 1, 2], "adding": [3], "removing": [2]}}
        only = java_brokers.call("listPartitionReassignments", partitions=[{"topic": topic, "partition": 1}])
        assert only == {}
        described = unwrap(java_brokers.call("describeTopics", names=[topic])[topic])
        assert described["partitions"][0]["replicas"] == [3, 1, 2]

        cancelled = java_brokers.call("alterPartitionReassignments", reassignments=[
            {"topic": topic, "partition": 0, "replicas": None},
            {"topic": topic, "partition": 1, "replicas": None},
        ])  # fmt: skip
        unwrap(cancelled[f"{topic}-0"])
        assert error_of(cancelled[f"{topic}-1"]).type == "NoReassignmentInProgressException"  # type: ignore[union-attr]
        assert java_brokers.call("listPartitionReassignments") == {}
        assert state.topics_view(peer_sandbox)[topic]["partitions"][0]["replicas"] == [1, 2]
    finally:
        java_brokers.call("incrementalAlterConfigs", resources=[
            {"type": "BROKER", "name": str(b), "ops": [{"name": o["name"], "op": "DELETE"} for o in throttle]}
            for b in peer_sandbox.broker_ids
        ])  # fmt: skip

    # unthrottled, the same move completes
    unwrap(java_brokers.call("alterPartitionReassignments", reassignments=[
        {"topic": topic, "partition": 0, "replicas": [3, 1]},
    ])[f"{topic}-0"])  # fmt: skip
    poll(lambda: java_brokers.call("listPartitionReassignments") == {}, what="the reassignment to finish")
    described = unwrap(java_brokers.call("describeTopics", names=[topic])[topic])
    assert described["partitions"][0]["replicas"] == [3, 1]
    assert _java_topic(described) == _sandbox_topic(state.topics_view(peer_sandbox)[topic])
    unwrap(java_brokers.call("deleteTopics", names=[topic])[topic])


def test_preferred_leader_election(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    topic = "fid-elect"
    unwrap(
        java_brokers.call("createTopics", topics=[{"name": topic, "assignments": [[2, 3], [3, 2]]}])[topic]
    )
    # every partition: earlier tests may have left leaders off their preferred replica; once those are
    # elected, an election for every partition leaves out all the partitions that need none
    assert all(outcome == {"ok": "elected"} for outcome in java_brokers.call("electLeaders").values())
    assert java_brokers.call("electLeaders") == {}
    balanced = java_brokers.call("electLeaders", partitions=[{"topic": topic, "partition": 0}])
    assert error_of(balanced[f"{topic}-0"]).type == "ElectionNotNeededException"  # type: ignore[union-attr]
    unknown = java_brokers.call("electLeaders", partitions=[{"topic": topic, "partition": 7}])
    assert error_of(unknown[f"{topic}-7"]).type == "UnknownTopicOrPartitionException"  # type: ignore[union-attr]

    peer_sandbox.stop_node(2)
    peer_sandbox.start_node(2)

    def leader_of(partition: int) -> int:
        return int(state.topics_view(peer_sandbox)[topic]["partitions"][partition]["leader"])

    poll(
        lambda: 2 in state.topics_view(peer_sandbox)[topic]["partitions"][0]["isr"],
        what="broker 2 back in the ISR",
    )
    assert leader_of(0) == 3  # leadership moved away while broker 2 was down
    elected = java_brokers.call("electLeaders", partitions=[{"topic": topic, "partition": 0}])
    assert elected == {f"{topic}-0": {"ok": "elected"}}
    # what else broker 2 led before it stopped: an election for every partition moves only those back
    moved = {
        f"{name}-{p['partition']}"
        for name, t in state.topics_view(peer_sandbox).items()
        for p in t["partitions"]
        if p["replicas"][0] != p["leader"]
    }
    assert moved and f"{topic}-1" not in moved  # broker 3, its preferred leader, kept partition 1
    assert java_brokers.call("electLeaders") == {tp: {"ok": "elected"} for tp in moved}
    assert java_brokers.call("electLeaders") == {}
    assert leader_of(0) == 2
    described = unwrap(java_brokers.call("describeTopics", names=[topic])[topic])
    assert described["partitions"][0]["leader"] == 2
    unwrap(java_brokers.call("deleteTopics", names=[topic])[topic])


# ------------------------------------------------------------------ SCRAM, quotas, features, groups, ACLs


def test_scram_credentials_round_trip(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    changed = java_brokers.call("alterUserScramCredentials", upserts=[
        {"user": "fid-carol", "mechanism": "SCRAM-SHA-256", "iterations": 8192, "password": "c-secret"},
        {"user": "fid-carol", "mechanism": "SCRAM-SHA-512", "iterations": 4096, "password": "c-secret"},
        {"user": "fid-dave", "mechanism": "SCRAM-SHA-512", "iterations": 1000, "password": "d"},
    ])  # fmt: skip
    # Kafka 4.4's controller refuses a user altered twice in one request, whatever the mechanisms
    assert error_of(changed["fid-carol"]).type == "DuplicateResourceException"  # type: ignore[union-attr]
    assert error_of(changed["fid-dave"]).type == "UnacceptableCredentialException"  # type: ignore[union-attr]
    for mechanism, iterations in (("SCRAM-SHA-256", 8192), ("SCRAM-SHA-512", 4096)):
        one_by_one = java_brokers.call("alterUserScramCredentials", upserts=[
            {"user": "fid-carol", "mechanism": mechanism, "iterations": iterations, "password": "c-secret"},
        ])  # fmt: skip
        unwrap(one_by_one["fid-carol"])
    described = java_brokers.call("describeUserScramCredentials")
    expected = state.scram_view(peer_sandbox)
    assert {user: unwrap(v) for user, v in described.items()} == expected
    assert expected["fid-carol"] == [
        {"mechanism": "SCRAM-SHA-256", "iterations": 8192}, {"mechanism": "SCRAM-SHA-512", "iterations": 4096},
    ]  # fmt: skip
    one = java_brokers.call("describeUserScramCredentials", users=["fid-carol", "fid-nobody"])
    assert unwrap(one["fid-carol"]) == expected["fid-carol"]
    assert error_of(one["fid-nobody"]).type == "ResourceNotFoundException"  # type: ignore[union-attr]
    unwrap(java_brokers.call("alterUserScramCredentials", deletions=[
        {"user": "fid-carol", "mechanism": "SCRAM-SHA-256"},
    ])["fid-carol"])  # fmt: skip
    assert state.scram_view(peer_sandbox)["fid-carol"] == [{"mechanism": "SCRAM-SHA-512", "iterations": 4096}]
    gone = java_brokers.call(
        "alterUserScramCredentials", deletions=[{"user": "fid-nobody", "mechanism": "SCRAM-SHA-256"}]
    )
    assert error_of(gone["fid-nobody"]).type == "ResourceNotFoundException"  # type: ignore[union-attr]


def test_client_quotas_round_trip(java_brokers: JavaAdmin, peer_sandbox: Any) -> None:
    changed = java_brokers.call("alterClientQuotas", alterations=[
        {"entity": {"user": "fid-q", "client-id": "app"}, "values": {"producer_byte_rate": 1024.0}},
        {"entity": {"user": "fid-q"}, "values": {"request_percentage": 12.5}},
        {"entity": {"client-id": None}, "values": {"consumer_byte_rate": 2048.0}},
        {"entity": {"ip": "10.0.0.1"}, "values": {"connection_creation_rate": 5.0}},
    ])  # fmt: skip
    assert all("ok" in v for v in changed.values()), changed
    assert java_brokers.call("describeClientQuotas") == state.quotas_view(peer_sandbox)
    exact = java_brokers.call("describeClientQuotas", components=[{"entityType": "user", "name": "fid-q"}])
    assert [q["entity"] for q in exact] == [{"client-id": "app", "user": "fid-q"}, {"user": "fid-q"}]
    strict = java_brokers.call(
        "describeClientQuotas", components=[{"entityType": "user", "name": "fid-q"}], strict=True
    )
    assert strict == [{"entity": {"user": "fid-q"}, "values": {"request_percentage": 12.5}}]
    defaults = java_brokers.call(
        "describeClientQuotas", components=[{"entityType": "client-id", "default": True}]
    )
    assert defaults == [{"entity": {"client-id": None}, "values": {"consumer_byte_rate": 2048.0}}]
    refused = java_brokers.call("alterClientQuotas", alterations=[
        {"entity": {"user": "fid-q"}, "values": {"no_such_quota": 1.0}},
    ])  # fmt: skip
    assert all(error_of(v).type == "InvalidRequestException" for v in refused.values())  # type: ignore[union-attr]
    java_brokers.call("alterClientQuotas", alterations=[
        {"entity": {"user": "fid-q", "client-id": "app"}, "values": {"producer_byte_rate": None}},
        {"entity": {"user": "fid-q"}, "values": {"request_percentage": None}},
        {"entity": {"client-id": None}, "values": {"consumer_byte_rate": None}},
        {"entity": {"ip": "10.0.0.1"}, "values": {"connection_creation_rate": None}},
    ])  # fmt: skip
    assert java_brokers.call("describeClientQuotas") == state.quotas_view(peer_sandbox)


@BOTH
def test_feature_updates(via: str, peer_sandbox: Any, request: pytest.FixtureRequest) -> None:
    java: JavaAdmin = request.getfixturevalue(via)
    level = state.features_view(peer_sandbox)["finalized"]["group.version"]["max"]
    supported = state.features_view(peer_sandbox)["supported"]["group.version"]["max"]
    dry = java.call(
        "updateFeatures", updates={"group.version": {"level": 0, "type": "SAFE_DOWNGRADE"}}, validateOnly=True
    )
    unwrap(dry["group.version"])
    assert state.features_view(peer_sandbox)["finalized"]["group.version"]["max"] == level
    too_high = java.call("updateFeatures", updates={"group.version": {"level": supported + 1}})
    assert error_of(too_high["group.version"]).type == "InvalidUpdateVersionException"  # type: ignore[union-attr]
    unknown = java.call("updateFeatures", updates={"no.such.version": {"level": 1}})
    assert error_of(unknown["no.such.version"]).type == "InvalidUpdateVersionException"  # type: ignore[union-attr]
    unwrap(
        java.call("updateFeatures", updates={"group.version": {"level": 0, "type": "SAFE_DOWNGRADE"}})[
            "group.version"
        ]
    )
    try:
        seen = java.call("describeFeatures")
        assert "group.version" not in seen["finalized"]
        assert seen == state.features_view(peer_sandbox)
    finally:
        unwrap(java.call("updateFeatures", updates={"group.version": {"level": level}})["group.version"])
    assert java.call("describeFeatures") == state.features_view(peer_sandbox)


def test_list_groups_and_acls_without_an_authorizer(java_brokers: JavaAdmin) -> None:
    assert java_brokers.call("listConsumerGroups") == []
    with pytest.raises(JavaError) as disabled:
        java_brokers.call("describeAcls")
    assert disabled.value.type == "SecurityDisabledException"
    binding = {"resourceType": "TOPIC", "name": "t", "principal": "User:alice", "operation": "READ"}
    created = java_brokers.call("createAcls", bindings=[binding])
    assert error_of(created[0]).type == "SecurityDisabledException"  # type: ignore[union-attr]
    deleted = java_brokers.call("deleteAcls", filters=[{"resourceType": "TOPIC"}])
    assert error_of(deleted[0]).type == "SecurityDisabledException"  # type: ignore[union-attr]


@BOTH
def test_logger_and_client_metrics_configs(
    via: str, java_brokers: JavaAdmin, peer_sandbox: Any, request: pytest.FixtureRequest
) -> None:
    """The other config resources the Java client knows: BROKER_LOGGER and CLIENT_METRICS."""
    java: JavaAdmin = request.getfixturevalue(via)
    node = "2" if via == "java_brokers" else str(peer_sandbox.controller_ids[0])
    logger = {"type": "BROKER_LOGGER", "name": node}
    levels = {
        e["name"]: e
        for e in unwrap(java.call("describeConfigs", resources=[logger])[f"BROKER_LOGGER:{node}"])
    }
    assert levels["root"]["value"] == "INFO"
    unwrap(java.call("incrementalAlterConfigs", resources=[{**logger, "ops": [
        {"name": "kafka.controller", "value": "DEBUG"},
    ]}])[f"BROKER_LOGGER:{node}"])  # fmt: skip
    try:
        levels = {e["name"]: e["value"] for e in unwrap(
            java.call("describeConfigs", resources=[logger])[f"BROKER_LOGGER:{node}"]
        )}  # fmt: skip
        assert levels["kafka.controller"] == "DEBUG"
        loud = java.call("incrementalAlterConfigs", resources=[{**logger, "ops": [
            {"name": "kafka.controller", "value": "LOUD"},
        ]}])  # fmt: skip
        assert error_of(loud[f"BROKER_LOGGER:{node}"]).type == "InvalidConfigurationException"  # type: ignore[union-attr]
    finally:
        java.call(
            "incrementalAlterConfigs",
            resources=[{**logger, "ops": [{"name": "kafka.controller", "op": "DELETE"}]}],
        )

    if via == "java_controllers":
        return  # client-metrics subscriptions live on brokers (kafka-clients 3.9 has no GROUP resource)
    metrics = {"type": "CLIENT_METRICS", "name": "fid-metrics"}
    unwrap(java.call("incrementalAlterConfigs", resources=[{**metrics, "ops": [
        {"name": "metrics", "value": "org.apache.kafka.producer."},
        {"name": "interval.ms", "value": "60000"},
    ]}])["CLIENT_METRICS:fid-metrics"])  # fmt: skip
    entries = {
        e["name"]: e
        for e in unwrap(java.call("describeConfigs", resources=[metrics])["CLIENT_METRICS:fid-metrics"])
    }
    # Kafka 4.4 lists every key of a subscription: its own values and the defaults
    assert {name: (e["value"], e["source"]) for name, e in entries.items()} == {
        "metrics": ("org.apache.kafka.producer.", "DYNAMIC_CLIENT_METRICS_CONFIG"),
        "interval.ms": ("60000", "DYNAMIC_CLIENT_METRICS_CONFIG"),
        "match": ("", "DEFAULT_CONFIG"),
    }
    assert state.dynamic_configs(peer_sandbox, 16, "fid-metrics") == {
        "metrics": "org.apache.kafka.producer.", "interval.ms": "60000",
    }  # fmt: skip
