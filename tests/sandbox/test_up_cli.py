"""`kcli sandbox up` on first use and on reopening: saved settings, what it prints, what it leaves behind."""

from __future__ import annotations

import contextlib
import os
import shlex
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kcli.processes import kill_child
from kcli.sandbox.settings import DEFAULT_USERS, Security, reopen
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def test_reopen_takes_saved_settings_and_names_each_flag_that_differs() -> None:
    saved = {"version": 1, "base_port": 0, "security": "sasl_plaintext", "authorizer": True, "racks": "r1,r2"}
    saved |= {"controllers": 3, "brokers": 3, "topics": 0, "partitions": 1, "cluster_id": "c", "log_dirs": 1}
    saved |= {"release_version": None}
    given = {"base_port": 19092, "security": "plaintext", "authorizer": False, "racks": None, "brokers": 5}
    options, notes = reopen(saved, given, explicit=set())
    assert notes == []
    assert {k: options[k] for k in ("base_port", "security", "authorizer", "racks", "brokers")} == {
        "base_port": 0,
        "security": "sasl_plaintext",
        "authorizer": True,
        "racks": "r1,r2",
        "brokers": 3,
    }
    options, notes = reopen(saved, given, explicit={"authorizer", "brokers", "security"})
    assert notes == [
        "--security plaintext overrides --security sasl_plaintext that the sandbox was created with (for this run)",
        "--no-authorizer overrides --authorizer that the sandbox was created with (for this run)",
        "--brokers 5 ignored: the sandbox was created with --brokers 3 and its metadata log decides",
    ]
    assert (options["authorizer"], options["security"], options["brokers"]) == (False, "plaintext", 3)


def _properties(path: Path, directory: Path, principal: str) -> Path:
    from kcli.sandbox.clientconfig import client_settings, write_properties

    return write_properties(
        path, client_settings(directory, Security.SASL_PLAINTEXT, DEFAULT_USERS, principal=principal)
    )


