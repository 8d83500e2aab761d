"""The doctor's probes and fact collection: every endpoint on its own connection, concurrently.

collect_facts dials each bootstrap address and then every advertised endpoint of every broker and
controller on its own connection, each within the probe timeout. Identity: ApiVersions v5 carries
ClusterId+NodeId (KIP-1242) where the node offers it; a broker that is not the one advertised answers
REBOOTSTRAP_REQUIRED (on a SASL listener only to the ApiVersions sent after login, which the probe
sends). Controllers never check those ids, so a controller, like any node without v5, is asked for
its own broker config resource (DescribeConfigs BROKER <id>: Kafka answers "Unexpected broker id,
expected N" on another node), and failing that the node id is reported as not verifiable. Controllers are found from DescribeQuorum v2's voter
endpoints when bootstrapping from brokers. The checks on the facts are kcli.ops.doctor's.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.integers import java_long
from kcli.kafka import ApiKey, ConfigResourceType
from kcli.ops.doctor import AdvertisedNode, ClusterFacts, EndpointProbe, Identity
from kcli.ops.features import METADATA_VERSION
from kcli.ops.quorum import QuorumInfo

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.client.connection import Connection
    from kcli.client.endpoints import Endpoint


def _features_of(response: Any) -> tuple[int | None, tuple[int, int] | None, int | None]:
    finalized = next(
        (
            int(f.max_version_level)
            for f in getattr(response, "finalized_features", ())
            if f.name == METADATA_VERSION
        ),
        None,
    )
    supported = next(
        (
            (int(f.min_version), int(f.max_version))
            for f in getattr(response, "supported_features", ())
            if f.name == METADATA_VERSION
        ),
        None,
    )
    epoch = getattr(response, "finalized_features_epoch", None)
    return finalized, supported, (int(epoch) if epoch is not None and int(epoch) >= 0 else None)


_EXPECTED_ID = re.compile(r"expected (-?[0-9]+)")


async def _identity_by_configs(connection: Connection, node_id: int, deadline: float) -> Identity:
    """Ask the node for broker config resource `node_id`; Kafka refuses another node's id by name."""
    from kcli.client.protocol import make, request_class

    if ApiKey.DESCRIBE_CONFIGS not in connection.supported:
        return Identity(
            method="none", verified=None, detail="neither ApiVersions v5 nor DescribeConfigs offered"
        )
    version = connection.version_for(ApiKey.DESCRIBE_CONFIGS, (1, 4))
    cls = request_class("describe_configs", version)
    import sys

    resource_cls = sys.modules[cls.__module__].DescribeConfigsResource
    request = make(
        cls,
        resources=(
            resource_cls(
                resource_type=ConfigResourceType.BROKER, resource_name=str(node_id), configuration_keys=None
            ),
        ),
        include_synonyms=False,
        include_documentation=False,
    )
    response = await connection.request(request, deadline=deadline)
    result = response.results[0] if response.results else None
    if result is None:
        return Identity(method="describe_configs", verified=None, detail="empty DescribeConfigs answer")
    code = int(result.error_code)
    if code != 0:
        match = _EXPECTED_ID.search(result.error_message or "")
        if match:
            actual = java_long(match.group(1))
            return Identity(method="describe_configs", verified=actual == node_id, actual_node_id=actual)
        return Identity(method="describe_configs", verified=None, detail=result.error_message)
    values = {str(c.name): c.value for c in result.configs}
    seen = values.get("node.id") or values.get("broker.id")
    actual = None if seen is None else java_long(str(seen))
    if actual is None:
        return Identity(
            method="describe_configs", verified=None, detail="the node does not report its node.id"
        )
    return Identity(method="describe_configs", verified=actual == node_id, actual_node_id=actual)


@dataclass(frozen=True, slots=True, kw_only=True)
class ProbeResult:
    """One endpoint's probe, and (for bootstrap addresses) the cluster and quorum it described."""

    probe: EndpointProbe
    description: Any = None  # kcli.client.cluster.ClusterDescription
    quorum: QuorumInfo | None = None
    quorum_error: str | None = None


