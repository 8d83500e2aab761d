"""The sandbox's replicas follow KRaft's rules: recovery on open, divergence resolved by epoch and offset.

Each case builds logs with the sandbox's own batch encoder, damages or diverges them the way a
crash or a deposed leader would, and checks the result with the independent reader of
tests/reliability/logcheck.py.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kcli.metadata import records as _records
from kcli.sandbox.emulator.logwriter import control_batch, data_batches
from kcli.sandbox.emulator.replica import ReplicaError, ReplicaLog, fetch
from tests.reliability.logcheck import read_node_log

R: Any = _records
STAMP = 1_700_000_000_000
REAL_FSYNC = os.fsync


def config(name: str, value: str) -> Any:
    return R.ConfigRecord(resource_type=2, resource_name=name, name="retention.ms", value=value)


def append(log: ReplicaLog, epoch: int, *values: str) -> None:
    """One data batch per value, at the log end."""
    for value in values:
        (batch,) = data_batches(
            [config("t", value)], base_offset=log.end_offset, epoch=epoch, timestamp_ms=STAMP
        )
        log.append(batch)


def leader_change(log: ReplicaLog, epoch: int, leader: int = 101) -> None:
    message = R.LeaderChangeMessage(
        version=0, leader_id=leader, voters=(R.Voter(voter_id=leader),), granting_voters=()
    )
    log.append(control_batch([message], base_offset=log.end_offset, epoch=epoch, timestamp_ms=STAMP))


def node(tmp_path: Path, node_id: int) -> ReplicaLog:
    return ReplicaLog(tmp_path / str(node_id))


def segment(log: ReplicaLog) -> Path:
    return log.log_dir / "00000000000000000000.log"


def values(log: ReplicaLog) -> list[str | None]:
    return [v for _offset, _name, _key, v in read_node_log(log.log_dir).configs]


def test_a_torn_tail_is_cut_on_open_and_appends_go_on(tmp_path: Path) -> None:
    log = node(tmp_path, 101)
    leader_change(log, 1)
    append(log, 1, "a", "b", "c")
    good = segment(log).stat().st_size
    log.close()
    (batch,) = data_batches([config("t", "torn")], base_offset=4, epoch=1, timestamp_ms=STAMP)
    with open(segment(log), "ab") as out:
        out.write(batch[: len(batch) // 2])  # the process died in the middle of a write
    reopened = node(tmp_path, 101)
    assert reopened.end_offset == 4 and segment(reopened).stat().st_size == good
    assert reopened.recovered == [
        f"00000000000000000000.log: a torn or damaged batch at byte {good}; {len(batch) // 2} bytes cut off"
    ]
    append(reopened, 1, "d")
    reopened.close()
    checked = read_node_log(reopened.log_dir)
    assert checked.problems == [] and values(reopened) == ["a", "b", "c", "d"]


def test_a_damaged_batch_cuts_it_and_everything_after(tmp_path: Path) -> None:
    log = node(tmp_path, 101)
    append(log, 1, "a", "b", "c")
    second = log.spans[1]
    log.close()
    data = bytearray(segment(log).read_bytes())
    data[second.position + second.size - 1] ^= 0xFF  # the CRC no longer matches
    segment(log).write_bytes(bytes(data))
    reopened = node(tmp_path, 101)
    assert reopened.end_offset == 1 and values(reopened) == ["a"]
    assert "torn or damaged batch" in reopened.recovered[0]


def test_repeated_offsets_and_backward_epochs_are_cut(tmp_path: Path) -> None:
    log = node(tmp_path, 101)
    append(log, 2, "a", "b")
    log.close()
    first = segment(log).read_bytes()[: log.spans[0].size]
    with open(segment(log), "ab") as out:
        out.write(first)  # offset 0 again after offset 1: what the old copying replication wrote
    reopened = node(tmp_path, 101)
    assert reopened.end_offset == 2
    assert reopened.recovered[0].startswith("00000000000000000000.log: offset 0 where 2 was expected")
    reopened.close()
    (older,) = data_batches([config("t", "old")], base_offset=2, epoch=1, timestamp_ms=STAMP)
    with open(segment(log), "ab") as out:
        out.write(older)
    again = node(tmp_path, 101)
    assert again.end_offset == 2 and again.recovered[0].startswith(
        "00000000000000000000.log: epoch 1 after epoch 2"
    )
    with pytest.raises(ReplicaError, match="epochs never go down"):
        again.append(older)


def test_the_epoch_checkpoint_is_rebuilt_from_the_batches(tmp_path: Path) -> None:
    log = node(tmp_path, 101)
    leader_change(log, 20)
    append(log, 20, "a")
    leader_change(log, 21)
    log.close()
    checkpoint = log.log_dir / "leader-epoch-checkpoint"
    assert checkpoint.read_text() == "0\n2\n20 0\n21 2\n"
    checkpoint.write_text("0\n2\n20 503\n21 497\n")  # backwards, as the log had it
    reopened = node(tmp_path, 101)
    assert reopened.epochs == [(20, 0), (21, 2)] and checkpoint.read_text() == "0\n2\n20 0\n21 2\n"
    reopened.truncate_to(2)
    assert checkpoint.read_text() == "0\n1\n20 0\n"


def test_end_offset_for_epoch_follows_kafka(tmp_path: Path) -> None:
    log = node(tmp_path, 101)
    append(log, 2, "a", "b")  # epoch 2 at 0
    append(log, 5, "c")  # epoch 5 at 2
    append(log, 7, "d", "e")  # epoch 7 at 3, end 5
    assert log.end_offset_for_epoch(7) == (7, 5)  # the newest epoch: the log end
    assert log.end_offset_for_epoch(5) == (5, 3)  # an older one: where the next epoch starts
    assert log.end_offset_for_epoch(6) == (5, 3)  # unknown epoch: the largest one below it
    assert log.end_offset_for_epoch(1) == (1, 0)  # older than every entry: the first entry's start
    assert log.end_offset_for_epoch(9) == (7, 5)


def test_a_deposed_leaders_uncommitted_suffix_is_truncated_by_fetch(tmp_path: Path) -> None:
    leader, follower = node(tmp_path, 102), node(tmp_path, 101)
    for log in (leader, follower):
        leader_change(log, 1)
        append(log, 1, "committed-1", "committed-2")
    append(follower, 1, "never-committed")  # 101 led epoch 1 and appended this alone
    leader_change(leader, 2, leader=102)  # 102 won epoch 2 without it
    append(leader, 2, "epoch-2")
    cut = fetch(follower, leader, floor=3)
    assert cut == 3
    assert values(follower) == ["committed-1", "committed-2", "epoch-2"]
    follower.close()
    leader.close()
    assert segment(follower).read_bytes() == segment(leader).read_bytes()
    assert read_node_log(follower.log_dir).problems == []


def test_a_follower_that_only_lags_fetches_without_truncating(tmp_path: Path) -> None:
    leader, follower = node(tmp_path, 101), node(tmp_path, 102)
    leader_change(leader, 1)
    append(leader, 1, "a", "b")
    assert fetch(follower, leader) is None and values(follower) == ["a", "b"]
    leader_change(leader, 2)
    append(leader, 2, "c")
    assert fetch(follower, leader) is None and follower.end_offset == leader.end_offset == 5


def test_truncation_never_goes_below_the_high_watermark(tmp_path: Path) -> None:
    leader, follower = node(tmp_path, 102), node(tmp_path, 101)
    append(leader, 1, "a")
    append(follower, 1, "a", "b")
    append(leader, 2, "c")
    with pytest.raises(ReplicaError, match="would remove committed records"):
        fetch(follower, leader, floor=2)


# ---------------------------------------------------------------- whole sandboxes


def _logs(directory: Path) -> dict[int, Any]:
    return {int(d.parent.name): read_node_log(d) for d in sorted(directory.glob("*/__cluster_metadata-0"))}


def test_reopening_repairs_diverged_and_damaged_replicas(tmp_path: Path) -> None:
    """A crash left three different voter logs; `up` elects the most up-to-date one and the rest converge."""
    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path / "sb"
    with Sandbox(directory=directory, controllers=3, brokers=1) as sb:
        sb.run(lambda c: c.commit([config("kept", "1")]))
    logs = {n: ReplicaLog(directory / str(n)) for n in (101, 102, 103)}
    end, epoch = logs[101].end_offset, logs[101].last_epoch
    assert all((log.end_offset, log.last_epoch) == (end, epoch) for log in logs.values())
    append(logs[103], epoch, "ghost")  # 103 led `epoch`, appended alone, then crashed
    for n in (101, 102):  # 101 and 102 moved on to a newer epoch without it
        leader_change(logs[n], epoch + 1, leader=101)
    logs[102].close()
    logs[103].close()
    logs[101].close()
    with open(segment(logs[102]), "ab") as out:
        out.write(b"\x00\x00\x00\x00\x00\x00\x00")  # and 102's last write was torn

    with Sandbox(directory=directory, controllers=3, brokers=1) as sb:
        assert sb.active_controller_id == 101
        image_values = sb.run(lambda c: c.image.configs.get((2, "kept"), {}))
        assert image_values == {"retention.ms": "1"}
        assert sb.run(lambda c: c.image.configs.get((2, "t"))) is None  # the ghost never reached the image
    checked = _logs(directory)
    for node_id, log in checked.items():
        assert log.problems == [], (node_id, log.problems)
        assert "ghost" not in [v for *_rest, v in log.configs], node_id
    reference = checked[101]
    assert all(
        (log.batches, log.configs) == (reference.batches, reference.configs) for log in checked.values()
    )


def test_a_write_needs_a_majority_of_the_voters(tmp_path: Path) -> None:
    from kcli.sandbox.emulator.handle import Sandbox
    from kcli.sandbox.emulator.node import ClusterError

    with Sandbox(directory=tmp_path / "sb", controllers=3, brokers=1) as sb:
        follower = next(c for c in sb.controller_ids if c != sb.active_controller_id)
        sb.stop_node(follower)
        other = next(c for c in sb.controller_ids if c not in (follower, sb.active_controller_id))
        with pytest.raises(
            ClusterError, match="1 of 3 voters would be left, and the metadata quorum needs 2"
        ):
            sb.stop_node(other)
        sb.run(lambda c: c.commit([config("while-one-is-down", "1")]))  # 2 of 3 still commit
        status = sb.status()
        assert status["high_watermark"] == status["log_end_offset"]
        sb.start_node(follower)
    checked = _logs(tmp_path / "sb")
    assert all(log.problems == [] for log in checked.values())
    assert all("1" in [v for *_rest, v in log.configs] for log in checked.values())


def _failing_fsync(monkeypatch: pytest.MonkeyPatch, failing: Callable[[str], bool]) -> list[str]:
    """os.fsync raising EIO for the files `failing` names; returns the paths fsynced since, in order."""
    synced: list[str] = []

    def fsync(fd: int) -> None:
        path = os.readlink(f"/proc/self/fd/{fd}")
        if failing(path):
            raise OSError(errno.EIO, "Input/output error", path)
        REAL_FSYNC(fd)
        synced.append(path)

    monkeypatch.setattr(os, "fsync", fsync)
    return synced


def test_a_failed_fsync_counts_nothing_as_durable_and_the_next_sync_flushes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = node(tmp_path, 101)
    append(log, 1, "a")
    log.sync()
    append(log, 1, "b", "c")
    _failing_fsync(monkeypatch, lambda path: path.endswith(".log"))
    with pytest.raises(OSError, match="Input/output error"):
        log.sync()
    assert (log.durable_end, log.end_offset) == (1, 3)  # b and c are written, not durable
    synced = _failing_fsync(monkeypatch, lambda _path: False)
    log.sync()  # nothing written since the failure: the segment is still to be synced
    assert synced == [str(segment(log))] and log.durable_end == 3
    log.sync()  # and once synced, it is clean
    assert synced == [str(segment(log))]
    log.close()


@pytest.mark.sandbox
def test_voters_whose_fsync_fails_do_not_acknowledge_a_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kcli.sandbox.emulator.handle import Sandbox
    from kcli.sandbox.emulator.metalog import NoQuorum

    with Sandbox(directory=tmp_path / "sb", controllers=3, brokers=1) as sb:
        followers = [str(sb.metadata_log_dir(n)) for n in (102, 103)]  # 101 leads: 2 of 3 voters fail
        synced = _failing_fsync(monkeypatch, lambda path: path.startswith(tuple(followers)))
        with pytest.raises(NoQuorum, match="is not on a majority of the voters"):
            sb.run(lambda c: c.commit([config("t", "unacknowledged")]))
        written = sb.run(lambda c: c.metalog.end_offset)
        ends = sb.run(lambda c: [c.metalog.replicas[n].durable_end for n in (102, 103)])
        assert all(end < written for end in ends)
        assert sb.run(lambda c: c.metalog.high_watermark) < written
        # The disks heal: the next round fsyncs what the failed one could not, and only then commits.
        synced = _failing_fsync(monkeypatch, lambda _path: False)
        sb.run(lambda c: c.metalog.drain())
        assert sb.run(lambda c: c.metalog.high_watermark) == written
        for follower in followers:
            assert any(path.startswith(follower) and path.endswith(".log") for path in synced), synced
