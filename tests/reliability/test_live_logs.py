"""Reading what Kafka writes while it runs: a log being appended to, and side files that are not files.

A running node appends to the last segment of its metadata log: a read catches the batch it is
writing half done, and Kafka's readers (FileLogInputStream.nextBatch) take that as the end of the
data. The side files (meta.properties, quorum-state, leader-epoch-checkpoint) are read bounded, so
a FIFO, /dev/zero or a huge file is a warning and never a hang; a segment-named entry that is no
regular file is one usage error. Each case runs under a deadline (pytest-timeout), where the old
reader would have waited for ever.
"""

from __future__ import annotations

import os
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from kcli.metadata import records as r
from kcli.metadata.batch import encode_batch
from kcli.metadata.codec import encode_metadata_record
from kcli.metadata.writer import MetadataLogWriter
from tests.conftest import invoke
from tests.shell.conftest import write_small_log

pytestmark = pytest.mark.timeout(30)  # a reader waiting on a FIFO fails, never hangs the suite
PARTITION = "__cluster_metadata-0"
SEGMENT = "00000000000000000000.log"


def _kcli(*args: str) -> subprocess.CompletedProcess[str]:
    """kcli in-process, as a finished process would report it."""
    result = invoke(*args)
    return subprocess.CompletedProcess(list(args), result.code, result.stdout, result.stderr)


def _topic_batch(offset: int, name: str) -> bytes:
    record = r.TopicRecord(name=name, topic_id=uuid.uuid5(uuid.NAMESPACE_DNS, name))
    return encode_batch([(None, encode_metadata_record(record))], base_offset=offset, epoch=1, timestamp_ms=7)


def _log(tmp_path: Path) -> Path:
    log_dir = tmp_path / "node"
    write_small_log(log_dir)
    return log_dir


# ---- the batch a running node is still writing ------------------------------------------------------


@pytest.mark.parametrize("cut", [30, 70, -3], ids=["inside the header", "inside the records", "last bytes"])
def test_a_half_written_last_batch_is_the_end_of_the_data(tmp_path: Path, cut: int) -> None:
    """On a log being appended to, 58 of 78 reads failed with "truncated batch header ... last good
    offset none"; the records before the batch being written are all there."""
    log_dir = _log(tmp_path)
    segment = log_dir / PARTITION / SEGMENT
    before = invoke("metadata-shell", "--directory", str(log_dir), "ls", "/image/topics/byName")
    end = MetadataLogWriter(log_dir, node_id=1, cluster_id="test-cluster-id").next_offset
    batch = _topic_batch(end, "being-written")
    with segment.open("ab") as out:
        out.write(batch[:cut])
    for source in (["--directory", str(log_dir)], ["--snapshot", str(segment)]):
        result = invoke("metadata-shell", *source, "ls", "/image/topics/byName")
        assert (result.code, result.stderr, result.lines) == (0, "", before.lines)
    dump = invoke("metadata-shell", "--directory", str(log_dir), "--dump")
    assert dump.code == 0 and dump.stderr == "" and "being-written" not in dump.stdout


def test_a_log_appended_to_meanwhile_reads_every_time(tmp_path: Path) -> None:
    """A writer appending batches in pieces (as the page cache shows a write in progress) while the
    directory is read again and again: every read succeeds and sees a prefix of the topics."""
    log_dir = _log(tmp_path)
    segment = log_dir / PARTITION / SEGMENT
    offset = MetadataLogWriter(log_dir, node_id=1, cluster_id="test-cluster-id").next_offset
    done = threading.Event()

    def append() -> None:
        nonlocal offset
        with segment.open("ab", buffering=0) as out:
            for index in range(400):
                batch = _topic_batch(offset, f"live-{index:04d}")
                for start in range(0, len(batch), 23):
                    out.write(batch[start : start + 23])
                offset += 1
                if done.is_set():
                    return

    writer = threading.Thread(target=append)
    writer.start()
    try:
        seen: list[int] = []
        for _ in range(25):
            result = invoke("metadata-shell", "--directory", str(log_dir), "ls", "/image/topics/byName")
            assert (result.code, result.stderr) == (0, ""), result.stderr
            live = sorted(name for name in result.lines if name.startswith("live-"))
            assert live == [f"live-{index:04d}" for index in range(len(live))]  # a prefix, in order
            seen.append(len(live))
    finally:
        done.set()
        writer.join()
    assert seen == sorted(seen)