async def probe_endpoint(
    config: ClientConfig,
    endpoint: Endpoint,
    *,
    role: str,
    node_id: int | None,
    cluster_id: str | None,
    timeout_ms: int,
    describe_quorum: bool = False,
    verify_by_configs: bool = False,
) -> ProbeResult:
    """Dial one endpoint on a fresh connection and record what it says about itself and the cluster.

    Every probe has its own connection and deadline, so one misrouted or stopped node cannot
    hold up the others (the Admin's routing and rebootstrap are deliberately not used here).
    `verify_by_configs`: ask the node for its own config resource even when it took ApiVersions v5,
    for an address several nodes advertise (a SASL listener takes v5 before the login unchecked).
    """
    from kcli.client import cluster as cluster_wire
    from kcli.client.api import quorum as quorum_wire
    from kcli.client.connection import Connection, CutShortByDeadline, PeerMemory, RebootstrapRequired
    from kcli.client.identity import check_after_login, checked_at_handshake, needs_check_after_login
    from kcli.kafka import EndpointType

    address = str(endpoint)
    started = time.monotonic()
    deadline = started + timeout_ms / 1000
    endpoint_type = EndpointType.CONTROLLERS if role == "controller" else config.endpoint_type
    connection: Connection | None = None
    # What this endpoint answered, with who it is filled in.
    probe_of = functools.partial(EndpointProbe, role=role, address=address, node_id=node_id)

    def failed(message: str, hint: str | None = None, *, auth_failed: bool = False) -> ProbeResult:
        return ProbeResult(probe=probe_of(ok=False, error=message, error_hint=hint, auth_failed=auth_failed))

    def refused_by_node(method: str, when: str) -> ProbeResult:
        refused = Identity(
            method=method,
            verified=False,
            detail=f"refused ClusterId {cluster_id} NodeId {node_id} with REBOOTSTRAP_REQUIRED{when}",
        )
        latency = (time.monotonic() - started) * 1000
        return ProbeResult(probe=probe_of(ok=True, latency_ms=latency, identity=refused))

    try:
        try:
            connection = await Connection.open(
                endpoint,
                config=config,
                deadline=deadline,
                node_id=node_id,
                cluster_id=cluster_id,
                memory=PeerMemory(),
            )
        except RebootstrapRequired:
            return refused_by_node("api_versions_v5", "")
        latency = (time.monotonic() - started) * 1000
        api_versions = connection.api_versions_response
        finalized, supported, epoch = _features_of(api_versions)
        identity: Identity | None = None
        if node_id is not None:
            # Only a broker checks ApiVersions v5's ids, and on a SASL listener only after login
            # (kcli.client.identity); a controller, or an address several nodes advertise, is asked for
            # its own config resource.
            if (
                role == "broker"
                and not verify_by_configs
                and checked_at_handshake(connection, cluster_id=cluster_id, node_id=node_id)
            ):
                identity = Identity(method="api_versions_v5", verified=True, actual_node_id=node_id)
            elif role == "broker" and needs_check_after_login(connection, cluster_id=cluster_id, node_id=node_id):
                assert cluster_id is not None
                try:
                    await check_after_login(connection, cluster_id=cluster_id, node_id=node_id, deadline=deadline)
                except RebootstrapRequired:
                    return refused_by_node("api_versions_v5_after_login", " after login")
                identity = Identity(method="api_versions_v5_after_login", verified=True, actual_node_id=node_id)
            else:
                try:
                    identity = await _identity_by_configs(connection, node_id, deadline)
                except KcliError as error:
                    identity = Identity(method="describe_configs", verified=None, detail=error.line())
                    if connection.closed:
                        connection = await Connection.open(endpoint, config=config, deadline=deadline)
        fenced = role == "bootstrap" and endpoint_type is EndpointType.BROKERS
        description = await cluster_wire.describe(
            connection, endpoint_type, deadline=deadline, include_fenced_brokers=fenced
        )
        quorum: QuorumInfo | None = None
        quorum_error: str | None = None
        if describe_quorum:
            try:
                version = connection.version_for(ApiKey.DESCRIBE_QUORUM, (0, 2))
                response = await connection.request(quorum_wire._build_describe(version), deadline=deadline)
                quorum = quorum_wire.quorum_from_response(
                    response, cluster_id=description.cluster_id, node=connection.where
                )
            except KcliError as error:
                quorum_error = error.line()
        probe = probe_of(
            ok=True,
            latency_ms=latency,
            cluster_id=description.cluster_id,
            controller_id=description.controller_id,
            identity=identity,
            finalized_metadata_version=finalized,
            supported_metadata_version=supported,
            features_epoch=epoch,
        )
        return ProbeResult(probe=probe, description=description, quorum=quorum, quorum_error=quorum_error)
    except CutShortByDeadline as error:  # the probe's own deadline, not default.api.timeout.ms
        return failed(
            f"{error.request} request to {error.where} timed out after {timeout_ms} ms (--timeout-ms)",
            "the node accepted the connection but did not answer in time; check it is a healthy Kafka "
            "listener, or raise --timeout-ms",
        )
    except KcliError as error:
        from kcli.client.errors import AuthenticationFailed

        return failed(error.message, error.hint, auth_failed=isinstance(error, AuthenticationFailed))
    except TimeoutError:
        return failed(f"no answer within {timeout_ms} ms")
    finally:
        if connection is not None:
            await connection.close()


