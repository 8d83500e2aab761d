"""Deadline benchmark: how long a whole `kcli cluster-id` takes to give up on a bad endpoint, next to
the deadline it was given and to `python -c pass` in the same run.

Three endpoints, each a fresh kcli process from start to exit (median of --runs):
- a port that accepts and never answers, request.timeout.ms=400 (target: done within 3 s);
- Python's http.server, which waits for a request line a Kafka frame never sends, request.timeout.ms=300
  (target: within 3 s);
- a refused port with default.api.timeout.ms=2500: kcli retries with backoff and must give up once
  the next wait would pass the timeout (target: between 1 and 4 s).

    python benchmarks/bench_deadlines.py [--runs 3]
"""

from __future__ import annotations

import argparse
import contextlib
import http.server
import os
import socket
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


def timed(argv: list[str], env: dict[str, str], runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, check=False)
        times.append(time.perf_counter() - started)
        if done.returncode != 1:
            raise SystemExit(f"{argv} exited {done.returncode}, expected 1: {done.stderr.decode()}")
    return statistics.median(times)


def report(name: str, seconds: float, target: str, baseline: float) -> None:
    record(name, seconds, "s", target=target, baseline=baseline, baseline_name="python start")


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
    refused_env = {**env, "KCLI_DEFAULT_API_TIMEOUT_MS": "2500"}
    seconds = timed([*kcli, "cluster-id", "-b", f"127.0.0.1:{closed_port()}"], refused_env, args.runs)
    report("refused port, default.api.timeout.ms=2500", seconds, "< 4", baseline)
    return 0


if __name__ == "__main__":
    sys.exit(main())
