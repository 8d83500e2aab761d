"""Bootstrap addresses: HOST:PORT, [IPv6]:PORT and ID@HOST:PORT lists."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.kafka import host_port


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """One bootstrap address; node_id is set for `ID@HOST:PORT` (controller.quorum.voters style)."""

    host: str
    port: int
    node_id: int | None = None

    def __str__(self) -> str:
        return host_port(self.host, self.port)


_ENDPOINT = re.compile(r"^(?:(?P<id>-?\d+)@)?(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\s\[\]@]+)):(?P<port>\d+)$")


def parse_endpoints(text: str, *, source: str) -> tuple[Endpoint, ...]:
    """Parse `HOST:PORT[,...]` (also `ID@HOST:PORT` and `[v6addr]:PORT`); `source` names the flag or key."""
    endpoints: list[Endpoint] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        match = _ENDPOINT.match(item)
        if match is None:
            raise UsageError(f"{source}: {item!r} is not HOST:PORT (or ID@HOST:PORT)")
        port = int(match.group("port"))
        if not 0 < port < 65536:
            raise UsageError(f"{source}: port {port} in {item!r} is out of range")
        node_id = match.group("id")
        endpoints.append(
            Endpoint(
                host=match.group("v6") or match.group("host"),
                port=port,
                node_id=int(node_id) if node_id is not None else None,
            )
        )
    if not endpoints:
        raise UsageError(f"{source}: no address given")
    return tuple(endpoints)
