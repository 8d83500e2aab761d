"""One connection to one Kafka node: TCP or TLS, framing, correlation ids, ApiVersions, SASL.

Behavior:
- Frames are size-prefixed; several requests may be in flight; responses must come back in the
  order the requests were sent, with the same correlation id, or the connection is dropped.
- The first request is ApiVersions. KIP-1242: when the cluster id and the node id are known and
  the check is enabled, v5 carries them; REBOOTSTRAP_REQUIRED then means "wrong node".
  A server that does not know the version answers UNSUPPORTED_VERSION with a v0 body naming its
  highest ApiVersions version, and the request is repeated at that version (Kafka's rule). A server
  that closes the connection right after a v5 ApiVersions (tansu) is remembered as pre-v5 and the
  connection is opened again at v4.
- Then SASL (SaslHandshake + SaslAuthenticate: PLAIN, SCRAM, GSSAPI, OAUTHBEARER or AWS_MSK_IAM),
  then requests at the highest version both sides support. When the server gives the session a
  lifetime (SaslAuthenticate v1+, KIP-368), the connection re-authenticates before it runs out,
  between requests, with a fresh token or ticket.
- Every wait has a deadline: connect (socket.connection.setup.timeout.ms), each request
  (request.timeout.ms), and the caller's overall deadline.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kcli import __version__
from kcli.client import protocol
from kcli.client.config import ClientConfig
from kcli.client.connection_errors import client_certificate_hint, connect_error, not_kafka, plaintext_hint
from kcli.client.endpoints import Endpoint
from kcli.client.errors import (
    AuthenticationFailed,
    ConnectionFailed,
    KafkaError,
    ProtocolError,
    RequestTimedOut,
    UnsupportedByServer,
    code_of,
    error_info,
)

REBOOTSTRAP_REQUIRED = code_of("REBOOTSTRAP_REQUIRED")
UNSUPPORTED_VERSION = code_of("UNSUPPORTED_VERSION")

if TYPE_CHECKING:
    import ssl


class ConnectionLost(ConnectionFailed):
    """The connection ended; `sent` says whether a request was already on the wire."""

    def __init__(
        self, message: str, *, sent: bool, hint: str | None = None, partial: bool = False, clean: bool = False
    ) -> None:
        super().__init__(message, hint=hint)
        self.sent = sent
        self.partial = partial  # part of a response had arrived
        # closed at a frame boundary, at its end, without answering (as servers drop unknown APIs);
        # not a reset, not a cut response
        self.clean = clean


class CutShortByDeadline(RequestTimedOut):
    """A request that had no answer when its caller's deadline ran out, before request.timeout.ms did;
    `request` names it ("ApiVersions v3"), `where` the node. A caller with a deadline of its own
    (the doctor's --timeout-ms) words it by that deadline."""

    def __init__(self, message: str, *, request: str, where: str, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.request = request
        self.where = where


class RebootstrapRequired(KafkaError):
    """The server asked the client to forget what it learnt and bootstrap again (KIP-1102/KIP-1242)."""

    def __init__(self, node: str, message: str | None = None) -> None:
        super().__init__(REBOOTSTRAP_REQUIRED, message, what="ApiVersions", node=node)


class _PreV5Peer(Exception):
    """Internal: the peer closed the connection right after an ApiVersions v5 carrying a ClusterId."""


# Plain classes, not dataclasses: every networked command loads this module, and making a dataclass
# costs about 0.5 ms of start-up each.
class PeerMemory:
    """What connections learn and share: the highest ApiVersions version that works, and the SASL login.

    `logins` holds the login of a mechanism that outlives one connection: an OAuth token source
    (a token is fetched once and reused until it is due for refresh) or Kerberos credentials.
    """

    __slots__ = ("api_versions_ceiling", "logins")

    def __init__(self, api_versions_ceiling: int = 5, logins: dict[str, Any] | None = None) -> None:
        self.api_versions_ceiling = api_versions_ceiling
        self.logins: dict[str, Any] = {} if logins is None else logins


class _Pending:
    __slots__ = ("correlation_id", "future", "sent_at", "what")

    def __init__(
        self, correlation_id: int, future: asyncio.Future[bytes], what: str, sent_at: float = 0.0
    ) -> None:
        self.correlation_id = correlation_id
        self.future = future
        self.what = what
        self.sent_at = sent_at


@dataclass(slots=True)
class Connection:
    """An open, negotiated (and, with SASL, authenticated) connection. Create with `Connection.open`."""

    endpoint: Endpoint
    node_id: int | None
    config: ClientConfig
    _reader: asyncio.StreamReader
    _writer: asyncio.StreamWriter
    supported: dict[int, tuple[int, int]] = field(default_factory=dict)
    api_versions_response: Any = None
    _next_correlation: int = 1
    _pending: collections.deque[_Pending] = field(default_factory=collections.deque)
    _read_task: asyncio.Task[None] | None = None
    _closed: bool = False
    _close_reason: ConnectionFailed | None = None
    trace: Callable[[str], None] | None = None  # --debug: one line per request/response, never bodies
    memory: PeerMemory = field(default_factory=PeerMemory)
    _session_lifetime_ms: int = 0
    _reauth_at: float | None = None  # KIP-368: when to re-authenticate (monotonic clock)
    _reauth_lock: asyncio.Lock | None = None

    # ---- opening ----------------------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        endpoint: Endpoint,
        *,
        config: ClientConfig,
        deadline: float,
        node_id: int | None = None,
        cluster_id: str | None = None,
        memory: PeerMemory | None = None,
        ssl_context: ssl.SSLContext | None = None,
        trace: Callable[[str], None] | None = None,
    ) -> Connection:
        """Connect, negotiate API versions and authenticate; raise a KcliError subclass on failure."""
        memory = memory or PeerMemory()
        while True:
            connection = await cls._connect(
                endpoint, config=config, deadline=deadline, node_id=node_id, ssl_context=ssl_context
            )
            connection.trace = trace
            connection.memory = memory
            if trace is not None:
                trace(f"connected to {connection.where} ({config.security_protocol})")
            try:
                await connection._negotiate(cluster_id=cluster_id, memory=memory, deadline=deadline)
                if config.sasl is not None:
                    await connection._authenticate(deadline)
                return connection
            except _PreV5Peer:
                if trace is not None:
                    trace(f"{connection.where} closed the connection on ApiVersions v5; retrying at v4")
                await connection.close()
                memory.api_versions_ceiling = 4
                continue
            except BaseException:
                await connection.close()
                raise

    @classmethod
    async def _connect(
        cls,
        endpoint: Endpoint,
        *,
        config: ClientConfig,
        deadline: float,
        node_id: int | None,
        ssl_context: ssl.SSLContext | None,
    ) -> Connection:
        if config.uses_tls and ssl_context is None:
            from kcli.client.tls import build_ssl_context

            assert config.ssl is not None
            ssl_context = build_ssl_context(config.ssl)
        timeout = _remaining(deadline, config.socket_connection_setup_timeout_ms / 1000)
        where = _where(endpoint, node_id)
        try:
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection(
                    endpoint.host,
                    endpoint.port,
                    ssl=ssl_context if config.uses_tls else None,
                    server_hostname=endpoint.host if config.uses_tls else None,
                    limit=2**20,
                ),
                timeout=timeout,
            )
        except TimeoutError:
            raise RequestTimedOut(
                f"connecting to {where} timed out after {_ms(timeout)} ms",
                hint="check the address and that the node is up (socket.connection.setup.timeout.ms)",
            ) from None
        except OSError as error:
            raise connect_error(error, where, config) from None
        except UnicodeError:  # a host advertised by the cluster that the resolver refuses to encode
            from kcli.client.endpoints import host_name_problem

            problem = host_name_problem(endpoint.host) or "is not a host name DNS can look up"
            raise ConnectionFailed(
                f"cannot connect to {where}: the host {problem}", hint="check the advertised listeners"
            ) from None
        return cls(endpoint=endpoint, node_id=node_id, config=config, _reader=reader, _writer=writer)

    async def _negotiate(self, *, cluster_id: str | None, memory: PeerMemory, deadline: float) -> None:
        use_v5 = (
            self.config.cluster_check
            and cluster_id is not None
            and self.node_id is not None
            and memory.api_versions_ceiling >= 5
        )
        version = 5 if use_v5 else min(4, memory.api_versions_ceiling)
        self._start_reader()
        for _attempt in range(3):
            request = self.api_versions_request(
                version, cluster_id if use_v5 else None, self.node_id if use_v5 else None
            )
            try:
                frame = await self.request_raw(request, deadline=deadline, what=f"ApiVersions v{version}")
            except ConnectionLost as lost:
                if version == 5 and lost.sent and not lost.partial:
                    raise _PreV5Peer() from None
                if lost.partial:
                    raise ConnectionFailed(lost.message, hint=lost.hint) from None
                raise ConnectionFailed(
                    f"{self.where} closed the connection during the ApiVersions handshake",
                    hint=plaintext_hint(self.config) or client_certificate_hint(self.config) or lost.hint,
                ) from None
            error_code = struct.unpack_from(">h", frame, 4)[0] if len(frame) >= 6 else -1
            if error_code == UNSUPPORTED_VERSION and version > 0:
                # The body is v0-shaped: it lists the server's range for ApiVersions itself. A body
                # that does not parse (librdkafka's mock broker sends a flexible one) or that omits
                # ApiVersions means: use v0, which every server supports.
                try:
                    response = self._decode(
                        frame, protocol.response_class("api_versions", 0), False, "ApiVersions"
                    )
                    keys = response.api_keys
                except ProtocolError:
                    keys = ()
                ceiling = next((int(k.max_version) for k in keys if int(k.api_key) == 18), 0)
                ceiling = min(ceiling, version - 1)
                memory.api_versions_ceiling = min(memory.api_versions_ceiling, ceiling)
                version = ceiling
                use_v5 = False
                continue
            response = self._decode(
                frame, protocol.response_class("api_versions", version), False, "ApiVersions"
            )
            code = int(response.error_code)
            if code == REBOOTSTRAP_REQUIRED:
                raise RebootstrapRequired(self.where)
            if code != 0:
                raise KafkaError(code, None, what="ApiVersions", node=self.where)
            self.api_versions_response = response
            self.supported = {
                int(key.api_key): (int(key.min_version), int(key.max_version)) for key in response.api_keys
            }
            return
        raise ProtocolError(f"{self.where} kept refusing ApiVersions versions")

    @staticmethod
    def api_versions_request(version: int, cluster_id: str | None, node_id: int | None) -> Any:
        return protocol.make(
            protocol.request_class("api_versions", version),
            client_software_name="kcli",
            client_software_version=__version__,
            cluster_id=cluster_id,
            node_id=-1 if node_id is None else node_id,
        )

    async def _authenticate(self, deadline: float) -> None:
        """The SASL exchange (kcli.client.sasl_exchange; also used to re-authenticate), then when to
        re-authenticate: Kafka's client does it at a random 85-95% of the session lifetime (KIP-368)."""
        from kcli.client.sasl_exchange import authenticate

        self._session_lifetime_ms = 0
        await authenticate(self, deadline)
        if self._session_lifetime_ms > 0:
            import random

            share = 0.85 + random.random() * 0.10
            self._reauth_at = time.monotonic() + self._session_lifetime_ms / 1000 * share
            if self.trace is not None:
                self.trace(f"{self.where}: SASL session lifetime {self._session_lifetime_ms} ms")
        else:
            self._reauth_at = None

    async def sasl_round(self, version: int, token: bytes, deadline: float) -> bytes:
        """One SaslAuthenticate round: the token sent, the server's answer (its session lifetime kept)."""
        request = protocol.request_class("sasl_authenticate", version)(auth_bytes=token)
        try:
            response = await self.request(request, deadline=deadline, auth=True)
        except ConnectionLost:
            raise AuthenticationFailed(
                f"{self.where} closed the connection during SASL authentication",
                hint="check the credentials and sasl.mechanism",
            ) from None
        if int(response.error_code) != 0:
            info = error_info(int(response.error_code))
            detail = response.error_message or info.message
            raise AuthenticationFailed(
                f"SASL authentication to {self.where} failed: {info.name}: {detail}", hint=info.hint
            )
        lifetime = getattr(response, "session_lifetime", None)
        if lifetime is not None:
            self._session_lifetime_ms = int(lifetime.total_seconds() * 1000)
        return bytes(response.auth_bytes)

    async def _reauthenticate_if_due(self, deadline: float) -> None:
        """KIP-368: before a request, re-authenticate once the session is near its end.

        Requests in flight are answered first; requests sent meanwhile wait for the new session.
        """
        if self._reauth_lock is None:
            self._reauth_lock = asyncio.Lock()
        async with self._reauth_lock:
            if self._reauth_at is None or time.monotonic() < self._reauth_at:
                return
            in_flight = [pending.future for pending in self._pending]
            if in_flight:
                await asyncio.wait(in_flight, timeout=max(0.0, deadline - time.monotonic()))
            if self.trace is not None:
                self.trace(f"re-authenticating to {self.where} (KIP-368)")
            try:
                await self._authenticate(deadline)
            except BaseException as error:
                # A connection whose session could not be renewed is of no further use.
                self._fail(
                    ConnectionLost(f"re-authentication to {self.where} failed", sent=False), by_us=True
                )
                raise error

    # ---- requests ---------------------------------------------------------------------------------

    @property
    def where(self) -> str:
        return _where(self.endpoint, self.node_id)

    @property
    def closed(self) -> bool:
        return self._closed

    def version_for(self, api_key: int, versions: tuple[int, int]) -> int:
        """The highest version in `versions` that this node supports; UnsupportedByServer otherwise."""
        name = protocol.api_name(api_key)
        offered = self.supported.get(api_key)
        if offered is None:
            raise UnsupportedByServer(f"{name} is not supported by this server ({self.where})")
        low = max(versions[0], offered[0])
        high = min(versions[1], offered[1])
        if low > high:
            raise UnsupportedByServer(
                f"{name} is not supported by this server ({self.where}) in a version kcli can use: "
                f"it offers v{offered[0]}-v{offered[1]}, kcli needs v{versions[0]}-v{versions[1]}"
            )
        return high

    async def request(
        self, request: Any, *, deadline: float, timeout_ms: int | None = None, auth: bool = False
    ) -> Any:
        """Send one kio request and return the decoded kio response (`auth`: part of the SASL exchange)."""
        api_key = int(request.__api_key__)
        what = f"{protocol.api_name(api_key)} v{int(request.__version__)}"
        frame = await self.request_raw(
            request, deadline=deadline, what=what, timeout_ms=timeout_ms, auth=auth
        )
        response_type = protocol.response_class_for(request)
        flexible = protocol.response_header_flexible(api_key, response_type)
        return self._decode(frame, response_type, flexible, what)

    async def request_raw(
        self, request: Any, *, deadline: float, what: str, timeout_ms: int | None = None, auth: bool = False
    ) -> bytes:
        """Send one request and return the raw response frame (correlation id first)."""
        if not auth and self._reauth_at is not None and time.monotonic() >= self._reauth_at:
            await self._reauthenticate_if_due(deadline)
        elif not auth and self._reauth_lock is not None and self._reauth_lock.locked():
            async with self._reauth_lock:
                pass
        if self._closed:
            raise self._close_reason or ConnectionLost(
                f"the connection to {self.where} is closed", sent=False
            )
        correlation_id = self._next_correlation
        self._next_correlation = (self._next_correlation + 1) & 0x7FFFFFFF
        data = _encoded(request, correlation_id, self.config.client_id, what)
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self._pending.append(_Pending(correlation_id, future, what, time.monotonic()))
        self._writer.write(data)
        if self.trace is not None:
            self.trace(f"-> {self.where}: {what} (correlation id {correlation_id}, {len(data)} bytes)")
        limit_ms = timeout_ms if timeout_ms is not None else self.config.request_timeout_ms
        timeout = _remaining(deadline, limit_ms / 1000)

        async def send_and_wait() -> bytes:
            await self._writer.drain()
            return await asyncio.shield(future)

        try:
            return await asyncio.wait_for(send_and_wait(), timeout=timeout)
        except TimeoutError:
            if timeout < limit_ms / 1000:  # cut short by the command's deadline, not the node's silence
                cut = CutShortByDeadline(
                    f"{what} request to {self.where} had no answer before the command's deadline "
                    f"(default.api.timeout.ms {self.config.default_api_timeout_ms} ms) ran out",
                    request=what,
                    where=self.where,
                    hint="earlier attempts failed or were slow; raise default.api.timeout.ms to keep trying",
                )
                self._fail(cut)
                raise cut from None
            reason = RequestTimedOut(
                f"{what} request to {self.where} timed out after {_ms(timeout)} ms",
                hint="the node accepted the connection but did not answer; check it is a healthy Kafka "
                "listener, or raise request.timeout.ms",
            )
            self._fail(reason)
            raise reason from None
        except (ConnectionError, OSError) as error:
            lost = ConnectionLost(
                f"connection to {self.where} failed while sending {what}: {error}", sent=True
            )
            self._fail(lost)
            raise lost from None

    def _decode(self, frame: bytes, response_type: type, header_flexible: bool, what: str) -> Any:
        try:
            return protocol.decode_response(frame, response_type, header_flexible=header_flexible)
        except Exception as error:  # kio raises several decode error types; all mean "malformed"
            raise ProtocolError(
                f"could not decode the {what} response from {self.where}: {type(error).__name__}: {error}",
                hint="the server sent a malformed response; this is a server bug or not a Kafka server",
            ) from None

    # ---- reading ----------------------------------------------------------------------------------

    def _start_reader(self) -> None:
        if self._read_task is None:
            self._read_task = asyncio.get_running_loop().create_task(self._read_loop())

    async def _read_loop(self) -> None:
        try:
            while True:
                try:
                    head = await self._reader.readexactly(4)
                except asyncio.IncompleteReadError as error:
                    if error.partial:
                        raise ConnectionLost(
                            f"{self.where} closed the connection in the middle of a response",
                            sent=True,
                            partial=True,
                        ) from None
                    raise ConnectionLost(
                        self._closed_message(), sent=True, hint=self._closed_hint(), clean=True
                    ) from None
                size = struct.unpack(">i", head)[0]
                if size < 4 or size > protocol.MAX_FRAME_BYTES:
                    raise not_kafka(head, self.where, self.config)
                try:
                    frame = await self._reader.readexactly(size)
                except asyncio.IncompleteReadError:
                    raise ConnectionLost(
                        f"{self.where} closed the connection in the middle of a response",
                        sent=True,
                        partial=True,
                    ) from None
                correlation_id = struct.unpack_from(">i", frame, 0)[0]
                if not self._pending:
                    raise ProtocolError(
                        f"{self.where} sent a response (correlation id {correlation_id}) to no request"
                    )
                pending = self._pending[0]
                if correlation_id != pending.correlation_id:
                    raise ProtocolError(
                        f"{self.where} answered {pending.what} with correlation id {correlation_id}, "
                        f"expected {pending.correlation_id}"
                    )
                self._pending.popleft()
                if self.trace is not None:
                    elapsed = (time.monotonic() - pending.sent_at) * 1000
                    self.trace(f"<- {self.where}: {pending.what} ({size + 4} bytes, {elapsed:.1f} ms)")
                if not pending.future.done():
                    pending.future.set_result(frame)
        except ConnectionFailed as error:
            self._fail(error)
        except (ConnectionError, OSError) as error:
            answering = f" while answering {self._pending[0].what}" if self._pending else ""
            reason = error.strerror or str(error) or type(error).__name__
            self._fail(ConnectionLost(f"the connection to {self.where} failed{answering}: {reason}", sent=True))
        except asyncio.CancelledError:
            self._fail(ConnectionLost(f"the connection to {self.where} was closed", sent=True))
            raise

    def _closed_message(self) -> str:
        if self._pending:
            return f"{self.where} closed the connection without answering {self._pending[0].what}"
        return f"{self.where} closed the connection"

    def _closed_hint(self) -> str | None:
        return None

    def _fail(self, reason: ConnectionFailed | RequestTimedOut, *, by_us: bool = False) -> None:
        """Fail every request in flight with `reason` and close the socket."""
        if not self._closed:
            self._closed = True
            if self.trace is not None and not by_us:
                self.trace(f"closing {self.where}: {reason.message}")
            self._close_reason = (
                reason if isinstance(reason, ConnectionFailed) else ConnectionLost(reason.message, sent=True)
            )
            with contextlib.suppress(Exception):
                self._writer.close()
        while self._pending:
            pending = self._pending.popleft()
            if not pending.future.done():
                pending.future.set_exception(reason)
                pending.future.exception()  # mark retrieved: a caller may already have given up

    async def close(self) -> None:
        """Close the connection and stop its reader (idempotent)."""
        if self.trace is not None and not self._closed:
            self.trace(f"closing {self.where}")
        self._fail(ConnectionLost(f"the connection to {self.where} was closed", sent=False), by_us=True)
        task = self._read_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._writer.wait_closed(), timeout=0.5)


