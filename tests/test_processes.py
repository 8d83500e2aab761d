"""Every signal kcli sends goes through kcli.processes, which signals only the process kcli started.

A pid read back from a state file may be stale (the number now another program's), 0 (kcli's own
process group) or -1 (every process): none of them is ever signalled.
"""

from __future__ import annotations

import ast
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from kcli.processes import ProcessRecord, is_running, kill_child, send, signal_child

REPO = Path(__file__).resolve().parents[1]
THE_ONE_WAY = REPO / "kcli" / "processes.py"
# calls that signal a process: os.kill/killpg, signal.pthread_kill, and Popen's send_signal/kill/terminate
SIGNALLING = {"kill", "killpg", "pthread_kill", "send_signal", "terminate"}


CALLED = re.compile(r"\.(" + "|".join(sorted(SIGNALLING)) + r")\s*\(")


def _signal_calls(source: str) -> list[str]:
    """`line: .name(...)` of every call in `source` that would signal a process."""
    if not CALLED.search(source):  # most files name none of them: no need to parse
        return []
    return [
        f"{node.lineno}: .{node.func.attr}(...)"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SIGNALLING
    ]


def test_no_signal_is_sent_outside_kcli_processes() -> None:
    offenders = [
        f"{path.relative_to(REPO)}:{hit}"
        for folder in ("kcli", "tests", "benchmarks")
        for path in sorted((REPO / folder).rglob("*.py"))
        if path != THE_ONE_WAY
        for hit in _signal_calls(path.read_text(encoding="utf-8"))
    ]
    assert offenders == [], "signal processes through kcli.processes (send, signal_child, kill_child)"


def test_the_walk_finds_each_way_of_signalling() -> None:
    source = "import os\nos.kill(pid, 15)\nos.killpg(pid, 9)\nprocess.terminate()\nprocess.kill()\nprocess.send_signal(2)\n"
    assert _signal_calls(source) == [
        "2: .kill(...)",
        "3: .killpg(...)",
        "4: .terminate(...)",
        "5: .kill(...)",
        "6: .send_signal(...)",
    ]


def _sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)


def test_a_record_matches_only_the_process_it_was_read_from() -> None:
    child = _sleeper()
    try:
        record = ProcessRecord.of(child.pid)
        assert record.started and is_running(record)
        other = ProcessRecord(pid=child.pid, started=record.started + "0")  # the pid, another start
        assert not is_running(other)
        assert send(other, signal.SIGTERM) is False
        assert child.poll() is None  # not signalled
        assert not is_running(ProcessRecord(pid=child.pid, argv_has=("no-such-word",)))
        assert send(record, signal.SIGTERM) is True
        assert child.wait(timeout=10) == -signal.SIGTERM
        assert not is_running(record)
        assert send(record, signal.SIGTERM) is False
    finally:
        kill_child(child)
        child.wait(timeout=10)


@pytest.mark.parametrize("pid", [0, -1, -12345])
def test_a_pid_naming_no_single_process_is_refused(pid: int) -> None:
    record = ProcessRecord(pid=pid)
    assert not is_running(record)
    with pytest.raises(ValueError, match="names no single process"):
        send(record, signal.SIGTERM)


def test_a_child_is_signalled_only_until_it_has_exited() -> None:
    child = _sleeper()
    assert signal_child(child, signal.SIGKILL, group=True)
    child.wait(timeout=10)
    assert signal_child(child, signal.SIGKILL) is False
    assert kill_child(child, group=True) is False


def test_a_group_signal_needs_a_child_that_leads_its_group() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])  # kcli's own group
    try:
        with pytest.raises(ValueError, match="does not lead its own process group"):
            signal_child(child, signal.SIGTERM, group=True)
        assert child.poll() is None
    finally:
        kill_child(child)
        child.wait(timeout=10)
