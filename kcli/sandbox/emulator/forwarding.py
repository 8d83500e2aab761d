"""Brokers forward controller-bound requests to the active controller inside Envelope requests (KIP-590).

Behavior:
- Each broker keeps one connection to the active controller's listener (TLS and SASL/PLAIN as the
  broker principal when the cluster uses them), reopened when the active controller changes.
- The client's frame travels verbatim as request_data with its principal (DefaultPrincipalData,
  version-prefixed) and address; the controller's response_data is decoded and answered to the client.
- A failed forward (controller unreachable, envelope error) closes the client's connection, so the
  client retries, as it would after a broker failure.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import struct
from typing import TYPE_CHECKING, Any

from kcli.sandbox.emulator import wire
from kcli.sandbox.settings import BROKER_USER

if TYPE_CHECKING:
    from kcli.sandbox.emulator.context import RequestContext
    from kcli.sandbox.emulator.node import Node
    from kcli.sandbox.emulator.view import ClusterView

TIMEOUT_S = 30.0


def encode_principal(principal: str) -> bytes:
    """A principal as Kafka's DefaultKafkaPrincipalBuilder serializes it: int16 version + data."""
    from kio.schema.default_principal_data.v0.data import DefaultPrincipalData

    kind, _, name = principal.partition(":")
    return struct.pack(">h", 0) + wire.encode_entity(
        DefaultPrincipalData(type_=kind, name=name, token_authenticated=False)
    )


def decode_principal(data: bytes | None) -> str | None:
    """The principal string of a serialized DefaultPrincipalData (None when absent or malformed)."""
    if not data or len(data) < 2:
        return None
    from kio.schema.default_principal_data.v0.data import DefaultPrincipalData

    from kcli.bounds import checked_reader

    try:
        value, _ = checked_reader(DefaultPrincipalData)(data, 2)
    except Exception:
        return None
    return f"{value.type_}:{value.name}"


class ControllerChannel:
    """One broker's connection to the active controller."""

    def __init__(self, cluster: ClusterView, broker: Node) -> None:
        self.cluster = cluster
        self.broker = broker
        self.controller_id = -1
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.lock = asyncio.Lock()
        self.correlation = itertools.count(1)

    async def _connect(self) -> None:
        controller = self.cluster.node(self.cluster.active_controller_id)
        ssl_context = self.cluster.security.client_context() if self.cluster.settings.security.tls else None
        self.reader, self.writer = await asyncio.wait_for(
            asyncio.open_connection(
                controller.host,
                controller.port,
                ssl=ssl_context,
                server_hostname=controller.host if ssl_context else None,
            ),
            TIMEOUT_S,
        )
        self.controller_id = controller.node_id
        if self.cluster.settings.security.sasl:
            await self._sasl_plain()

    async def _sasl_plain(self) -> None:
        from kio.schema.sasl_authenticate.v2.request import SaslAuthenticateRequest
        from kio.schema.sasl_authenticate.v2.response import SaslAuthenticateResponse
        from kio.schema.sasl_handshake.v1.request import SaslHandshakeRequest
        from kio.schema.sasl_handshake.v1.response import SaslHandshakeResponse

        await self._roundtrip(SaslHandshakeRequest(mechanism="PLAIN"), SaslHandshakeResponse)
        user, password = BROKER_USER
        token = b"\0" + user.encode() + b"\0" + password.encode()
        answer = await self._roundtrip(SaslAuthenticateRequest(auth_bytes=token), SaslAuthenticateResponse)
        if answer.error_code.value != 0:
            raise ConnectionError(f"broker SASL authentication failed: {answer.error_message}")

    async def _roundtrip(self, request: Any, response_cls: type) -> Any:
        assert self.reader is not None and self.writer is not None
        correlation_id = next(self.correlation)
        data = wire.encode_request(request, correlation_id, f"broker-{self.broker.node_id}-forwarding")
        self.writer.write(struct.pack(">i", len(data)) + data)
        await self.writer.drain()
        size = struct.unpack(">i", await asyncio.wait_for(self.reader.readexactly(4), TIMEOUT_S))[0]
        body = await asyncio.wait_for(self.reader.readexactly(size), TIMEOUT_S)
        return wire.decode_response(body, response_cls)

    async def call(self, request: Any, response_cls: type) -> Any:
        async with self.lock:
            for attempt in (1, 2):
                try:
                    if self.writer is None or self.controller_id != self.cluster.active_controller_id:
                        self.close()
                        await self._connect()
                    return await self._roundtrip(request, response_cls)
                except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, OSError):
                    self.close()
                    if attempt == 2:
                        raise
            raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def forward(ctx: RequestContext, request: Any) -> Any:
    """Send the client's request to the active controller in an Envelope; return its response."""
    from kio.schema.envelope.v0.request import EnvelopeRequest
    from kio.schema.envelope.v0.response import EnvelopeResponse
    from kio.serial.errors import OutOfBoundValue

    cluster = ctx.cluster
    channel = cluster.channels.get(ctx.node.node_id)
    if channel is None:
        channel = cluster.channels[ctx.node.node_id] = ControllerChannel(cluster, ctx.node)
    try:
        address = ipaddress.ip_address(ctx.client_host).packed
    except ValueError:
        address = b"\x7f\x00\x00\x01"
    envelope = EnvelopeRequest(
        request_data=ctx.extra["frame"],
        request_principal=encode_principal(ctx.principal),
        client_host_address=address,
    )
    try:
        answer = await channel.call(envelope, EnvelopeResponse)
    except (TimeoutError, ConnectionError, asyncio.IncompleteReadError, OSError) as error:
        raise wire.FrameError(
            f"forwarding to controller {cluster.active_controller_id} failed: {error}"
        ) from None
    if answer.error_code.value != 0 or answer.response_data is None:
        raise wire.FrameError(f"controller refused the envelope: {answer.error_code.name}")
    from kcli.sandbox.emulator.registry import load_all

    response_cls = wire.classes(load_all()[ctx.api_key].name, ctx.version)[1]
    try:
        return wire.decode_response(answer.response_data, response_cls)
    except OutOfBoundValue:  # a value kio cannot hold (a -1 timestamp): the controller's bytes as they are
        return wire.PreEncoded(cls=response_cls, body=wire.response_body(answer.response_data, response_cls))