# ---- helpers --------------------------------------------------------------------------------------


def _where(endpoint: Endpoint, node_id: int | None) -> str:
    return f"node {node_id} ({endpoint})" if node_id is not None and node_id >= 0 else str(endpoint)


def _remaining(deadline: float, limit: float) -> float:
    """Seconds to wait: `limit`, cut short by the overall deadline (never negative)."""
    return max(0.0, min(limit, deadline - time.monotonic()))


def _ms(seconds: float) -> int:
    return round(seconds * 1000)


def _encoded(request: Any, correlation_id: int, client_id: str | None, what: str) -> bytes:
    """The request's frame; a value no Kafka field can carry is one usage error, not a crash.

    The inputs are checked where they are read (client.id, documents, flags); this is the last
    line for any value that still does not fit its field: text that is not Unicode (a lone
    surrogate), a string past its int16 length, a number past its field's width.
    """
    from kcli.errors import UsageError

    try:
        return protocol.encode_request(request, correlation_id=correlation_id, client_id=client_id)
    except UnicodeEncodeError as error:
        reason = f"a value holds U+{ord(error.object[error.start]):04X}, a lone surrogate, which is not Unicode text"
    except (struct.error, OverflowError) as error:
        reason = f"a value does not fit its field ({error})"
    raise UsageError(
        f"the {what} request cannot be encoded: {reason}",
        hint="nothing was sent; give a value Kafka's protocol can carry",
    )
