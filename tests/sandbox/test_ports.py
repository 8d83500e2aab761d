"""The ports a sandbox picks for itself lie below the machine's ephemeral range.

They were the system's choice (bind to port 0), in 32768-60999 here: the range every outgoing
connection takes its source port from, kcli's own included, so a stopped node's port could be
taken before it came back on it.
"""

from __future__ import annotations

import socket
from pathlib import Path

from kcli.sandbox.ports import LOWEST, ephemeral_range, free_ports
from tests.conftest import invoke


def test_free_ports_are_distinct_bindable_and_below_the_ephemeral_range() -> None:
    ports = free_ports(40, "127.0.0.1")
    assert len(set(ports)) == 40
    assert all(LOWEST <= port < ephemeral_range()[0] for port in ports)
    for port in ports[:5]:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_a_port_in_use_is_never_picked() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        assert busy not in free_ports(200, "127.0.0.1")


def test_a_sandbox_on_free_ports_and_its_added_node_stay_below_the_ephemeral_range(tmp_path: Path) -> None:
    directory = tmp_path / "sandbox"
    up = invoke(
        "sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0",
        "--controllers", "1", "--brokers", "2", "-o", "json",
    )  # fmt: skip
    assert up.code == 0, up.stderr
    try:
        added = invoke("sandbox", "add-node", "--dir", str(directory))
        assert added.code == 0, added.stderr
        status = invoke("sandbox", "status", "--dir", str(directory), "-o", "json")
        assert status.code == 0, status.stderr
        ports = [int(node["port"]) for node in status.json["nodes"]]
        assert len(ports) == 4
        assert all(LOWEST <= port < ephemeral_range()[0] for port in ports), ports
    finally:
        invoke("sandbox", "down", "--dir", str(directory))