def test_a_cut_batch_before_the_last_segment_is_still_damage(tmp_path: Path) -> None:
    """Only the last segment is being written: a cut batch in an earlier one is reported."""
    log_dir = _log(tmp_path)
    partition = log_dir / PARTITION
    first = partition / SEGMENT
    end = MetadataLogWriter(log_dir, node_id=1, cluster_id="test-cluster-id").next_offset
    with first.open("ab") as out:
        out.write(_topic_batch(end, "cut")[:40])
    (partition / f"{end + 1:020d}.log").write_bytes(_topic_batch(end + 1, "later"))
    result = invoke("metadata-shell", "--directory", str(log_dir), "ls", "/")
    assert result.code == 1 and result.stderr.startswith(
        f"Error: {first}: truncated batch header (40 bytes left)"
    )


# ---- side files: bounded, never waited on -----------------------------------------------------------


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _dev_zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _huge(path: Path) -> None:
    with path.open("wb") as out:
        out.truncate(64 * 1024 * 1024)  # sparse: 64 MiB of zeros without the disk


def _directory(path: Path) -> None:
    path.mkdir()


def _loop(path: Path) -> None:
    path.symlink_to(path.name)


SIDE_FAULTS = {
    "FIFO": _fifo,
    "/dev/zero": _dev_zero,
    "huge file": _huge,
    "directory": _directory,
    "loop": _loop,
}
SIDE_FILES = {
    "meta.properties": "",
    "quorum-state": PARTITION,
    "leader-epoch-checkpoint": PARTITION,
}


@pytest.mark.parametrize("fault", list(SIDE_FAULTS))
@pytest.mark.parametrize("side", list(SIDE_FILES))
def test_a_side_file_that_is_no_file_is_a_warning_not_a_hang(tmp_path: Path, side: str, fault: str) -> None:
    """A FIFO quorum-state hung for ever; /dev/zero or a huge file read until memory ran out."""
    log_dir = _log(tmp_path)
    path = log_dir / SIDE_FILES[side] / side
    path.unlink(missing_ok=True)
    SIDE_FAULTS[fault](path)
    result = _kcli("metadata-shell", "--directory", str(log_dir), "ls", "/image/topics/byName")
    assert (result.returncode, result.stdout.split()) == (0, ["orders", "payments"])
    (warning,) = result.stderr.splitlines()
    assert warning.startswith(f"Warning: side file {path}") and warning.endswith("; not read")


@pytest.mark.parametrize(
    ("fault", "problem"),
    [
        (_directory, "is a directory"),
        (lambda path: path.symlink_to("gone.log"), "is a dangling symbolic link"),
        (_loop, "is a symbolic link loop"),
        (_fifo, "is a FIFO"),
    ],
    ids=["directory", "dangling link", "loop", "FIFO"],
)
def test_a_segment_named_entry_that_is_no_file_is_one_usage_error(
    tmp_path: Path, fault: object, problem: str
) -> None:
    """Each was "unexpected IsADirectoryError/FileNotFoundError/OSError (this is a bug in kcli)"."""
    log_dir = _log(tmp_path)
    entry = log_dir / PARTITION / f"{99:020d}.log"
    fault(entry)  # type: ignore[operator]
    result = _kcli("metadata-shell", "--directory", str(log_dir), "ls", "/")
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == f"Error: {entry} {problem}, not a log file (move it out of the log directory)\n"


def test_a_fifo_given_as_the_snapshot_is_refused_not_waited_on(tmp_path: Path) -> None:
    fifo = tmp_path / SEGMENT
    os.mkfifo(fifo)
    result = _kcli("metadata-shell", "--snapshot", str(fifo), "ls", "/")
    assert (result.returncode, result.stderr) == (2, f"Error: {fifo}: is a FIFO\n")
