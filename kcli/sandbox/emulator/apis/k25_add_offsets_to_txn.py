"""AddOffsetsToTxn (25), versions 0-4: a group's __consumer_offsets partition joins a transaction.

Behavior:
- Brokers only; WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the
  group (GROUP_AUTHORIZATION_FAILED); the broker must coordinate the transactional id; then it is
  AddPartitionsToTxn of the group's partition (transaction version 1: the client does not use 2).

Version notes: v2 PRODUCER_FENCED (INVALID_PRODUCER_EPOCH below); v3 flexible; v4 TRANSACTION_ABORTABLE.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.ADD_OFFSETS_TO_TXN, (0, 4), listeners=Listener.BROKER)
async def handle_add_offsets_to_txn(ctx: RequestContext, request: Any) -> Any:
    """Add the group's offsets partition to the transaction."""
    transactional_id = request.transactional_id
    if not ctx.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
        return ctx.answer("AddOffsetsToTxnResponse", ErrorCode.transactional_id_authorization_failed, None)
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return ctx.answer("AddOffsetsToTxnResponse", ErrorCode.group_authorization_failed, None)
    coordinator = coordination.txn_coordinator(ctx.cluster)
    code = coordination.coordinator_error(
        ctx.cluster,
        ctx.node.node_id,
        coordination.TRANSACTIONS_TOPIC,
        coordinator.partition_for(transactional_id or " "),
    )
    if code is None:
        partition = coordination.group_coordinator(ctx.cluster).partition_for(request.group_id)
        try:
            code = await coordinator.add_partitions(
                transactional_id,
                int(request.producer_id),
                int(request.producer_epoch),
                {(OFFSETS_TOPIC, partition)},
                0,
            )
        except CoordinatorError as error:
            code = error.code
    if ctx.version < 2 and code == ErrorCode.producer_fenced:
        code = ErrorCode.invalid_producer_epoch
    return ctx.answer("AddOffsetsToTxnResponse", code, None)
