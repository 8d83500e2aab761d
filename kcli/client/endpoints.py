"""Bootstrap addresses: HOST:PORT, [IPv6]:PORT and ID@HOST:PORT lists."""

from __future__ import annotations

import re
from dataclasses import dataclass

from kcli.errors import UsageError
from kcli.integers import clipped, java_long
from kcli.kafka import host_port


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """One bootstrap address; node_id is set for `ID@HOST:PORT` (controller.quorum.voters style)."""

    host: str
    port: int
    node_id: int | None = None

    def __str__(self) -> str:
        return host_port(self.host, self.port)


_ENDPOINT = re.compile(
    r"^(?:(?P<id>-?[0-9]+)@)?(?:\[(?P<v6>[^\]]+)\]|(?P<host>[^:\s\[\]@]+)):(?P<port>[0-9]+)$"
)
_NODE_IDS = (-(2**31), 2**31 - 1)  # node ids are INT32 in every Kafka API


def parse_endpoints(text: str, *, source: str) -> tuple[Endpoint, ...]:
    """Parse `HOST:PORT[,...]` (also `ID@HOST:PORT` and `[v6addr]:PORT`); `source` names the flag or key."""
    endpoints: list[Endpoint] = []
    for item in text.split(","):
        item = item.strip()
        if not item:
            continue
        match = _ENDPOINT.match(item)
        if match is None:
            raise UsageError(f"{source}: {clipped(item)!r} is not HOST:PORT (or ID@HOST:PORT)")
        port = java_long(match.group("port"))
        if port is None or not 0 < port < 65536:
            raise UsageError(
                f"{source}: port {clipped(match.group('port'))} in {clipped(item)!r} is out of range"
            )
        node_id = None
        if match.group("id") is not None:
            node_id = java_long(match.group("id"))
            if node_id is None or not _NODE_IDS[0] <= node_id <= _NODE_IDS[1]:
                raise UsageError(
                    f"{source}: node id {clipped(match.group('id'))} in {clipped(item)!r} is not a 32-bit integer"
                )
        host = match.group("v6") or match.group("host")
        problem = None if match.group("v6") else host_name_problem(host)
        if problem is not None:
            raise UsageError(f"{source}: host {clipped(host)!r} in {clipped(item)!r} {problem}")
        endpoints.append(Endpoint(host=host, port=port, node_id=node_id))
    if not endpoints:
        raise UsageError(f"{source}: no address given")
    return tuple(endpoints)


MAX_LABEL, MAX_NAME = 63, 253  # RFC 1035: bytes of one label, of the whole name


def host_name_problem(host: str) -> str | None:
    """Why `host` cannot be looked up (DNS limits, IDNA), or None: asked before any connection,
    since the resolver's own refusal is a bare UnicodeError."""
    try:
        ascii_name = host.rstrip(".").encode("idna")
    except UnicodeError:
        longest = max((len(label) for label in host.split(".")), default=0)
        if longest > MAX_LABEL:
            return f"has a label of {longest} characters; DNS allows {MAX_LABEL}"
        return "is not a host name DNS can look up (an empty label or characters IDNA refuses)"
    if len(ascii_name) > MAX_NAME:
        return f"is {len(ascii_name)} characters long; DNS allows {MAX_NAME}"
    return None
