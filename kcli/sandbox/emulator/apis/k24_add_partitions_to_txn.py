"""AddPartitionsToTxn (24), versions 0-5: partitions join a producer's transaction.

Behavior:
- Brokers only. v0-v3 (a producer): WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED
  for every partition), WRITE on each topic (TOPIC_AUTHORIZATION_FAILED; internal topics are not
  checked); a partition that does not exist is UNKNOWN_TOPIC_OR_PARTITION; either way the others are
  OPERATION_NOT_ATTEMPTED. v4+ (a broker verifying a produce, KIP-890): CLUSTER_ACTION on the cluster,
  several transactions, verify_only checks instead of adding.
- The broker must coordinate the transactional id (NOT_COORDINATOR); then
  kcli.sandbox.emulator.groups.txn_shard answers, one error for every partition of the transaction.

Version notes: v2 PRODUCER_FENCED (INVALID_PRODUCER_EPOCH below); v3 flexible; v4 batched
transactions, verify_only, a top-level error; v5 TRANSACTION_ABORTABLE.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.java_order import by_topic_order
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api

Results = dict[tuple[str, int], int]


@api(ApiKey.ADD_PARTITIONS_TO_TXN, (0, 5), listeners=Listener.BROKER)
async def handle_add_partitions_to_txn(ctx: RequestContext, request: Any) -> Any:
    """Add the partitions to each transaction."""
    if ctx.version < 4:
        partitions = [(t.name, int(p)) for t in request.v3_and_below_topics for p in t.partitions]
        results = await _one(
            ctx,
            request.v3_and_below_transactional_id,
            int(request.v3_and_below_producer_id),
            int(request.v3_and_below_producer_epoch),
            False,
            partitions,
        )
        return ctx.r(
            "AddPartitionsToTxnResponse",
            throttle_time=ZERO,
            results_by_topic_v3_and_below=_topics(ctx, results),
        )
    if not ctx.authorize(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.r(
            "AddPartitionsToTxnResponse",
            throttle_time=ZERO,
            error_code=ErrorCode.cluster_authorization_failed,
            results_by_transaction=(),
        )
    answers = []
    for txn in request.transactions:
        partitions = [(t.name, int(p)) for t in txn.topics for p in t.partitions]
        results = await _one(
            ctx,
            txn.transactional_id,
            int(txn.producer_id),
            int(txn.producer_epoch),
            bool(txn.verify_only),
            partitions,
        )
        answers.append(
            ctx.r(
                "AddPartitionsToTxnResult",
                transactional_id=txn.transactional_id,
                topic_results=_topics(ctx, results),
            )
        )
    return ctx.r(
        "AddPartitionsToTxnResponse", throttle_time=ZERO, error_code=0, results_by_transaction=tuple(answers)
    )


async def _one(
    ctx: RequestContext,
    transactional_id: str,
    producer_id: int,
    epoch: int,
    verify_only: bool,
    partitions: list[tuple[str, int]],
) -> Results:
    if ctx.version < 4 and not ctx.authorize(
        AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactional_id
    ):
        return dict.fromkeys(partitions, ErrorCode.transactional_id_authorization_failed)
    image = ctx.cluster.image
    refused: Results = {}
    for topic, partition in partitions:
        internal = topic.startswith("__")
        if (
            ctx.version < 4
            and not internal
            and not ctx.authorize(AclOperation.WRITE, ResourceType.TOPIC, topic)
        ):
            refused[(topic, partition)] = ErrorCode.topic_authorization_failed
        elif (found := image.topic(topic)) is None or partition not in found.partitions:
            refused[(topic, partition)] = ErrorCode.unknown_topic_or_partition
    if refused:
        return {p: refused.get(p, ErrorCode.operation_not_attempted) for p in partitions}
    coordinator = coordination.txn_coordinator(ctx.cluster)
    code = coordination.coordinator_error(
        ctx.cluster,
        ctx.node.node_id,
        coordination.TRANSACTIONS_TOPIC,
        coordinator.partition_for(transactional_id or " "),
    )
    if code is not None:
        return dict.fromkeys(partitions, code)
    try:
        if verify_only:
            return dict(coordinator.verify(transactional_id, producer_id, epoch, set(partitions)))
        error = await coordinator.add_partitions(
            transactional_id, producer_id, epoch, set(partitions), 2 if ctx.version >= 4 else 0
        )
    except CoordinatorError as problem:
        error = problem.code
    if ctx.version < 2 and error == ErrorCode.producer_fenced:
        error = ErrorCode.invalid_producer_epoch
    return dict.fromkeys(partitions, error)


def _topics(ctx: RequestContext, results: Results) -> tuple[Any, ...]:
    return tuple(
        ctx.r(
            "AddPartitionsToTxnTopicResult",
            name=topic,
            results_by_partition=tuple(
                ctx.r(
                    "AddPartitionsToTxnPartitionResult",
                    partition_index=p,
                    partition_error_code=results[(topic, p)],
                )
                for p in partitions
            ),
        )
        for topic, partitions in by_topic_order(results)
    )
