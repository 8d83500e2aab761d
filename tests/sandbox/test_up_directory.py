"""`sandbox up` and its directory: a reopen keeps each node and its port; up writes only where a sandbox
may live, one at a time (a lock), refuses damaged own files at once, and Ctrl-C leaves no half-started process."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.fixtures_tansu import free_port_run

pytestmark = pytest.mark.sandbox


def _ports(directory: Path) -> dict[int, int]:
    status = invoke("sandbox", "status", "--dir", str(directory), "-o", "json")
    assert status.code == 0, status.stderr
    return {node["id"]: node["port"] for node in status.json["nodes"]}


def _up(directory: Path, *flags: str) -> None:
    up = invoke("sandbox", "up", "--dir", str(directory), "--detach", *flags)
    assert up.code == 0, up.stderr


def _down(directory: Path) -> None:
    assert invoke("sandbox", "down", "--dir", str(directory)).code == 0


def test_a_reopen_serves_every_node_on_its_port_after_add_node(tmp_path: Path) -> None:
    """Free ports (--base-port 0) and an added broker: profiles and exported bootstrap lists stay right."""
    directory = tmp_path / "sb"
    _up(directory, "--base-port", "0", "--controllers", "1")
    try:
        added = invoke("sandbox", "add-node", "--dir", str(directory))
        assert added.code == 0, added.stderr
        before = _ports(directory)
    finally:
        _down(directory)
    assert sorted(before) == [1, 2, 3, 4, 101]
    _up(directory)
    try:
        assert _ports(directory) == before
    finally:
        _down(directory)


def test_a_broker_unregistered_while_it_ran_comes_back_on_reopen(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _up(directory, "--base-port", "0", "--controllers", "1")
    try:
        bootstrap = ",".join(f"127.0.0.1:{port}" for node, port in _ports(directory).items() if node < 100)
        gone = invoke("cluster", "unregister", "--bootstrap-server", bootstrap, "--id", "3")
        assert gone.code == 0, gone.stderr
        before = _ports(directory)
    finally:
        _down(directory)
    _up(directory)
    try:
        assert _ports(directory) == before and 3 in before
        listed = invoke(
            "cluster", "list-endpoints", "--bootstrap-server", f"127.0.0.1:{before[1]}", "-o", "json"
        )
        assert 3 in [n["id"] for n in listed.json["nodes"]], listed.stdout
    finally:
        _down(directory)


def test_up_refuses_a_directory_that_is_not_a_sandbox_and_writes_nothing(tmp_path: Path) -> None:
    foreign = tmp_path / "photos"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("mine\n")
    refused = invoke("sandbox", "up", "--dir", str(foreign), "--detach", "--base-port", "0")
    assert refused.code == 2 and refused.stderr.count("\n") == 1, refused.stderr
    assert "is not empty and holds no sandbox" in refused.stderr
    assert sorted(p.name for p in foreign.iterdir()) == ["notes.txt"]

    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    refused = invoke("sandbox", "up", "--dir", str(a_file), "--detach", "--base-port", "0")
    assert refused.code == 2 and "is a file, not a directory" in refused.stderr, refused.stderr
    assert a_file.read_text() == "x"


def test_up_takes_an_empty_directory(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    _up(empty, "--base-port", "0", "--controllers", "1", "--brokers", "1")
    _down(empty)
    assert (empty / "sandbox-settings.json").is_file()


def test_a_second_up_on_a_directory_being_started_is_refused_at_once(tmp_path: Path) -> None:
    """Before sandbox.json exists (the first `up` still starting) the lock is what refuses the second."""
    from kcli.sandbox.dirlock import holding

    directory = tmp_path / "sb"
    with holding(directory):  # another `up` starting in DIR
        second = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0")
        assert second.code == 1, second.stderr
        assert "another kcli sandbox up is starting or running a sandbox in" in second.stderr
        assert [p.name for p in directory.iterdir()] == ["sandbox.lock"]  # nothing written by the second


def test_the_emulators_process_holds_the_lock_while_it_serves(tmp_path: Path) -> None:
    from kcli.sandbox.dirlock import SandboxBusy, holding

    directory = tmp_path / "sb"
    _up(directory, "--base-port", "0", "--controllers", "1", "--brokers", "1")
    try:
        with pytest.raises(SandboxBusy), holding(directory):
            pass
    finally:
        _down(directory)
    with holding(directory):  # the process is gone, and the lock with it
        pass


def test_a_failed_up_in_a_new_directory_leaves_no_lock_behind(tmp_path: Path) -> None:
    import socket

    directory = tmp_path / "new"
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        for mode in ("--detach", None):
            argv = ["sandbox", "up", "--dir", str(directory), "--base-port", str(port), "--brokers", "1"]
            failed = invoke(*argv, *([mode] if mode else []))
            assert failed.code == 1 and "already in use" in failed.stderr, failed.stderr
            assert not directory.exists(), [p.name for p in directory.iterdir()]


def test_ctrl_c_while_up_detach_waits_stops_the_half_started_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from kcli.sandbox.emulator import launch

    started: list[int] = []
    real_wait = launch.wait_for_info

    def interrupted(directory: Path, pid: int, **kwargs: object) -> object:
        started.append(pid)
        real_wait(directory, pid, **kwargs)  # type: ignore[arg-type]  # the process is up and serving
        raise KeyboardInterrupt

    monkeypatch.setattr(launch, "wait_for_info", interrupted)
    directory = tmp_path / "sb"
    result = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0", "--brokers", "1")
    assert result.code == 130, result.stderr
    assert result.stderr == (
        f"Interrupted: the sandbox was still starting: what it had started is stopped, {directory} removed\n"
    )
    assert not directory.exists()
    (pid,) = started
    assert not Path(f"/proc/{pid}").exists()  # stopped and reaped


@pytest.mark.parametrize("damage", ["fifo-quorum-state", "device-segment", "nested-settings"])
def test_up_on_a_sandbox_with_damaged_own_files_is_one_line_at_once(tmp_path: Path, damage: str) -> None:
    """A FIFO or a link to /dev/zero where kcli wrote a file would block or flood the emulator's process;
    a settings file nested past any kcli writes would overflow the parser: refused before any start."""
    import os
    import time

    directory = tmp_path / "sb"
    _up(directory, "--base-port", "0", "--controllers", "1", "--brokers", "1")
    _down(directory)
    if damage == "fifo-quorum-state":
        state = directory / "101" / "__cluster_metadata-0" / "quorum-state"
        state.unlink()
        os.mkfifo(state)
        said = "is a FIFO, not a file kcli wrote"
    elif damage == "device-segment":
        (directory / "1" / "__cluster_metadata-0" / "00000000000000000001.log").symlink_to("/dev/zero")
        said = "is a device, not a file kcli wrote"
    else:
        (directory / "sandbox-settings.json").write_text("[" * 100_000)
        said = "nests deeper than any settings file kcli writes"
    started = time.monotonic()
    refused = invoke("sandbox", "up", "--dir", str(directory), "--detach")
    assert refused.code == 2 and refused.stderr.count("\n") == 1 and said in refused.stderr, refused.stderr
    assert time.monotonic() - started < 10
    assert not (directory / "sandbox.json").exists()


def test_a_reopen_with_another_base_port_follows_it(tmp_path: Path) -> None:
    directory = tmp_path / "sb"
    _up(directory, "--base-port", "0", "--controllers", "1", "--brokers", "2")
    _down(directory)
    base = free_port_run(3)
    _up(directory, "--base-port", str(base))
    try:
        assert _ports(directory) == {1: base, 2: base + 1, 101: base + 2}
    finally:
        _down(directory)


@pytest.mark.parametrize("option", ["--dir", "--kafka-home"])
def test_a_symlink_loop_given_as_a_directory_is_one_usage_line(tmp_path: Path, option: str) -> None:
    """Was "unexpected RuntimeError: Symlink loop" (pathlib's resolve), reported as a bug in kcli."""
    loop = tmp_path / "loop"
    loop.symlink_to(loop)
    argv = ["--dir", str(loop)] if option == "--dir" else ["--dir", str(tmp_path / "new"), "--kafka-home", str(loop)]
    result = invoke("sandbox", "up", *argv)
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"Error: {'sandbox directory' if option == '--dir' else 'Kafka home'} {loop} cannot be used: "
        f"it is a symbolic link that loops back on itself (give {option} a directory)"
    ]
    assert sorted(path.name for path in tmp_path.iterdir()) == ["loop"]
