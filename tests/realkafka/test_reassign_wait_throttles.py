"""`reassign-partitions --execute --throttle --wait` on real Kafka: done means the throttles are gone too.

The configs are read back with Kafka's own kafka-configs.sh, so kcli does not check itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import NEWEST, kafka_home
from tests.kafka_tools import described_configs, kafka_tool

pytestmark = [pytest.mark.realkafka, pytest.mark.slow]

TOPIC = "wait-throttles"
BROKER_KEYS = {"leader.replication.throttled.rate", "follower.replication.throttled.rate"}
TOPIC_KEYS = {"leader.replication.throttled.replicas", "follower.replication.throttled.replicas"}


def _throttles(kafka: Any, config: Path) -> tuple[set[str], set[str]]:
    """(throttle keys set on any broker, throttle keys set on the topic), as kafka-configs.sh shows them."""
    home = kafka_home(NEWEST)
    common = ("--bootstrap-server", kafka.bootstrap_servers, "--command-config", str(config), "--describe")
    brokers = described_configs(
        kafka_tool(home, "kafka-configs.sh", *common, "--entity-type", "brokers").stdout
    )
    topic = described_configs(
        kafka_tool(
            home, "kafka-configs.sh", *common, "--entity-type", "topics", "--entity-name", TOPIC
        ).stdout
    )
    on_brokers = {key for configs in brokers.values() for key in configs if key in BROKER_KEYS}
    return on_brokers, set(topic.get(f"topic {TOPIC}", {})) & TOPIC_KEYS


def _plan(path: Path, placement: list[list[int]]) -> str:
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [
                    {"topic": TOPIC, "partition": p, "replicas": r} for p, r in enumerate(placement)
                ],
            }
        )
    )
    return str(path)


def test_wait_removes_the_throttles_it_set_unless_told_to_keep_them(real_kafka: Any, tmp_path: Path) -> None:
    home = kafka_home(NEWEST)
    config = real_kafka.command_config()
    kafka_tool(
        home, "kafka-topics.sh", "--bootstrap-server", real_kafka.bootstrap_servers,
        "--command-config", str(config), "--create", "--topic", TOPIC, "--replica-assignment", "1,2",
    )  # fmt: skip
    common = ("--bootstrap-server", real_kafka.bootstrap_servers, "--command-config", str(config))

    kept = invoke(
        "reassign-partitions", *common, "--execute", "--reassignment-json-file", _plan(tmp_path / "a.json", [[2], [3]]),
        "--throttle", "2000000", "--wait", "--preserve-throttles", "--no-elect",
        "--rollback-file", str(tmp_path / "rb-a.json"),
    )  # fmt: skip
    assert kept.code == 0, kept.stderr
    assert kept.lines[-1].startswith("Throttles left in place (--preserve-throttles)")
    assert _throttles(real_kafka, config) == (BROKER_KEYS, TOPIC_KEYS)  # the reader sees them

    done = invoke(
        "reassign-partitions", *common, "--execute", "--reassignment-json-file", _plan(tmp_path / "b.json", [[3], [1]]),
        "--throttle", "2000000", "--wait", "--rollback-file", str(tmp_path / "rb-b.json"),
    )  # fmt: skip
    assert done.code == 0, done.stderr
    assert done.lines[-5:] == [
        f"Reassignment of partition {TOPIC}-0 is completed.",
        f"Reassignment of partition {TOPIC}-1 is completed.",
        "Clearing broker-level throttles on brokers 1,2,3",
        f"Clearing topic-level throttles on topic {TOPIC}",
        # the preferred election that ends --wait (one replica each: nothing to elect)
        f"Valid replica already elected for partitions {TOPIC}-0, {TOPIC}-1",
    ]
    assert _throttles(real_kafka, config) == (set(), set())
