"""Moving replicas between log dirs end to end: --execute with log_dirs and
--replica-alter-log-dirs-throttle on a sandbox whose brokers have two log dirs, then --verify."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.dataplane.filling import fill
from tests.reassign.peer import broker_configs, create_topic
from tests.sandbox.raw import RawConnection

pytestmark = pytest.mark.sandbox
LOG_DIR_RATE = "replica.alter.log.dirs.io.max.bytes.per.second"
PARTITION_CHANGE_RECORD = 5


def log_dirs(sb: Any, broker: int, topic: str) -> dict[str, dict[int, tuple[int, bool]]]:
    """DescribeLogDirs of one broker: log dir -> partition -> (size, is future)."""
    from kio.schema.describe_log_dirs.v4.request import DescribableLogDirTopic, DescribeLogDirsRequest

    topics: Any = (DescribableLogDirTopic(topic=topic, partitions=(0, 1)),)  # type: ignore[arg-type]
    with RawConnection(f"127.0.0.1:{sb.port_of(broker)}") as conn:
        response = conn.call(DescribeLogDirsRequest(topics=topics))
    out: dict[str, dict[int, tuple[int, bool]]] = {}
    for result in response.results:
        entries = out.setdefault(str(result.log_dir), {})
        for t in result.topics:
            for p in t.partitions:
                entries[int(p.partition_index)] = (int(p.partition_size), bool(p.is_future_key))
    return out


def dir_of(dirs: dict[str, dict[int, tuple[int, bool]]], partition: int, future: bool = False) -> str:
    (found,) = [d for d, parts in dirs.items() if parts.get(partition, (0, not future))[1] is future]
    return found


def directory_id(path: str) -> str:
    meta = dict(
        line.split("=", 1)
        for line in (Path(path) / "meta.properties").read_text().splitlines()
        if "=" in line
    )
    return meta["directory.id"]


def reassign(b: str, *args: str) -> Any:
    return invoke("reassign-partitions", "--bootstrap-server", b, *args)


def test_execute_moves_replicas_between_log_dirs_at_the_throttled_rate(
    make_sandbox: Any, tmp_path: Path
) -> None:
    sb = make_sandbox(controllers=1, brokers=3, log_dirs=2)
    b = sb.bootstrap_servers
    create_topic(b, "ld", [[1, 2], [2, 3]])
    fill(sb, "ld", [0, 1], 20_000)  # about 2.5 MB a partition
    before1, before3 = log_dirs(sb, 1, "ld"), log_dirs(sb, 3, "ld")
    size = {0: before1[dir_of(before1, 0)][0][0], 1: before3[dir_of(before3, 1)][1][0]}
    assert len(before1) == 2 and len(before3) == 2  # both log dirs of each broker are listed
    # move broker 1's replica of ld-0 and broker 3's replica of ld-1 to their other log dir
    target1 = next(d for d in before1 if d != dir_of(before1, 0))
    target3 = next(d for d in before3 if d != dir_of(before3, 1))
    rate = max(size.values()) // 3  # about three seconds a move
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [
                    {"topic": "ld", "partition": 0, "replicas": [1, 2], "log_dirs": [target1, "any"]},
                    {"topic": "ld", "partition": 1, "replicas": [2, 3], "log_dirs": ["any", target3]},
                ],
            }
        )
    )
    executed = reassign(
        b, "--execute", "--reassignment-json-file", str(plan), "--replica-alter-log-dirs-throttle", str(rate),
        "--rollback-file", str(tmp_path / "rollback.json"),
    )  # fmt: skip
    assert executed.code == 0, executed.stderr
    assert f"The replica-alter-dir throttle limit was set to {rate} B/s" in executed.lines
    assert broker_configs(b, 1)[LOG_DIR_RATE] == str(rate)

    # the future replica copies into the target dir, throttled: partial at first
    moving = log_dirs(sb, 1, "ld")
    assert dir_of(moving, 0, future=True) == target1
    assert moving[target1][0][0] < size[0]
    first = reassign(b, "--verify", "--reassignment-json-file", str(plan))
    assert first.code == 0, first.stderr
    assert "Reassignment of replica ld-0-1 is still in progress." in first.lines
    assert broker_configs(b, 1)[LOG_DIR_RATE] == str(rate)  # kept while a move runs

    deadline = time.monotonic() + 30
    while True:
        verified = reassign(b, "--verify", "--reassignment-json-file", str(plan))
        assert verified.code == 0, verified.stderr
        if "still in progress" not in verified.stdout or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert "Reassignment of replica ld-0-1 completed successfully." in verified.lines
    assert "Reassignment of replica ld-1-3 completed successfully." in verified.lines
    assert LOG_DIR_RATE not in broker_configs(b, 1)  # throttles cleared once nothing moves
    after1 = log_dirs(sb, 1, "ld")
    assert dir_of(after1, 0) == target1 and after1[target1][0] == (size[0], False)
    assert dir_of(log_dirs(sb, 3, "ld"), 1) == target3

    # the controller learned the new directories: PartitionChangeRecords in the metadata log
    from kcli.metadata.reader import read_file
    from kcli.metadata.uuids import parse_kafka_uuid

    written = set()
    for segment in sorted(sb.metadata_log_dir(sb.active_controller_id).glob("*.log")):
        for entry in read_file(segment):
            if not entry.control and entry.key == PARTITION_CHANGE_RECORD and entry.record.directories:
                written.update(entry.record.directories)
    assert {parse_kafka_uuid(directory_id(target1)), parse_kafka_uuid(directory_id(target3))} <= written


def test_unknown_dir_and_missing_replica_are_refused(make_sandbox: Any) -> None:
    from kio.schema.alter_replica_log_dirs.v2 import request as alter

    sb = make_sandbox(controllers=1, brokers=2, log_dirs=2)
    create_topic(sb.bootstrap_servers, "ld-bad", [[1]])
    fill(sb, "ld-bad", [0], 5_000)
    slow = invoke(
        "configs", "--bootstrap-server", sb.bootstrap_servers, "--alter", "--entity-type", "brokers",
        "--entity-name", "1", "--add-config", f"{LOG_DIR_RATE}=1000",
    )  # fmt: skip
    assert slow.code == 0, slow.stderr
    dirs = log_dirs(sb, 1, "ld-bad")
    current = dir_of(dirs, 0)
    other = next(d for d in dirs if d != current)

    def move(broker: int, path: str) -> int:
        topics: Any = (alter.AlterReplicaLogDirTopic(name="ld-bad", partitions=(0,)),)  # type: ignore[arg-type]
        with RawConnection(f"127.0.0.1:{sb.port_of(broker)}") as conn:
            response = conn.call(
                alter.AlterReplicaLogDirsRequest(dirs=(alter.AlterReplicaLogDir(path=path, topics=topics),))
            )
        return int(response.results[0].partitions[0].error_code.value)

    assert move(1, "/no/such/dir") == 57  # LOG_DIR_NOT_FOUND
    assert move(2, str(sb.directory / "logdirs" / "2-1")) == 9  # REPLICA_NOT_AVAILABLE: no replica on 2
    assert move(1, other) == 0
    assert dir_of(log_dirs(sb, 1, "ld-bad"), 0, future=True) == other
    assert move(1, current) == 0  # back to the current dir: the move is cancelled
    assert dir_of(log_dirs(sb, 1, "ld-bad"), 0) == current
    assert all(not future for parts in log_dirs(sb, 1, "ld-bad").values() for _, future in parts.values())


def test_cancel_sends_a_running_move_back_to_its_current_dir(make_sandbox: Any, tmp_path: Path) -> None:
    sb = make_sandbox(controllers=1, brokers=2, log_dirs=2)
    b = sb.bootstrap_servers
    create_topic(b, "ld-cancel", [[1, 2]])
    fill(sb, "ld-cancel", [0], 5_000)
    before = log_dirs(sb, 1, "ld-cancel")
    current = dir_of(before, 0)
    target = next(d for d in before if d != current)
    plan = tmp_path / "plan.json"
    plan.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [
                    {"topic": "ld-cancel", "partition": 0, "replicas": [1, 2], "log_dirs": [target, "any"]}
                ],
            }
        )
    )
    executed = reassign(
        b, "--execute", "--reassignment-json-file", str(plan), "--replica-alter-log-dirs-throttle", "1000",
        "--rollback-file", str(tmp_path / "rollback.json"),
    )  # fmt: skip
    assert executed.code == 0, executed.stderr
    assert dir_of(log_dirs(sb, 1, "ld-cancel"), 0, future=True) == target  # crawling at 1000 B/s

    cancelled = reassign(b, "--cancel", "--reassignment-json-file", str(plan))
    assert cancelled.code == 0, cancelled.stderr
    assert (
        f"Successfully started moving log directory to {current} for replica ld-cancel-0 with broker 1 "
        in (cancelled.stdout.splitlines())
    )
    assert "cancelled log directory" not in cancelled.stdout
    after = log_dirs(sb, 1, "ld-cancel")
    assert dir_of(after, 0) == current
    assert all(not future for parts in after.values() for _, future in parts.values())
