"""`kcli sandbox` as an operator uses it: up --detach, status, faults, down, and its help."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import kill_child
from tests.conftest import invoke
from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def test_help_says_it_is_an_emulator() -> None:
    result = invoke("sandbox", "--help")
    assert result.code == 0
    assert "emulat" in result.stdout.lower() and "not kafka" in result.stdout.lower()
    for command in (
        "up",
        "status",
        "down",
        "stop-node",
        "start-node",
        "replace-brokers",
        "failover",
        "misroute",
        "delay",
    ):
        assert invoke("sandbox", command, "--help").code == 0


def test_detached_sandbox_lifecycle(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    up = invoke(
        "sandbox",
        "up",
        "--dir",
        str(directory),
        "--detach",
        "--base-port",
        "0",
        "--controllers",
        "2",
        "--brokers",
        "2",
        "--racks",
        "r1,r2",
        "--log-dirs",
        "2",
        "-o",
        "json",
    )
    assert up.code == 0, up.stderr
    try:
        state = json.loads((directory / "sandbox.json").read_text())
        assert state["cluster_id"] == up.json["cluster_id"]
        assert [n["id"] for n in state["nodes"]] == [1, 2, 101, 102]
        assert [n["rack"] for n in up.json["nodes"]] == ["r1", "r2", None, None]
        assert (directory / "logdirs" / "2-1" / "meta.properties").is_file()  # each broker's second log dir
        with admin(state["bootstrap_servers"]) as client:
            assert client.describe_cluster()["cluster_id"] == state["cluster_id"]

        assert invoke("sandbox", "stop-node", "2", "--dir", str(directory)).lines == ["Node 2 stopped."]
        status = invoke("sandbox", "status", "--dir", str(directory), "-o", "json").json
        assert {n["id"]: n["running"] for n in status["nodes"]} == {1: True, 2: False, 101: True, 102: True}
        assert invoke("sandbox", "start-node", "2", "--dir", str(directory)).code == 0
        failover = invoke("sandbox", "failover", "--dir", str(directory))
        assert failover.lines == ["Controller 102 is now active."]
        assert invoke("sandbox", "delay", "1", "20", "--dir", str(directory)).code == 0
        misroute = invoke("sandbox", "misroute", "1", "--dir", str(directory), "-o", "json")
        assert misroute.json == {"advertises": 2}
        text = invoke("sandbox", "status", "--dir", str(directory)).stdout
        assert "delay 20 ms" in text and "advertises node 2" in text
        ended = invoke("sandbox", "misroute", "1", "--as", "1", "--dir", str(directory))
        assert ended.lines == ["Node 1 advertises its own endpoint again (no longer misrouted)."]
        again = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0")
        assert again.code == 1 and "already running" in again.stderr
        bad = invoke("sandbox", "stop-node", "77", "--dir", str(directory))
        assert bad.code == 1 and "no node 77" in bad.stderr
    finally:
        down = invoke("sandbox", "down", "--dir", str(directory))
    assert down.code == 0, down.stderr
    assert not (directory / "sandbox.json").exists()
    missing = invoke("sandbox", "status", "--dir", str(directory))
    assert missing.code == 1 and "no sandbox" in missing.stderr
    assert (directory / "101" / "__cluster_metadata-0").is_dir()


def test_stale_state_file_gets_a_clear_message(tmp_path: Path) -> None:
    directory = tmp_path / "stale"
    directory.mkdir()
    (directory / "sandbox.json").write_text(
        json.dumps(
            {
                "directory": str(directory),
                "pid": 2**22 + 12345,
                "cluster_id": "x",
                "security": "plaintext",
                "control_port": 1,
                "token": "t",
                "bootstrap_servers": "",
                "bootstrap_controllers": "",
                "nodes": [],
                "users": {},
                "ca_file": None,
            }
        )
    )
    status = invoke("sandbox", "status", "--dir", str(directory))
    assert status.code == 1 and "stale" in status.stderr and "Traceback" not in status.stderr
    down = invoke("sandbox", "down", "--dir", str(directory))
    assert down.code == 1 and "stale" in down.stderr
    assert not (directory / "sandbox.json").exists()


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [("--racks", "a,,b", "--racks"), ("--release-version", "2.8", "--release-version")],
)
def test_bad_racks_or_release_is_a_usage_error(tmp_path: Path, option: str, value: str, message: str) -> None:
    result = invoke("sandbox", "up", "--dir", str(tmp_path), option, value)
    assert result.code == 2 and message in result.stderr
    assert not (tmp_path / "sandbox.json").exists()


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("abc", "decoded as 2 bytes, which is not equal to the expected 16 bytes"),
        ("MkU3OEVBNTcwNTJENDM2QkAw", "decoded as 18 bytes"),
        ("AAAAAAAAAAAAAAAAAAAA+A", "is not a valid base64 encoded Uuid"),
    ],
)
def test_a_cluster_id_that_is_not_a_kafka_uuid_is_a_usage_error(
    tmp_path: Path, value: str, reason: str
) -> None:
    result = invoke("sandbox", "up", "--dir", str(tmp_path), "--cluster-id", value)
    assert result.code == 2, result.stderr
    assert f"--cluster-id: Cluster ID string {value} does not appear to be a valid UUID" in result.stderr
    assert reason in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "sandbox.json").exists()


def test_bad_security_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("sandbox", "up", "--dir", str(tmp_path), "--security", "kerberos")
    assert result.code == 2 and "--security" in result.stderr


@pytest.mark.parametrize("detach", [True, False])
def test_a_port_in_use_is_one_clear_line(tmp_path: Path, detach: bool) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        args = ["--dir", str(tmp_path), "--base-port", str(port), "--brokers", "1", "--controllers", "1"]
        result = invoke("sandbox", "up", *args, *(["--detach"] if detach else []))
    assert result.code == 1, result.stdout
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"Error: port {port} (broker 1 on 127.0.0.1) is already in use"), (
        result.stderr
    )
    assert "--base-port" in result.stderr
    assert (
        "bug" not in result.stderr
        and "Error: Error" not in result.stderr
        and "Error:" not in result.stderr[7:]
    )
    assert not (tmp_path / "sandbox.json").exists()


def _foreground_on_a_pty(directory: Path, **env: str) -> tuple[Any, int]:
    """`kcli sandbox up` in the foreground with a pseudo-terminal as stdin/stdout: (process, pty master)."""
    import os
    import subprocess
    import sys

    master, slave = os.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "kcli", "sandbox", "up", "--dir", str(directory), "--base-port", "0",
         "--brokers", "2", "--controllers", "1"],
        stdin=slave, stdout=slave, stderr=subprocess.PIPE,
        env={**os.environ, "COLUMNS": "160", "LINES": "40", "TERM": "xterm", **env},
        start_new_session=True,
    )  # fmt: skip
    os.close(slave)
    return process, master


class _Screen:
    """What a pty has shown so far, read with a deadline."""

    def __init__(self, master: int) -> None:
        self.master = master
        self.shown = b""

    def wait_for(self, text: str, since: str = "", seconds: float = 20.0) -> str:
        """The screen from the last `since` on, once it contains `text`."""
        import os
        import select
        import time

        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            shown = self.shown.decode(errors="replace")
            tail = shown[shown.rfind(since) :] if since else shown
            if text in tail:
                return tail
            if select.select([self.master], [], [], 0.1)[0]:
                with contextlib.suppress(OSError):
                    self.shown += os.read(self.master, 65536)
        raise AssertionError(f"{text!r} never shown; the screen ends with {self.shown[-800:]!r}")


def _stop_with_ctrl_c(process: Any, directory: Path) -> None:
    import signal

    from kcli.processes import signal_child

    signal_child(process, signal.SIGINT)
    assert process.wait(timeout=20) == 0
    assert b"Traceback" not in process.stderr.read()
    assert not (directory / "sandbox.json").exists()


def test_foreground_up_shows_a_live_panel_on_a_terminal(tmp_path: Path) -> None:
    """On a terminal: a panel that follows faults and shows the bootstrap lines; Ctrl-C stops."""
    import os

    directory = tmp_path / "sb"
    process, master = _foreground_on_a_pty(directory)
    screen = _Screen(master)
    try:
        panel = screen.wait_for("Ctrl-C stops", since="kcli sandbox ")
        assert "emulated KRaft cluster, not Kafka" in panel and "controller (active)" in panel
        info = json.loads((directory / "sandbox.json").read_text())
        assert f"bootstrap.servers={info['bootstrap_servers']}" in panel, panel
        assert f"bootstrap.controllers={info['bootstrap_controllers']}" in panel, panel
        assert invoke("sandbox", "stop-node", "2", "--dir", str(directory)).code == 0
        after = screen.wait_for("stopped", since="kcli sandbox ")
        assert after.split("stopped")[0].splitlines()[-1].split()[1] == "2", after
        _stop_with_ctrl_c(process, directory)
    finally:
        if process.poll() is None:
            kill_child(process)
            process.wait(timeout=10)
        os.close(master)


def test_foreground_up_with_no_color_prints_the_status_lines(tmp_path: Path) -> None:
    """NO_COLOR on a terminal: no panel (it would never be drawn), the plain status lines at once."""
    import os

    directory = tmp_path / "sb"
    process, master = _foreground_on_a_pty(directory, NO_COLOR="1")
    screen = _Screen(master)
    try:
        shown = screen.wait_for("bootstrap.controllers=")
        assert shown.startswith("Sandbox cluster "), shown
        assert "\x1b[" not in shown and "Ctrl-C stops" not in shown
        _stop_with_ctrl_c(process, directory)
    finally:
        if process.poll() is None:
            kill_child(process)
            process.wait(timeout=10)
        os.close(master)
