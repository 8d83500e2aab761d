"""Listeners and connections: framing, the SASL gate, dispatch through the registry, bad input.

Behavior:
- One listener per node; each connection answers its requests in order.
- A frame larger than socket.request.max.bytes, a malformed request, an API key the node does not
  serve or an unsupported version (other than ApiVersions) closes that connection with one log line;
  other connections are untouched.
- ApiVersions at an unsupported version is answered at v0 with UNSUPPORTED_VERSION and the API table.
- With SASL, only ApiVersions, SaslHandshake and SaslAuthenticate are accepted before authentication;
  after a SaslHandshake v0 the next frames are raw SASL tokens, answered size-prefixed, and a
  failed exchange closes the connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import struct
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.sandbox.emulator import wire
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import load_all

if TYPE_CHECKING:
    from kcli.sandbox.emulator.node import Node
    from kcli.sandbox.emulator.view import ClusterView

log = logging.getLogger("kcli.sandbox")


class Session:
    """Per-connection state: the authenticated principal and SASL progress."""

    __slots__ = (
        "authenticated",
        "client_host",
        "mechanism",
        "principal",
        "raw_tokens",
        "sasl_extensions",
        "sasl_state",
    )

    def __init__(self, client_host: str, principal: str, authenticated: bool) -> None:
        self.client_host = client_host
        self.principal = principal
        self.authenticated = authenticated
        self.mechanism: str | None = None
        self.sasl_state: Any = None
        self.raw_tokens = False  # SaslHandshake v0: raw SASL tokens follow until authenticated
        self.sasl_extensions: dict[str, str] = {}  # OAUTHBEARER SASL extensions of the login


async def bind(cluster: ClusterView, node: Node) -> None:
    """Start `node`'s listener (port 0 picks a free port, kept for restarts)."""
    ssl_context = cluster.security.server_context(node.node_id) if cluster.security else None

    async def on_connect(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await serve(cluster, node, reader, writer)

    try:
        node.server = await asyncio.start_server(
            on_connect, node.host, node.port, ssl=ssl_context, reuse_address=True, limit=2**20
        )
    except OSError as error:
        if error.errno != errno.EADDRINUSE:
            raise
        role = "broker" if node.is_broker else "controller"
        raise KcliError(
            f"port {node.port} ({role} {node.node_id} on {node.host}) is already in use",
            hint="choose another --base-port, 0 for free ports, or stop what listens there",
        ) from None
    node.port = node.server.sockets[0].getsockname()[1]
    node.running = True
    cluster.topology_changed()


async def unbind(node: Node) -> None:
    """Stop `node`'s listener and drop its connections."""
    node.running = False
    if node.server is not None:
        node.server.close()
    for writer in list(node.connections):
        writer.close()
    if node.server is not None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(node.server.wait_closed(), 1.0)
    node.server = None
    node.connections.clear()


async def serve(
    cluster: ClusterView, node: Node, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """Answer requests on one connection until the peer or the sandbox closes it."""
    peer = writer.get_extra_info("peername") or ("?", 0)
    principal = "User:ANONYMOUS"
    ssl_object = writer.get_extra_info("ssl_object")
    if ssl_object is not None:
        principal = cluster.security.principal_of(ssl_object)
    session = Session(str(peer[0]), principal, authenticated=not cluster.settings.security.sasl)
    node.connections.add(writer)
    try:
        while node.running:
            try:
                size_bytes = await reader.readexactly(4)
            except (asyncio.IncompleteReadError, ConnectionError):
                return
            (size,) = struct.unpack(">i", size_bytes)
            if session.raw_tokens and not session.authenticated:
                if not await _raw_sasl_token(cluster, node, session, reader, writer, size, peer):
                    return
                continue
            if size < 8 or size > wire.MAX_FRAME_BYTES:
                log.warning(
                    "node %d: closing %s:%s: frame size %d out of range", node.node_id, *peer[:2], size
                )
                return
            try:
                frame = await reader.readexactly(size)
            except (asyncio.IncompleteReadError, ConnectionError):
                log.warning("node %d: closing %s:%s: truncated frame", node.node_id, *peer[:2])
                return
            try:
                response = await dispatch(cluster, node, session, frame)
            except wire.FrameError as error:
                log.warning("node %d: closing %s:%s: %s", node.node_id, *peer[:2], error)
                return
            except Exception as error:
                log.error("node %d: closing %s:%s: handler failed: %r", node.node_id, *peer[:2], error)
                log.debug("handler traceback", exc_info=True)
                return
            if node.delay_ms:
                await asyncio.sleep(node.delay_ms / 1000)
            if not node.running:
                return
            if not response:  # a Produce with acks=0 is not answered
                continue
            writer.write(response)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        return
    finally:
        node.connections.discard(writer)
        with contextlib.suppress(Exception):
            writer.close()


async def _raw_sasl_token(
    cluster: ClusterView,
    node: Node,
    session: Session,
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
    size: int,
    peer: Any,
) -> bool:
    """One raw SASL token after a SaslHandshake v0: answer it size-prefixed; False closes the connection."""
    from kcli.sandbox.emulator.apis.k36_sasl_authenticate import sasl_step

    if not 0 <= size <= wire.MAX_FRAME_BYTES:
        log.warning("node %d: closing %s:%s: SASL token size %d out of range", node.node_id, *peer[:2], size)
        return False
    try:
        token = await reader.readexactly(size)
    except (asyncio.IncompleteReadError, ConnectionError):
        return False
    code, message, reply = sasl_step(cluster, session, token)
    if code:
        # raw tokens have no error field: Kafka closes the connection
        log.warning("node %d: closing %s:%s: %s", node.node_id, *peer[:2], message)
        return False
    writer.write(struct.pack(">i", len(reply)) + reply)
    await writer.drain()
    return True


async def dispatch(cluster: ClusterView, node: Node, session: Session, frame: bytes) -> bytes:
    """Decode one request, run its handler and return the framed response (FrameError closes)."""
    prefix = wire.read_prefix(frame)
    specs = load_all()
    spec = specs.get(prefix.api_key)
    if spec is None or not spec.listeners & node.kind:
        raise wire.FrameError(
            f"api key {prefix.api_key} is not served by this {'broker' if node.is_broker else 'controller'} listener"
        )
    if not spec.min_version <= prefix.api_version <= spec.max_version:
        if prefix.api_key == 18:
            from kcli.sandbox.emulator.apis.k18_api_versions import unsupported_version_response

            return unsupported_version_response(cluster, node, prefix.correlation_id)
        raise wire.FrameError(f"{spec.name} v{prefix.api_version} is not supported")
    if not session.authenticated and spec.needs_auth:
        raise wire.FrameError(f"{spec.name} before SASL authentication")
    decoded = decode(spec.name, prefix.api_key, prefix.api_version, frame)
    header, request, response_module = decoded
    context = RequestContext(
        cluster=cluster,
        node=node,
        api_key=prefix.api_key,
        version=prefix.api_version,
        header=header,
        response_module=response_module,
        principal=session.principal,
        client_host=session.client_host,
    )
    context.extra["session"] = session
    context.extra["frame"] = frame
    response = await answer(context, spec, request)
    if response is None:
        return b""
    return wire.encode_response(response, prefix.correlation_id)


def decode(name: str, api_key: int, version: int, frame: bytes) -> tuple[Any, Any, Any]:
    """(header, request, response module) of one request frame."""
    if api_key == 18:
        from kcli.sandbox.emulator.apis.k18_api_versions import decode_api_versions

        return decode_api_versions(frame, version)
    header, request, _ = wire.decode_request(frame, name, version)
    return header, request, wire.classes(name, version)[2]


async def answer(context: RequestContext, spec: Any, request: Any) -> Any:
    """Run the control hook, Envelope forwarding (brokers) or the handler of one request."""
    hook = context.cluster.hooks.get(context.api_key)
    if hook is not None:
        replaced = await hook(context, request)
        if replaced is not None:
            return replaced
    if spec.forward and not spec.forwards_itself and context.node.is_broker and not context.forwarded:
        from kcli.sandbox.emulator.forwarding import forward

        return await forward(context, request)
    return await spec.handler(context, request)
