"""`kcli metadata-shell` on the metadata logs and snapshots real Kafka wrote, and live from its controllers.

A running node holds a lock on its log dir (kcli refuses it, as Kafka's shell does), so the tests read a
copy. The record dumps are compared with Kafka's own DumpLogSegments (kafka-dump-log.sh
--cluster-metadata-decoder) on the same files; the 4.0 tree with Kafka 4.0's own metadata shell.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import OLDEST, kafka_home
from tests.polling import wait_for
from tests.realcluster.conftest import cluster_of
from tests.realcluster.peers import kafka_tool

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow]

_PAYLOAD = re.compile(r"^\| offset: (\d+) .* payload: (\{.*\})$")
# Values kcli never prints (SCRAM salts and keys): kcli shows them as [redacted].
SECRET_FIELDS = {"salt", "storedKey", "serverKey"}
# Record versions kcli's metadata reader does not know (none: it reads every version Kafka 4.4 writes).
UNDECODED: set[tuple[str, int]] = set()
# Nodes Kafka's shell always lists (empty) and kcli lists only when the image has them.
ALWAYS_LISTED = ("/image/producerIds", "/image/scram")


def _snapshots(log_dir: Path) -> list[Path]:
    return sorted(p for p in log_dir.glob("*.checkpoint") if not p.name.startswith("00000000000000000000-"))


def _copy_log_dir(node_dir: Path, target: Path) -> Path:
    """A copy of a node's log dir without its lock file (what an operator reads while the node runs)."""
    shutil.copytree(node_dir, target, ignore=shutil.ignore_patterns(".lock", "*.log.*", "server.log*"))
    return target


def _kafka_records(dump: str) -> dict[int, dict[str, Any]]:
    """DumpLogSegments' metadata records by offset, typed as kcli names them (FEATURE_LEVEL_RECORD ->
    FeatureLevelRecord)."""
    records = {}
    for line in dump.splitlines():
        match = _PAYLOAD.match(line)
        if match:
            payload = json.loads(match.group(2))
            kind = "".join(word.capitalize() for word in payload["type"].lower().split("_"))
            records[int(match.group(1))] = {
                "type": kind,
                "version": payload["version"],
                "data": payload["data"],
            }
    return records


def _kcli_records(path: Path) -> tuple[dict[int, dict[str, Any]], set[tuple[str, int]]]:
    """kcli's metadata records of one file by offset, and the (type, version)s it could not decode."""
    dumped = invoke("metadata-shell", "--snapshot", str(path), "--dump", "-o", "json")
    assert dumped.code == 0, dumped.stderr
    records, undecoded = {}, set()
    for line in dumped.lines:
        record = json.loads(line)
        if record.get("control"):
            continue
        if "data" not in record:
            undecoded.add((record["type"], record["version"]))
            continue
        records[record["offset"]] = {k: record[k] for k in ("type", "version", "data")}
    return records, undecoded


def _assert_same_record(ours: dict[str, Any], theirs: dict[str, Any], where: str) -> None:
    """The same type, version and fields. Kafka's JSON leaves out fields at their schema defaults
    (PartitionChangeRecord's leader -2, tagged nulls), which kcli prints: every field Kafka prints
    has kcli's value."""
    assert (ours["type"], ours["version"]) == (theirs["type"], theirs["version"]), where
    mine, kafkas = _without_secrets(ours["data"]), _without_secrets(theirs["data"])
    assert {k: mine.get(k, "(missing)") for k in kafkas} == kafkas, where


def _without_secrets(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_secrets(v) for k, v in value.items() if k not in SECRET_FIELDS}
    if isinstance(value, list):
        return [_without_secrets(v) for v in value]
    return value


