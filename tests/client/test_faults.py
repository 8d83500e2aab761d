"""Faults: each becomes one clear stderr line and exit 1, bounded in time, with no traceback."""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import CliResult, invoke
from tests.fixtures_tansu import free_port


@contextlib.contextmanager
def tcp_server(handle: Callable[[socket.socket], None]) -> Iterator[int]:
    """A loopback TCP server on a thread; `handle(conn)` runs per accepted connection."""
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    listener.settimeout(0.2)
    stop = threading.Event()
    held: list[socket.socket] = []

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            held.append(conn)
            threading.Thread(target=handle, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield int(listener.getsockname()[1])
    finally:
        stop.set()
        thread.join(timeout=2)
        listener.close()
        for conn in held:
            with contextlib.suppress(OSError):
                conn.close()


def _props(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "client.properties"
    path.write_text(text)
    return path


def _assert_one_clean_line(result: CliResult) -> str:
    assert result.code == 1, (result.code, result.stdout, result.stderr)
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Error: ")
    assert "Traceback" not in result.stderr
    return lines[0]


def test_port_that_accepts_and_never_answers(tmp_path: Path) -> None:
    def silent(conn: socket.socket) -> None:
        with contextlib.suppress(OSError):
            while conn.recv(65536):
                pass

    config = _props(tmp_path, "request.timeout.ms=400\n")
    with tcp_server(silent) as port:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{port}", "--command-config", str(config))
    line = _assert_one_clean_line(result)
    assert (
        f"ApiVersions v4 request to 127.0.0.1:{port} timed out after 400 ms" in line
    )  # (timing: bench_deadlines)


def test_server_that_closes_mid_response() -> None:
    def half(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.sendall(b"\x00\x00\x00\x40\x00\x00\x00\x01\x00\x00")  # promises 64 bytes, sends 6
        conn.close()

    with tcp_server(half) as port:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{port}")
    line = _assert_one_clean_line(result)
    assert "closed the connection in the middle of a response" in line


def test_server_that_closes_without_answering() -> None:
    def rude(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.close()

    with tcp_server(rude) as port:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{port}")
    line = _assert_one_clean_line(result)
    assert f"127.0.0.1:{port} closed the connection during the ApiVersions handshake" in line


class _Quiet(http.server.BaseHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


def test_http_server_that_rejects_at_once_is_named_as_such() -> None:
    """Servers like nginx answer a non-HTTP request line with 400 at once."""

    def nginx_like(conn: socket.socket) -> None:
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        conn.close()

    with tcp_server(nginx_like) as port:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{port}")
    line = _assert_one_clean_line(result)
    assert f"127.0.0.1:{port} is not a Kafka listener: it answered with HTTP" in line


def test_http_server_that_waits_for_a_request_line_is_bounded(tmp_path: Path) -> None:
    """Python's http.server waits for a newline that a Kafka frame never sends: bounded by the timeout."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Quiet)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    config = _props(tmp_path, "request.timeout.ms=300\n")
    try:
        result = invoke("cluster-id", "-b", f"127.0.0.1:{server.server_address[1]}", "-c", str(config))
    finally:
        server.shutdown()
        server.server_close()
    line = _assert_one_clean_line(result)
    assert "timed out after 300 ms" in line  # how long it takes: benchmarks/bench_deadlines.py


def test_connection_refused() -> None:
    port = free_port()
    result = invoke(
        "cluster-id",
        "--bootstrap-server",
        f"127.0.0.1:{port}",
        environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "300"},
    )
    line = _assert_one_clean_line(result)
    assert f"cannot connect to 127.0.0.1:{port}: connection refused" in line


@pytest.mark.parametrize("flag", ["--bootstrap-server", "--bootstrap-controller"])
def test_several_dead_bootstrap_addresses_are_summarised(flag: str) -> None:
    ports = [free_port(), free_port()]
    result = invoke(
        "cluster-id",
        flag,
        ",".join(f"127.0.0.1:{p}" for p in ports),
        environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "300"},
    )
    line = _assert_one_clean_line(result)
    assert "none of the bootstrap" in line and all(str(p) in line for p in ports)
