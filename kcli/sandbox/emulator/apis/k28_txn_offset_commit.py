"""TxnOffsetCommit (28), versions 0-5: a transactional producer commits a group's offsets (KIP-98, KIP-447).

Behavior (KafkaApis.handleTxnOffsetCommitRequest, then the group coordinator):
- Brokers only; WRITE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), READ on the
  group (GROUP_AUTHORIZATION_FAILED), READ on each topic (TOPIC_AUTHORIZATION_FAILED); unknown topics
  or partitions UNKNOWN_TOPIC_OR_PARTITION; the broker must coordinate the group.
- The group's partition must be in the producer's transaction (AddOffsetsToTxn; v5, transaction
  version 2, adds it), checked with the transaction coordinator as a Kafka 4.x broker checks it.
- The offsets are written to the group's partition as the producer's transactional records, pending
  until its transaction's marker: committed, they become the group's offsets; aborted, they go.
- v3+ carries the member's generation (classic) or epoch (KIP-848), checked as Kafka checks it.

Version notes: v2 leader epoch; v3 flexible, member id, generation, group.instance.id; v4
TRANSACTION_ABORTABLE; v5 transaction version 2. Kafka 4.4 also serves v6 (topic ids, KIP-1319):
not here (kio has no v6 schema).
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.groups.shard import CommitRequest
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.TXN_OFFSET_COMMIT, (0, 5), listeners=Listener.BROKER)
async def handle_txn_offset_commit(ctx: RequestContext, request: Any) -> Any:
    """Commit the offsets within the producer's transaction."""
    topics = [(t.name, t) for t in request.topics]
    if not ctx.authorize(AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, request.transactional_id):
        return _all(ctx, topics, ErrorCode.transactional_id_authorization_failed)
    if not ctx.authorize(AclOperation.READ, ResourceType.GROUP, request.group_id):
        return _all(ctx, topics, ErrorCode.group_authorization_failed)
    image = ctx.cluster.image
    answers: list[tuple[str, list[tuple[int, Any]]]] = []
    valid = []
    for name, topic in topics:
        partitions = [int(p.partition_index) for p in topic.partitions]
        known = image.topic(name)
        if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, name):
            answers.append((name, [(p, ErrorCode.topic_authorization_failed) for p in partitions]))
        elif known is None:
            answers.append((name, [(p, ErrorCode.unknown_topic_or_partition) for p in partitions]))
        else:
            bad = [(p, ErrorCode.unknown_topic_or_partition) for p in partitions if p not in known.partitions]
            if bad:
                answers.append((name, bad))
            good = [
                (
                    int(p.partition_index),
                    int(p.committed_offset),
                    int(getattr(p, "committed_leader_epoch", -1)),
                    p.committed_metadata,
                )
                for p in topic.partitions
                if int(p.partition_index) in known.partitions
            ]
            if good:
                valid.append((name, known.topic_id, good))
    if valid:
        coordinator = coordination.group_coordinator(ctx.cluster)
        code = coordination.coordinator_error(
            ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, coordinator.partition_for(request.group_id)
        )
        if code is not None:
            return _all(ctx, topics, code)
        gate = coordination.TransactionGate(coordination.txn_coordinator(ctx.cluster))
        refused = await gate.verify(
            request.transactional_id,
            int(request.producer_id),
            int(request.producer_epoch),
            OFFSETS_TOPIC,
            coordinator.partition_for(request.group_id),
            add=ctx.version >= 5,
        )
        if refused:
            return _all(ctx, topics, refused)
        commit = CommitRequest(
            group_id=request.group_id,
            member_id=getattr(request, "member_id", ""),
            instance_id=getattr(request, "group_instance_id", None),
            generation=int(getattr(request, "generation_id", -1)),
            retention_ms=-1,
            topics=valid,
            version=ctx.version,
            producer_id=int(request.producer_id),
            producer_epoch=int(request.producer_epoch),
            transactional_id=request.transactional_id,
        )
        try:
            committed = await coordinator.commit(commit)
        except CoordinatorError as error:
            return _all(ctx, topics, error.code)
        answers = coordination.merged(answers, [(n, ps) for n, _, ps in committed])
    return _response(ctx, answers)


def _all(ctx: RequestContext, topics: list[tuple[str, Any]], code: int) -> Any:
    return _response(ctx, [(n, [(int(p.partition_index), code) for p in t.partitions]) for n, t in topics])


def _response(ctx: RequestContext, answers: list[tuple[str, list[tuple[int, Any]]]]) -> Any:
    if ctx.version < 2:
        answers = [
            (
                n,
                [
                    (
                        p,
                        ErrorCode.coordinator_not_available
                        if c == ErrorCode.coordinator_load_in_progress
                        else c,
                    )
                    for p, c in ps
                ],
            )
            for n, ps in answers
        ]
    return ctx.r(
        "TxnOffsetCommitResponse",
        throttle_time=ZERO,
        topics=tuple(
            ctx.r(
                "TxnOffsetCommitResponseTopic",
                name=name,
                topic_id=uuid.UUID(int=0),
                partitions=tuple(
                    ctx.r("TxnOffsetCommitResponsePartition", partition_index=p, error_code=code)
                    for p, code in parts
                ),
            )
            for name, parts in answers
        ),
    )