def test_snapshot_and_log_records_are_what_kafka_dump_log_decodes(real_kafka: Any, tmp_path: Path) -> None:
    controller = real_kafka.controller_ids[0]
    log_dir = real_kafka.metadata_log_dir(controller)
    # the suite's cluster snapshots every few KiB of records (tests/fixtures_kafka.py)
    wait_for(
        lambda: _snapshots(log_dir), timeout=120, interval=1, what=f"a metadata snapshot on node {controller}"
    )
    copy = _copy_log_dir(log_dir.parent, tmp_path / "copy") / "__cluster_metadata-0"
    snapshot = _snapshots(copy)[-1]
    segment = sorted(copy.glob("*.log"))[-1]
    dumped = kafka_tool(
        real_kafka.settings.kafka_home, "kafka-dump-log.sh", "--cluster-metadata-decoder", "--files",
        f"{snapshot},{segment}",
    )  # fmt: skip
    assert dumped.returncode == 0, dumped.stderr
    by_file = dumped.stdout.split(f"Dumping {segment}")
    assert len(by_file) == 2, dumped.stdout[:2000]
    for path, text in ((snapshot, by_file[0]), (segment, by_file[1])):
        theirs = _kafka_records(text)
        ours, undecoded = _kcli_records(path)
        assert theirs, f"Kafka decoded no records from {path.name}"
        assert undecoded <= UNDECODED, undecoded
        skipped = {o for o, r in theirs.items() if (r["type"], r["version"]) in undecoded}
        assert sorted(ours) == sorted(set(theirs) - skipped), path.name
        for offset, record in theirs.items():
            if offset not in skipped:
                _assert_same_record(ours[offset], record, f"{path.name} offset {offset}")


def test_kafka_4_4_broker_registrations_are_read(real_kafka: Any, tmp_path: Path) -> None:
    copy = _copy_log_dir(real_kafka.metadata_log_dir(real_kafka.controller_ids[0]).parent, tmp_path / "copy")
    registered = invoke("metadata-shell", "-d", str(copy), "ls", "/image/cluster/brokers")
    assert sorted(map(int, registered.lines)) == sorted(real_kafka.broker_ids)
    for segment in (copy / "__cluster_metadata-0").glob("*.log"):
        assert not _kcli_records(segment)[1]


def test_the_shell_shows_the_cluster_kafka_python_sees(
    real_kafka: Any, kafka_admin: Any, new_topic: Any, tmp_path: Path
) -> None:
    topic = new_topic("shell", partitions=2)
    controller = real_kafka.controller_ids[0]

    def listed_by_peer() -> set[str] | None:
        names = set(kafka_admin.list_topics())
        return names if topic in names else None

    topics = wait_for(listed_by_peer, timeout=30, interval=0.3, what="kafka-python listing the new topic")

    def copied() -> Path | None:
        target = tmp_path / f"copy-{len(list(tmp_path.iterdir()))}"
        _copy_log_dir(real_kafka.metadata_log_dir(controller).parent, target)
        listed = invoke("metadata-shell", "-d", str(target), "ls", "/image/topics/byName")
        return target if topic in listed.lines else None

    copy = wait_for(copied, timeout=30, interval=0.5, what="the new topic in the controller's log")
    assert copy is not None
    listed = invoke("metadata-shell", "-d", str(copy), "ls", "/image/topics/byName")
    assert set(listed.lines) == topics
    partitions = invoke("metadata-shell", "-d", str(copy), "ls", f"/image/topics/byName/{topic}")
    assert {"0", "1", "id", "name"} <= set(partitions.lines)
    controllers = invoke("metadata-shell", "-d", str(copy), "ls", "/image/cluster/controllers")
    assert sorted(map(int, controllers.lines)) == sorted(real_kafka.controller_ids)
    features = invoke("metadata-shell", "-d", str(copy), "ls", "/image/features")
    assert features.code == 0 and "metadataVersion" in features.lines
    # one snapshot file on its own, as kafka-metadata-shell --snapshot reads it: more metadata than
    # metadata.log.max.record.bytes.between.snapshots, so the controller writes one that holds the topic
    for _ in range(4):
        new_topic("shell-churn", partitions=8)

    def snapshot_with_topic() -> Any:
        target = tmp_path / f"snapshots-{len(list(tmp_path.iterdir()))}"
        _copy_log_dir(real_kafka.metadata_log_dir(controller).parent, target)
        snapshots = _snapshots(target / "__cluster_metadata-0")
        if not snapshots:
            return None
        alone = invoke("metadata-shell", "--snapshot", str(snapshots[-1]), "ls", "/image/topics/byName")
        return alone if topic in alone.lines else None

    alone = wait_for(snapshot_with_topic, timeout=60, interval=1, what="a snapshot holding the new topic")
    assert alone.code == 0 and alone.stderr == "", alone.stderr
    # the running controller's own log dir, which it holds locked and appends to: read, no lock taken
    live = invoke(
        "metadata-shell",
        "-d",
        str(real_kafka.metadata_log_dir(controller).parent),
        "ls",
        "/image/topics/byName",
    )
    assert (live.code, live.stderr) == (0, "") and topic in live.lines


