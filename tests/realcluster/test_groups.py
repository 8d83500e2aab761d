"""The group tools' kcli additions on the real cluster: lag and its age, the CI exits, --watch, the reset's
rollback file and undo command, `cluster doctor --group`, `spark collect`'s group tables, and JSON
valid against the published schemas. kafka-python reads back what kcli changed.

kcli beside Kafka's own tools, line by line, is tests/kafka_diff (corpus_groups); this module checks
what Kafka's tools do not have. One topic of its own (3 partitions, 10/20/30 records) and groups made
by committing offsets (kcli's reset), plus one kafka-python member for an active group.
"""

from __future__ import annotations

import json
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.realcluster.conftest import RealCluster
from tests.realcluster.peers import peer_consumer, peer_producer

# realkafka as well: the emulator serves no records and no groups yet (Produce, Fetch, the group
# coordinator), so tests/test_realcluster_suite.py, which runs this suite on it, leaves this module out.
pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka]

RECORDS = (10, 20, 30)  # per partition
SCHEMAS = Path(__file__).parents[2] / "docs" / "json" / "schemas"


@pytest.fixture(scope="module")
def topic(real_cluster: RealCluster) -> Iterator[str]:
    from kafka.admin import NewTopic

    name = f"kcli-groups-{uuid.uuid4().hex[:8]}"
    admin = real_cluster.peer_admin()
    admin.create_topics([NewTopic(name, len(RECORDS), 1)])
    producer = peer_producer(real_cluster.bootstrap_server, real_cluster.command_config)
    try:
        for partition, count in enumerate(RECORDS):
            for i in range(count):
                producer.send(name, value=b"r%d" % i, partition=partition)
        producer.flush(timeout=60)
        yield name
    finally:
        producer.close()
        admin.delete_topics([name])
        admin.close()


def _group(prefix: str) -> str:
    return f"kcli-{prefix}-{uuid.uuid4().hex[:8]}"


def _kcli(cluster: RealCluster, tool: str, *args: str) -> Any:
    return invoke(tool, *cluster.broker_args(), *args)


def _committed(cluster: RealCluster, group: str) -> dict[int, int]:
    admin = cluster.peer_admin()
    try:
        return {tp.partition: meta.offset for tp, meta in admin.list_group_offsets(group)[group].items()}
    finally:
        admin.close()


def _valid(tool: str, value: Any) -> None:
    from tests.polish.schema_check import errors

    schema = json.loads((SCHEMAS / f"{tool}.json").read_text())
    assert errors(value, schema) == []


@pytest.fixture(scope="module")
def lagging(real_cluster: RealCluster, topic: str) -> str:
    """A group with committed offsets 5 on each partition (lag 5, 15, 25), made by kcli's reset."""
    group = _group("lagging")
    done = _kcli(real_cluster, "consumer-groups", "--reset-offsets", "--group", group, "--topic", topic,
                 "--to-offset", "5", "--execute")  # fmt: skip
    assert done.code == 0, done.stderr
    assert _committed(real_cluster, group) == {0: 5, 1: 5, 2: 5}
    return group


def test_describe_lag_its_age_and_the_ci_exits(real_cluster: RealCluster, topic: str, lagging: str) -> None:
    described = _kcli(
        real_cluster, "consumer-groups", "--describe", "--group", lagging, "--time-lag", "-o", "json"
    )
    assert described.code == 0, described.stderr
    _valid("consumer-groups", described.json)
    (group,) = described.json["groups"]
    assert (group["group"], group["state"], group["lag"]) == (lagging, "Empty", 5 + 15 + 25)
    assert group["lag_by_topic"] == {topic: 45}
    rows = {row["partition"]: row for row in group["partitions"]}
    assert {p: (r["current_offset"], r["log_end_offset"], r["lag"]) for p, r in rows.items()} == {
        0: (5, 10, 5), 1: (5, 20, 15), 2: (5, 30, 25),
    }  # fmt: skip
    assert all(r["time_lag_ms"] is not None and r["time_lag_ms"] >= 0 for r in rows.values())

    over = _kcli(real_cluster, "consumer-groups", "--describe", "--group", lagging, "--fail-on-lag", "20")
    assert over.code == 1
    assert f"the most: group {lagging} {topic}-2 lag 25" in over.stderr
    assert "1 partition(s) of 1 group(s) over the lag threshold (20 records)" in over.stderr
    under = _kcli(real_cluster, "consumer-groups", "--describe", "--group", lagging, "--fail-on-lag", "25")
    assert under.code == 0, under.stderr
    old = _kcli(real_cluster, "consumer-groups", "--describe", "--group", lagging, "--fail-on-time-lag", "1h")
    assert old.code == 0, old.stderr


def test_watch_refreshes_the_lag(real_cluster: RealCluster, lagging: str) -> None:
    watched = _kcli(real_cluster, "consumer-groups", "--describe", "--group", lagging, "--watch",
                    "--interval", "0.5", "--count", "2")  # fmt: skip
    assert watched.code == 0, watched.stderr
    assert watched.stdout.count(lagging) >= 2
    assert "steady" in watched.stdout


