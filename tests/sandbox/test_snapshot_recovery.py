"""Reopening a sandbox whose metadata log or newest snapshot is damaged keeps the state the snapshot holds.

Kafka's KafkaRaftLog keeps the newest snapshot when log recovery leaves the log ending before it
(truncateToLatestSnapshot: the log starts again at the snapshot). A snapshot that does not read
whole (emptied, cut after its header, without its footer) is never taken for an empty image: the
state is rebuilt from the previous snapshot or the log, and `up` says so.
"""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

from kcli.sandbox.emulator.replica import ReplicaError, ReplicaLog, fetch
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def _batch_sizes(data: bytes) -> list[int]:
    sizes, position = [], 0
    while position < len(data):
        size = struct.unpack_from(">i", data, position + 8)[0] + 12
        sizes.append(size)
        position += size
    return sizes


def _made(directory: Path, *, controllers: int = 1, reopen: bool = False) -> None:
    """A sandbox with 3 topics, stopped (a snapshot at shutdown); `reopen`: a second run, a second snapshot."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=directory, controllers=controllers, brokers=3, topics=3):
        pass
    if reopen:
        with Sandbox(directory=directory, controllers=controllers, brokers=3):
            pass


def _topics_after_reopen(directory: Path, *, controllers: int = 1) -> tuple[int, list[str]]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=directory, controllers=controllers, brokers=3) as sb:
        return sb.status()["topics"], sb.run(lambda c: list(c.metalog.recovered))


def _flip_early_bit(log_dir: Path) -> None:
    segment = sorted(log_dir.glob("*.log"))[0]
    data = bytearray(segment.read_bytes())
    first = _batch_sizes(bytes(data))[0]
    data[first + 40] ^= 0x10  # inside the second batch: recovery cuts the log there
    segment.write_bytes(bytes(data))


def test_a_flipped_bit_in_an_early_batch_keeps_the_newer_snapshot_and_every_topic(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _made(directory)
    controller_log = directory / "101" / "__cluster_metadata-0"
    (snapshot,) = controller_log.glob("*.checkpoint")
    _flip_early_bit(controller_log)

    topics, notes = _topics_after_reopen(directory)
    assert topics == 3  # before: 0 (the snapshot deleted as "beyond the log end", the brokers truncated)
    assert snapshot.exists()
    assert any("before the newest snapshot" in note and snapshot.name in note for note in notes), notes
    # the log starts again at the snapshot, and the next reopen reads the same state
    assert (controller_log / f"{int(snapshot.name[:20]):020d}.log").exists()
    assert _topics_after_reopen(directory) == (3, [])


def test_every_controller_damaged_the_same_way_still_comes_back_whole(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _made(directory, controllers=3)
    for node in (101, 102, 103, 1, 2, 3):
        _flip_early_bit(directory / str(node) / "__cluster_metadata-0")
    topics, _notes = _topics_after_reopen(directory, controllers=3)
    assert topics == 3
    # the brokers, behind the leader's new log start, were sent its snapshot
    assert list((directory / "1" / "__cluster_metadata-0").glob("*.checkpoint"))


@pytest.mark.parametrize("cut", ["empty", "header only", "no footer"])
def test_a_newest_snapshot_cut_short_is_set_aside_and_the_state_rebuilt(tmp_path: Path, cut: str) -> None:
    directory = tmp_path / "sb"
    _made(directory, reopen=True)
    controller_log = directory / "101" / "__cluster_metadata-0"
    older, newest = sorted(controller_log.glob("*.checkpoint"))[-2:]
    data = newest.read_bytes()
    sizes = _batch_sizes(data)
    kept = {"empty": 0, "header only": sizes[0], "no footer": sum(sizes[:-1])}[cut]
    newest.write_bytes(data[:kept])

    topics, notes = _topics_after_reopen(directory)
    assert topics == 3  # before: "header only" read as an empty image, no word of it
    assert (controller_log / (newest.name + ".damaged")).exists()
    assert any(f"set aside as {newest.name}.damaged" in n and older.name in n for n in notes), notes


def test_a_damaged_snapshot_the_log_cannot_replace_stops_the_start_with_one_line(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _made(directory)
    controller_log = directory / "101" / "__cluster_metadata-0"
    _flip_early_bit(controller_log)
    _topics_after_reopen(directory)  # the log now starts at the snapshot
    log_start = sorted(controller_log.glob("*.log"))[0].name[:20]
    (start,) = [p for p in controller_log.glob("*.checkpoint") if p.name[:20] == log_start]
    start.write_bytes(start.read_bytes()[: _batch_sizes(start.read_bytes())[0]])
    for later in controller_log.glob("*.checkpoint"):
        if later != start:
            later.unlink()

    result = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0")
    assert result.code == 1
    assert result.stderr.count("Error: ") == 1, result.stderr
    assert "cannot be rebuilt" in result.stderr and start.name in result.stderr
    assert start.exists()  # nothing of it was thrown away


def test_up_detach_says_what_recovery_repaired(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _made(directory)
    _flip_early_bit(directory / "101" / "__cluster_metadata-0")
    up = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0", "-o", "json")
    try:
        assert up.code == 0, up.stderr
        assert up.json["topics"] == 3
        assert "Warning: node 101: metadata log recovery: " in up.stderr
    finally:
        invoke("sandbox", "down", "--dir", str(directory))


def test_a_follower_behind_the_leaders_log_start_gets_its_snapshot(tmp_path: Path) -> None:
    from kcli.sandbox.emulator.logwriter import data_batches, write_snapshot
    from kcli.sandbox.emulator.snapshot_files import snapshot_files

    leader = ReplicaLog(tmp_path / "101")
    from kcli.metadata import records

    topic = records.TopicRecord(name="t", topic_id=__import__("uuid").uuid4())  # type: ignore[arg-type]
    for batch in data_batches([topic] * 4, base_offset=0, epoch=1, timestamp_ms=1):
        leader.append(batch)
    write_snapshot(leader.log_dir, [topic], offset=4, epoch=1, timestamp_ms=1)
    (snapshot,) = snapshot_files(leader.log_dir)
    leader.truncate_fully_and_start_at(snapshot)
    for batch in data_batches([topic], base_offset=4, epoch=2, timestamp_ms=1):
        leader.append(batch)
    assert (leader.start_offset, leader.last_epoch, leader.end_offset) == (4, 2, 5)

    follower = ReplicaLog(tmp_path / "1")
    assert fetch(follower, leader) is None
    assert (follower.start_offset, follower.end_offset) == (4, 5)
    assert [s.path.name for s in snapshot_files(follower.log_dir)] == [snapshot.path.name]
    # reopened, the follower's log still starts at the snapshot and is whole
    follower.close()
    again = ReplicaLog(tmp_path / "1")
    assert (again.start_offset, again.end_offset, again.recovered) == (4, 5, [])
    with pytest.raises(ReplicaError):
        again.truncate_to(0, floor=5)
