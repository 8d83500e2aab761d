"""A client whose security.protocol does not match the listener gets one line that says so.

The servers here behave as a Kafka broker does: a plaintext listener reads a TLS ClientHello as a
frame of an absurd size and closes the connection; SaslHandshake on a listener without SASL is
answered ILLEGAL_SASL_STATE with no mechanisms (KafkaApis.handleSaslHandshakeRequest).
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.client import protocol
from tests.client.kafka_double import KafkaDouble, Received, describe_cluster_handler, serving
from tests.conftest import CliResult, invoke


def _cli(bootstrap: str, tmp_path: Path, props: dict[str, str]) -> CliResult:
    path = tmp_path / "client.properties"
    path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
    return invoke("cluster-id", "-b", bootstrap, "--command-config", str(path))


def test_sasl_client_on_a_listener_without_sasl_is_told_to_drop_sasl(tmp_path: Path) -> None:
    double = KafkaDouble()
    double.handlers[60] = describe_cluster_handler([(1, double)], controller=1)

    def handshake(received: Received) -> Any:
        cls = protocol.response_class("sasl_handshake", received.version)
        return cls(error_code=ErrorCode.illegal_sasl_state, mechanisms=())

    double.handlers[17] = handshake
    props = {
        "security.protocol": "SASL_PLAINTEXT",
        "sasl.mechanism": "SCRAM-SHA-256",
        "sasl.jaas.config": 'org.apache.kafka.common.security.scram.ScramLoginModule required username="u" password="p";',
    }

    async def scenario() -> CliResult:
        async with serving(double):
            return await asyncio.to_thread(_cli, double.bootstrap, tmp_path, props)

    result = asyncio.run(scenario())
    assert result.code == 1 and len(result.stderr.splitlines()) == 1
    assert "is not enabled" not in result.stderr
    assert "does not use SASL" in result.stderr and "security.protocol=PLAINTEXT" in result.stderr


def test_tls_client_on_a_plaintext_listener_is_told_to_drop_tls(tmp_path: Path) -> None:
    async def plaintext_listener(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        # Kafka reads the ClientHello's first 4 bytes as a frame size, rejects it and closes.
        with contextlib.suppress(ConnectionError):
            await reader.read(4)
        writer.transport.abort()

    async def scenario() -> CliResult:
        server = await asyncio.start_server(plaintext_listener, "127.0.0.1", 0)
        async with server:
            port = server.sockets[0].getsockname()[1]
            return await asyncio.to_thread(_cli, f"127.0.0.1:{port}", tmp_path, {"security.protocol": "SSL"})

    result = asyncio.run(scenario())
    assert result.code == 1 and len(result.stderr.splitlines()) == 1
    assert "TLS handshake" in result.stderr and "security.protocol=PLAINTEXT" in result.stderr