async def collect_facts(
    configs: Sequence[ClientConfig],
    *,
    timeout_ms: int,
    abort_prefix: Sequence[str] = ("kcli", "transactions"),
    max_transaction_ms: int | None = None,
) -> ClusterFacts:
    """Everything doctor checks, from one or two bootstrap kinds (brokers and/or controllers).

    The open-transaction scan (kcli.workflows.doctor_transactions) runs after the probes, through
    the brokers; `abort_prefix` starts the abort command its findings print, and an open transaction
    counts once its producer is silent for `max_transaction_ms` (default: transaction.max.timeout.ms).
    """
    from kcli.client.endpoints import Endpoint
    from kcli.kafka import EndpointType
    from kcli.ops.features import load_catalog
    from kcli.workflows.doctor_transactions import collect_transaction_facts

    not_checked: list[str] = []
    kinds = {config.endpoint_type for config in configs}
    jobs = [(config, endpoint) for config in configs for endpoint in config.bootstrap]
    bootstrap = await asyncio.gather(
        *(
            probe_endpoint(
                config,
                endpoint,
                role="bootstrap",
                node_id=None,
                cluster_id=None,
                timeout_ms=timeout_ms,
                describe_quorum=True,
            )
            for config, endpoint in jobs
        )
    )
    ids = Counter(r.probe.cluster_id for r in bootstrap if r.probe.ok and r.probe.cluster_id)
    cluster_id = ids.most_common(1)[0][0] if ids else None

    nodes: list[AdvertisedNode] = []
    targets: dict[tuple[str, int], tuple[ClientConfig, Endpoint]] = {}
    controller_id: int | None = None
    quorum: QuorumInfo | None = None
    quorum_errors: list[str] = []
    for config in configs:
        role = "controller" if config.endpoint_type is EndpointType.CONTROLLERS else "broker"
        answered = [
            r
            for (c, _), r in zip(jobs, bootstrap, strict=True)
            if c is config and r.description is not None and r.probe.cluster_id == cluster_id
        ]
        if not answered:
            continue
        description = answered[0].description
        if role == "controller":
            controller_id = description.controller_id
        for node in sorted(description.nodes, key=lambda n: n.node_id):
            nodes.append(
                AdvertisedNode(
                    role=role,
                    node_id=node.node_id,
                    host=node.host,
                    port=node.port,
                    rack=node.rack,
                    fenced=node.fenced,
                )
            )
            targets[(role, node.node_id)] = (config, node.endpoint)
        for result in answered:
            if result.quorum is not None and quorum is None:
                quorum = result.quorum
                # Voters come from DescribeQuorum too: a stopped voter is missing from
                # DescribeCluster's list of controllers but must still be probed.
                controllers = next((c for c in configs if c.endpoint_type is EndpointType.CONTROLLERS), None)
                controllers = controllers or dataclasses.replace(
                    config, endpoint_type=EndpointType.CONTROLLERS
                )
                for voter_id, endpoints in quorum.nodes.items():
                    first = _first_listener(endpoints)
                    if first is not None:
                        targets.setdefault(
                            ("controller", voter_id),
                            (controllers, Endpoint(host=first[0], port=first[1], node_id=voter_id)),
                        )
                if not quorum.nodes and EndpointType.CONTROLLERS not in kinds:
                    not_checked.append(
                        "controller endpoints: DescribeQuorum v2 (Kafka 3.9+) not offered; "
                        "add --bootstrap-controller to check controllers"
                    )
            elif result.quorum_error:
                quorum_errors.append(result.quorum_error)
    if quorum is None and quorum_errors:
        not_checked.append(f"metadata quorum: {quorum_errors[0]}")
    if EndpointType.BROKERS not in kinds:
        not_checked.append(
            "brokers: bootstrapped from controllers only; add --bootstrap-server to check brokers"
        )

    advertised = Counter((role, str(endpoint)) for (role, _), (_, endpoint) in targets.items())
    probes = await asyncio.gather(
        *(
            probe_endpoint(
                config,
                endpoint,
                role=role,
                node_id=node_id,
                cluster_id=cluster_id,
                timeout_ms=timeout_ms,
                verify_by_configs=advertised[(role, str(endpoint))] > 1,
            )
            for (role, node_id), (config, endpoint) in sorted(targets.items())
        )
    )
    # After the probes, not beside them: its requests would add to the latencies the probes measure.
    brokers = next((c for c in configs if c.endpoint_type is EndpointType.BROKERS), None)
    transactions = None
    if brokers is not None and cluster_id is not None:
        transactions = await collect_transaction_facts(
            brokers, timeout_ms=timeout_ms, abort_prefix=abort_prefix, threshold_ms=max_transaction_ms
        )
    return ClusterFacts(
        transactions=transactions,
        cluster_id=cluster_id,
        bootstrap_kind="controllers" if kinds == {EndpointType.CONTROLLERS} else "brokers",
        bootstrap=tuple(r.probe for r in bootstrap),
        nodes=tuple(nodes),
        probes=tuple(r.probe for r in probes),
        quorum=quorum,
        controller_id=controller_id,
        now_ms=int(time.time() * 1000),
        not_checked=tuple(not_checked),
        metadata_version_names=dict(load_catalog().metadata_versions),
    )


def _first_listener(endpoints: Sequence[Any]) -> tuple[str, int] | None:
    return (endpoints[0].host, endpoints[0].port) if endpoints else None
