"""Deadline benchmark: how long a whole `kcli` command takes to give up on a bad endpoint or a broken
network, next to the deadline it was given and to `python -c pass` in the same run. The tests check
what each case ends in (the error, the node named, no hang); the time it takes is measured here.

Each figure is a fresh kcli process from start to exit (median of --runs):
- a port that accepts and never answers, request.timeout.ms=400 (target: done within 3 s);
- Python's http.server, which waits for a request line a Kafka frame never sends, request.timeout.ms=300
  (target: within 3 s);
- a listener that answers garbage at once, default.api.timeout.ms=20000: not retried (target: within 5 s);
- a refused port with default.api.timeout.ms=2500: kcli retries with backoff and must give up once
  the next wait would pass the timeout (target: between 1 and 4 s);
- against a sandbox, through a relay that misbehaves (tests/reliability/relay.py), request.timeout.ms=600:
  a connection gone half-open before or after the handshake (target: request.timeout.ms + 2 s), a
  listener that resets at once or mid-session (target: within 2 s), a broken first bootstrap address
  skipped for the next (target: request.timeout.ms + 2 s);
- a sandbox node that answers 5 s late, request.timeout.ms=500: cluster-id moves on to the next
  broker (target: within 3 s), and describing every broker's configs names the late one (target:
  within 4.5 s); a node delayed by 300 ms answers no sooner (target: at least 0.3 s);
- a misrouted broker (KIP-1242): a write for it is refused after one rebootstrap (target: within 10 s).

    python benchmarks/bench_deadlines.py [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import socket
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.figures import record  # noqa: E402


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@contextlib.contextmanager
def silent_port() -> Iterator[int]:
    """A listener that accepts connections and reads, but never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    stop = threading.Event()
    held: list[socket.socket] = []

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            with contextlib.suppress(OSError):
                conn, _ = server.accept()
                held.append(conn)

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    try:
        yield int(server.getsockname()[1])
    finally:
        stop.set()
        thread.join()
        for conn in held:
            conn.close()
        server.close()


@contextlib.contextmanager
def http_port() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def garbage_port() -> Iterator[int]:
    """A listener that answers every connection with an HTTP error line at once."""

    class Garbage(socketserver.BaseRequestHandler):
        def handle(self) -> None:
            self.request.recv(4)
            self.request.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Garbage)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()


def timed(argv: list[str], env: dict[str, str], runs: int, *, code: int = 1) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
        if done.returncode != code:
            raise SystemExit(f"{argv} exited {done.returncode}, expected {code}: {done.stderr.decode()}")
    return statistics.median(times)


def report(name: str, seconds: float, target: str, baseline: float | None) -> None:
    record(
        name,
        seconds,
        "s",
        target=target,
        baseline=baseline,
        baseline_name="python start" if baseline else None,
    )


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    kcli = [sys.executable, "-m", "kcli"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    baseline = timed([sys.executable, "-c", "import sys; sys.exit(1)"], env, args.runs)
    with tempfile.TemporaryDirectory() as scratch:
        config = Path(scratch) / "client.properties"
        for name, server, timeout_ms in (
            ("silent port", silent_port, 400),
            ("http.server", http_port, 300),
        ):
            config.write_text(f"request.timeout.ms={timeout_ms}\n", encoding="utf-8")
            with server() as port:
                argv = [*kcli, "cluster-id", "-b", f"127.0.0.1:{port}", "-c", str(config)]
                seconds = timed(argv, env, args.runs)
            report(f"{name}, request.timeout.ms={timeout_ms}", seconds, "< 3", baseline)
    garbage_env = {**env, "KCLI_DEFAULT_API_TIMEOUT_MS": "20000"}
    with garbage_port() as port:
        seconds = timed([*kcli, "cluster-id", "-b", f"127.0.0.1:{port}"], garbage_env, args.runs)
    report("non-Kafka listener answering at once, default.api.timeout.ms=20000", seconds, "< 5", baseline)
    refused_env = {**env, "KCLI_DEFAULT_API_TIMEOUT_MS": "2500"}
    seconds = timed([*kcli, "cluster-id", "-b", f"127.0.0.1:{closed_port()}"], refused_env, args.runs)
    report("refused port, default.api.timeout.ms=2500", seconds, "< 4", baseline)
    sandbox_figures(kcli, env, args.runs, baseline)
    return 0


def sandbox_figures(kcli: list[str], env: dict[str, str], runs: int, baseline: float) -> None:
    """The network and node faults of tests/reliability, against a sandbox."""
    from kcli.sandbox.emulator.handle import Sandbox
    from tests.reliability.relay import Relay

    with tempfile.TemporaryDirectory() as scratch:
        fast = Path(scratch) / "fast.properties"
        fast.write_text("request.timeout.ms=600\ndefault.api.timeout.ms=5000\n", encoding="utf-8")
        late = Path(scratch) / "late.properties"
        late.write_text("request.timeout.ms=500\ndefault.api.timeout.ms=4000\n", encoding="utf-8")
        with Sandbox(directory=Path(scratch) / "sb", controllers=1, brokers=3) as sb:
            first, second = sb.bootstrap_servers.split(",")[:2]
            for mode, target in (
                ("freeze", "< 2.6"),
                ("freeze_after_reply", "< 2.6"),
                ("reset", "< 2"),
                ("reset_after_reply", "< 2"),
            ):
                with Relay(mode=mode) as relay:
                    relay.point_at(first)
                    argv = [*kcli, "cluster-id", "-b", relay.address, "-c", str(fast)]
                    seconds = timed(argv, env, runs)
                    report(f"relay {mode}, request.timeout.ms=600", seconds, target, baseline)
                    argv = [*kcli, "cluster-id", "-b", f"{relay.address},{second}", "-c", str(fast)]
                    seconds = timed(argv, env, runs, code=0)
                    report(f"relay {mode} first, a good broker next", seconds, "< 2.6", baseline)
            sb.delay(1, 5000)
            seconds = timed(
                [*kcli, "cluster-id", "-b", sb.bootstrap_servers, "-c", str(late)], env, runs, code=0
            )
            report("first broker 5 s late, request.timeout.ms=500: cluster-id", seconds, "< 3", baseline)
            argv = [*kcli, "configs", "--describe", "--entity-type", "brokers", "-b", sb.bootstrap_servers]
            seconds = timed([*argv, "-c", str(late)], env, runs)
            report("first broker 5 s late: configs --describe of every broker", seconds, "< 4.5", baseline)
            sb.delay(1, 300)
            report(
                "a node delayed by 300 ms answers ApiVersions after", api_versions_s(sb, 1), ">= 0.3", None
            )
            sb.delay(1, 0)
            sb.misroute(2)
            argv = [*kcli, "configs", "-b", sb.bootstrap_servers, "--alter", "--entity-type", "brokers"]
            argv += ["--entity-name", "2", "--add-config", "log.cleaner.threads=3"]
            seconds = timed(argv, env, runs)
            report("a write for a misrouted broker refused (KIP-1242)", seconds, "< 10", baseline)


def api_versions_s(sb: object, node_id: int) -> float:
    """Seconds from sending ApiVersions to node `node_id` of sandbox `sb` to its answer."""
    from kio.schema.api_versions.v3.request import ApiVersionsRequest

    from tests.sandbox.raw import RawConnection

    request = ApiVersionsRequest(client_software_name="bench", client_software_version="1")
    with RawConnection(f"127.0.0.1:{sb.port_of(node_id)}") as connection:  # type: ignore[attr-defined]
        started = time.perf_counter()
        connection.call(request)
        return time.perf_counter() - started


if __name__ == "__main__":
    sys.exit(main())