def test_reset_saves_the_offsets_first_and_its_undo_command_puts_them_back(
    real_cluster: RealCluster, topic: str, lagging: str, tmp_path: Path
) -> None:
    group = _group("reset")
    made = _kcli(real_cluster, "consumer-groups", "--reset-offsets", "--group", group, "--topic", f"{topic}:0,1",
                 "--to-offset", "3", "--execute")  # fmt: skip
    assert made.code == 0, made.stderr
    rollback = tmp_path / "rollback.csv"
    reset = _kcli(real_cluster, "consumer-groups", "--reset-offsets", "--group", group, "--topic", topic,
                  "--to-latest", "--execute", "--rollback-file", str(rollback), "-o", "json")  # fmt: skip
    assert reset.code == 0, reset.stderr
    _valid("consumer-groups", reset.json)
    assert reset.json["rollback_file"] == str(rollback)
    assert sorted(rollback.read_text().splitlines()) == [f"{group},{topic},0,3", f"{group},{topic},1,3"]
    assert _committed(real_cluster, group) == dict(enumerate(RECORDS))
    (undo, fresh) = [line for line in reset.stderr.splitlines() if "to undo" in line]
    assert undo.endswith(f"--reset-offsets --group {group} --from-file {rollback} --execute")
    assert fresh.endswith(f"--delete-offsets --group {group} --topic {topic}:2")

    import re
    import shlex

    for line in (undo, fresh):
        command = re.search(r"to undo(?: those)?: (.*)$", line)
        assert command is not None, line
        words = shlex.split(command.group(1))
        assert words[:2] == ["kcli", "consumer-groups"]
        done = invoke(*words[1:])
        assert done.code == 0, done.stderr
    assert _committed(real_cluster, group) == {0: 3, 1: 3}


def test_an_active_group_is_refused_and_the_others_are_reset(
    real_cluster: RealCluster, topic: str, lagging: str
) -> None:
    group = _group("active")
    stop = threading.Event()
    joined = threading.Event()

    def member() -> None:
        consumer = peer_consumer(
            real_cluster.bootstrap_server, real_cluster.command_config, group_id=group,
            auto_offset_reset="earliest", enable_auto_commit=False,
        )  # fmt: skip
        consumer.subscribe([topic])
        try:
            while not stop.is_set():
                consumer.poll(timeout_ms=200)
                if consumer.assignment():
                    joined.set()
        finally:
            consumer.close(autocommit=False)

    thread = threading.Thread(target=member, daemon=True)
    thread.start()
    try:
        assert joined.wait(90), "the kafka-python member did not join"
        reset = _kcli(real_cluster, "consumer-groups", "--reset-offsets", "--group", group, "--group", lagging,
                      "--topic", f"{topic}:0", "--to-offset", "6", "--dry-run")  # fmt: skip
        assert reset.code == 1
        assert f"Assignments can only be reset if the group '{group}' is inactive" in reset.stderr
        assert lagging in reset.stdout
        members = _kcli(
            real_cluster, "consumer-groups", "--describe", "--group", group, "--members", "-o", "json"
        )
        assert members.code == 0, members.stderr
        _valid("consumer-groups", members.json)
        (described,) = members.json["groups"]
        assert described["state"] == "Stable" and len(described["members"]) == 1
    finally:
        stop.set()
        thread.join(60)


def test_doctor_group_finds_the_lag(real_cluster: RealCluster, lagging: str) -> None:
    found = invoke("cluster", "doctor", *real_cluster.broker_args(), "--group", lagging, "--max-lag", "10",
                   "-o", "json")  # fmt: skip
    _valid("cluster-doctor", found.json)
    mine = [f for f in found.json["findings"] if f["check"] == "group-lag"]
    assert [(f["severity"], f["subject"]) for f in mine] == [("high", f"group {lagging}")]
    assert found.code == 1
    missing = invoke(
        "cluster", "doctor", *real_cluster.broker_args(), "--group", _group("none"), "-o", "json"
    )
    assert any(
        f["check"] == "group-lag" and "cannot be described" in f["message"] for f in missing.json["findings"]
    )


def test_spark_collect_has_the_group_offsets_and_log_offsets(
    real_cluster: RealCluster, topic: str, lagging: str, tmp_path: Path
) -> None:
    import pyarrow.dataset as ds

    out = tmp_path / "snapshots"
    collected = invoke("spark", "collect", *real_cluster.broker_args(), "--out", str(out), "-o", "json")
    assert collected.code == 0, collected.stderr

    def rows(name: str) -> list[dict[str, Any]]:
        return ds.dataset(out / name, format="parquet", partitioning="hive").to_table().to_pylist()

    groups = {g["group_id"]: g for g in rows("groups")}
    # Only offsets committed, never a member: Kafka lists the group with no protocol type.
    assert (groups[lagging]["state"], groups[lagging]["protocol_type"]) == ("Empty", "")
    offsets = sorted(
        (o["partition"], o["committed_offset"], o["log_start_offset"], o["log_end_offset"], o["lag"])
        for o in rows("group_offsets")
        if o["group_id"] == lagging
    )
    assert offsets == [(0, 5, 0, 10, 5), (1, 5, 0, 20, 15), (2, 5, 0, 30, 25)]


def test_get_offsets_of_the_topic(real_cluster: RealCluster, topic: str) -> None:
    latest = _kcli(real_cluster, "get-offsets", "--topic", topic)
    assert latest.code == 0, latest.stderr
    assert latest.stdout.splitlines() == [f"{topic}:{p}:{n}" for p, n in enumerate(RECORDS)]
    earliest = _kcli(real_cluster, "get-offsets", "--topic", topic, "--time", "-2", "-o", "json")
    assert earliest.code == 0, earliest.stderr
    _valid("get-offsets", earliest.json)
