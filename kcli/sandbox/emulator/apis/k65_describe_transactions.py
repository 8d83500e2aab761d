"""DescribeTransactions (65), version 0: the state of transactional ids (KIP-664).

Behavior:
- Brokers only; DESCRIBE on each transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); topics
  the principal may not DESCRIBE are left out of the answer; each id is answered by its coordinator
  (NOT_COORDINATOR); an unknown one is TRANSACTIONAL_ID_NOT_FOUND, an empty one INVALID_REQUEST (an
  error's state holds zeros, a state not begun a start time of -1).
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.java_order import partition_set_order
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api
from kcli.sandbox.emulator.unset_times import encoded, timestamp


@api(ApiKey.DESCRIBE_TRANSACTIONS, (0, 0), listeners=Listener.BROKER)
async def handle_describe_transactions(ctx: RequestContext, request: Any) -> Any:
    """Describe each transactional id."""
    coordinator = coordination.txn_coordinator(ctx.cluster)
    states = []
    for transactional_id in request.transactional_ids:
        if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, transactional_id):
            states.append(_error(ctx, transactional_id, ErrorCode.transactional_id_authorization_failed))
            continue
        code = coordination.coordinator_error(
            ctx.cluster,
            ctx.node.node_id,
            coordination.TRANSACTIONS_TOPIC,
            coordinator.partition_for(transactional_id or " "),
        )
        if code is not None:
            states.append(_error(ctx, transactional_id, code))
            continue
        try:
            txn = coordinator.describe(transactional_id)
        except CoordinatorError as error:
            states.append(_error(ctx, transactional_id, error.code))
            continue
        by_topic: dict[str, list[int]] = {}
        for topic, partition in partition_set_order(txn.partitions):
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic):
                by_topic.setdefault(topic, []).append(partition)
        states.append(
            ctx.r(
                "TransactionState",
                error_code=0,
                transactional_id=transactional_id,
                transaction_state=txn.state.label,
                transaction_timeout=timedelta(milliseconds=txn.timeout_ms),
                transaction_start_time=timestamp(txn.start_ms),
                producer_id=txn.producer_id,
                producer_epoch=txn.producer_epoch,
                topics=tuple(ctx.r("TopicData", topic=t, partitions=tuple(ps)) for t, ps in by_topic.items()),
            )
        )
    return encoded(
        ctx.r("DescribeTransactionsResponse", throttle_time=ZERO, transaction_states=tuple(states))
    )


def _error(ctx: RequestContext, transactional_id: str, code: int) -> Any:
    """An error's state: the schema's defaults, zeros (seen on a real 4.4.0 broker)."""
    return ctx.r(
        "TransactionState",
        error_code=code,
        transactional_id=transactional_id,
        transaction_state="",
        transaction_timeout=ZERO,
        transaction_start_time=timestamp(0),
        producer_id=0,
        producer_epoch=0,
        topics=(),
    )
