"""ListTransactions (66), versions 0-2: the transactions this broker coordinates (KIP-664, KIP-994).

Behavior:
- Brokers only; each broker lists the transactional ids of the __transaction_state partitions it
  leads, those the principal may DESCRIBE. Filters: states (unknown names are echoed in
  UnknownStateFilters and match nothing), producer ids, v1 a duration (running longer than it), v2 a
  transactional id regular expression (INVALID_REGULAR_EXPRESSION when it does not compile).
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.LIST_TRANSACTIONS, (0, 2), listeners=Listener.BROKER)
async def handle_list_transactions(ctx: RequestContext, request: Any) -> Any:
    """List the transactions of the partitions this broker leads."""
    cluster = ctx.cluster
    topic = cluster.image.topic(coordination.TRANSACTIONS_TOPIC)
    led = []
    if topic is not None:
        led = [
            p
            for p in topic.partitions
            if coordination.coordinator_of(cluster, coordination.TRANSACTIONS_TOPIC, p) == ctx.node.node_id
        ]
    coordinator = coordination.txn_coordinator(cluster)
    try:
        listed, unknown = coordinator.list(
            led,
            {int(p) for p in request.producer_id_filters},
            set(request.state_filters),
            int(getattr(request, "duration_filter", -1)),
            getattr(request, "transactional_id_pattern", None),
        )
    except CoordinatorError as error:
        return ctx.r(
            "ListTransactionsResponse",
            throttle_time=ZERO,
            error_code=error.code,
            unknown_state_filters=(),
            transaction_states=(),
        )
    states = tuple(
        ctx.r(
            "TransactionState",
            transactional_id=t.transactional_id,
            producer_id=t.producer_id,
            transaction_state=t.state,
        )
        for t in listed
        if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, t.transactional_id)
    )
    return ctx.r(
        "ListTransactionsResponse",
        throttle_time=ZERO,
        error_code=0,
        unknown_state_filters=tuple(unknown),
        transaction_states=states,
    )
