"""KIP-1242 node identity: when ApiVersions v5's ClusterId and NodeId were really checked, and the
check made again after a SASL login.

Behavior (what Kafka 4.4's nodes do, asked on real nodes by tests/realcluster/test_kips.py):
- A broker's request handler (KafkaApis) checks ClusterId and NodeId and answers a mismatch with
  REBOOTSTRAP_REQUIRED.
- On a SASL listener the first ApiVersions is answered by the SASL authenticator, before login, and
  it checks nothing. After login the same request reaches KafkaApis, which checks: kcli sends it
  again then, so a misrouted broker is caught on SASL listeners too.
- A controller (ControllerApis) never checks them; its identity is asked another way (the doctor
  asks for its own broker config resource).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kcli.kafka import ApiKey

if TYPE_CHECKING:
    from kcli.client.connection import Connection

V5 = 5


def offers_v5(connection: Connection) -> bool:
    offered = connection.supported.get(ApiKey.API_VERSIONS)
    return offered is not None and offered[1] >= V5


def checked_at_handshake(connection: Connection, *, cluster_id: str | None, node_id: int | None) -> bool:
    """Whether the handshake's ApiVersions v5 let a broker check ClusterId and NodeId (no SASL before it)."""
    sent_v5 = int(type(connection.api_versions_response).__version__) >= V5
    return (
        sent_v5
        and cluster_id is not None
        and node_id is not None
        and connection.config.cluster_check
        and connection.config.sasl is None
    )


def needs_check_after_login(connection: Connection, *, cluster_id: str | None, node_id: int | None) -> bool:
    """A SASL connection to a node whose identity kcli knows, on a server with ApiVersions v5."""
    return (
        connection.config.sasl is not None
        and connection.config.cluster_check
        and cluster_id is not None
        and node_id is not None
        and node_id >= 0
        and offers_v5(connection)
    )


async def check_after_login(connection: Connection, *, cluster_id: str, node_id: int, deadline: float) -> None:
    """Send ApiVersions v5 with ClusterId and NodeId on the logged-in connection; RebootstrapRequired
    when the node is not `node_id` of `cluster_id` (a broker says so; a controller accepts anything)."""
    from kcli.client.connection import RebootstrapRequired
    from kcli.client.errors import KafkaError, code_of

    request = connection.api_versions_request(V5, cluster_id, node_id)
    response = await connection.request(request, deadline=deadline)
    code = int(response.error_code)
    if code == code_of("REBOOTSTRAP_REQUIRED"):
        raise RebootstrapRequired(connection.where)
    if code != 0:
        raise KafkaError(code, None, what="ApiVersions", node=connection.where)
