"""`kcli reassign-partitions` on real Kafka: generate, execute --wait, verify, list, cancel, throttles
(set, kept by --preserve-throttles, removed), moves between the log dirs of one broker, and the
rollback file. kafka-python reads back every assignment, log dir and throttle."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.polling import wait_for
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import broker_configs, peer_producer, topic_configs

pytestmark = pytest.mark.realcluster

BROKER_THROTTLES = (
    "leader.replication.throttled.rate",
    "follower.replication.throttled.rate",
    "replica.alter.log.dirs.io.max.bytes.per.second",
)
TOPIC_THROTTLES = ("leader.replication.throttled.replicas", "follower.replication.throttled.replicas")


def test_generate_proposes_a_plan_over_the_brokers_and_list_runs(
    real_cluster: RealCluster, scratch_topic: str, tmp_path: Path
) -> None:
    topics = tmp_path / "topics.json"
    topics.write_text(json.dumps({"version": 1, "topics": [{"topic": scratch_topic}]}))
    nodes = invoke("cluster", "list-endpoints", *real_cluster.broker_args(), "-o", "json").json["nodes"]
    ids = sorted(n["id"] for n in nodes)
    plan = invoke(
        "reassign-partitions", *real_cluster.broker_args(), "--generate", "--topics-to-move-json-file", str(topics),
        "--broker-list", ",".join(map(str, ids)), "-o", "json",
    )  # fmt: skip
    assert plan.code == 0, plan.stderr
    admin = real_cluster.peer_admin()
    try:
        (described,) = admin.describe_topics([scratch_topic])
    finally:
        admin.close()
    current = {p["partition_index"]: p["replica_nodes"] for p in described["partitions"]}
    assert {p["partition"]: p["replicas"] for p in plan.json["current"]["partitions"]} == current
    proposed = plan.json["proposed"]["partitions"]
    assert sorted(p["partition"] for p in proposed) == sorted(current)
    assert all(set(p["replicas"]) <= set(ids) and len(p["replicas"]) == 1 for p in proposed)
    for args in real_cluster.bootstrap_kinds():
        listed = invoke("reassign-partitions", *args, "--list")
        assert listed.code == 0, listed.stderr


def _assignment(admin: Any, topic: str) -> dict[int, list[int]]:
    (described,) = admin.describe_topics([topic])
    return {p["partition_index"]: list(p["replica_nodes"]) for p in described["partitions"]}


def _wait_for_assignment(admin: Any, topic: str, wanted: dict[int, list[int]]) -> None:
    wait_for(lambda: _assignment(admin, topic) == wanted, timeout=30, interval=0.5, what=f"{topic} placed as {wanted}")


def _log_dir_of(admin: Any, broker: int, topic: str, partition: int) -> str | None:
    for entry in admin.describe_log_dirs(brokers=[broker]):
        for log_dir in entry["log_dirs"]:
            for found in log_dir["topics"]:
                if found["name"] == topic and any(
                    p["partition_index"] == partition and not p["is_future_key"] for p in found["partitions"]
                ):
                    return str(log_dir["log_dir"])
    return None


def _log_dirs(admin: Any, broker: int) -> list[str]:
    (entry,) = admin.describe_log_dirs(brokers=[broker])
    return sorted(str(d["log_dir"]) for d in entry["log_dirs"])


def _throttles(admin: Any, brokers: list[int], topic: str) -> dict[str, str]:
    """The reassignment throttles set dynamically on `brokers` and `topic` (absent ones left out)."""
    found = {}
    for broker in brokers:
        entries = broker_configs(admin, str(broker))
        for key in BROKER_THROTTLES:
            entry = entries.get(key)  # a throttle not set may not be listed at all
            if entry is not None and entry["config_source"] == "DYNAMIC_BROKER_CONFIG":
                found[f"{broker}:{key}"] = entry["value"]
    values = topic_configs(admin, topic)
    for key in TOPIC_THROTTLES:
        if values.get(key):
            found[key] = values[key]
    return found


@pytest.mark.realkafka
@pytest.mark.slow
def test_execute_wait_verify_throttles_log_dirs_and_rollback(
    real_kafka: Any, new_topic: Any, kafka_admin: Any, tmp_path: Path
) -> None:
    cluster = cluster_of(real_kafka)
    first, second, _ = real_kafka.broker_ids
    topic = new_topic("move", assignment={0: [first], 1: [second]})
    wait_for(lambda: _log_dir_of(kafka_admin, second, topic, 1), timeout=30, interval=0.3, what="partition 1 placed")
    source = _log_dir_of(kafka_admin, second, topic, 1)
    (target,) = [d for d in _log_dirs(kafka_admin, second) if d != source]
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": topic, "partition": 0, "replicas": [second], "log_dirs": ["any"]},
        {"topic": topic, "partition": 1, "replicas": [second], "log_dirs": [target]},
    ]}))  # fmt: skip
    rollback = tmp_path / "rollback.json"
    executed = invoke(
        "reassign-partitions", *cluster.broker_args(), "--execute", "--reassignment-json-file", str(plan),
        "--throttle", "50000000", "--replica-alter-log-dirs-throttle", "50000000", "--wait", "--timeout", "120000",
        "--preserve-throttles", "--rollback-file", str(rollback),
    )  # fmt: skip
    assert executed.code == 0, executed.stdout + executed.stderr
    assert f"Successfully started partition reassignments for {topic}-0,{topic}-1" in executed.lines
    # done at the controller when --wait returns; the brokers' metadata (what kafka-python reads) follows
    _wait_for_assignment(kafka_admin, topic, {0: [second], 1: [second]})
    wait_for(
        lambda: _log_dir_of(kafka_admin, second, topic, 1) == target, timeout=60, interval=0.5,
        what="partition 1 moved to the other log dir",
    )  # fmt: skip
    saved = json.loads(rollback.read_text())
    assert {(p["partition"], tuple(p["replicas"])) for p in saved["partitions"]} == {(0, (first,)), (1, (second,))}

    # --preserve-throttles: the throttles execute set stay until verify sees the reassignment done
    # (unless preserved again); without it --wait clears them (tests/realkafka/test_reassign_wait_throttles.py)
    throttles = _throttles(kafka_admin, [first, second], topic)
    assert throttles[f"{second}:leader.replication.throttled.rate"] == "50000000"
    assert throttles[f"{second}:replica.alter.log.dirs.io.max.bytes.per.second"] == "50000000"
    kept = invoke(
        "reassign-partitions", *cluster.broker_args(), "--verify", "--reassignment-json-file", str(plan),
        "--preserve-throttles",
    )  # fmt: skip
    assert kept.code == 0, kept.stderr
    assert f"Reassignment of partition {topic}-0 is completed." in kept.lines
    assert _throttles(kafka_admin, [first, second], topic) == throttles
    verified = invoke("reassign-partitions", *cluster.broker_args(), "--verify", "--reassignment-json-file", str(plan))
    assert verified.code == 0, verified.stderr
    assert f"Reassignment of replica {topic}-1-{second} completed successfully." in verified.lines
    wait_for(
        lambda: _throttles(kafka_admin, [first, second], topic) == {}, timeout=30, interval=0.5,
        what="every throttle removed",
    )  # fmt: skip

    # the rollback file puts every replica back, log dir included
    back = invoke(
        "reassign-partitions", *cluster.broker_args(), "--execute", "--reassignment-json-file", str(rollback),
        "--wait", "--timeout", "120000", "--rollback-file", str(tmp_path / "rollback-2.json"),
    )  # fmt: skip
    assert back.code == 0, back.stdout + back.stderr
    _wait_for_assignment(kafka_admin, topic, {0: [first], 1: [second]})
    wait_for(
        lambda: _log_dir_of(kafka_admin, second, topic, 1) == source, timeout=60, interval=0.5,
        what="partition 1 back in its first log dir",
    )  # fmt: skip


@pytest.mark.realkafka
@pytest.mark.slow
def test_a_throttled_reassignment_is_listed_and_cancelled(
    real_kafka: Any, new_topic: Any, kafka_admin: Any, tmp_path: Path
) -> None:
    cluster = cluster_of(real_kafka)
    first, _, third = real_kafka.broker_ids
    topic = new_topic("cancel", assignment={0: [first]})
    producer = peer_producer(real_kafka.bootstrap_servers, cluster.command_config)
    try:
        for _ in range(64):
            producer.send(topic, b"x" * 32768, partition=0)
        producer.flush(timeout=60)
    finally:
        producer.close()
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [third]}]}))
    # 2 MiB at 1 KiB/s: the move stays in flight until it is cancelled
    started = invoke(
        "reassign-partitions", *cluster.broker_args(), "--execute", "--reassignment-json-file", str(plan),
        "--throttle", "1024", "--rollback-file", str(tmp_path / "rollback.json"),
    )  # fmt: skip
    assert started.code == 0, started.stderr
    in_flight = kafka_admin.list_partition_reassignments()
    assert len(in_flight) == 1, in_flight
    for args in cluster.bootstrap_kinds():
        listed = invoke("reassign-partitions", *args, "--list")
        assert listed.code == 0, listed.stderr
        assert listed.lines[0] == "Current partition reassignments:"
        assert f"{topic}-0: replicas: {third},{first}. adding: {third}. removing: {first}." in listed.lines
    throttled = _throttles(kafka_admin, [first, third], topic)
    assert throttled[f"{first}:leader.replication.throttled.rate"] == "1024"
    assert throttled["leader.replication.throttled.replicas"] == f"0:{first}"

    cancelled = invoke("reassign-partitions", *cluster.controller_args(), "--cancel", "--reassignment-json-file", str(plan))
    assert cancelled.code == 0, cancelled.stdout + cancelled.stderr
    assert f"Successfully cancelled partition reassignment for: {topic}-0" in cancelled.lines
    assert kafka_admin.list_partition_reassignments() == {}
    _wait_for_assignment(kafka_admin, topic, {0: [first]})
    wait_for(
        lambda: _throttles(kafka_admin, [first, third], topic) == {}, timeout=30, interval=0.5,
        what="every throttle removed",
    )  # fmt: skip
