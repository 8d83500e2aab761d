"""The cluster tool on the wire: DescribeCluster (60) v2, UnregisterBroker (64), UnregisterController (94),
ApiVersions (18).

Behavior:
- api-versions: the ApiVersions answer of every broker (or controller), each compared with the
  versions kcli itself can send, as kafka-cluster api-versions shows them.
- list-endpoints: DescribeCluster through the admin; --include-fenced-brokers needs v2 (Kafka 4.0)
  and brokers (controllers do not describe brokers).
- unregister: UnregisterBroker v0 to the active controller (or through a broker).
- unregister-controller: UnregisterController v0 (KIP-1312, Kafka 4.4) to the active controller (or
  through a broker, which forwards it). The controller refuses an id it has no registration for
  (CONTROLLER_ID_NOT_REGISTERED), its own id while it is active (INVALID_REQUEST), and everything below
  metadata.version 4.4-IV2 (UNSUPPORTED_VERSION, reported like a server without the API).
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.client.errors import check
from kcli.errors import KcliError, UsageError
from kcli.kafka import ApiKey

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.cluster import NodeInfo


@dataclass(frozen=True, slots=True, kw_only=True)
class ClusterEndpoints:
    """What list-endpoints shows: endpoint_type is "broker" or "controller"."""

    cluster_id: str | None
    endpoint_type: str
    nodes: tuple[NodeInfo, ...]


async def list_endpoints(admin: Admin, *, include_fenced: bool) -> ClusterEndpoints:
    """The brokers (with --bootstrap-server) or controllers (with --bootstrap-controller), by id."""
    from kcli.client.admin import Target
    from kcli.client.cluster import _check_describe_error, _from_describe_cluster
    from kcli.client.protocol import make, request_class
    from kcli.kafka import EndpointType

    controllers = admin.endpoint_type is EndpointType.CONTROLLERS
    if include_fenced and controllers:
        raise UsageError(
            "The option --include-fenced-brokers is only supported with --bootstrap-server option"
        )
    if include_fenced:
        response = await admin.call(
            ApiKey.DESCRIBE_CLUSTER,
            lambda version: make(
                request_class("describe_cluster", version),
                include_cluster_authorized_operations=False,
                endpoint_type=EndpointType.BROKERS,
                include_fenced_brokers=True,
            ),
            versions=(2, 2),
            target=Target.ANY,
        )
        _check_describe_error(response, "cluster", EndpointType.BROKERS)
        description = _from_describe_cluster(response, 2, EndpointType.BROKERS)
    else:
        description = await admin.describe_cluster()
    return ClusterEndpoints(
        cluster_id=description.cluster_id,
        endpoint_type="controller" if controllers else "broker",
        nodes=tuple(sorted(description.nodes, key=lambda n: n.node_id)),
    )


async def unregister_broker(admin: Admin, broker_id: int) -> None:
    """UnregisterBroker: forget a broker's registration (it must be shut down)."""
    code, message = await _unregister(
        admin, ApiKey.UNREGISTER_BROKER, "unregister_broker", broker_id=broker_id
    )
    check(code, message, what=f"UnregisterBroker of broker {broker_id}")


async def unregister_controller(admin: Admin, controller_id: int) -> None:
    """UnregisterController: remove a controller's registration from the cluster metadata."""
    from kcli.client.errors import UnsupportedByServer, code_of

    code, message = await _unregister(
        admin, ApiKey.UNREGISTER_CONTROLLER, "unregister_controller", controller_id=controller_id
    )
    if code == code_of("UNSUPPORTED_VERSION"):
        raise UnsupportedByServer(message or "UnregisterController is not supported")
    check(code, message, what=f"UnregisterController of controller {controller_id}")


async def _unregister(admin: Admin, api_key: ApiKey, schema: str, **node: int) -> tuple[int, str | None]:
    """One Unregister* request (v0) to the active controller: the answer's error code and message."""
    from kcli.client.admin import Target
    from kcli.client.protocol import request_class

    response = await admin.call(
        api_key,
        lambda version: request_class(schema, version)(**node),
        versions=(0, 0),
        target=Target.CONTROLLER,
        idempotent=False,
    )
    return int(response.error_code), response.error_message


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiEntry:
    """One API as a node offers it: its range, and the version kcli would use (None: unusable/unknown)."""

    api_key: int
    name: str | None  # None: an API key kcli does not know
    min_version: int | None = None  # None: not offered by the node (a client API it lacks)
    max_version: int | None = None
    usable: int | None = None
    request_header: int | None = None
    unusable: str | None = None  # "node too new" / "node too old"


@dataclass(frozen=True, slots=True, kw_only=True)
class NodeApiVersions:
    node: NodeInfo
    entries: tuple[ApiEntry, ...] = ()
    error: str | None = None  # why the node could not be asked


async def api_versions(admin: Admin) -> tuple[str, tuple[NodeApiVersions, ...]]:
    """(endpoint type, what each broker or controller offers), nodes by id, APIs by key."""
    endpoints = await list_endpoints(admin, include_fenced=False)

    async def one(node: NodeInfo) -> NodeApiVersions:
        try:
            response = await admin.api_versions(node.node_id)
        except KcliError as error:
            return NodeApiVersions(node=node, error=error.line())
        offered = {int(a.api_key): (int(a.min_version), int(a.max_version)) for a in response.api_keys}
        return NodeApiVersions(node=node, entries=api_entries(offered))

    nodes = await asyncio.gather(*(one(node) for node in endpoints.nodes))
    return endpoints.endpoint_type, tuple(nodes)


def api_entries(offered: dict[int, tuple[int, int]]) -> tuple[ApiEntry, ...]:
    """Kafka's NodeApiVersions view: every offered API, and each client API the node lacks."""
    from kcli.client.protocol import (
        API_SCHEMA_NAMES,
        BROKER_LISTENER_APIS,
        NAMED_ONLY,
        api_name,
        client_versions,
        request_header_version,
    )

    entries = []
    for key in sorted(set(offered) | BROKER_LISTENER_APIS):
        name = api_name(key) if key in API_SCHEMA_NAMES or key in NAMED_ONLY else None
        if key not in offered:
            entries.append(ApiEntry(api_key=key, name=name))
            continue
        low, high = offered[key]
        ours = client_versions(key) if name is not None else None
        if ours is None:
            entries.append(ApiEntry(api_key=key, name=name, min_version=low, max_version=high))
        elif ours[1] < low:
            entries.append(
                ApiEntry(api_key=key, name=name, min_version=low, max_version=high, unusable="node too new")
            )
        elif high < ours[0]:
            entries.append(
                ApiEntry(api_key=key, name=name, min_version=low, max_version=high, unusable="node too old")
            )
        else:
            usable = min(ours[1], high)
            entries.append(
                ApiEntry(
                    api_key=key,
                    name=name,
                    min_version=low,
                    max_version=high,
                    usable=usable,
                    request_header=request_header_version(key, usable),
                )
            )
    return tuple(entries)