def test_live_from_the_controllers(real_kafka: Any, kafka_admin: Any) -> None:
    from tests.realcluster.test_acls import _peer_bindings

    cluster = cluster_of(real_kafka)
    args = [
        "metadata-shell",
        "--bootstrap-controller",
        real_kafka.bootstrap_controllers,
        "--command-config",
        str(cluster.command_config),
    ]
    leader = kafka_admin.describe_metadata_quorum()["topics"][0]["partitions"][0]["leader_id"]
    controllers = invoke(*args, "ls", "/image/cluster/controllers")
    assert controllers.code == 0, controllers.stderr
    assert sorted(map(int, controllers.lines)) == sorted(real_kafka.controller_ids)
    acls = invoke(*args, "ls", "/image/acls/byId")
    assert len(acls.lines) == len(_peer_bindings(kafka_admin, None))
    features = invoke(*args, "ls", "/image/features")
    finalized = {
        n for n, f in kafka_admin.describe_features().items() if f["finalized"] and f["finalized"][1]
    }
    assert "metadataVersion" in features.lines
    assert {line.removeprefix("finalized_") for line in features.lines if line.startswith("finalized_")} == finalized - {
        "metadata.version", "kraft.version",
    }  # fmt: skip
    assert leader in real_kafka.controller_ids
    topics = invoke(*args, "ls", "/image/topics")
    assert topics.code == 1 and "not available from controllers" in topics.stderr


def _kafka_shell(segment: Path, *command: str, attempts: int = 3, holding: str = "") -> str:
    """Kafka 4.0.2's one-shot shell on `segment`. Its loader races its command: a run can print an empty
    image, part of one, or never return (tests/metadata_vs_kafka/MetadataShellDriver.java says why), so a
    run that hangs, prints nothing or lacks the line `holding` (one the log is known to hold) is tried
    again, a few times."""
    import subprocess

    for _ in range(attempts):
        try:
            done = kafka_tool(
                kafka_home(OLDEST),
                "kafka-metadata-shell.sh",
                "--snapshot",
                str(segment),
                *command,
                timeout=60,
            )
        except subprocess.TimeoutExpired:
            continue
        assert done.returncode == 0, done.stderr
        lines = done.stdout.strip().splitlines()
        if lines and (not holding or holding in lines):
            return done.stdout
    raise AssertionError(
        f"Kafka's shell printed nothing, not {holding!r} or hung {attempts} times: {' '.join(command)}"
    )


