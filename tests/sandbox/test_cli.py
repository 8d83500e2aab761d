"""`kcli sandbox` as an operator uses it: up --detach, status, faults, down, and its help."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

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


def test_bad_security_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke("sandbox", "up", "--dir", str(tmp_path), "--security", "kerberos")
    assert result.code == 2 and "--security" in result.stderr
