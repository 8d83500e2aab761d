"""Free ports for sandbox nodes, picked below the machine's ephemeral port range.

A sandbox node keeps its port across restarts and reopens. A port in the ephemeral range (Linux's
net.ipv4.ip_local_port_range, 32768-60999 by default) may meanwhile become the source port of any
outgoing connection on the machine, kcli's own among them, and the node could not come back on it.
So the ports a sandbox picks for itself (--base-port 0, an added node, brokers replaced on fresh
ports) come from below that range: probed from a random place in 10000 up to its start, each held
open until all are found, so none repeats. Where too few are free there, the system picks the rest.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

LOWEST = 10000
_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
_DEFAULT_EPHEMERAL = (32768, 60999)


def ephemeral_range() -> tuple[int, int]:
    """The machine's ephemeral port range (Linux's default where it cannot be read)."""
    try:
        low, high = (int(word) for word in _RANGE_FILE.read_text().split()[:2])
    except (OSError, ValueError):
        return _DEFAULT_EPHEMERAL
    return (low, high) if 0 < low <= high < 65536 else _DEFAULT_EPHEMERAL


def free_ports(count: int, host: str) -> list[int]:
    """`count` distinct ports free on `host` now, below the ephemeral range where it has room."""
    ceiling = ephemeral_range()[0]
    span = max(ceiling - LOWEST, 0)
    held: list[socket.socket] = []
    try:
        start = random.randrange(span) if span else 0
        for step in range(span):
            if len(held) == count:
                break
            _hold(held, host, LOWEST + (start + step) % span)
        while len(held) < count:
            _hold(held, host, 0)
        return [sock.getsockname()[1] for sock in held]
    finally:
        for sock in held:
            sock.close()


def _hold(held: list[socket.socket], host: str, port: int) -> None:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind((host, port))
    except OSError:  # taken (or not ours to take): try the next
        sock.close()
        if port == 0:
            raise
        return
    held.append(sock)
