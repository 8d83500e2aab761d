"""One real Apache Kafka KRaft node (broker and controller in one JVM) started from a distribution.

The distribution is found through KCLI_KAFKA_HOME (a directory with bin/ and libs/ as Kafka's
tarball unpacks); without it, or without java, the tests that need a node are skipped with the
reason. `KafkaNode.start` formats the storage (kafka-storage.sh format --standalone), starts
kafka-server-start.sh, and waits for "Kafka Server started" in its log, each step with a deadline;
`stop` kills the JVM. Listeners: CLIENT (the one under test, whose security the caller gives),
INTERNAL (PLAINTEXT, between broker and itself) and CONTROLLER (PLAINTEXT).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from kcli.processes import kill_child

KAFKA_HOME_ENV = "KCLI_KAFKA_HOME"
START_DEADLINE_S = 150.0  # a loaded CI machine starts a JVM slowly
TOOL_DEADLINE_S = 120.0


def kafka_home() -> Path:
    """The distribution named by KCLI_KAFKA_HOME, else Kafka NEWEST from scripts/kafka-dist.sh (which
    skips, or fails under KCLI_REQUIRE_REAL_KAFKA=1, when it cannot be had)."""
    value = os.environ.get(KAFKA_HOME_ENV)
    if not value:
        from tests.fixtures_kafka import NEWEST
        from tests.fixtures_kafka import kafka_home as distribution

        return distribution(NEWEST)
    home = Path(value)
    if not (home / "bin" / "kafka-server-start.sh").is_file():
        pytest.skip(f"{KAFKA_HOME_ENV}={home} holds no bin/kafka-server-start.sh")
    if shutil.which("java") is None:
        pytest.skip("java is not on PATH (the real-Kafka tests start a Kafka JVM)")
    return home


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class KafkaNode:
    home: Path
    directory: Path
    client_port: int
    host: str = "localhost"
    process: subprocess.Popen[bytes] | None = None
    cluster_id: str = ""
    env: dict[str, str] = field(default_factory=dict)
    ports: dict[str, int] = field(default_factory=dict)  # listener name -> port

    @property
    def bootstrap(self) -> str:
        return f"{self.host}:{self.client_port}"

    def bootstrap_of(self, listener: str) -> str:
        return f"{self.host}:{self.ports[listener]}"

    @property
    def log(self) -> Path:
        return self.directory / "server.log"

    def tool(self, script: str, *args: str, kafka_opts: str = "", timeout: float = TOOL_DEADLINE_S) -> subprocess.CompletedProcess[str]:
        """Run bin/SCRIPT ARGS of the distribution (e.g. kafka-cluster.sh), with KAFKA_OPTS."""
        env = {**os.environ, **self.env, "KAFKA_HEAP_OPTS": "-Xmx192M", "KAFKA_OPTS": kafka_opts}
        return subprocess.run(
            [str(self.home / "bin" / script), *args],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            stdin=subprocess.DEVNULL,
        )

    def stop(self) -> None:
        process = self.process
        if process is None or process.poll() is not None:
            return
        kill_child(process, group=True)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=10)


def start_node(
    directory: Path,
    *,
    client_protocol: str,
    settings: Mapping[str, str],
    kafka_opts: str = "",
    env: Mapping[str, str] | None = None,
    extra_listeners: Mapping[str, str] | None = None,
) -> KafkaNode:
    """Format and start one node whose CLIENT listener uses `client_protocol` and `settings`.

    `extra_listeners` adds listeners (name -> security protocol) beside CLIENT, on ports of their own.
    """
    home = kafka_home()
    directory.mkdir(parents=True, exist_ok=True)
    client, internal, controller = free_port(), free_port(), free_port()
    node = KafkaNode(home=home, directory=directory, client_port=client, env=dict(env or {}))
    node.ports = {"CLIENT": client, **{name: free_port() for name in extra_listeners or {}}}
    extra = {name: protocol for name, protocol in (extra_listeners or {}).items()}
    listeners = "".join(f",{name}://127.0.0.1:{node.ports[name]}" for name in extra)
    advertised = "".join(f",{name}://{node.host}:{node.ports[name]}" for name in extra)
    protocols = "".join(f",{name}:{protocol}" for name, protocol in extra.items())
    properties = {
        "process.roles": "broker,controller",
        "node.id": "1",
        "controller.quorum.bootstrap.servers": f"127.0.0.1:{controller}",
        "listeners": f"CLIENT://127.0.0.1:{client},INTERNAL://127.0.0.1:{internal},CONTROLLER://127.0.0.1:{controller}"
        + listeners,
        "advertised.listeners": f"CLIENT://{node.host}:{client},INTERNAL://127.0.0.1:{internal}" + advertised,
        "listener.security.protocol.map": f"CLIENT:{client_protocol},INTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT"
        + protocols,
        "inter.broker.listener.name": "INTERNAL",
        "controller.listener.names": "CONTROLLER",
        "log.dirs": str(directory / "data"),
        "offsets.topic.replication.factor": "1",
        "transaction.state.log.replication.factor": "1",
        "transaction.state.log.min.isr": "1",
        "group.initial.rebalance.delay.ms": "0",
        **settings,
    }
    config = directory / "server.properties"
    config.write_text("".join(f"{key}={value}\n" for key, value in properties.items()))
    run_env = {**os.environ, **node.env, "KAFKA_HEAP_OPTS": "-Xmx512M -Xms256M", "KAFKA_OPTS": kafka_opts}
    cluster_id = subprocess.run(
        [str(home / "bin" / "kafka-storage.sh"), "random-uuid"],
        capture_output=True, text=True, timeout=TOOL_DEADLINE_S, env=run_env, check=True,
    ).stdout.strip()  # fmt: skip
    subprocess.run(
        [str(home / "bin" / "kafka-storage.sh"), "format", "-t", cluster_id, "-c", str(config), "--standalone"],
        capture_output=True, text=True, timeout=TOOL_DEADLINE_S, env=run_env, check=True,
    )  # fmt: skip
    node.cluster_id = cluster_id
    with node.log.open("wb") as log:
        node.process = subprocess.Popen(
            [str(home / "bin" / "kafka-server-start.sh"), str(config)],
            stdout=log,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            env=run_env,
            start_new_session=True,  # its own process group: stop() kills the JVM and nothing else
        )
    deadline = time.monotonic() + START_DEADLINE_S
    while time.monotonic() < deadline:
        text = node.log.read_text(errors="replace")
        if "Kafka Server started" in text:
            return node
        if node.process.poll() is not None:
            break
        time.sleep(0.2)
    node.stop()
    tail = "\n".join(node.log.read_text(errors="replace").splitlines()[-30:])
    raise AssertionError(f"Kafka did not start within {START_DEADLINE_S:.0f} s; the end of its log:\n{tail}")


@contextlib.contextmanager
def running_node(directory: Path, **kwargs: object) -> Iterator[KafkaNode]:
    node = start_node(directory, **kwargs)  # type: ignore[arg-type]
    try:
        yield node
    finally:
        node.stop()


def write_properties(path: Path, settings: Mapping[str, str]) -> Path:
    path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()))
    path.chmod(0o600)
    return path
