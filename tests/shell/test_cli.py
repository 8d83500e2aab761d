"""`kcli metadata-shell` end to end through the CLI: one-shot, script on stdin, --dump, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import KRAFT_FIXTURES, invoke

FIXTURES = KRAFT_FIXTURES
NEGATIVE = FIXTURES / "apache-kafka-pr15553/core/data/kafka-1168504093769635972"


def test_one_shot_ls(small_log: Path) -> None:
    result = invoke("metadata-shell", "--directory", str(small_log), "ls", "/image/topics/byName")
    assert (result.code, result.lines, result.stderr) == (0, ["orders", "payments"], "")


def test_one_shot_ls_long_and_glob_cat(small_log: Path) -> None:
    result = invoke("metadata-shell", "-d", str(small_log), "ls", "-l", "/image/cluster")
    assert result.lines == ["type      size  name", "dir          1  brokers", "dir          0  controllers"]
    result = invoke(
        "metadata-shell", "-d", str(small_log), "cat", "/image/topics/byName/{orders,payments}/name"
    )
    assert result.lines == ["orders", "payments"]


def test_one_shot_refuses_shell_only_and_reports_missing(small_log: Path) -> None:
    result = invoke("metadata-shell", "-d", str(small_log), "cd", "/image")
    assert result.code == 1
    assert result.stderr == (
        "invalid choice: 'cd' (choose from 'cat', 'find', 'history', 'ls', 'tree'): "
        "cd is only available in the interactive shell\n"
    )
    result = invoke("metadata-shell", "-d", str(small_log), "cat", "/image/nope")
    assert result.code == 1 and result.stderr == "cat: /image/nope: No such file or directory.\n"


def test_script_on_stdin(small_log: Path) -> None:
    script = "cd /image/topics/byName/orders\npwd\ncat name id\nhistory\nexit\nls /\n"
    result = invoke("metadata-shell", "-d", str(small_log), input=script)
    assert result.code == 0
    assert result.lines == [
        "# cd /image/topics/byName/orders",
        "# pwd",
        "/image/topics/byName/orders",
        "# cat name id",
        "orders",
        "AAAAAAAAAAAAAAAAAAASNA",
        "# history",
        "    1  cd /image/topics/byName/orders",
        "    2  pwd",
        "    3  cat name id",
        "    4  history",
        "# exit",
    ]


def test_snapshot_file_of_a_real_cluster() -> None:
    snapshot = (
        FIXTURES / "dkoh12-systems/kafka/data/__cluster_metadata-0/00000000000000007209-0000000001.checkpoint"
    )
    result = invoke("metadata-shell", "--snapshot", str(snapshot), "ls", "/topics")
    assert result.lines == ["__consumer_offsets", "test_topic"]
    result = invoke("metadata-shell", "--snapshot", str(snapshot), "cat", "/image/features/metadataVersion")
    assert result.lines == ["Optional[4.1-IV1]"]  # Java's Optional, as Kafka's shell prints it


def test_dump_json_lines_and_type_filter() -> None:
    directory = FIXTURES / "galgrayzer-kafka-docker-compose/kafka_data/data"
    result = invoke("metadata-shell", "-d", str(directory), "--dump", "-o", "json")
    objects = [json.loads(line) for line in result.lines]
    assert result.code == 0 and len(objects) == 842
    assert objects[0] == {
        "offset": 0, "epoch": 1, "timestamp": 1750778878841, "type": "LeaderChangeMessage", "version": 0,
        "control": True, "data": {"version": 0, "leaderId": 1, "voters": [{"voterId": 1}], "grantingVoters": [{"voterId": 1}]},
    }  # fmt: skip
    assert objects[2]["data"] == {"name": "metadata.version", "featureLevel": 25}
    result = invoke(
        "metadata-shell",
        "-d",
        str(directory),
        "--dump",
        "-o",
        "json",
        "--type",
        "USER_SCRAM_CREDENTIAL_RECORD",
    )
    scram = [json.loads(line) for line in result.lines]
    assert len(scram) == 1 and scram[0]["offset"] == 812
    assert scram[0]["data"]["salt"] == "[redacted]" and scram[0]["data"]["iterations"] == 4096


def test_dump_text_lines() -> None:
    directory = FIXTURES / "furkancets-flink-docker/kafka/data"
    result = invoke("metadata-shell", "-d", str(directory), "--dump", "--type", "topic")
    assert result.lines[1:] == [
        "Log starting offset: 0",
        'offset: 3 epoch: 1 CreateTime: 1694710627756 type: TopicRecord version: 0 payload: {"name":"test1","topicId":"pqFUXC1fRJ-sOJ2VK_4P4A"}',
    ]


def test_unknown_type_is_a_usage_error() -> None:
    result = invoke("metadata-shell", "-d", str(NEGATIVE), "--dump", "--type", "Bogus")
    assert result.code == 2 and "unknown record type" in result.stderr


def test_corrupt_log_is_one_line_and_skip_corrupt_reads_on() -> None:
    result = invoke("metadata-shell", "-d", str(NEGATIVE), "ls", "/topics/topic")
    assert result.code == 1
    assert result.stderr.count("\n") == 1
    assert "00000000000000000000.log: offset 24: PartitionRecord v1" in result.stderr
    assert "(last good offset 23)" in result.stderr
    result = invoke("metadata-shell", "-d", str(NEGATIVE), "--skip-corrupt", "find", "/topics")
    assert result.code == 1
    assert "/topics/topic/name" in result.lines
    assert "Warning: skipped corrupt data: 6 records" in result.stderr


def test_records_a_command_does_not_show_are_checked_as_far_as_their_framing() -> None:
    # Topic names need TopicRecords only: the PartitionRecords (here in a layout no release
    # wrote) pass their CRC and framing checks and are not decoded.
    result = invoke("metadata-shell", "-d", str(NEGATIVE), "ls", "/topics")
    assert (result.code, result.lines, result.stderr) == (0, ["__consumer_offsets", "topic"], "")


def test_not_a_metadata_directory(tmp_path: Path) -> None:
    result = invoke("metadata-shell", "-d", str(tmp_path), "ls")
    assert result.code == 2 and "not a KRaft metadata log directory" in result.stderr
    result = invoke("metadata-shell", "ls")
    assert result.code == 2 and "--directory" in result.stderr


def test_help() -> None:
    result = invoke("metadata-shell", "--help")
    assert result.code == 0 and "--skip-corrupt" in result.stdout and "--dump" in result.stdout


SEGMENTED = FIXTURES / "devandref-kafka-eda-study/data/__cluster_metadata-0"


def test_snapshot_of_one_segment_dumps_that_segment_only() -> None:
    later = SEGMENTED / "00000000000000014667.log"
    result = invoke("metadata-shell", "--snapshot", str(later), "--dump")
    assert result.code == 0
    assert [line for line in result.lines if line.startswith("Dumping ")] == [f"Dumping {later}"]
    assert result.lines[1] == "Log starting offset: 14667"


def test_snapshot_of_a_later_segment_warns_that_the_image_is_partial() -> None:
    later = SEGMENTED / "00000000000000014667.log"
    result = invoke("metadata-shell", "--snapshot", str(later), "ls", "/image/features")
    assert result.code == 0
    assert result.stderr == (
        f"Warning: {later} is a log segment starting at offset 14667: the records before it are not "
        f"read, so this state is partial (use --directory {SEGMENTED} for the full state)\n"
    )
    first = invoke("metadata-shell", "--snapshot", str(SEGMENTED / "00000000000000000000.log"), "ls", "/")
    assert (first.code, first.stderr) == (0, "")


OTHER_FILES = [
    ("induswargods-local-test-rig/kafka-data/__cluster_metadata-0/00000000000000003575.snapshot", "producer-state"),
    ("induswargods-local-test-rig/kafka-data/__cluster_metadata-0/quorum-state", "quorum-state"),
    ("induswargods-local-test-rig/kafka-data/__cluster_metadata-0/leader-epoch-checkpoint", "leader-epoch"),
]  # fmt: skip


@pytest.mark.parametrize(("relative", "kind"), OTHER_FILES, ids=[kind for _, kind in OTHER_FILES])
def test_snapshot_of_a_file_that_is_not_metadata_says_what_it_is(relative: str, kind: str) -> None:
    result = invoke("metadata-shell", "--snapshot", str(FIXTURES / relative), "ls", "/")
    assert result.code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1, result.stderr
    assert "is not a metadata log segment or snapshot" in result.stderr and kind in result.stderr
    assert ".log segment or a .checkpoint snapshot, or the log directory with --directory" in result.stderr


@pytest.mark.parametrize(
    ("name", "kind"),
    [("00000000000000000000.index", "an offset index"), ("00000000000000000000.timeindex", "a time index")],
)
def test_snapshot_of_a_preallocated_index_is_not_an_empty_log(tmp_path: Path, name: str, kind: str) -> None:
    index = tmp_path / name
    index.write_bytes(bytes(4096))  # Kafka preallocates index files with zeros
    result = invoke("metadata-shell", "--snapshot", str(index), "ls", "/")
    assert result.code == 2 and result.stdout == ""
    assert f"is not a metadata log segment or snapshot ({kind})" in result.stderr


def test_snapshot_of_an_unfamiliar_name_is_judged_by_its_first_batch(tmp_path: Path) -> None:
    segment = (
        FIXTURES / "dkoh12-systems/kafka/data/__cluster_metadata-0/00000000000000007209-0000000001.checkpoint"
    )
    copy = tmp_path / "saved-metadata.bin"
    copy.write_bytes(segment.read_bytes())
    assert invoke("metadata-shell", "--snapshot", str(copy), "ls", "/topics").lines == [
        "__consumer_offsets",
        "test_topic",
    ]
    text = tmp_path / "notes.txt"
    text.write_text("not a log at all\n", encoding="utf-8")
    result = invoke("metadata-shell", "--snapshot", str(text), "ls", "/")
    assert result.code == 2 and "notes.txt is not a metadata log segment or snapshot" in result.stderr
