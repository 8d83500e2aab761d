"""Standard output that cannot be written: `> /dev/full`, a full disk, a reader that went away.

Each was "unexpected OSError: [Errno 28] No space left on device (this is a bug in kcli)". Now it
is one line saying the output is incomplete, exit 1; a reader that left (`| head -1`) gets no
message at all, as with any Unix tool. These run real processes: the interpreter's own flush at
exit is part of what is checked. (tests/reliability/test_fault_walk.py runs every command so.)
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import KRAFT_FIXTURES

FIXTURE_LOG_DIR = KRAFT_FIXTURES / "galgrayzer-kafka-docker-compose" / "kafka_data" / "data"
FULL = "Error: cannot write to standard output: No space left on device (the output is incomplete)\n"


def _kcli(
    *args: str, stdout: int | None = None, stderr: int | None = None
) -> subprocess.CompletedProcess[bytes]:
    environ = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    return subprocess.run(
        [sys.executable, "-m", "kcli", *args], stdout=stdout, stderr=stderr if stderr is not None else subprocess.PIPE,
        env=environ, timeout=60, check=False,
    )  # fmt: skip


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],  # written by click
        ["features", "version-mapping"],  # a few lines, flushed only at exit
        ["metadata-shell", "--directory", str(FIXTURE_LOG_DIR), "--dump"],  # more than a buffer holds
    ],
    ids=["help", "short output", "long output"],
)
def test_stdout_on_dev_full_is_one_line_and_exit_1(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        result = _kcli(*argv, stdout=full.fileno())
    assert (result.returncode, result.stderr.decode()) == (1, FULL)


def test_a_reader_that_went_away_gets_no_message() -> None:
    """`kcli metadata-shell --dump ... | head -1`: EPIPE, exit 1 as click exits, and nothing on stderr."""
    environ = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    dump = subprocess.Popen(
        [sys.executable, "-m", "kcli", "metadata-shell", "--directory", str(FIXTURE_LOG_DIR), "--dump"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ,
    )  # fmt: skip
    assert dump.stdout is not None and dump.stderr is not None
    first = dump.stdout.readline()
    dump.stdout.close()  # the reader leaves, as head does after its line
    code = dump.wait(timeout=60)
    assert first.startswith(b"Dumping ") and (code, dump.stderr.read()) == (1, b"")


def test_stderr_on_dev_full_is_no_traceback() -> None:
    """With nowhere to say it, the exit code alone tells: no traceback, no "Exception ignored"."""
    with open("/dev/full", "wb") as full:
        result = _kcli("cluster-id", stdout=subprocess.DEVNULL, stderr=full.fileno())
    assert result.returncode == 2
