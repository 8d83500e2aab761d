"""Cluster discovery: who the nodes are, which is the controller, and the cluster id (KIP-919).

Behavior:
- With --bootstrap-server: DescribeCluster (EndpointType 1 from v1) when the broker offers it,
  else Metadata with no topics (brokers older than 2.8).
- With --bootstrap-controller: DescribeCluster v1+ with EndpointType 2 (controllers answer with
  the controller quorum and the active controller's id).
- MISMATCHED_ENDPOINT_TYPE and UNSUPPORTED_ENDPOINT_TYPE become clear usage errors. Because some
  servers (tansu 0.6.0) answer EndpointType 2 with no error and list brokers, the returned
  endpoint type is checked too, and a node that advertises Metadata in ApiVersions (an API only
  brokers offer) is refused as a controller.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from kcli.client import protocol
from kcli.client.connection import Connection
from kcli.client.endpoints import Endpoint
from kcli.client.errors import EndpointTypeMismatch, KafkaError, UnsupportedByServer, check, code_of
from kcli.kafka import ApiKey, EndpointType

INVALID_REQUEST = code_of("INVALID_REQUEST")
MISMATCHED_ENDPOINT_TYPE = code_of("MISMATCHED_ENDPOINT_TYPE")
UNSUPPORTED_ENDPOINT_TYPE = code_of("UNSUPPORTED_ENDPOINT_TYPE")


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeInfo:
    """A broker (or, with --bootstrap-controller, a controller) as the cluster describes it."""

    node_id: int
    host: str
    port: int
    rack: str | None = None
    fenced: bool = False

    @property
    def endpoint(self) -> Endpoint:
        return Endpoint(host=self.host, port=self.port, node_id=self.node_id)

    def __str__(self) -> str:
        return f"node {self.node_id} ({self.endpoint})"


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterDescription:
    """What DescribeCluster (or Metadata) said: cluster id, active controller id, endpoint type, nodes."""

    cluster_id: str | None
    controller_id: int
    endpoint_type: EndpointType
    nodes: tuple[NodeInfo, ...]
    source: str  # e.g. "DescribeCluster v1" or "Metadata v12"

    @property
    def node_map(self) -> dict[int, NodeInfo]:
        return {node.node_id: node for node in self.nodes}


def _broker_as_controller(where: str) -> EndpointTypeMismatch:
    return EndpointTypeMismatch(f"{where} is a broker; use --bootstrap-server")


def _controller_as_broker(where: str) -> EndpointTypeMismatch:
    return EndpointTypeMismatch(f"{where} is a controller; use --bootstrap-controller")


async def describe(
    connection: Connection,
    endpoint_type: EndpointType,
    *,
    deadline: float,
    include_fenced_brokers: bool = False,
    endpoint: Endpoint | None = None,
) -> ClusterDescription:
    """Describe the cluster through one open connection, checking the endpoint type."""
    where = str(endpoint or connection.endpoint)
    if endpoint_type is EndpointType.CONTROLLERS:
        return await _describe_controllers(connection, where, deadline)
    if ApiKey.DESCRIBE_CLUSTER in connection.supported:
        return await _describe_brokers(connection, where, deadline, include_fenced_brokers)
    return await describe_with_metadata(connection, deadline=deadline)


async def _describe_controllers(connection: Connection, where: str, deadline: float) -> ClusterDescription:
    offered = connection.supported.get(ApiKey.DESCRIBE_CLUSTER)
    if offered is None or offered[1] < 1:
        if ApiKey.METADATA in connection.supported:
            raise _broker_as_controller(where)
        raise UnsupportedByServer(
            f"{where} does not support DescribeCluster with endpoint types (KIP-919, Kafka 3.7+)",
            hint="use --bootstrap-server with this cluster",
        )
    response, version = await _send_describe_cluster(connection, deadline, EndpointType.CONTROLLERS, False)
    check_describe_error(response, where, EndpointType.CONTROLLERS)
    if int(response.endpoint_type) != EndpointType.CONTROLLERS:
        raise _broker_as_controller(where)
    # Some servers (tansu) ignore EndpointType and list brokers: a node that offers Metadata is a
    # broker, whatever it claims (controllers never serve Metadata).
    if ApiKey.METADATA in connection.supported:
        raise _broker_as_controller(where)
    return from_describe_cluster(response, version, EndpointType.CONTROLLERS)


async def _describe_brokers(
    connection: Connection, where: str, deadline: float, include_fenced: bool
) -> ClusterDescription:
    response, version = await _send_describe_cluster(
        connection, deadline, EndpointType.BROKERS, include_fenced
    )
    check_describe_error(response, where, EndpointType.BROKERS)
    if version >= 1 and int(response.endpoint_type) != EndpointType.BROKERS:
        raise _controller_as_broker(where)
    return from_describe_cluster(response, version, EndpointType.BROKERS)


async def _send_describe_cluster(
    connection: Connection, deadline: float, endpoint_type: EndpointType, include_fenced: bool
) -> tuple[Any, int]:
    low = 1 if endpoint_type is EndpointType.CONTROLLERS else 0
    high = 2 if include_fenced else 1
    try:
        version = connection.version_for(ApiKey.DESCRIBE_CLUSTER, (low, max(high, low)))
    except UnsupportedByServer:
        version = connection.version_for(ApiKey.DESCRIBE_CLUSTER, (low, 2))
    request = protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=int(endpoint_type),
        include_fenced_brokers=include_fenced and version >= 2,
    )
    return await connection.request(request, deadline=deadline), version


def check_describe_error(response: Any, where: str, endpoint_type: EndpointType) -> None:
    code = int(response.error_code)
    if code == MISMATCHED_ENDPOINT_TYPE:
        if endpoint_type is EndpointType.CONTROLLERS:
            raise _broker_as_controller(where)
        raise _controller_as_broker(where)
    if code == UNSUPPORTED_ENDPOINT_TYPE:
        raise KafkaError(
            code,
            f"{where} does not accept DescribeCluster for {endpoint_type.label}: the cluster's "
            "metadata.version must be 3.7-IV0 or later to bootstrap from controllers",
            what="DescribeCluster",
            node=where,
        )
    check(code, response.error_message, what="DescribeCluster", node=where)


def from_describe_cluster(response: Any, version: int, endpoint_type: EndpointType) -> ClusterDescription:
    nodes = tuple(
        NodeInfo(
            node_id=int(broker.broker_id),
            host=str(broker.host),
            port=int(broker.port),
            rack=broker.rack,
            fenced=bool(getattr(broker, "is_fenced", False)),
        )
        for broker in response.brokers
    )
    return ClusterDescription(
        cluster_id=response.cluster_id or None,
        controller_id=int(response.controller_id),
        endpoint_type=endpoint_type,
        nodes=nodes,
        source=f"DescribeCluster v{version}",
    )


async def describe_with_metadata(connection: Connection, *, deadline: float) -> ClusterDescription:
    """Describe the cluster with Metadata (no topics): the path for brokers without DescribeCluster."""
    version = connection.version_for(ApiKey.METADATA, (0, 12))
    # v0 has no "no topics" request (an empty list means all topics); v1+ take an empty list.
    request = protocol.make(
        protocol.request_class("metadata", version),
        topics=(),
        allow_auto_topic_creation=False,
        include_cluster_authorized_operations=False,
        include_topic_authorized_operations=False,
    )
    response = await connection.request(request, deadline=deadline)
    nodes = tuple(
        NodeInfo(node_id=int(b.node_id), host=str(b.host), port=int(b.port), rack=getattr(b, "rack", None))
        for b in response.brokers
    )
    return ClusterDescription(
        cluster_id=getattr(response, "cluster_id", None) or None,
        controller_id=int(getattr(response, "controller_id", -1)),
        endpoint_type=EndpointType.BROKERS,
        nodes=nodes,
        source=f"Metadata v{version}",
    )


def now() -> float:
    """The monotonic clock all deadlines use."""
    return time.monotonic()


# Earlier private names, still imported by some tool modules.
_check_describe_error = check_describe_error
_from_describe_cluster = from_describe_cluster
