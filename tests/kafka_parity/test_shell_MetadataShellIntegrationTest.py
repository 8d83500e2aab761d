"""kafka-metadata-shell.sh: Kafka's MetadataShellIntegrationTest (shell/src/test/java/org/apache/kafka/
shell/MetadataShellIntegrationTest.java), ported. Kafka's shell refuses a log dir a running node
holds (its `.lock`, two levels above the snapshot file); kcli reads it, as kafka-dump-log does:
a read-only command takes no lock, and the batch the node is still writing is the end of the data.

The lock is held by a JVM, as a broker or controller holds it (FileChannel.tryLock on `.lock`).
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.shell.conftest import write_small_log

KAFKA_TOOL = "kafka-metadata-shell.sh"
KAFKA_TEST_CLASS = "MetadataShellIntegrationTest"
KAFKA_SOURCE = "shell/src/test/java/org/apache/kafka/shell/MetadataShellIntegrationTest.java"
KAFKA_METHODS = ["testLock", "testParentParent", "testParentParentOfRoot"]
NOT_PORTED: dict[str, str] = {}

SNAPSHOT = Path("__cluster_metadata-0") / "00000000000122906351-0000000226.checkpoint"
# Holds an exclusive lock on the file named by its argument until its standard input closes.
HOLDER = """
import java.io.RandomAccessFile;
import java.nio.channels.FileLock;

public class HoldLock {
    public static void main(String[] args) throws Exception {
        try (RandomAccessFile file = new RandomAccessFile(args[0], "rw");
             FileLock lock = file.getChannel().tryLock()) {
            System.out.println(lock != null ? "locked" : "busy");
            System.out.flush();
            System.in.read();
        }
    }
}
"""


@contextlib.contextmanager
def held(log_dir: Path) -> Iterator[None]:
    """A JVM holds the log dir's `.lock` meanwhile."""
    java = shutil.which("java")
    assert java is not None, "the Java peer (Java 17) is part of the test environment"
    source = log_dir.parent / "HoldLock.java"
    source.write_text(HOLDER)
    holder = subprocess.Popen(
        [java, str(source), str(log_dir / ".lock")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        yield
    finally:
        if holder.stdin is not None:
            holder.stdin.close()
        holder.wait(timeout=30)


@pytest.mark.parametrize(
    "can_lock",
    [
        pytest.param(
            True,
            marks=pytest.mark.kafka_difference(
                "a missing snapshot file is one error line (exit 2), not a NoSuchFileException"
            ),
        ),
        pytest.param(
            False,
            marks=pytest.mark.kafka_difference(
                "a log dir a running node holds is read (read-only: no lock), as kafka-dump-log reads it"
            ),
        ),
    ],
    ids=["can lock", "cannot lock"],
)
def test_MetadataShellIntegrationTest_testLock(can_lock: bool, tmp_path: Path) -> None:
    log_dir = tmp_path / "logs"
    log_dir.mkdir()
    snapshot = log_dir / SNAPSHOT
    if can_lock:
        result = invoke("metadata-shell", "--snapshot", str(snapshot), "ls", "/")
        assert result.code == 2 and result.stdout == ""
        assert result.stderr == f"Error: {snapshot}: no such file or directory\n"
        return
    write_small_log(log_dir)
    with held(log_dir):
        segment = log_dir / "__cluster_metadata-0" / "00000000000000000000.log"
        for source in (["--snapshot", str(segment)], ["--directory", str(log_dir)]):
            result = invoke("metadata-shell", *source, "ls", "/")
            assert (result.code, result.stderr, result.lines) == (0, "", ["image", "local"])
        # and the lock is still the node's: kcli took none
        assert _lock_is_held(log_dir / ".lock")


def _lock_is_held(lock: Path) -> bool:
    import fcntl

    with open(lock, "rb") as handle:
        try:
            fcntl.lockf(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.lockf(handle, fcntl.LOCK_UN)
        return False


@pytest.mark.kafka_difference(
    "no lock is taken, so no lock directory is looked for (MetadataShell.parentParent)"
)
def test_MetadataShellIntegrationTest_testParentParent() -> None:
    root = Path(Path.cwd().anchor)
    result = invoke("metadata-shell", "--snapshot", str(root / "a" / "b"), "ls", "/")
    assert (result.code, result.stderr) == (2, f"Error: {root / 'a' / 'b'}: no such file or directory\n")


@pytest.mark.kafka_difference(
    "no lock is taken, so no lock directory is looked for (MetadataShell.parentParent)"
)
def test_MetadataShellIntegrationTest_testParentParentOfRoot() -> None:
    root = Path(Path.cwd().anchor)
    result = invoke("metadata-shell", "--snapshot", str(root), "ls", "/")
    assert result.code == 2 and result.stderr.startswith(f"Error: {root}")
