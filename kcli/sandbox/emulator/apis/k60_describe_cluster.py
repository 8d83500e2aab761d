"""DescribeCluster (60), versions 0-2: cluster id, controller id and the nodes of the asked endpoint type.

Behavior:
- Brokers answer EndpointType 1 with the unfenced brokers; as ControllerId a live broker (KRaft
  brokers forward controller requests, so Kafka names a random live broker; the sandbox the lowest).
- Controllers answer EndpointType 2 with the controllers and the active controller id (KIP-919).
- The other type -> MISMATCHED_ENDPOINT_TYPE (114); an unknown type -> UNSUPPORTED_ENDPOINT_TYPE (115);
  at v0 both are INVALID_REQUEST (42).
- Fenced brokers are listed only with IncludeFencedBrokers (v2), with IsFenced set.
- A misrouted node advertises another node's endpoint (KIP-1242 fault).

Version notes: v1 adds EndpointType; v2 adds IncludeFencedBrokers and IsFenced.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey, EndpointType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api

CLUSTER_AUTHORIZED_OPERATIONS_UNSET = -(2**31)


@api(ApiKey.DESCRIBE_CLUSTER, (0, 2))
async def handle_describe_cluster(ctx: RequestContext, request: Any) -> Any:
    """Describe the cluster through this listener."""
    wanted = getattr(request, "endpoint_type", EndpointType.BROKERS)
    own = EndpointType.BROKERS if ctx.is_broker else EndpointType.CONTROLLERS
    error, message = 0, None
    if wanted not in (EndpointType.BROKERS, EndpointType.CONTROLLERS):
        error, message = 115, f"Unsupported endpoint type {wanted}"
    elif wanted != own:
        error = 114
        names = {EndpointType.BROKERS: "BROKER", EndpointType.CONTROLLERS: "CONTROLLER"}
        message = f"The request was sent to an endpoint of type {names[own]}, but we wanted an endpoint of type {names[wanted]}"
    if error and ctx.version == 0:
        error = 42
    if error:
        return ctx.answer(
            "DescribeClusterResponse",
            error,
            message,
            endpoint_type=own,
            cluster_id="",
            controller_id=-1,
            brokers=(),
            cluster_authorized_operations=CLUSTER_AUTHORIZED_OPERATIONS_UNSET,
        )
    cluster = ctx.cluster
    nodes = []
    if own == EndpointType.BROKERS:
        include_fenced = bool(getattr(request, "include_fenced_brokers", False))
        for broker in sorted(cluster.image.brokers.values(), key=lambda b: b.broker_id):
            if broker.fenced and not include_fenced:
                continue
            nodes.append(_node(ctx, broker.broker_id, broker.rack, broker.fenced))
        controller_id = cluster.client_controller_id()
    else:
        for controller in sorted(cluster.image.controllers.values(), key=lambda c: c.controller_id):
            node = cluster.nodes.get(controller.controller_id)
            if node is None or not node.running:
                continue
            nodes.append(_node(ctx, controller.controller_id, None, False))
        controller_id = cluster.active_controller_id
    operations = CLUSTER_AUTHORIZED_OPERATIONS_UNSET
    if request.include_cluster_authorized_operations:
        from kcli.sandbox.emulator.authorizer import authorized_operations

        operations = authorized_operations(ctx, 4, "kafka-cluster")
    return ctx.answer(
        "DescribeClusterResponse",
        0,
        None,
        endpoint_type=own,
        cluster_id=cluster.cluster_id,
        controller_id=controller_id,
        brokers=tuple(nodes),
        cluster_authorized_operations=operations,
    )


def _node(ctx: RequestContext, node_id: int, rack: str | None, fenced: bool) -> Any:
    """One DescribeClusterBroker entry, at the address the node advertises."""
    host, port = ctx.cluster.advertised(node_id)
    return ctx.r(
        "DescribeClusterBroker", broker_id=node_id, host=host, port=port, rack=rack, is_fenced=fenced
    )
