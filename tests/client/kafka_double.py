"""A tiny Kafka-speaking test server for the client's unit tests (TLS, SASL, version negotiation).

It decodes real request frames with kio and answers with kio responses built by handlers the test
supplies, so the client's framing, headers and handshakes are exercised byte for byte. It is a
test double for these unit tests only; end-to-end tests use tansu and the kcli sandbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import ssl
import struct
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from kio.schema.errors import ErrorCode
from kio.schema.request_header.v1.header import RequestHeader as HeaderV1
from kio.schema.request_header.v2.header import RequestHeader as HeaderV2
from kio.serial import entity_reader, entity_writer

from kcli.client import protocol

Handler = Callable[["Received"], Awaitable[Any] | Any]


@dataclass(frozen=True, slots=True)
class Received:
    api_key: int
    version: int
    correlation_id: int
    client_id: str | None
    body: Any
    raw: bytes


# A broker-like API table (keys and ranges) used by default.
BROKER_APIS: dict[int, tuple[int, int]] = {
    3: (0, 12),
    17: (0, 1),
    18: (0, 4),
    32: (0, 4),
    36: (0, 2),
    60: (0, 2),
}


def api_versions_response(version: int, apis: dict[int, tuple[int, int]], error: int = 0) -> Any:
    """A kio ApiVersionsResponse at `version` (v5 bodies are v4 bodies) listing `apis`."""
    from kio.index import load_entity_module
    from kio.static.constants import EntityType

    body_version = min(version, 4)
    module = load_entity_module("api_versions", body_version, EntityType.response)
    keys = tuple(
        module.ApiVersion(api_key=k, min_version=lo, max_version=hi) for k, (lo, hi) in sorted(apis.items())
    )
    return protocol.make(
        module.ApiVersionsResponse, error_code=ErrorCode(error), api_keys=keys, throttle_time=timedelta(0)
    )


@dataclass(frozen=True, slots=True)
class Cut:
    """A handler's answer: send these bytes (part of a response), then reset the connection (RST)."""

    data: bytes


@dataclass(slots=True)
class KafkaDouble:
    """Serve Kafka frames on 127.0.0.1; `handlers[api_key](received)` returns a kio response or None to close."""

    handlers: dict[int, Handler] = field(default_factory=dict)
    apis: dict[int, tuple[int, int]] = field(default_factory=lambda: dict(BROKER_APIS))
    ssl_context: ssl.SSLContext | None = None
    received: list[Received] = field(default_factory=list)
    port: int = 0
    _server: asyncio.base_events.Server | None = None
    _writers: list[asyncio.StreamWriter] = field(default_factory=list)

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.ssl_context)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            for writer in self._writers:  # like a node going down: its connections drop too
                writer.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 1)

    @property
    def bootstrap(self) -> str:
        return f"127.0.0.1:{self.port}"

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.append(writer)
        try:
            while True:
                head = await reader.readexactly(4)
                frame = await reader.readexactly(struct.unpack(">i", head)[0])
                received = self._decode(frame)
                self.received.append(received)
                handler = self.handlers.get(received.api_key) or self._default
                response = handler(received)
                if asyncio.iscoroutine(response):
                    response = await response
                if response is None:
                    break
                if isinstance(response, Cut):
                    writer.write(response.data)
                    await writer.drain()
                    _reset(writer)
                    return
                # A handler may return raw bytes to send verbatim (bad frames, wrong correlation ids).
                writer.write(response if isinstance(response, bytes) else encode_response(received, response))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()

    def _default(self, received: Received) -> Any:
        if received.api_key == 18:
            if received.version > self.apis[18][1]:
                return api_versions_response(0, self.apis, error=35)
            return api_versions_response(received.version, self.apis)
        return None

    @staticmethod
    def _decode(frame: bytes) -> Received:
        api_key, version, correlation_id = struct.unpack_from(">hhi", frame, 0)
        request_type = protocol.request_class(protocol.schema_name(api_key), version)
        header_type = HeaderV2 if request_type.__flexible__ else HeaderV1
        header: Any
        body: Any
        header, size = entity_reader(header_type)(frame, 0)
        body, _ = entity_reader(request_type)(frame, size)
        return Received(api_key, version, correlation_id, header.client_id, body, frame)


def _reset(writer: asyncio.StreamWriter) -> None:
    """End the connection with an RST, as a crashing broker or a proxy cutting it off does."""
    import socket

    sock = writer.get_extra_info("socket")
    if sock is not None:
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
    writer.transport.abort()


def encode_response(received: Received, response: Any) -> bytes:
    """A size-prefixed response frame with the header version Kafka uses for this API."""
    buffer = io.BytesIO()
    buffer.write(struct.pack(">i", received.correlation_id))
    if protocol.response_header_flexible(received.api_key, type(response)):
        buffer.write(b"\0")  # response header v1: no tagged fields
    entity_writer(type(response))(buffer, response)
    data = buffer.getvalue()
    return struct.pack(">i", len(data)) + data


@contextlib.asynccontextmanager
async def serving(double: KafkaDouble) -> AsyncIterator[KafkaDouble]:
    await double.start()
    try:
        yield double
    finally:
        await double.stop()


def describe_cluster_handler(
    nodes: list[tuple[int, KafkaDouble]],
    *,
    controller: int,
    endpoint_type: int = 1,
    cluster_id: str = "double-cluster",
) -> Handler:
    """A DescribeCluster handler listing `nodes` (all on 127.0.0.1) with `controller` as controller id."""

    def handler(received: Received) -> Any:
        import sys

        cls = protocol.response_class("describe_cluster", received.version)
        broker_cls = sys.modules[cls.__module__].DescribeClusterBroker
        brokers = tuple(
            protocol.make(
                broker_cls, broker_id=node_id, host="127.0.0.1", port=double.port, rack=None, is_fenced=False
            )
            for node_id, double in nodes
        )
        return protocol.make(
            cls,
            throttle_time=timedelta(0),
            error_code=ErrorCode.none,
            error_message=None,
            endpoint_type=endpoint_type,
            cluster_id=cluster_id,
            controller_id=controller,
            brokers=brokers,
            cluster_authorized_operations=-2147483648,
        )

    return handler
