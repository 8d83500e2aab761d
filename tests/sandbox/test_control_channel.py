"""The client side of the emulator's control channel: one deadline for the whole answer, a bounded size."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from kcli.sandbox.emulator import control
from kcli.sandbox.emulator.control import SandboxControlError, SandboxInfo, send


@contextlib.contextmanager
def _peer(answer: Callable[[socket.socket], None]) -> Iterator[int]:
    """Something listening where sandbox.json says the control port is: it answers as `answer` does."""
    server = socket.create_server(("127.0.0.1", 0))
    done = threading.Event()

    def serve() -> None:
        conn, _ = server.accept()
        with conn:
            conn.recv(65536)
            with contextlib.suppress(OSError):  # the client hung up
                answer(conn)
            done.wait(10)

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield server.getsockname()[1]
    finally:
        done.set()
        server.close()
        thread.join(10)


def _info(port: int) -> SandboxInfo:
    return SandboxInfo(
        directory=Path("/nonexistent"), pid=1, cluster_id="c", security="plaintext", control_port=port,
        token="t", bootstrap_servers="", bootstrap_controllers="", nodes=(), users={}, ca_file=None,
    )  # fmt: skip


def test_an_answer_trickled_a_byte_at_a_time_ends_at_the_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(control, "CONTROL_TIMEOUT_S", 1.0)

    def trickle(conn: socket.socket) -> None:
        for _ in range(100):  # a byte every 0.1 s: each read is quick, the whole would take 10 s
            conn.sendall(b" ")
            time.sleep(0.1)

    with _peer(trickle) as port:
        started = time.monotonic()
        with pytest.raises(SandboxControlError, match="gave no whole answer to 'status' within 1 s"):
            send(_info(port), "status")
        assert time.monotonic() - started < 3


def test_an_endless_answer_is_cut_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(control, "CONTROL_REPLY_LIMIT", 1 << 20)

    def flood(conn: socket.socket) -> None:
        block = b"x" * 65536
        for _ in range(64):  # 4 MiB, never a newline
            conn.sendall(block)

    with _peer(flood) as port, pytest.raises(SandboxControlError, match="over 1 MiB: not a kcli sandbox"):
        send(_info(port), "status")
