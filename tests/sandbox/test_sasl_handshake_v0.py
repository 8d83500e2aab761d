"""SaslHandshake v0: raw SASL tokens (size-prefixed, no request header) instead of SaslAuthenticate."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from tests.sandbox.raw import RawConnection, first

pytestmark = pytest.mark.sandbox


def handshake_v0(conn: RawConnection, mechanism: str) -> int:
    from kio.schema.sasl_handshake.v0.request import SaslHandshakeRequest

    return int(conn.call(SaslHandshakeRequest(mechanism=mechanism)).error_code.value)


def raw_token(conn: RawConnection, token: bytes) -> bytes:
    conn.send_bytes(struct.pack(">i", len(token)) + token)
    return conn.read_frame()


def describe_cluster_code(conn: RawConnection) -> int:
    from kio.schema.describe_cluster.v0.request import DescribeClusterRequest

    return int(
        conn.call(DescribeClusterRequest(include_cluster_authorized_operations=False)).error_code.value
    )


def test_plain_and_scram_with_raw_tokens(make_sandbox: Any) -> None:
    from kcli.client.sasl import ScramClient, plain_initial_response

    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext")
    address = first(sb.bootstrap_servers)
    with RawConnection(address) as conn:
        assert handshake_v0(conn, "PLAIN") == 0
        assert raw_token(conn, plain_initial_response("alice", "alice-secret")) == b""  # PLAIN: empty reply
        assert describe_cluster_code(conn) == 0  # authenticated: ordinary requests follow

    with RawConnection(address) as conn:
        assert handshake_v0(conn, "SCRAM-SHA-256") == 0
        client = ScramClient(mechanism="SCRAM-SHA-256", username="bob", password="bob-secret")
        server_first = raw_token(conn, client.first_message())
        server_final = raw_token(conn, client.final_message(server_first))
        client.verify_server_final(server_final)  # the server proved it knows the credential
        assert describe_cluster_code(conn) == 0


def test_a_failed_raw_exchange_closes_the_connection(make_sandbox: Any) -> None:
    from kcli.client.sasl import plain_initial_response

    sb = make_sandbox(controllers=1, brokers=1, security="sasl_plaintext")
    with RawConnection(first(sb.bootstrap_servers), timeout=5) as conn:
        assert handshake_v0(conn, "PLAIN") == 0
        with pytest.raises(ConnectionError):
            raw_token(conn, plain_initial_response("alice", "wrong"))
    with RawConnection(first(sb.bootstrap_servers)) as conn:  # the broker still serves others
        assert handshake_v0(conn, "PLAIN") == 0
        assert raw_token(conn, plain_initial_response("admin", "admin-secret")) == b""
