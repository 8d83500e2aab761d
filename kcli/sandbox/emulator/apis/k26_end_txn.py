"""EndTxn (26), versions 0-5: a producer commits or aborts its transaction.

Behavior:
- Brokers only; WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); the broker
  must coordinate it (NOT_COORDINATOR); kcli.sandbox.emulator.groups.txn_shard answers once the
  PrepareCommit/PrepareAbort is durable, the markers following.
- v5 is transaction version 2 (KIP-890): the answer carries the bumped epoch (and a new producer id
  when the epoch was exhausted); below, -1 and -1.

Version notes: v1 is v0; v2 PRODUCER_FENCED (INVALID_PRODUCER_EPOCH below); v3 flexible; v4
TRANSACTION_ABORTABLE; v5 producer id and epoch in the answer.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.END_TXN, (0, 5), listeners=Listener.BROKER)
async def handle_end_txn(ctx: RequestContext, request: Any) -> Any:
    """Commit or abort the transaction."""
    transactional_id = request.transactional_id
    if not ctx.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
        return ctx.answer(
            "EndTxnResponse",
            ErrorCode.transactional_id_authorization_failed,
            None,
            producer_id=-1,
            producer_epoch=-1,
        )
    coordinator = coordination.txn_coordinator(ctx.cluster)
    code: Any = coordination.coordinator_error(
        ctx.cluster,
        ctx.node.node_id,
        coordination.TRANSACTIONS_TOPIC,
        coordinator.partition_for(transactional_id or " "),
    )
    producer_id = epoch = -1
    if code is None:
        try:
            code, producer_id, epoch = await coordinator.end_txn(
                transactional_id,
                int(request.producer_id),
                int(request.producer_epoch),
                bool(request.committed),
                2 if ctx.version >= 5 else 0,
            )
        except CoordinatorError as error:
            code = error.code
    if ctx.version < 2 and code == ErrorCode.producer_fenced:
        code = ErrorCode.invalid_producer_epoch
    return ctx.answer("EndTxnResponse", code, None, producer_id=producer_id, producer_epoch=epoch)