def test_the_oldest_release_reads_as_kafkas_own_shell_reads_it(
    real_kafka_oldest: Any, tmp_path: Path
) -> None:
    from kafka.admin import NewTopic

    from tests.realcluster.peers import peer_admin

    admin = peer_admin(real_kafka_oldest.bootstrap_servers, None)
    try:
        admin.create_topics([NewTopic("kcli-shell-oldest", 2, 1)])
        wait_for(
            lambda: "kcli-shell-oldest" in admin.list_topics(), timeout=30, interval=0.3, what="the topic"
        )
    finally:
        admin.close()
    copy = _copy_log_dir(real_kafka_oldest.metadata_log_dir(1).parent, tmp_path / "copy")
    segment = sorted((copy / "__cluster_metadata-0").glob("*.log"))[-1]
    # Kafka 4.0's own `find /image` fails on /image/features (zkMigrationState): every other subtree
    paths = ("/image/topics", "/image/cluster", "/image/configs", "/image/acls", "/image/clientQuotas",
             "/image/delegationToken", "/image/provenance")  # fmt: skip
    created = "/image/topics/byName/kcli-shell-oldest/1"
    theirs = _kafka_shell(segment, "find", *paths, attempts=5, holding=created)
    ours = invoke("metadata-shell", "--snapshot", str(segment), "find", *paths)
    assert ours.code == 0, ours.stderr
    assert sorted(ours.lines) == sorted(theirs.splitlines())
    assert created in ours.lines


def test_the_nodes_kafkas_shell_always_lists(real_kafka_oldest: Any, tmp_path: Path) -> None:
    copy = _copy_log_dir(real_kafka_oldest.metadata_log_dir(1).parent, tmp_path / "copy")
    segment = sorted((copy / "__cluster_metadata-0").glob("*.log"))[-1]
    ours = invoke("metadata-shell", "--snapshot", str(segment), "find", *ALWAYS_LISTED)
    # what Kafka's own shell (4.0 to 4.4: ProducerIdsImageNode, ScramImageNode) lists on a cluster
    # without producer ids or SCRAM users
    assert sorted(ours.lines) == [
        "/image/producerIds", "/image/producerIds/nextProducerId",
        "/image/scram", "/image/scram/SCRAM-SHA-256", "/image/scram/SCRAM-SHA-512",
    ]  # fmt: skip


def test_the_controllers_log_replays_into_the_images_kafka_wrote_and_reads(real_kafka: Any, tmp_path: Path) -> None:
    """The one replay rule (kcli.metadata.delta) on the suite's controller log: up to each snapshot, the
    image Kafka wrote there; the directory (newest snapshot, then the log) as Kafka 4.4's replay reads it."""
    from kcli.metadata.read_model import DecodeError
    from tests.metadata.replay_checks import differences_from_snapshots
    from tests.metadata_vs_kafka import kafka_replay

    controller = real_kafka.controller_ids[0]
    log_dir = real_kafka.metadata_log_dir(controller)
    wait_for(lambda: _snapshots(log_dir), timeout=120, interval=1, what=f"a metadata snapshot on node {controller}")

    def copied() -> tuple[Path, list[str]] | None:
        """A copy that reads whole: a running controller may be half-way through its last batch."""
        copy = _copy_log_dir(log_dir.parent, tmp_path / f"copy-{len(list(tmp_path.iterdir()))}")
        try:
            compared, differences = differences_from_snapshots(copy / "__cluster_metadata-0")
        except DecodeError:
            return None
        assert compared >= 1
        return copy, differences

    found = wait_for(copied, timeout=60, interval=0.5, what="a copy of the controller's log that reads whole")
    assert found is not None
    copy, differences = found
    assert not differences, differences[:20]
    log = copy / "__cluster_metadata-0"
    segments = sorted(log.glob("*.log"))
    classes = kafka_replay.compile_driver(tmp_path / "classes")
    kafka = kafka_replay.kafka_outputs(classes, [[_snapshots(log)[-1], *segments]], [["tree", "/image"]], tmp_path / "out")
    ours = invoke("metadata-shell", "--directory", str(copy), "tree", "/image")
    assert ours.code == 0, ours.stderr
    # Kafka 4.4's StandardAcl is a Java record (`StandardAcl[...]`); the shell prints it as 4.0's class did
    theirs = re.sub(r"StandardAcl\[(.*)\]$", r"StandardAcl(\1)", kafka[0][0], flags=re.M)
    assert kafka_replay.kcli_text(ours.stdout) == theirs
