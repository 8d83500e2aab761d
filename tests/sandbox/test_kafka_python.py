"""The sandbox driven by kafka-python's admin client: what an independent Kafka client observes."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_describe_cluster_lists_brokers_and_cluster_id(sandbox: Any) -> None:
    with admin(sandbox.bootstrap_servers) as client:
        described = client.describe_cluster()
    assert described["cluster_id"] == sandbox.cluster_id
    assert sorted(b["broker_id"] for b in described["brokers"]) == [1, 2, 3]
    ports = {b["broker_id"]: b["port"] for b in described["brokers"]}
    assert ports == {node_id: sandbox.port_of(node_id) for node_id in (1, 2, 3)}
    assert described["controller_id"] in (1, 2, 3)


def test_create_topics_and_metadata(sandbox: Any) -> None:
    from kafka.admin import NewTopic

    name = unique("orders")
    with admin(sandbox.bootstrap_servers) as client:
        result = client.create_topics([NewTopic(name, 4, 3, topic_configs={"retention.ms": "3600000"})])
        assert result["topics"][0]["error_code"] == 0
        assert result["topics"][0]["num_partitions"] == 4
        assert result["topics"][0]["configs"]["retention.ms"]["value"] == "3600000"
        assert result["topics"][0]["configs"]["retention.ms"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
        described = client.describe_topics([name])
    partitions = described[0]["partitions"]
    assert sorted(p["partition_index"] for p in partitions) == [0, 1, 2, 3]
    for p in partitions:
        assert len(p["replica_nodes"]) == 3
        assert p["leader_id"] in p["replica_nodes"]
        assert sorted(p["isr_nodes"]) == sorted(p["replica_nodes"])


def test_create_topic_errors(sandbox: Any) -> None:
    from kafka.admin import NewTopic
    from kafka.errors import InvalidConfigurationError, InvalidReplicationFactorError, TopicAlreadyExistsError

    name = unique("dup")
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 1, 1)])
        with pytest.raises(TopicAlreadyExistsError):
            client.create_topics([NewTopic(name, 1, 1)])
        with pytest.raises(InvalidReplicationFactorError):
            client.create_topics([NewTopic(unique("rf"), 1, 4)])
        with pytest.raises(InvalidConfigurationError):
            client.create_topics([NewTopic(unique("cfg"), 1, 1, topic_configs={"no.such.key": "1"})])


def test_delete_topics(sandbox: Any) -> None:
    from kafka.admin import NewTopic
    from kafka.errors import UnknownTopicOrPartitionError

    name = unique("gone")
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 2, 2)])
        assert name in client.list_topics()
        client.delete_topics([name])
        assert name not in client.list_topics()
        with pytest.raises(UnknownTopicOrPartitionError):
            client.delete_topics([name])


def test_describe_and_alter_topic_configs(sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType, NewTopic

    name = unique("cfg")
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 1, 1)])
        altered = client.alter_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name, configs={"cleanup.policy": "compact"})]
        )
        assert altered == {"topic": {name: "OK"}}
        described = client.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name)], include_synonyms=True, config_filter="all"
        )
    configs = described["topic"][name]
    assert configs["cleanup.policy"]["value"] == "compact"
    assert configs["cleanup.policy"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
    assert [s["name"] for s in configs["cleanup.policy"]["synonyms"]] == [
        "cleanup.policy",
        "log.cleanup.policy",
    ]
    assert configs["retention.ms"]["value"] == "604800000"
    assert configs["retention.ms"]["config_source"] == "DEFAULT_CONFIG"
    assert configs["retention.ms"]["synonyms"] == []  # Kafka drops log.retention.hours: not its own name


def test_alter_configs_rejects_unknown_keys_and_bad_values(sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType, NewTopic

    name = unique("bad")
    with admin(sandbox.bootstrap_servers) as client:
        client.create_topics([NewTopic(name, 1, 1)])
        unknown = client.alter_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name, configs={"no.such.key": "1"})],
            raise_on_unknown=False,
        )
        bad = client.alter_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name, configs={"retention.ms": "soon"})]
        )
        described = client.describe_configs(
            [ConfigResource(ConfigResourceType.TOPIC, name)], config_filter="all"
        )
    # kafka-python reports each resource's error as "[Error <code>] <name>: <message>"
    assert unknown == {
        "topic": {name: "[Error 40] InvalidConfigurationError: Unknown topic config name: no.such.key"}
    }
    assert set(bad) == {"topic"} and set(bad["topic"]) == {name}
    assert bad["topic"][name].startswith(
        "[Error 40] InvalidConfigurationError: Invalid value soon for configuration retention.ms"
    )
    assert described["topic"][name]["retention.ms"]["value"] == "604800000"


def test_broker_configs_sources_and_sensitive_values(sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType

    with admin(sandbox.bootstrap_servers) as client:
        client.alter_configs(
            [ConfigResource(ConfigResourceType.BROKER, "2", configs={"log.cleaner.threads": "2"})]
        )
        described = client.describe_configs(
            [ConfigResource(ConfigResourceType.BROKER, "2")], include_synonyms=True, config_filter="all"
        )
    configs = described["broker"]["2"]
    assert configs["log.cleaner.threads"]["value"] == "2"
    assert configs["log.cleaner.threads"]["config_source"] == "DYNAMIC_BROKER_CONFIG"
    assert configs["node.id"] == {
        "value": "2",
        "read_only": True,
        "config_source": "STATIC_BROKER_CONFIG",
        "is_sensitive": False,
        "synonyms": [
            {"name": "node.id", "value": "2", "source": "STATIC_BROKER_CONFIG"}
        ],  # no default in Kafka
        "config_type": "INT",
        "documentation": None,
    }
    assert configs["ssl.keystore.password"]["value"] is None
    assert configs["ssl.keystore.password"]["is_sensitive"] is True


def test_read_only_broker_configs_cannot_be_altered(sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType

    with admin(sandbox.bootstrap_servers) as client:
        refused = client.alter_configs(
            [ConfigResource(ConfigResourceType.BROKER, "1", configs={"node.id": "7"})], raise_on_unknown=False
        )
        described = client.describe_configs(
            [ConfigResource(ConfigResourceType.BROKER, "1")], config_filter="all"
        )
    # Kafka answers INVALID_REQUEST for a broker key that is not dynamic (ConfigAdminManager, KAFKA-13609)
    assert refused == {
        "broker": {"1": "[Error 42] InvalidRequestError: Cannot update these configs dynamically: [node.id]"}
    }
    assert described["broker"]["1"]["node.id"]["value"] == "1"


def test_describe_metadata_quorum(sandbox: Any) -> None:
    with admin(sandbox.bootstrap_servers) as client:
        quorum = client.describe_metadata_quorum()
    partition = quorum["topics"][0]["partitions"][0]
    assert partition["leader_id"] == sandbox.active_controller_id
    assert sorted(v["replica_id"] for v in partition["current_voters"]) == [101, 102, 103]
    assert sorted(o["replica_id"] for o in partition["observers"]) == [1, 2, 3]
    assert all(v["log_end_offset"] == partition["high_watermark"] for v in partition["current_voters"])
