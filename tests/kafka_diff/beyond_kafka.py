"""What kcli's topic tools do beyond Kafka's, on the differential suite's real clusters, read back by Kafka's tools.

test_kafka_diff.py imports these tests, so they share its clusters (one per release, per worker):
--dry-run of --create, --alter and --delete changes nothing; --delete names the groups with committed
offsets and deletes by topic id; --alter --replication-factor plans instead of recreating; the
log-dirs table and JSON; leader-election and delete-records dry runs.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.conftest import CliResult, invoke
from tests.kafka_diff.conftest import Target

__all__ = [
    "test_delete_by_topic_id",
    "test_delete_names_the_groups_with_committed_offsets",
    "test_delete_records_json",
    "test_election_and_records_dry_runs",
    "test_log_dirs_table_and_json",
    "test_replication_factor_change_is_a_plan",
    "test_topics_dry_runs_change_nothing",
]


def _kcli(target: Target, tool: str, *args: str) -> CliResult:
    return invoke(
        tool,
        "--bootstrap-server",
        target.kafka.bootstrap_servers,
        "--command-config",
        str(target.config),
        *args,
    )


def _valid(command: str, value: object) -> None:
    """`value` matches the command's documented -o json schema (docs/json; the emulator serves no
    ListOffsets or DeleteRecords yet, so these outputs are checked here, on real Kafka)."""
    from tests.polish.schema_check import errors
    from tests.polish.test_json_output import schema

    assert errors(value, schema(command)) == []


def _listed(target: Target, files: Path) -> list[str]:
    return target.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --list", files
    ).stdout.split()


def test_topics_dry_runs_change_nothing(diff_newest: Target, tmp_path: Path) -> None:
    created = _kcli(diff_newest, "topics", "--create", "--topic", "kt-dry", "--partitions", "4", "--replication-factor", "2",
                    "--config", "retention.ms=60000", "--dry-run")  # fmt: skip
    assert created.code == 0, created.stderr
    lines = created.lines
    assert lines[0].startswith("Dry run: topic kt-dry would be created")
    assert "  Partitions: 4\tReplicationFactor: 2" in lines
    assert "    retention.ms=60000 (DYNAMIC_TOPIC_CONFIG)" in lines  # the controller's answer, with sources
    assert any(line.startswith("  Placement: 8 replicas over brokers 1,2,3") for line in lines)
    assert "kt-dry" not in _listed(diff_newest, tmp_path)
    grown = _kcli(
        diff_newest, "topics", "--alter", "--topic", "foo1", "--partitions", "9", "--dry-run", "-o", "json"
    )
    assert grown.json["topics"] == [
        {"topic": "foo1", "partitions_before": 3, "partitions": 9, "new_assignment": None, "error": None}
    ]
    offsets = diff_newest.kafka_tool(
        "bin/kafka-get-offsets.sh --bootstrap-server localhost:9092 --topic foo1", tmp_path
    )
    assert len(offsets.stdout.split()) == 3  # still three partitions
    gone = _kcli(diff_newest, "topics", "--delete", "--topic", "foo1", "--dry-run")
    assert gone.lines[0].startswith("Dry run: topic foo1 (TopicId: ") and "foo1" in _listed(
        diff_newest, tmp_path
    )


def test_replication_factor_change_is_a_plan(diff_newest: Target, tmp_path: Path) -> None:
    before = diff_newest.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --describe --topic foo", tmp_path
    )
    planned = _kcli(
        diff_newest, "topics", "--alter", "--topic", "foo", "--replication-factor", "3", "-o", "json"
    )
    assert planned.code == 0, planned.stderr
    proposed = planned.json["proposed"]["partitions"]
    assert [(p["topic"], p["partition"], p["replicas"][0], len(p["replicas"])) for p in proposed] == [
        ("foo", 0, 1, 3)
    ]
    assert "reassign-partitions --execute" in planned.stderr
    after = diff_newest.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --describe --topic foo", tmp_path
    )
    assert after.stdout == before.stdout  # nothing recreated, nothing moved


def test_delete_by_topic_id(diff_newest: Target, tmp_path: Path) -> None:
    made = diff_newest.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --create --topic kt-by-id --replica-assignment 1",
        tmp_path,
    )
    assert made.code == 0, made.stdout + made.stderr
    described = diff_newest.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --describe --topic kt-by-id", tmp_path
    )
    topic_id = described.stdout.split("TopicId: ", 1)[1].split("\t", 1)[0]
    deleted = _kcli(diff_newest, "topics", "--delete", "--topic-id", topic_id)
    assert deleted.code == 0, deleted.stderr
    import time

    deadline = time.monotonic() + 30
    while "kt-by-id" in _listed(diff_newest, tmp_path) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert "kt-by-id" not in _listed(diff_newest, tmp_path)


def test_delete_names_the_groups_with_committed_offsets(diff_oldest: Target, tmp_path: Path) -> None:
    from kafka import TopicPartition
    from kafka.admin import KafkaAdminClient
    from kafka.structs import OffsetAndMetadata

    assert (
        diff_oldest.kafka_tool(
            "bin/kafka-topics.sh --bootstrap-server localhost:9092 --create --topic kt-grouped --partitions 2",
            tmp_path,
        ).code
        == 0
    )
    import time

    from kafka.errors import CoordinatorNotAvailableError

    admin = KafkaAdminClient(bootstrap_servers=diff_oldest.kafka.bootstrap_servers)
    try:
        deadline = time.monotonic() + 60
        offsets = {TopicPartition("kt-grouped", 1): OffsetAndMetadata(0, "", -1)}
        answer: dict[object, object] = {}
        while time.monotonic() < deadline:  # the first group waits for __consumer_offsets to load
            try:
                answer = admin.alter_group_offsets("kt-readers", offsets)
            except CoordinatorNotAvailableError:
                answer = {}
            if answer and all(error.errno == 0 for error in answer.values()):  # type: ignore[attr-defined]
                break
            time.sleep(0.5)
        assert answer and all(error.errno == 0 for error in answer.values()), answer  # type: ignore[attr-defined]
    finally:
        admin.close()
    dry = _kcli(diff_oldest, "topics", "--delete", "--topic", "kt-grouped", "--dry-run", "-o", "json")
    assert dry.json["groups_with_offsets"] == [{"group": "kt-readers", "topics": {"kt-grouped": 1}}]
    gone = _kcli(diff_oldest, "topics", "--delete", "--topic", "kt-grouped")
    assert gone.code == 0 and gone.stdout == ""
    assert (
        "Groups with committed offsets on these topics (deleted with them): kt-readers (kt-grouped: 1 partition)"
        in gone.stderr
    )


def test_log_dirs_table_and_json(diff_newest: Target) -> None:
    table = _kcli(diff_newest, "log-dirs", "--describe", "-o", "table", "--by", "broker")
    assert table.code == 0, table.stderr
    rows = [line.split("│")[1].strip() for line in table.lines if line.startswith("│")]
    assert rows == ["1", "2", "3"]
    described = _kcli(diff_newest, "log-dirs", "--describe", "--topic-list", "my-topic", "-o", "json")
    replicas = sorted(
        (b["broker"], r["partition"])
        for b in described.json["brokers"]
        for d in b["log_dirs"]
        for r in d["replicas"]
    )
    assert replicas == [(1, 0), (1, 2), (2, 0), (2, 1), (3, 1), (3, 2)]  # my-topic: [1,2],[2,3],[3,1]
    dirs = [d for b in described.json["brokers"] for d in b["log_dirs"]]
    assert all(d["total_bytes"] and d["usable_bytes"] and d["cordoned"] is False for d in dirs)  # v5 answers


def test_election_and_records_dry_runs(diff_newest: Target, tmp_path: Path) -> None:
    diff_newest.kafka_tool(
        "bin/kafka-leader-election.sh --bootstrap-server localhost:9092 --election-type preferred --topic my-topic "
        "--partition 0",
        tmp_path,
    )  # Kafka's tool first: whatever happened before, my-topic-0 is now led by its preferred replica
    elected = _kcli(diff_newest, "leader-election", "--election-type", "preferred", "--topic", "my-topic",
                    "--partition", "0", "--dry-run")  # fmt: skip
    assert elected.code == 0, elected.stderr
    assert elected.lines == [
        "Dry run: every partition of the scope is led by its preferred replica; nothing to elect."
    ]
    offsets = tmp_path / "offsets.json"
    offsets.write_text(
        json.dumps({"partitions": [{"topic": "my-topic", "partition": 1, "offset": -1}], "version": 1})
    )
    ranges = _kcli(
        diff_newest, "delete-records", "--offset-json-file", str(offsets), "--dry-run", "-o", "json"
    )
    assert ranges.code == 0, ranges.stderr
    _valid("delete-records", ranges.json)
    (partition,) = ranges.json["partitions"]
    assert (
        partition["offset"] == -1
        and partition["would_delete"] == partition["high_watermark"] - partition["log_start_offset"]
    )


def test_delete_records_json(diff_newest: Target, tmp_path: Path) -> None:
    made = diff_newest.kafka_tool(
        "bin/kafka-topics.sh --bootstrap-server localhost:9092 --create --topic kt-json-records --replica-assignment 2",
        tmp_path,
    )
    assert made.code == 0, made.stdout + made.stderr
    offsets = tmp_path / "offsets.json"
    offsets.write_text(
        json.dumps({"partitions": [{"topic": "kt-json-records", "partition": 0, "offset": 0}]})
    )
    try:
        deleted = _kcli(diff_newest, "delete-records", "--offset-json-file", str(offsets), "-o", "json")
        assert deleted.code == 0, deleted.stderr
        _valid("delete-records", deleted.json)
        assert deleted.json == {
            "partitions": [{"topic": "kt-json-records", "partition": 0, "low_watermark": 0, "error": None}]
        }
    finally:
        diff_newest.kafka_tool(
            "bin/kafka-topics.sh --bootstrap-server localhost:9092 --delete --topic kt-json-records", tmp_path
        )