def test_reopened_sandbox_keeps_its_authorizer_security_and_ports(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    created = invoke(
        "sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0",
        "--security", "sasl_plaintext", "--authorizer", "--racks", "r1,r2", "-o", "json",
    )  # fmt: skip
    assert created.code == 0, created.stderr
    assert invoke("sandbox", "down", "--dir", str(directory)).code == 0
    alice = _properties(tmp_path / "alice.properties", directory, "alice")
    try:
        reopened = invoke("sandbox", "up", "--dir", str(directory), "--detach", "-o", "json")
        assert reopened.code == 0, reopened.stderr
        admin = directory / "client-admin.properties"
        assert reopened.stderr.splitlines() == [
            f"Stop it with: kcli sandbox down --dir {directory}",
            f"export KCLI_BOOTSTRAP_SERVER={reopened.json['bootstrap_servers']}",
            f"export KCLI_COMMAND_CONFIG={admin}",
        ]
        assert reopened.json["security"] == "sasl_plaintext"
        assert [n["rack"] for n in reopened.json["nodes"]] == ["r1", "r2", "r1", None, None, None]
        servers = reopened.json["bootstrap_servers"]
        allowed = invoke("acls", "-b", servers, "--command-config", str(admin), "--list")
        assert allowed.code == 0, allowed.stderr
        denied = invoke("acls", "-b", servers, "--command-config", str(alice), "--list")
        assert denied.code == 1 and "CLUSTER_AUTHORIZATION_FAILED" in denied.stderr, denied.stderr
    finally:
        assert invoke("sandbox", "down", "--dir", str(directory)).code == 0
    try:
        without = invoke(
            "sandbox", "up", "--dir", str(directory), "--detach", "--no-authorizer", "-o", "json"
        )
        assert without.code == 0, without.stderr
        assert without.stderr.splitlines()[0] == (
            f"Reopening the sandbox in {directory}: --no-authorizer overrides --authorizer "
            "that the sandbox was created with (for this run)"
        )
        listing = invoke(
            "acls", "-b", without.json["bootstrap_servers"], "--command-config", str(admin), "--list"
        )
        assert listing.code == 1 and "SECURITY_DISABLED" in listing.stderr, listing.stderr
    finally:
        assert invoke("sandbox", "down", "--dir", str(directory)).code == 0


def _log_line(line: str) -> bool:
    """A logging line of the sandbox (`2026-01-02 03:04:05,678 INFO kcli.sandbox: ...`)."""
    return len(line) > 24 and line[:4].isdigit() and line[4] == "-" and line[10] == " "


def test_foreground_up_says_where_it_runs_and_that_down_stopped_it(tmp_path: Path) -> None:
    from kcli.processes import is_running
    from kcli.sandbox.emulator.control import wait_for_info

    directory = tmp_path / "sb"
    config = tmp_path / "kcli.toml"
    environ = {**os.environ, "KCLI_CONFIG": str(config), "NO_COLOR": "1"}
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kcli",
            "sandbox",
            "up",
            "--dir",
            str(directory),
            "--base-port",
            "0",
            "--profile",
            "sb",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environ,
    )
    try:
        info = wait_for_info(directory, process.pid, timeout=60, alive=lambda: process.poll() is None)
        plain = invoke("cluster-id", environ={"KCLI_CONFIG": str(config)})  # no flags: the profile
        assert (plain.code, plain.stdout) == (0, f"Cluster ID: {info.cluster_id}\n"), plain.stderr

        again = invoke("sandbox", "up", "--dir", str(directory), "--detach")
        command = f"kcli sandbox down --dir {directory}"
        assert again.code == 1
        assert again.stderr == (
            f"Error: a sandbox is already running in {directory} (pid {info.pid}) (stop it with: {command})\n"
        )
        stopped = invoke(*shlex.split(command)[1:])  # the hint, run as it is written
        assert stopped.code == 0, stopped.stderr
        out, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            kill_child(process)
            process.communicate()
    assert process.returncode == 0 and not is_running(info.process)
    assert [line for line in err.splitlines() if not _log_line(line)] == [
        f"Sandbox {info.cluster_id} is running in {directory} (pid {info.pid}). "
        f"Stop it with Ctrl-C or: kcli sandbox down --dir {directory}",
        f"export KCLI_BOOTSTRAP_SERVER={info.bootstrap_servers}",
        f"Profile 'sb' in {config} now reaches this sandbox and is the default: plain `kcli cluster-id` works.",
        f"Sandbox {info.cluster_id} in {directory} stopped by kcli sandbox down.",
    ]
    assert (
        out.splitlines()[0]
        == f"Sandbox cluster {info.cluster_id} (an emulated KRaft cluster, not Kafka), security plaintext"
    )
    assert config.read_text() == (
        f'default_profile = "sb"\n\n[profiles.sb]\n"bootstrap.servers" = "{info.bootstrap_servers}"\n'
    )


@contextlib.contextmanager
def _busy_port() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_a_failed_up_leaves_no_new_directory_behind(tmp_path: Path) -> None:
    with _busy_port() as port:
        expected = (
            f"Error: port {port} (broker 1 on 127.0.0.1) is already in use "
            "(choose another --base-port, 0 for free ports, or stop what listens there)\n"
        )
        detached = invoke(
            "sandbox", "up", "--dir", str(tmp_path / "new"), "--detach", "--base-port", str(port)
        )
        assert (detached.code, detached.stderr) == (1, expected)
        assert not (tmp_path / "new").exists()

        foreground = subprocess.run(
            [
                sys.executable,
                "-m",
                "kcli",
                "sandbox",
                "up",
                "--dir",
                str(tmp_path / "new"),
                "--base-port",
                str(port),
            ],
            capture_output=True,
            text=True,
            timeout=60,
            env={**os.environ, "NO_COLOR": "1"},
            check=False,
        )
        assert foreground.returncode == 1
        assert [line for line in foreground.stderr.splitlines(keepends=True) if not _log_line(line)] == [
            expected
        ]
        assert not (tmp_path / "new").exists()

        kept = tmp_path / "kept"
        kept.mkdir()
        (kept / "notes.txt").write_text("mine")
        refused = invoke("sandbox", "up", "--dir", str(kept), "--detach", "--base-port", str(port))
        # a directory it did not make is refused before anything is written into it
        assert refused.code == 2 and "holds no sandbox" in refused.stderr, refused.stderr
        assert [p.name for p in kept.iterdir()] == ["notes.txt"] and (kept / "notes.txt").read_text() == "mine"
