"""The sandbox's state is a real KRaft metadata log: decodable by kio and kcli.metadata, replayed by `up`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kcli.metadata.records import record_name
from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def _kio_batches(path: Path) -> list[Any]:
    from kio.records.readers import read_batch

    data = path.read_bytes()
    batches, position = [], 0
    while position < len(data):
        batch, size = read_batch(data, position)
        batches.append(batch)
        position += size
    assert position == len(data)
    return batches


def test_log_decodes_with_kio_and_kcli_reader(tmp_path: Path) -> None:
    from kafka.admin import NewTopic

    from kcli.metadata.reader import read_file
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path / "sb", controllers=1, brokers=2) as sb:
        with admin(sb.bootstrap_servers) as client:
            client.create_topics([NewTopic("logged", 3, 2, topic_configs={"retention.ms": "1000"})])
        controller_log = sb.metadata_log_dir(101)
        broker_log = sb.metadata_log_dir(2)
    segment = controller_log / "00000000000000000000.log"
    batches = _kio_batches(segment)
    assert batches[0].attributes & 0x20  # LeaderChangeMessage control batch first
    assert [b.base_offset for b in batches] == sorted(b.base_offset for b in batches)
    entries = list(read_file(segment))
    names = [record_name(type(e.record)) for e in entries]
    assert names[0] == "LeaderChangeMessage"
    assert "FeatureLevelRecord" in names and "RegisterBrokerRecord" in names
    topics = [e.record for e in entries if record_name(type(e.record)) == "TopicRecord"]
    assert [t.name for t in topics] == ["logged"]
    partitions = [e.record for e in entries if record_name(type(e.record)) == "PartitionRecord"]
    assert sorted(p.partition_id for p in partitions) == [0, 1, 2]
    assert all(len(p.replicas) == 2 for p in partitions)
    configs = [e.record for e in entries if record_name(type(e.record)) == "ConfigRecord"]
    # the cluster-level min.insync.replicas Kafka's controller writes when ELR is on, then the topic's
    assert [(c.resource_name, c.name, c.value) for c in configs] == [
        ("", "min.insync.replicas", "1"),
        ("logged", "retention.ms", "1000"),
    ]
    # brokers replicate the controller's log byte for byte
    assert (broker_log / segment.name).read_bytes() == segment.read_bytes()
    # shutdown leaves a snapshot with header and footer
    snapshots = sorted(controller_log.glob("*.checkpoint"))
    assert snapshots
    snapshot_entries = list(read_file(snapshots[-1]))
    assert record_name(type(snapshot_entries[0].record)) == "SnapshotHeaderRecord"
    assert record_name(type(snapshot_entries[-1].record)) == "SnapshotFooterRecord"
    for name in ("meta.properties", "bootstrap.checkpoint"):
        assert (controller_log.parent / name).exists()
    assert (controller_log / "quorum-state").read_text().startswith('{"clusterId":"","leaderId":101')


def test_up_on_existing_directory_replays_state(tmp_path: Path) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType, NewTopic

    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path / "sb"
    with Sandbox(directory=directory, controllers=1, brokers=2) as sb:
        cluster_id = sb.cluster_id
        with admin(sb.bootstrap_servers) as client:
            client.create_topics([NewTopic("kept", 2, 2), NewTopic("dropped", 1, 1)])
            client.delete_topics(["dropped"])
            client.alter_configs(
                [ConfigResource(ConfigResourceType.TOPIC, "kept", configs={"retention.ms": "5000"})]
            )
    with Sandbox(directory=directory, controllers=1, brokers=2) as sb:
        assert sb.cluster_id == cluster_id
        with admin(sb.bootstrap_servers) as client:
            assert client.list_topics() == ["kept"]
            described = client.describe_configs(
                [ConfigResource(ConfigResourceType.TOPIC, "kept")], config_filter="all"
            )
            assert described["topic"]["kept"]["retention.ms"]["value"] == "5000"
            # the restarted cluster keeps writing after the replayed log
            client.create_topics([NewTopic("after", 1, 1)])
            assert sorted(client.list_topics()) == ["after", "kept"]
