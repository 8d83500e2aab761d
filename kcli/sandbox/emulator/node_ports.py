"""Each node's port, kept in DIR/node-ports.json, so a reopened sandbox serves every node where it was.

Behavior:
- Written when the cluster has bound its listeners and again when it stops: every node it runs (an
  added one, a replaced broker's successor, a broker unregistered while it lived) with its port.
- On reopen the nodes of the file come back on their ports: profiles and exported bootstrap lists
  stay right after `add-node` (broker 4 does not take controller 101's port) or with --base-port 0.
  A node the file does not know takes the first --base-port port no other node holds (0: a free one
  below the ephemeral range).
- A reopen with another --base-port than the file was written with follows the new --base-port.
- A file that cannot be read is no file: the ports follow --base-port as at creation.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

PORTS_FILE = "node-ports.json"


def load(directory: Path, base_port: int) -> dict[int, int]:
    """node id -> port of the previous run ({} when none was saved, it was saved under another
    --base-port, or the file is damaged)."""
    from kcli.errors import KcliError
    from kcli.files import read_text

    path = directory / PORTS_FILE
    if not path.is_file():
        return {}
    try:
        data: Any = json.loads(read_text(path, what="the sandbox's node ports", limit=1 << 20))
        if int(data["base_port"]) != base_port:
            return {}
        ports = {int(node): int(port) for node, port in data["nodes"].items()}
    except (KcliError, ValueError, KeyError, TypeError, AttributeError, RecursionError):
        return {}
    return {node: port for node, port in ports.items() if node >= 0 and 0 < port < 65536}


def save(directory: Path, ports: Iterable[tuple[int, int]], base_port: int) -> None:
    """Write node id -> port (bound ports only) and the --base-port they were placed under."""
    from kcli.writes import write_file

    nodes = {str(node): port for node, port in sorted(ports) if port > 0}
    document = json.dumps({"base_port": base_port, "nodes": nodes}, indent=2) + "\n"
    write_file(directory / PORTS_FILE, document, what="the sandbox's node ports")


def assign(node_ids: Iterable[int], saved: dict[int, int], base_port: int, host: str) -> dict[int, int]:
    """Each node's port: its saved one, else the first base_port + i free of the others (0: a free
    one below the ephemeral range, kcli.sandbox.ports)."""
    from kcli.sandbox.ports import free_ports

    ids = list(node_ids)
    ports = {node: saved[node] for node in ids if node in saved}
    taken = set(ports.values())
    if not base_port:
        new = [node for node in ids if node not in ports]
        fresh = (port for port in free_ports(len(new) + len(taken), host) if port not in taken)
        return ports | dict(zip(new, fresh, strict=False))
    offset = 0
    for node in ids:
        if node in ports:
            continue
        while base_port + offset in taken:
            offset += 1
        ports[node] = base_port + offset
        taken.add(ports[node])
    return ports
