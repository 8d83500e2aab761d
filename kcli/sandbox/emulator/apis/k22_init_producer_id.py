"""InitProducerId (22), versions 0-5 (brokers only): producer ids for idempotent and transactional producers.

Behavior:
- Without a transactional id (an idempotent producer): a new producer id at epoch 0. A broker
  hands out ids from blocks of 1000 it gets from the controller (a ProducerIdsRecord naming the
  next free id, as Kafka's AllocateProducerIds), so ids are unique across brokers and restarts.
  Auth: IDEMPOTENT_WRITE on the cluster or WRITE on some topic (KIP-679), else
  CLUSTER_AUTHORIZATION_FAILED.
- With a transactional id: WRITE on it (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); the broker must
  coordinate it (NOT_COORDINATOR); the transaction coordinator answers
  (kcli.sandbox.emulator.groups.txn_shard). A producer id without an epoch (or the reverse) is
  INVALID_REQUEST; below v4, PRODUCER_FENCED is INVALID_PRODUCER_EPOCH.

Version notes: v2 flexible; v3 ProducerId/ProducerEpoch of a producer resuming; v4 PRODUCER_FENCED;
v6 (2PC, KIP-939) is not served by a Kafka 4.4 broker.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records
BLOCK_SIZE = 1000  # ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE


@api(ApiKey.INIT_PRODUCER_ID, (0, 5), listeners=Listener.BROKER)
async def handle_init_producer_id(ctx: RequestContext, request: Any) -> Any:
    """A producer id (and epoch)."""
    if request.transactional_id is not None:
        code, producer_id, epoch = await _transactional(ctx, request)
        if ctx.version < 4 and code == ErrorCode.producer_fenced:
            code = ErrorCode.invalid_producer_epoch
        return ctx.answer("InitProducerIdResponse", code, None, producer_id=producer_id, producer_epoch=epoch)
    if not _may_write(ctx):
        return ctx.answer(
            "InitProducerIdResponse",
            ErrorCode.cluster_authorization_failed,
            None,
            producer_id=-1,
            producer_epoch=-1,
        )
    producer_id = await next_producer_id(ctx)
    return ctx.answer("InitProducerIdResponse", 0, None, producer_id=producer_id, producer_epoch=0)


async def _transactional(ctx: RequestContext, request: Any) -> tuple[int, int, int]:
    from kcli.sandbox.emulator import coordination

    transactional_id = request.transactional_id
    if not ctx.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id):
        return ErrorCode.transactional_id_authorization_failed, -1, -1
    producer_id = int(getattr(request, "producer_id", -1))
    epoch = int(getattr(request, "producer_epoch", -1))
    if (producer_id == -1) != (epoch == -1):
        return ErrorCode.invalid_request, -1, -1
    coordinator = coordination.txn_coordinator(ctx.cluster)
    if transactional_id:
        partition = coordinator.partition_for(transactional_id)
        code = coordination.coordinator_error(
            ctx.cluster, ctx.node.node_id, coordination.TRANSACTIONS_TOPIC, partition
        )
        if code is not None:
            return code, -1, -1
    timeout = int(request.transaction_timeout.total_seconds() * 1000)
    expected = None if producer_id == -1 else (producer_id, epoch)
    return await coordinator.init_producer_id(transactional_id, timeout, expected)


def _may_write(ctx: RequestContext) -> bool:
    if ctx.authorize(AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER, CLUSTER_NAME):
        return True
    return any(
        ctx.authorize(AclOperation.WRITE, ResourceType.TOPIC, t.name)
        for t in ctx.cluster.image.topics.values()
    )


async def next_producer_id(ctx: RequestContext) -> int:
    """The next id of the answering broker's block, a new block from the controller when it is used up."""
    blocks: dict[int, list[int]] = pa.plane(ctx).producer_id_blocks
    block = blocks.get(ctx.node.node_id)
    if block is None or block[0] >= block[1]:
        cluster = ctx.cluster
        start = cluster.image.next_producer_id
        registration = cluster.image.brokers.get(ctx.node.node_id)
        await cluster.commit(
            [
                R.ProducerIdsRecord(
                    broker_id=ctx.node.node_id,
                    broker_epoch=registration.broker_epoch if registration is not None else -1,
                    next_producer_id=start + BLOCK_SIZE,
                )
            ]
        )
        block = blocks[ctx.node.node_id] = [start, start + BLOCK_SIZE]
    block[0] += 1
    return block[0] - 1
