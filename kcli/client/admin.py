"""The Admin client every tool uses: bootstrap, routing, retries, rebootstrap, fan-out.

    async with Admin(config) as admin:
        response = await admin.call(ApiKey.DESCRIBE_CONFIGS, build, versions=(1, 4), target=Target.CONTROLLER)

Behavior:
- Entering bootstraps: each bootstrap address in turn until one answers DescribeCluster (or
  Metadata), within default.api.timeout.ms. The cluster id is pinned from then on
  (expected.cluster.id is enforced at once). When every address refuses the connection and the
  cluster was never reached, refusals are retried for REFUSED_RETRY_MS only, unless
  default.api.timeout.ms is set explicitly (then, as in Kafka, until it runs out).
- Routing: Target.ANY (any live node, preferring open connections), Target.CONTROLLER (the active
  controller with --bootstrap-controller; with brokers any broker, which forwards writes, KIP-590),
  Target.node(id).
- Retries, all within the call's deadline (timeout_ms, else default.api.timeout.ms), with
  exponential backoff (retry.backoff.ms .. retry.backoff.max.ms): connection failures move to
  another node (ANY) or retry the node a few times; NOT_CONTROLLER refreshes the controller id and
  retries; retriable top-level error codes are retried; REBOOTSTRAP_REQUIRED rebootstraps. Other
  top-level error codes are returned for the caller to check (kcli.client.errors.check).
- KIP-899: when no known node answers, the client bootstraps again from the bootstrap list
  (unless metadata.recovery.strategy=none) and refuses to go on if the cluster id changed.
- A node that closes the connection instead of answering a request it advertises is given one
  more try on a fresh connection, then reported as not supporting that request.
- KIP-1242: a connection to a known broker sends ApiVersions v5 with the cluster and node id (on a
  SASL listener once more after login, kcli.client.identity); REBOOTSTRAP_REQUIRED means the address
  reaches another node: the client rebootstraps once, then names the misrouted node.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.client import cluster, protocol
from kcli.client.bootstrap_failures import (
    REFUSED_RETRY_MS,
    api_timeout_set,
    bootstrap_failure,
    refused_briefly,
    warn_on_stderr,
    worth_retrying,
)
from kcli.client.cluster import ClusterDescription, NodeInfo
from kcli.client.config import ClientConfig
from kcli.client.connection import Connection, ConnectionLost, PeerMemory, RebootstrapRequired
from kcli.client.endpoints import Endpoint
from kcli.client.errors import (
    ClusterIdMismatch,
    ConnectionFailed,
    KafkaError,
    RequestTimedOut,
    UnsupportedByServer,
    code_of,
    error_info,
)
from kcli.client.target import Target
from kcli.errors import KcliError
from kcli.kafka import EndpointType

NOT_CONTROLLER = code_of("NOT_CONTROLLER")
REBOOTSTRAP_REQUIRED = code_of("REBOOTSTRAP_REQUIRED")

if TYPE_CHECKING:
    import ssl

__all__ = ["Admin", "ClusterDescription", "NodeInfo", "Target"]

T = TypeVar("T")
_NODE_ATTEMPTS = 4  # connection-level tries of one named node before giving up


class _NoNodeLeft(Exception):
    """Internal: every known node failed during this call."""


class Admin:
    """An async admin client bound to one cluster; use as `async with Admin(config) as admin:`."""

    def __init__(
        self,
        config: ClientConfig,
        *,
        trace: Callable[[str], None] | None = None,
        warn: Callable[[str], None] | None = None,
    ) -> None:
        """`trace` (default: the config's, stderr under --debug) gets one line per connection event,
        request and response; `warn` (stderr by default) gets the rare line an operator should see
        while kcli keeps waiting."""
        self.config = config
        self._trace = trace if trace is not None else config.trace
        self._warn = warn or warn_on_stderr
        self.description: ClusterDescription | None = None
        self._connections: dict[int, Connection] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seed: Connection | None = None  # bootstrap connection not matching any node
        self._memory = PeerMemory()
        # Answers that hold for the session, kept by the API helpers (e.g. group coordinators).
        self.memo: dict[str, Any] = {}
        self._ssl_context: ssl.SSLContext | None = None
        self._pinned_cluster_id: str | None = None
        self._reached = False  # some bootstrap address has described the cluster (rebootstraps wait longer)
        # Since when no known node has answered (None: the last request got an answer); after
        # metadata.recovery.rebootstrap.trigger.ms of that, the client bootstraps again (KIP-1102).
        self._failing_since: float | None = None

    # ---- lifecycle --------------------------------------------------------------------------------

    async def __aenter__(self) -> Admin:
        try:
            await self.bootstrap(self._deadline(None))
        except BaseException:
            await self.close()
            raise
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close every connection."""
        connections = list(self._connections.values())
        if self._seed is not None:
            connections.append(self._seed)
        self._connections.clear()
        self._seed = None
        await asyncio.gather(*(connection.close() for connection in connections), return_exceptions=True)

    # ---- what is known ----------------------------------------------------------------------------

    @property
    def cluster_id(self) -> str | None:
        return self.description.cluster_id if self.description else None

    @property
    def controller_id(self) -> int:
        return self.description.controller_id if self.description else -1

    @property
    def endpoint_type(self) -> EndpointType:
        return self.config.endpoint_type

    @property
    def nodes(self) -> Mapping[int, NodeInfo]:
        """Brokers, or controllers with --bootstrap-controller, by node id."""
        return self.description.node_map if self.description else {}

    # ---- bootstrap --------------------------------------------------------------------------------

    async def bootstrap(self, deadline: float) -> ClusterDescription:
        """Connect to the bootstrap addresses in turn until one describes the cluster."""
        if self.config.uses_tls and self._ssl_context is None:
            from kcli.client.tls import build_ssl_context

            assert self.config.ssl is not None
            self._ssl_context = build_ssl_context(self.config.ssl)
        failures: list[KcliError] = []
        # The latest failure of each address over every pass: a pass the deadline cuts short still
        # reports every address, not just those it reached.
        latest: dict[str, KcliError] = {}
        passes = 0
        # A cluster never reached whose every address refuses is most likely not there (a wrong port,
        # nothing started yet): CI checks want a quick answer, so refusals are retried briefly unless
        # default.api.timeout.ms was set. Rebootstrapping a cluster that answered before (KIP-899)
        # keeps waiting the whole timeout.
        started = time.monotonic()
        brief = not self._reached and not api_timeout_set(self.config)
        retry_until = min(deadline, started + REFUSED_RETRY_MS / 1000) if brief else deadline
        while True:
            failures = []
            for endpoint in self.config.bootstrap:
                if time.monotonic() >= deadline:
                    break
                try:
                    connection = await self._open(endpoint, deadline, node_id=None, cluster_id=None)
                except (ConnectionFailed, RequestTimedOut) as error:
                    failures.append(error)
                    latest[str(endpoint)] = error
                    continue
                try:
                    description = await cluster.describe(
                        connection, self.config.endpoint_type, deadline=deadline
                    )
                except (ConnectionFailed, RequestTimedOut) as error:
                    await connection.close()
                    failures.append(error)
                    latest[str(endpoint)] = error
                    continue
                except BaseException:
                    await connection.close()
                    raise
                self._adopt(description, connection, endpoint)
                self._failing_since = None
                return description
            # Refused connections are retried (a node restarting, a cluster coming up) with backoff
            # until the deadline; anything else (timeouts, TLS, SASL, not Kafka) is final.
            passes += 1
            if not failures or not all(worth_retrying(error) for error in failures):
                break
            if passes == 1 and not brief and deadline - time.monotonic() > 2.0:
                # Kafka's clients keep retrying refused connections until the API timeout; say so at
                # once, so a mistyped port is not a silent minute-long wait.
                self._warn(
                    f"Warning: {failures[0].message}; retrying until default.api.timeout.ms "
                    f"({self.config.default_api_timeout_ms} ms) runs out (Ctrl-C to stop)"
                )
            if not await self._backoff(passes, retry_until):
                break
            if self._trace is not None:
                self._trace(f"bootstrap pass {passes} failed ({failures[0].message}); retrying")
        reported = [latest[str(e)] for e in self.config.bootstrap if str(e) in latest]
        if brief and passes > 1:
            raise refused_briefly(self.config, reported, passes=passes, seconds=time.monotonic() - started)
        raise bootstrap_failure(self.config, reported, passes=passes)

    def _adopt(self, description: ClusterDescription, connection: Connection, endpoint: Endpoint) -> None:
        """Take a fresh description: pin and check the cluster id, keep the bootstrap connection."""
        self._check_cluster_id(description.cluster_id)
        self.description = description
        self._reached = True
        for node in description.nodes:
            if node.host == endpoint.host and node.port == endpoint.port:
                connection.node_id = node.node_id
                self._connections[node.node_id] = connection
                return
        self._seed = connection

    def _check_cluster_id(self, cluster_id: str | None) -> None:
        expected = self.config.expected_cluster_id
        if expected is not None and cluster_id != expected:
            raise ClusterIdMismatch(
                f"the cluster at {', '.join(map(str, self.config.bootstrap))} has cluster id {cluster_id}, "
                f"but expected.cluster.id is {expected}; refusing to act on it",
            )
        if self._pinned_cluster_id is not None and cluster_id != self._pinned_cluster_id:
            raise ClusterIdMismatch(
                f"after rebootstrapping, the cluster id is {cluster_id}, not {self._pinned_cluster_id} as before; "
                "refusing to continue on a different cluster",
                hint="check the bootstrap addresses (KIP-899)",
            )
        if cluster_id is not None:
            self._pinned_cluster_id = cluster_id

    async def rebootstrap(self, deadline: float) -> ClusterDescription:
        """Forget every node and connection and bootstrap again (KIP-899); the cluster id must not change."""
        await self.close()
        self.description = None
        return await self.bootstrap(deadline)

    # ---- public API -------------------------------------------------------------------------------

    async def call(
        self,
        api_key: int,
        build: Callable[[int], Any],
        *,
        versions: tuple[int, int],
        target: Target = Target.ANY,
        timeout_ms: int | None = None,
        idempotent: bool = True,
    ) -> Any:
        """Send build(version) to `target` at the highest version in `versions` both sides support.

        Returns the kio response; a top-level error code is left for the caller (errors.check),
        except NOT_CONTROLLER, REBOOTSTRAP_REQUIRED and retriable codes, which are retried within
        the deadline. With idempotent=False a connection lost after sending is reported, not retried.
        """
        deadline = self._deadline(timeout_ms)
        name = protocol.api_name(api_key)
        attempt = 0
        while True:

            async def send(connection: Connection) -> Any:
                version = connection.version_for(api_key, versions)
                request = build(version)
                return await connection.request(request, deadline=deadline)

            response = await self._run(target, deadline, send, what=name, idempotent=idempotent)
            code = int(getattr(response, "error_code", 0) or 0)
            if code == 0:
                return response
            if code == REBOOTSTRAP_REQUIRED and self.config.recovery_strategy != "none":
                await self.rebootstrap(deadline)
            elif code == NOT_CONTROLLER:
                await self._refresh(deadline)
            elif not error_info(code).retriable:
                return response
            attempt += 1
            if not await self._backoff(attempt, deadline):
                return response

    async def call_each(
        self,
        node_ids: Iterable[int],
        api_key: int,
        build: Callable[[int, int], Any],
        *,
        versions: tuple[int, int],
        timeout_ms: int | None = None,
    ) -> dict[int, Any | KcliError]:
        """Send build(node_id, version) to each node concurrently; per-node failures are returned."""
        ids = list(dict.fromkeys(int(node_id) for node_id in node_ids))

        async def one(node_id: int) -> Any | KcliError:
            try:
                return await self.call(
                    api_key,
                    lambda version: build(node_id, version),
                    versions=versions,
                    target=Target.node(node_id),
                    timeout_ms=timeout_ms,
                )
            except KcliError as error:
                return error

        results = await asyncio.gather(*(one(node_id) for node_id in ids))
        return dict(zip(ids, results, strict=True))

    async def api_versions(self, node_id: int | None = None) -> Any:
        """The kio ApiVersionsResponse of a node (any node when None): APIs and features."""
        target = Target.ANY if node_id is None else Target.node(node_id)

        async def read(connection: Connection) -> Any:
            return connection.api_versions_response

        return await self._run(target, self._deadline(None), read, what="ApiVersions", idempotent=True)

    async def describe_cluster(self, *, include_fenced_brokers: bool = False) -> ClusterDescription:
        """Describe the cluster afresh (DescribeCluster, or Metadata for old brokers) and update the node cache."""
        deadline = self._deadline(None)

        async def describe(connection: Connection) -> ClusterDescription:
            return await cluster.describe(
                connection,
                self.config.endpoint_type,
                deadline=deadline,
                include_fenced_brokers=include_fenced_brokers,
            )

        description = await self._run(Target.ANY, deadline, describe, what="DescribeCluster", idempotent=True)
        self._check_cluster_id(description.cluster_id)
        if not include_fenced_brokers or self.description is None:
            self.description = description
        return description

    # ---- routing ----------------------------------------------------------------------------------

    async def _run(
        self,
        target: Target,
        deadline: float,
        operation: Callable[[Connection], Awaitable[T]],
        *,
        what: str,
        idempotent: bool,
    ) -> T:
        """Run `operation` on a connection to `target`, moving on or retrying on connection failures."""
        failed: set[int] = set()
        closed_after_send: dict[int, int] = {}
        rebootstrapped = False
        misrouted: dict[int, bool] = {}  # node id -> REBOOTSTRAP_REQUIRED seen in this call
        attempt = 0
        last_error: KcliError | None = None
        while True:
            if time.monotonic() >= deadline:
                raise last_error or RequestTimedOut(
                    f"{what} did not complete within {self._budget_ms()} ms (default.api.timeout.ms)"
                )
            try:
                node = await self._pick(target, failed, deadline)
            except _NoNodeLeft:
                if (
                    not rebootstrapped
                    and self.config.recovery_strategy == "rebootstrap"
                    and (not isinstance(last_error, RequestTimedOut) or self._rebootstrap_due())
                ):
                    rebootstrapped = True
                    await self.rebootstrap(deadline)
                    failed.clear()
                    continue
                assert last_error is not None
                raise last_error from None
            started = time.monotonic()
            try:
                connection = await self._connection(node, deadline)
                result = await operation(connection)
                self._failing_since = None
                return result
            except RebootstrapRequired as required:
                if self.config.recovery_strategy == "none":
                    raise
                if misrouted.get(node.node_id):
                    # Still the wrong node after rebootstrapping: the cluster advertises a wrong endpoint
                    # for it, so rebootstrapping again until the deadline would not help (KIP-1242).
                    last_error = ConnectionFailed(
                        f"{required.node} is misrouted: the server at that address is not node {node.node_id} "
                        "of this cluster (REBOOTSTRAP_REQUIRED, also after rebootstrapping); nothing was sent to it",
                        hint="check advertised.listeners of that node; kcli cluster doctor shows the mismatch",
                    )
                    await self._forget(node.node_id)
                    if target.kind != "any":
                        raise last_error from None
                    failed.add(node.node_id)
                    continue
                misrouted[node.node_id] = True
                await self.rebootstrap(deadline)
                failed.clear()
                continue
            except ConnectionLost as lost:
                last_error = lost
                if lost.sent:
                    if not idempotent:
                        raise ConnectionFailed(
                            f"{lost.message}; the {what} request may or may not have been applied",
                            hint="check the result before retrying",
                        ) from None
                    closed_after_send[node.node_id] = closed_after_send.get(node.node_id, 0) + 1
                    if closed_after_send[node.node_id] >= 2 and lost.clean:
                        raise UnsupportedByServer(
                            f"{what} is not supported by this server (node {node.node_id} {node.endpoint}): "
                            "it closed the connection instead of answering"
                        ) from None
                    if closed_after_send[node.node_id] >= 2:  # a reset or a cut answer: say so
                        raise ConnectionFailed(
                            f"{lost.message} (twice, on fresh connections)",
                            hint="the node, or a proxy in front of it, broke off while answering: check its log",
                        ) from None
                    continue  # one more try on a fresh connection
            except (ConnectionFailed, RequestTimedOut) as error:
                # what went wrong, not that the deadline then ran out on the next try
                out_of_time = isinstance(error, RequestTimedOut) and time.monotonic() >= deadline
                if not (out_of_time and isinstance(last_error, ConnectionFailed)):
                    last_error = error
            if self._failing_since is None:
                self._failing_since = started
            await self._forget(node.node_id)
            if not rebootstrapped and self._rebootstrap_due():
                # KIP-1102: no node has answered for metadata.recovery.rebootstrap.trigger.ms
                rebootstrapped = True
                if self._trace is not None:
                    self._trace(
                        f"no node answered for {self.config.rebootstrap_trigger_ms} ms "
                        "(metadata.recovery.rebootstrap.trigger.ms); bootstrapping again"
                    )
                await self.rebootstrap(deadline)
                failed.clear()
                continue
            attempt += 1
            if target.kind == "any":
                failed.add(node.node_id)
                continue
            if attempt >= _NODE_ATTEMPTS or isinstance(last_error, RequestTimedOut):
                raise last_error
            if not await self._backoff(attempt, deadline):
                raise last_error
            if target.kind == "controller":
                await self._refresh_quietly(deadline)

    async def _pick(self, target: Target, failed: set[int], deadline: float) -> NodeInfo:
        if self.description is None:
            await self.bootstrap(deadline)
        assert self.description is not None
        nodes: Mapping[int, NodeInfo] = self.description.node_map
        if target.kind == "node":
            assert target.node_id is not None
            if target.node_id not in nodes:
                await self._refresh(deadline)
                nodes = self.nodes
            if target.node_id not in nodes:
                kind = "controller" if self.endpoint_type is EndpointType.CONTROLLERS else "broker"
                known = ", ".join(str(node_id) for node_id in sorted(nodes)) or "none"
                raise KcliError(f"{kind} {target.node_id} is not in the cluster (known {kind}s: {known})")
            return nodes[target.node_id]
        if target.kind == "controller" and self.endpoint_type is EndpointType.CONTROLLERS:
            controller = nodes.get(self.controller_id)
            if controller is None:
                await self._refresh(deadline)
                controller = self.nodes.get(self.controller_id)
            if controller is None:
                raise KcliError(
                    "the controller quorum has no active controller right now",
                    hint="retry shortly; check the quorum with kcli metadata-quorum describe --status",
                )
            return controller
        candidates = [node for node_id, node in nodes.items() if node_id not in failed]
        if not candidates:
            raise _NoNodeLeft()
        connected = [node for node in candidates if node.node_id in self._connections]
        return (connected or candidates)[0]

    async def _connection(self, node: NodeInfo, deadline: float) -> Connection:
        existing = self._connections.get(node.node_id)
        if existing is not None and not existing.closed:
            return existing
        lock = self._locks.setdefault(node.node_id, asyncio.Lock())
        async with lock:
            existing = self._connections.get(node.node_id)
            if existing is not None and not existing.closed:
                return existing
            connection = await self._open(
                node.endpoint, deadline, node_id=node.node_id, cluster_id=self.cluster_id
            )
            self._connections[node.node_id] = connection
            return connection

    async def _open(
        self, endpoint: Endpoint, deadline: float, *, node_id: int | None, cluster_id: str | None
    ) -> Connection:
        from kcli.client import identity

        connection = await Connection.open(
            endpoint,
            config=self.config,
            deadline=deadline,
            node_id=node_id,
            cluster_id=cluster_id,
            memory=self._memory,
            ssl_context=self._ssl_context,
            trace=self._trace,
        )
        if self.endpoint_type is EndpointType.BROKERS and identity.needs_check_after_login(
            connection, cluster_id=cluster_id, node_id=node_id
        ):
            # KIP-1242 on a SASL listener: the broker checks ClusterId/NodeId only after login.
            assert cluster_id is not None and node_id is not None
            try:
                await identity.check_after_login(connection, cluster_id=cluster_id, node_id=node_id, deadline=deadline)
            except BaseException:
                await connection.close()
                raise
        return connection

    async def _forget(self, node_id: int) -> None:
        connection = self._connections.pop(node_id, None)
        if connection is not None:
            await connection.close()

    async def _refresh(self, deadline: float) -> None:
        """Describe the cluster again (new controller id, nodes)."""
        await self.describe_cluster_within(deadline)

    async def describe_cluster_within(self, deadline: float) -> ClusterDescription:
        """describe_cluster bounded by an absolute monotonic deadline (used while retrying)."""

        async def describe(connection: Connection) -> ClusterDescription:
            return await cluster.describe(connection, self.config.endpoint_type, deadline=deadline)

        description = await self._run(Target.ANY, deadline, describe, what="DescribeCluster", idempotent=True)
        self._check_cluster_id(description.cluster_id)
        self.description = description
        return description

    async def _refresh_quietly(self, deadline: float) -> None:
        with contextlib.suppress(ConnectionFailed, RequestTimedOut, KafkaError):
            await self._refresh(deadline)

    # ---- time -------------------------------------------------------------------------------------

    def _rebootstrap_due(self) -> bool:
        """Whether no known node has answered for metadata.recovery.rebootstrap.trigger.ms (KIP-1102)."""
        return (
            self.config.recovery_strategy == "rebootstrap"
            and self._failing_since is not None
            and (time.monotonic() - self._failing_since) * 1000 >= self.config.rebootstrap_trigger_ms
        )

    def _budget_ms(self) -> int:
        return self.config.default_api_timeout_ms

    def _deadline(self, timeout_ms: int | None) -> float:
        budget = self.config.default_api_timeout_ms if timeout_ms is None else timeout_ms
        return time.monotonic() + budget / 1000

    async def _backoff(self, attempt: int, deadline: float) -> bool:
        """Sleep the exponential backoff for `attempt`; False when the deadline leaves no time."""
        delay = (
            min(self.config.retry_backoff_max_ms, self.config.retry_backoff_ms * (2 ** max(0, attempt - 1)))
            / 1000
        )
        if time.monotonic() + delay >= deadline:
            return False
        await asyncio.sleep(delay)
        return True
