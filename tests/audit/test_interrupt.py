"""Ctrl-C, SIGTERM or SIGHUP during `kcli spark audit`: one line, the JVM ended, no traceback.

Before, Ctrl-C printed 40-50 lines of Py4J tracebacks: pyspark's own SIGINT handler called the JVM
from inside the handler on the connection the interrupted call was reading ("reentrant call"), py4j
logged each broken call, the accumulator server printed the closed connection, and a clean-up that
called the JVM afterwards turned the interruption into "Spark job failed" (exit 3). A signal while
the JVM was starting left it running. The audit is real (Kafka-written metadata logs, a real Spark
driver) and the signal is sent to the kcli process as a terminal or a service manager sends it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from kcli.processes import kill_child, signal_child
from tests.conftest import KRAFT_FIXTURES

FIXTURE = KRAFT_FIXTURES / "hiage-kafka-raft"
DEADLINE = 90.0


def _descendants(pid: int) -> dict[int, str]:
    """Every process below `pid`, with its command line."""
    parents: dict[int, int] = {}
    commands: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            commands[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        parents[int(entry.name)] = int(stat.rpartition(")")[2].split()[1])
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, its_parent in parents.items():
            if its_parent == parent and child not in found:
                found[child] = commands.get(child, "")
                frontier.append(child)
    return found


def _wait_for(process: subprocess.Popen[str], words: str) -> dict[int, str]:
    """The audit's processes once one below it has `words` in its command line."""
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        assert process.poll() is None, "the audit ended before it could be interrupted"
        below = _descendants(process.pid)
        if any(words in command for command in below.values()):
            return below
        time.sleep(0.02)
    raise AssertionError(f"no process with {words!r} below the audit within {DEADLINE:.0f} s")


@pytest.mark.parametrize(
    ("signum", "moment", "out"),
    [
        (signal.SIGINT, "java", False),  # the JVM has just been started: pyspark's launch is under way
        (signal.SIGINT, "pyspark.daemon", False),  # a Spark job is running Python tasks
        (signal.SIGTERM, "pyspark.daemon", True),
        (signal.SIGHUP, "pyspark.daemon", False),
    ],
    ids=["ctrl-c-while-starting", "ctrl-c-in-a-job", "sigterm-in-a-job-with-out", "sighup-in-a-job"],
)
def test_an_interrupted_audit_says_one_line_and_leaves_no_jvm(
    tmp_path: Path, signum: int, moment: str, out: bool
) -> None:
    argv = [sys.executable, "-m", "kcli", "spark", "audit", "--metadata-dir", str(FIXTURE)]
    if out:
        argv += ["--out", str(tmp_path / "findings")]
    environ = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    environ.pop("KCLI_DEBUG", None)
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ)
    try:
        started = _wait_for(process, moment)
        signal_child(process, signum)
        _, stderr = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            kill_child(process)
            process.communicate()
    assert process.returncode == 128 + signum, stderr
    expected = "Interrupted: the audit stopped before it finished, and Spark with it"
    if out:
        expected += f"; {tmp_path / 'findings'} may hold part of its findings: run the audit again"
    assert stderr.splitlines() == [expected]
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and any(Path(f"/proc/{pid}").exists() for pid in started):
        time.sleep(0.1)
    alive = {pid: command for pid, command in started.items() if Path(f"/proc/{pid}").exists()}
    assert not alive, f"left running after the audit ended: {alive}"
