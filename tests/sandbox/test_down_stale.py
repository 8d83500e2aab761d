"""`sandbox down` signals only the sandbox's own process, whatever a stale or forged sandbox.json says."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import kill_child
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _state(directory: Path, pid: int, **extra: Any) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    state = {
        "directory": str(directory),
        "pid": pid,
        "cluster_id": "AAAAAAAAAAAAAAAAAAAAAA",
        "security": "plaintext",
        "control_port": _closed_port(),  # the control port does not answer
        "token": "0" * 32,
        "bootstrap_servers": "127.0.0.1:1",
        "bootstrap_controllers": "127.0.0.1:2",
        "nodes": [],
        "users": {},
        "ca_file": None,
        **extra,
    }
    path = directory / "sandbox.json"
    path.write_text(json.dumps(state), encoding="utf-8")
    return path


def test_a_stale_pid_now_another_programs_is_not_killed(tmp_path: Path) -> None:
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        state = _state(tmp_path / "sb", other.pid, pid_started="an earlier start of that pid")
        down = invoke("sandbox", "down", "--dir", str(tmp_path / "sb"))
        assert down.code == 1  # before: the other program got SIGTERM, and `down` said "stopped"
        assert "stale" in down.stderr and "no process was signalled" in down.stderr, down.stderr
        assert other.poll() is None
        assert not state.exists()
    finally:
        kill_child(other)
        other.wait(timeout=10)


def test_an_old_state_file_without_a_start_time_names_a_process_that_is_no_sandbox(tmp_path: Path) -> None:
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True)
    try:
        _state(tmp_path / "sb", other.pid)  # as a kcli before this one wrote it
        down = invoke("sandbox", "down", "--dir", str(tmp_path / "sb"))
        assert down.code == 1 and "no process was signalled" in down.stderr
        assert other.poll() is None
    finally:
        kill_child(other)
        other.wait(timeout=10)


@pytest.mark.parametrize("pid", [0, -1])
def test_a_pid_naming_a_group_or_every_process_is_never_signalled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pid: int
) -> None:
    sent: list[tuple[int, int]] = []

    def record(target: int, signum: int) -> None:  # nothing is signalled, whatever the code under test does
        sent.append((target, signum))

    monkeypatch.setattr(os, "kill", record)
    monkeypatch.setattr(os, "killpg", record)
    state = _state(tmp_path / "sb", pid)
    down = invoke("sandbox", "down", "--dir", str(tmp_path / "sb"))
    assert sent == []  # before: kill(-1, SIGTERM), every process; kill(0, SIGTERM), kcli's own group
    assert down.code == 1
    assert down.stderr.count("\n") == 1 and "no process was signalled" in down.stderr, down.stderr
    assert not state.exists()
    status = invoke("sandbox", "status", "--dir", str(tmp_path / "sb"))
    assert status.code == 1 and "no sandbox in" in status.stderr
