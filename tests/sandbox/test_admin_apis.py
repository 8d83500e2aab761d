"""ACLs, features, reassignments, log dirs, elections, partitions, quotas and SCRAM through kafka-python."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

import pytest

from tests.dataplane.filling import fill
from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_acls_create_describe_delete(make_sandbox: Callable[..., Any]) -> None:
    from kafka.admin import (
        ACL,
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        ResourcePattern,
        ResourcePatternFilter,
        ResourceType,
    )

    sb = make_sandbox(controllers=1, brokers=1, authorizer=True)
    topic_acl = ACL(
        "User:alice",
        "*",
        ACLOperation.READ,
        ACLPermissionType.ALLOW,
        ResourcePattern(ResourceType.TOPIC, "orders-", ACLResourcePatternType.PREFIXED),
    )
    deny_acl = ACL(
        "User:bob",
        "*",
        ACLOperation.WRITE,
        ACLPermissionType.DENY,
        ResourcePattern(ResourceType.TOPIC, "orders-eu", ACLResourcePatternType.LITERAL),
    )
    with admin(sb.bootstrap_servers) as client:
        created = client.create_acls([topic_acl, deny_acl])
        assert len(created["succeeded"]) == 2 and not created["failed"]
        any_topic = ACLFilter(
            None,
            None,
            ACLOperation.ANY,
            ACLPermissionType.ANY,
            ResourcePatternFilter(ResourceType.TOPIC, None, ACLResourcePatternType.ANY),
        )
        listed, _error = client.describe_acls(any_topic)
        assert {(a.principal, a.operation, a.resource_pattern.resource_name) for a in listed} == {
            ("User:alice", ACLOperation.READ, "orders-"),
            ("User:bob", ACLOperation.WRITE, "orders-eu"),
        }
        match = ACLFilter(
            None,
            None,
            ACLOperation.ANY,
            ACLPermissionType.ANY,
            ResourcePatternFilter(ResourceType.TOPIC, "orders-eu", ACLResourcePatternType.MATCH),
        )
        matched, _error = client.describe_acls(match)
        assert len(matched) == 2  # the PREFIXED and the LITERAL binding both apply to orders-eu
        deleted = client.delete_acls(
            [
                ACLFilter(
                    "User:bob",
                    None,
                    ACLOperation.ANY,
                    ACLPermissionType.ANY,
                    ResourcePatternFilter(ResourceType.TOPIC, None, ACLResourcePatternType.ANY),
                )
            ]
        )
        assert [a.principal for a in deleted[0][1]] == ["User:bob"]
        remaining, _error = client.describe_acls(any_topic)
        assert [a.principal for a in remaining] == ["User:alice"]


def test_acls_without_authorizer_are_security_disabled(sandbox: Any) -> None:
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        ResourcePatternFilter,
        ResourceType,
    )
    from kafka.errors import SecurityDisabledError

    with admin(sandbox.bootstrap_servers) as client, pytest.raises(SecurityDisabledError):
        client.describe_acls(
            ACLFilter(
                None,
                None,
                ACLOperation.ANY,
                ACLPermissionType.ANY,
                ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY),
            )
        )


def test_features_describe_and_update(make_sandbox: Any) -> None:
    from kafka.errors import InvalidUpdateVersionError

    sb = make_sandbox(controllers=1, brokers=1, release_version="4.0")  # ELR is off by default at 4.0
    with admin(sb.bootstrap_servers) as client:
        features = client.describe_features()
        assert features["metadata.version"]["finalized"] == (25, 25)  # 4.0-IV3
        assert features["group.version"]["finalized"] == (1, 1)
        assert "finalized" not in features["eligible.leader.replicas.version"]
        assert "eligible.leader.replicas.version" not in sb.run(lambda c: c.image.features)
        client.update_features({"eligible.leader.replicas.version": 1})
        assert sb.run(lambda c: c.image.features["eligible.leader.replicas.version"]) == 1
        with pytest.raises(InvalidUpdateVersionError):
            client.update_features({"metadata.version": 99})
        with pytest.raises(InvalidUpdateVersionError):
            client.update_features({"metadata.version": 20})  # a downgrade without a downgrade type


def test_reassignment_progresses_under_throttle_then_completes(fresh_sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType, NewTopic
    from kafka.structs import TopicPartition

    sb = fresh_sandbox
    with admin(sb.bootstrap_servers) as client:
        client.create_topics([NewTopic("moving", -1, -1, replica_assignments={0: [1]})])
        fill(sb, "moving", [0], 20_000)  # about 2.5 MB: most of a second at 4 MB/s
        client.alter_configs(
            [
                ConfigResource(
                    ConfigResourceType.TOPIC,
                    "moving",
                    configs={
                        "leader.replication.throttled.replicas": "*",
                        "follower.replication.throttled.replicas": "*",
                    },
                ),
                ConfigResource(
                    ConfigResourceType.BROKER, "1", configs={"leader.replication.throttled.rate": "4000000"}
                ),
            ],
            # Kafka describes the replication quotas only once they are set: kafka-python's own
            # check against a describe would refuse a first throttle, on real Kafka too
            raise_on_unknown=False,
        )
        client.alter_partition_reassignments({TopicPartition("moving", 0): [2, 3]})
        ongoing = client.list_partition_reassignments()
        entry = ongoing[TopicPartition("moving", 0)]
        assert sorted(entry["adding_replicas"]) == [2, 3] and entry["removing_replicas"] == [1]
        sizes = client.describe_log_dirs(brokers=[2])
        assert [(b["broker"], [t["name"] for d in b["log_dirs"] for t in d["topics"]]) for b in sizes] == [
            (2, ["moving"])
        ]
        deadline = time.monotonic() + 10
        while client.list_partition_reassignments() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert client.list_partition_reassignments() == {}
        described = client.describe_topics(["moving"])[0]["partitions"][0]
    assert described["replica_nodes"] == [2, 3]
    assert sorted(described["isr_nodes"]) == [2, 3]
    assert described["leader_id"] in (2, 3)


def test_create_partitions_and_describe_topic_partitions(sandbox: Any) -> None:
    from kafka.admin import NewPartitions, NewTopic

    name = unique("grow")
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 2, 2)])
        client.create_partitions({name: NewPartitions(5)})
        described = client.describe_topics([name])[0]
        assert sorted(p["partition_index"] for p in described["partitions"]) == [0, 1, 2, 3, 4]
        assert all(len(p["replica_nodes"]) == 2 for p in described["partitions"])


def test_elect_preferred_leaders_after_a_broker_returns(fresh_sandbox: Any) -> None:
    from kafka.admin import NewTopic

    sb = fresh_sandbox
    with admin(sb.bootstrap_servers) as client:
        client.create_topics([NewTopic("elect", -1, -1, replica_assignments={0: [3, 1, 2]})])
        sb.stop_node(3)
        assert client.describe_topics(["elect"])[0]["partitions"][0]["leader_id"] == 1
        sb.start_node(3)
        client.elect_leaders(0, {"elect": [0]})
        assert client.describe_topics(["elect"])[0]["partitions"][0]["leader_id"] == 3


def test_scram_credentials_describe_and_alter(sandbox: Any) -> None:
    from kafka.admin import ScramMechanism, UserScramCredentialUpsertion

    user = unique("carol")
    with admin(sandbox.bootstrap_servers) as client:
        client.alter_user_scram_credentials(
            [UserScramCredentialUpsertion(user, ScramMechanism.SCRAM_SHA_256, "pw", 8192)]
        )
        described = client.describe_user_scram_credentials([user])
    assert described == {
        user: {
            "error": None,
            "credential_infos": [{"mechanism": ScramMechanism.SCRAM_SHA_256, "iterations": 8192}],
        }
    }
