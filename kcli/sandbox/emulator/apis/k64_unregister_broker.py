"""UnregisterBroker (64), version 0: remove a broker's registration (kafka-cluster unregister).

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- An unknown id -> BROKER_ID_NOT_REGISTERED. The broker leaves every ISR and loses leadership
  (UnregisterBrokerRecord plus PartitionChangeRecords), as when it is fenced.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.placement import leadership_after_loss
from kcli.sandbox.emulator.registry import api

R: Any = _records


@api(ApiKey.UNREGISTER_BROKER, (0, 0), forward=True)
async def handle_unregister_broker(ctx: RequestContext, request: Any) -> Any:
    """Unregister a broker."""
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.refuse_cluster("UnregisterBrokerResponse")
    cluster = ctx.cluster
    registration = cluster.image.brokers.get(request.broker_id)
    if registration is None:
        return ctx.answer(
            "UnregisterBrokerResponse",
            ErrorCode.broker_id_not_registered,
            f"Broker ID {request.broker_id} is not currently registered",
        )
    records = [
        *leadership_after_loss(cluster, request.broker_id),
        R.UnregisterBrokerRecord(broker_id=request.broker_id, broker_epoch=registration.broker_epoch),
    ]
    await cluster.commit(records)
    return ctx.answer("UnregisterBrokerResponse", 0, None)
