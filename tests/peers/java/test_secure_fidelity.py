"""The sandbox with SASL_SSL, SCRAM and the authorizer, judged by Kafka's Java AdminClient.

The Java client logs in with SCRAM over TLS (its own SCRAM and TLS code, trusting the sandbox's CA);
every denial must reach it as the exception type Kafka's brokers produce, and ACL bindings must read
back exactly as the sandbox holds them.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.peers.java import state
from tests.peers.java.conftest import client_props
from tests.peers.java.peer import JavaAdmin, JavaError, JavaPeer, error_of, unwrap

pytestmark = pytest.mark.java


@pytest.fixture(scope="module")
def admin_java(java_peer: JavaPeer, secure_sandbox: Any) -> JavaAdmin:
    """The super user, over SCRAM-SHA-256."""
    return java_peer.client(client_props(secure_sandbox), name="secure-admin")


@pytest.fixture(scope="module")
def alice_java(java_peer: JavaPeer, secure_sandbox: Any) -> JavaAdmin:
    """alice: authenticated, with no ACLs to begin with."""
    return java_peer.client(client_props(secure_sandbox, principal="alice"), name="secure-alice")


def _type(call: Any) -> str:
    with pytest.raises(JavaError) as refused:
        call()
    return refused.value.type


def test_scram_over_tls_with_both_mechanisms_and_both_bootstrap_kinds(
    java_peer: JavaPeer, secure_sandbox: Any
) -> None:
    for controllers in (False, True):
        expected = state.cluster_view(secure_sandbox, controllers=controllers)
        for mechanism in ("SCRAM-SHA-256", "SCRAM-SHA-512"):
            props = client_props(secure_sandbox, controllers=controllers)
            props["sasl.mechanism"] = mechanism
            java = java_peer.client(props)
            try:
                seen = java.call("describeCluster")
                seen.pop("authorizedOperations")
                assert seen == expected
            finally:
                java.close()
        assert expected["nodes"] and all(n["port"] for n in expected["nodes"])


def test_a_wrong_password_is_an_authentication_failure(java_peer: JavaPeer, secure_sandbox: Any) -> None:
    props = client_props(secure_sandbox)
    props["sasl.jaas.config"] = props["sasl.jaas.config"].replace("admin-secret", "not-the-password")
    java = java_peer.client(props)
    try:
        with pytest.raises(JavaError) as failed:
            java.call("describeCluster")
        assert failed.value.type == "SaslAuthenticationException"
        assert "SCRAM-SHA-256" in str(failed.value.message)
    finally:
        java.close()


def test_acl_bindings_round_trip(admin_java: JavaAdmin, secure_sandbox: Any) -> None:
    bindings = [
        {"resourceType": "TOPIC", "name": "sec-orders", "principal": "User:alice", "operation": "READ"},
        {"resourceType": "TOPIC", "name": "sec-", "patternType": "PREFIXED", "principal": "User:alice",
         "operation": "DESCRIBE", "host": "127.0.0.1"},
        {"resourceType": "GROUP", "name": "sec-app", "principal": "User:alice", "operation": "READ",
         "permission": "DENY"},
        {"resourceType": "CLUSTER", "name": "kafka-cluster", "principal": "User:bob", "operation": "DESCRIBE_CONFIGS"},
        {"resourceType": "TRANSACTIONAL_ID", "name": "*", "principal": "User:bob", "operation": "WRITE"},
        {"resourceType": "USER", "name": "bob", "principal": "User:carol", "operation": "CREATE_TOKENS"},
    ]  # fmt: skip
    created = admin_java.call("createAcls", bindings=bindings)
    assert all("ok" in c for c in created), created
    expected = [
        {"patternType": "LITERAL", "host": "*", "permission": "ALLOW", **b} for b in bindings
    ]  # the Java defaults
    everything = admin_java.call("describeAcls")
    assert sorted(everything, key=state.acl_key) == state.acls_view(secure_sandbox)
    for binding in expected:
        assert binding in everything
    # filters: by resource type, by principal, and MATCH (literal, prefixed and wildcard patterns)
    topics = admin_java.call("describeAcls", filter={"resourceType": "TOPIC"})
    assert {b["name"] for b in topics} >= {"sec-orders", "sec-"}
    assert all(b["resourceType"] == "TOPIC" for b in topics)
    bob = admin_java.call("describeAcls", filter={"principal": "User:bob"})
    assert sorted(b["resourceType"] for b in bob) == ["CLUSTER", "TRANSACTIONAL_ID"]
    matching = admin_java.call(
        "describeAcls", filter={"resourceType": "TOPIC", "name": "sec-orders", "patternType": "MATCH"}
    )
    assert {(b["name"], b["patternType"]) for b in matching} >= {
        ("sec-orders", "LITERAL"),
        ("sec-", "PREFIXED"),
    }

    # a binding that cannot exist is refused per binding
    refused = admin_java.call(
        "createAcls",
        bindings=[{"resourceType": "TOPIC", "name": "x", "principal": "alice", "operation": "READ"}],
    )
    assert error_of(refused[0]) is not None

    deleted = admin_java.call(
        "deleteAcls",
        filters=[
            {"resourceType": "TOPIC", "name": "sec-", "patternType": "PREFIXED"},
            {"principal": "User:bob"},
            {"principal": "User:nobody"},
        ],
    )
    assert [sorted(b["ok"]["name"] for b in unwrap(d)) for d in deleted] == [
        ["sec-"],
        ["*", "kafka-cluster"],
        [],
    ]
    assert sorted(admin_java.call("describeAcls"), key=state.acl_key) == state.acls_view(secure_sandbox)
    admin_java.call("deleteAcls", filters=[{"principal": "User:alice"}, {"principal": "User:carol"}])
    assert state.acls_view(secure_sandbox) == []


def test_denials_arrive_as_kafka_exception_types(
    alice_java: JavaAdmin, admin_java: JavaAdmin, secure_sandbox: Any
) -> None:
    """alice has no ACLs: topic calls fail with TopicAuthorizationException, cluster calls with
    ClusterAuthorizationException, listings come back filtered."""
    topic = "sandbox-topic-00000"
    assert alice_java.call("listTopics") == []
    assert alice_java.call("describeCluster")["clusterId"] == secure_sandbox.cluster_id
    created = alice_java.call("createTopics", topics=[{"name": "sec-alice", "partitions": 1}])
    assert error_of(created["sec-alice"]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    described = alice_java.call("describeTopics", names=[topic])
    assert error_of(described[topic]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    grown = alice_java.call("createPartitions", topics={topic: {"count": 3}})
    assert error_of(grown[topic]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    deleted = alice_java.call("deleteTopics", names=[topic])
    assert error_of(deleted[topic]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    configs = alice_java.call(
        "describeConfigs", resources=[{"type": "TOPIC", "name": topic}, {"type": "BROKER", "name": "1"}]
    )
    assert error_of(configs[f"TOPIC:{topic}"]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    assert error_of(configs["BROKER:1"]).type == "ClusterAuthorizationException"  # type: ignore[union-attr]
    altered = alice_java.call(
        "incrementalAlterConfigs",
        resources=[
            {"type": "TOPIC", "name": topic, "ops": [{"name": "retention.ms", "value": "1000"}]},
            {"type": "BROKER", "name": "", "ops": [{"name": "log.cleaner.threads", "value": "2"}]},
        ],
    )
    assert error_of(altered[f"TOPIC:{topic}"]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    assert error_of(altered["BROKER:"]).type == "ClusterAuthorizationException"  # type: ignore[union-attr]

    cluster_calls = {
        "describeAcls": {},
        "describeMetadataQuorum": {},
        "listPartitionReassignments": {},
        "describeUserScramCredentials": {},
        "describeClientQuotas": {},
        "electLeaders": {"partitions": [{"topic": topic, "partition": 0}]},  # a top-level error (v1+)
    }
    for op, args in cluster_calls.items():
        assert (
            _type(lambda op=op, args=args: alice_java.call(op, **args)) == "ClusterAuthorizationException"
        ), op
    per_item = {
        "createAcls": {"bindings": [{"resourceType": "TOPIC", "name": "t", "principal": "User:alice",
                                     "operation": "READ"}]},
        "deleteAcls": {"filters": [{"resourceType": "TOPIC"}]},
        "describeLogDirs": {"brokers": [1]},
        "alterPartitionReassignments": {"reassignments": [{"topic": topic, "partition": 0, "replicas": [1]}]},
        "alterUserScramCredentials": {"upserts": [{"user": "alice", "mechanism": "SCRAM-SHA-256",
                                                   "iterations": 8192, "password": "x"}]},
        "alterClientQuotas": {"alterations": [{"entity": {"user": "alice"}, "values": {"request_percentage": 1.0}}]},
        "updateFeatures": {"updates": {"group.version": {"level": 1}}, "validateOnly": True},
        "alterReplicaLogDirs": {"replicas": [{"topic": topic, "partition": 0, "broker": 1, "dir": "/x"}]},
    }  # fmt: skip
    for op, args in per_item.items():
        try:
            outcome = alice_java.call(op, **args)
        except JavaError as error:
            raise AssertionError(f"{op}: {error}") from None
        items = outcome if isinstance(outcome, list) else list(outcome.values())
        assert items, op
        for item in items:
            assert error_of(item).type == "ClusterAuthorizationException", (op, item)  # type: ignore[union-attr]
    # nothing changed behind the refusals
    assert "sec-alice" not in state.topics_view(secure_sandbox)
    assert state.dynamic_configs(secure_sandbox, state.TOPIC_RESOURCE, topic) == {}
    assert state.acls_view(secure_sandbox) == []

    # a prefixed DESCRIBE grant: alice now sees the topics it covers, and only those
    unwrap(admin_java.call("createTopics", topics=[{"name": "sec-visible", "partitions": 1}])["sec-visible"])
    grant = {"resourceType": "TOPIC", "name": "sec-", "patternType": "PREFIXED", "principal": "User:alice",
             "operation": "DESCRIBE"}  # fmt: skip
    assert "ok" in admin_java.call("createAcls", bindings=[grant])[0]
    try:
        assert alice_java.call("listTopics") == ["sec-visible"]
        seen = unwrap(alice_java.call("describeTopics", names=["sec-visible"])["sec-visible"])
        assert seen["topicId"] == state.topics_view(secure_sandbox)["sec-visible"]["topicId"]
        configs = alice_java.call("describeConfigs", resources=[{"type": "TOPIC", "name": "sec-visible"}])
        assert error_of(configs["TOPIC:sec-visible"]).type == "TopicAuthorizationException"  # type: ignore[union-attr]
    finally:
        admin_java.call("deleteAcls", filters=[{"principal": "User:alice"}])
        unwrap(admin_java.call("deleteTopics", names=["sec-visible"])["sec-visible"])


def test_authorized_operations(admin_java: JavaAdmin, alice_java: JavaAdmin) -> None:
    """DescribeCluster and DescribeTopicPartitions report what the caller may do (KIP-430)."""
    every = admin_java.call("describeCluster", authorizedOperations=True)["authorizedOperations"]
    assert {"ALTER", "ALTER_CONFIGS", "CREATE", "DESCRIBE", "DESCRIBE_CONFIGS"} <= set(every)
    assert alice_java.call("describeCluster", authorizedOperations=True)["authorizedOperations"] == []
    topic = unwrap(
        admin_java.call("describeTopics", names=["sandbox-topic-00000"], authorizedOperations=True)[
            "sandbox-topic-00000"
        ]
    )
    assert {"READ", "WRITE", "DESCRIBE", "ALTER", "DELETE"} <= set(topic["authorizedOperations"])


def test_controllers_answer_and_refuse_over_sasl_ssl(java_peer: JavaPeer, secure_sandbox: Any) -> None:
    admin = java_peer.client(client_props(secure_sandbox, controllers=True))
    alice = java_peer.client(client_props(secure_sandbox, controllers=True, principal="alice"))
    try:
        quorum = admin.call("describeMetadataQuorum")
        assert quorum["leaderId"] == secure_sandbox.active_controller_id
        assert admin.call("describeFeatures") == state.features_view(secure_sandbox)
        assert _type(lambda: alice.call("describeMetadataQuorum")) == "ClusterAuthorizationException"
        controller = str(secure_sandbox.controller_ids[0])
        configs = alice.call("describeConfigs", resources=[{"type": "BROKER", "name": controller}])
        assert error_of(configs[f"BROKER:{controller}"]).type == "ClusterAuthorizationException"  # type: ignore[union-attr]
        entries = unwrap(
            admin.call("describeConfigs", resources=[{"type": "BROKER", "name": controller}])[
                f"BROKER:{controller}"
            ]
        )
        by_name = {e["name"]: e for e in entries}
        # a password is sensitive: no value, in the entry or its synonyms
        secrets = [e for e in entries if e["sensitive"]]
        assert secrets and all(e["value"] is None for e in secrets)
        assert all(s["value"] is None for e in secrets for s in e["synonyms"])
        assert by_name["node.id"]["value"] == controller
    finally:
        admin.close()
        alice.close()
