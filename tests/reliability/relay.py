"""A loopback TCP relay for fault tests: a stable address in front of moving nodes, or a broken network.

`Relay(target)` listens on a free 127.0.0.1 port and copies bytes both ways to `target` (host, port),
like a load balancer or a DNS alias in front of a cluster (the KIP-899 setting). Its `mode` decides
what the network does to new and existing connections:

- "forward": copy bytes both ways (the target can be changed at any time; new connections use it).
- "freeze":  keep every socket open but stop copying, in both directions (a half-open connection:
             the peer vanished without FIN or RST).
- "reset":   answer each new connection with a TCP RST (SO_LINGER 0) before any byte.
- "reset_after_reply": forward the first reply, then reset both sides when the second comes back
             (a listener that resets in the middle of a session, after the handshake).
- "freeze_after_reply": forward the first reply, then swallow everything, sockets left open
             (a session that goes half-open after the handshake).
"""

from __future__ import annotations

import contextlib
import socket
import struct
import threading
from types import TracebackType

_CHUNK = 65536


def _reset(sock: socket.socket) -> None:
    """Close with an RST instead of a FIN."""
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    with contextlib.suppress(OSError):
        sock.close()


class Relay:
    """A threaded TCP relay on 127.0.0.1; use as a context manager."""

    def __init__(self, target: tuple[str, int] | None = None, *, mode: str = "forward") -> None:
        self.target = target
        self.mode = mode
        self.accepted = 0
        self._listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self._listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._listener.bind(("127.0.0.1", 0))
        self._listener.listen(32)
        self._listener.settimeout(0.1)
        self._port = int(self._listener.getsockname()[1])
        self._stop = threading.Event()
        self._sockets: list[socket.socket] = []
        self._lock = threading.Lock()
        self._threads: list[threading.Thread] = []

    @property
    def port(self) -> int:
        return self._port

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def point_at(self, address: str) -> None:
        """Send new connections to HOST:PORT from now on."""
        host, _, port = address.rpartition(":")
        self.target = (host, int(port))

    def __enter__(self) -> Relay:
        thread = threading.Thread(target=self._accept_loop, name="relay-accept", daemon=True)
        thread.start()
        self._threads.append(thread)
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._stop.set()
        with contextlib.suppress(OSError):
            self._listener.close()
        with self._lock:
            for sock in self._sockets:
                with contextlib.suppress(OSError):
                    sock.close()
        for thread in self._threads:
            thread.join(timeout=2)

    def _keep(self, sock: socket.socket) -> None:
        with self._lock:
            self._sockets.append(sock)

    def _accept_loop(self) -> None:
        while not self._stop.is_set():
            try:
                client, _ = self._listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            self.accepted += 1
            if self.mode == "reset":
                _reset(client)
                continue
            self._keep(client)
            if self.target is None:
                continue  # nobody behind the address: hold the connection open, say nothing
            try:
                upstream = socket.create_connection(self.target, timeout=2)
            except OSError:
                _reset(client)
                continue
            self._keep(upstream)
            seen = [0]  # replies that came back on this connection, shared by both directions
            for source, sink, replies in ((client, upstream, False), (upstream, client, True)):
                thread = threading.Thread(
                    target=self._pump, args=(source, sink, replies, client, upstream, seen), daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def _pump(
        self,
        source: socket.socket,
        sink: socket.socket,
        replies: bool,
        client: socket.socket,
        upstream: socket.socket,
        seen: list[int],
    ) -> None:
        source.settimeout(0.1)
        while not self._stop.is_set():
            try:
                data = source.recv(_CHUNK)
            except TimeoutError:
                continue
            except OSError:
                break
            if not data:
                break
            if self.mode == "freeze" or (self.mode == "freeze_after_reply" and seen[0] >= 1 and not replies):
                continue  # swallow: the other side never hears of it
            seen[0] += 1 if replies else 0
            if self.mode == "reset_after_reply" and seen[0] >= 2:
                _reset(client)
                _reset(upstream)
                return
            try:
                sink.sendall(data)
            except OSError:
                break
        if self.mode not in ("freeze", "freeze_after_reply"):
            with contextlib.suppress(OSError):
                sink.shutdown(socket.SHUT_WR)
