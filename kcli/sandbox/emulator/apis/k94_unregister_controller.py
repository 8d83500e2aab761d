"""UnregisterController (94), version 0: remove a controller's registration (KIP-1312, Kafka 4.4).

Behavior (ControllerApis.handleUnregisterController, QuorumController.unregisterController and
ClusterControlManager.unregisterController of Kafka 4.4, checked in this order):
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- The active controller's own id -> INVALID_REQUEST ("Controller cannot unregister itself while it
  is active.").
- metadata.version below 4.4-IV2 (MetadataVersion.isControllerUnregistrationSupported) ->
  UNSUPPORTED_VERSION.
- An id without a registration -> CONTROLLER_ID_NOT_REGISTERED ("Controller ID N is not currently
  registered."). Whether the controller is still a voter is not checked.
- Otherwise an UnregisterControllerRecord. A controller that is still running registers again, as
  Kafka's ControllerRegistrationManager does when it sees its registration gone.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v0 only, flexible; kio has no schema for it (kcli.client.protocol.unregister_controller).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.client.protocol.unregister_controller import CONTROLLER_ID_NOT_REGISTERED
from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.ops.features import METADATA_VERSION
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registration import register_controller
from kcli.sandbox.emulator.registry import api

R: Any = _records
# MetadataVersion.IBP_4_4_IV2(33, "4.4", "IV2"): "Add support for controller unregistration (KIP-1312)".
FIRST_LEVEL = 33


def unregistration_supported(finalized_level: int) -> bool:
    """Whether a cluster at this metadata.version level can unregister controllers."""
    return finalized_level >= FIRST_LEVEL


@api(ApiKey.UNREGISTER_CONTROLLER, (0, 0), forward=True)
async def handle_unregister_controller(ctx: RequestContext, request: Any) -> Any:
    """Unregister a controller."""
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.refuse_cluster("UnregisterControllerResponse")
    cluster = ctx.cluster
    controller_id = int(request.controller_id)
    if controller_id == cluster.active_controller_id:
        return ctx.answer(
            "UnregisterControllerResponse",
            ErrorCode.invalid_request,
            "Controller cannot unregister itself while it is active.",
        )
    if not unregistration_supported(cluster.image.features.get(METADATA_VERSION, 0)):
        return ctx.answer(
            "UnregisterControllerResponse",
            ErrorCode.unsupported_version,
            "The current MetadataVersion is too old to support controller unregistration.",
        )
    if controller_id not in cluster.image.controllers:
        return ctx.answer(
            "UnregisterControllerResponse",
            CONTROLLER_ID_NOT_REGISTERED,
            f"Controller ID {controller_id} is not currently registered.",
        )
    await cluster.commit([R.UnregisterControllerRecord(controller_id=controller_id)])
    node = cluster.nodes.get(controller_id)
    if node is not None and node.running:
        await cluster.commit([register_controller(cluster, node)])
    return ctx.answer("UnregisterControllerResponse", 0, None)
