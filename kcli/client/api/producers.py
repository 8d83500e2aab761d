"""Partitions on the wire for the transactions tool and the doctor: Metadata (3) for leaders,
DescribeProducers (61), WriteTxnMarkers (27) and ListOffsets (2).

Behavior (as Kafka's Admin client does it for kafka-transactions.sh):
- DescribeProducers goes to each partition's leader (Metadata), or to the broker named; a leader
  that moved (NOT_LEADER_OR_FOLLOWER) is looked up again, within default.api.timeout.ms;
- an abort marker (WriteTxnMarkers, result false) goes to the partition's leader, looked up again
  while the leader moves;
- ListOffsets of the latest offset, read committed and read uncommitted, gives a partition's last
  stable offset and high watermark (the doctor's transaction scan).
Error texts are the Admin client's.
Version notes: WriteTxnMarkers v1-v2 (v0 removed in 4.0); ListOffsets v2-v11 (v2 adds the isolation level).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from kcli.client.api.transactions import (
    CLUSTER_AUTHORIZATION_FAILED,
    INVALID_PRODUCER_EPOCH,
    NONE,
    NOT_LEADER_OR_FOLLOWER,
    TOPIC_AUTHORIZATION_FAILED,
    TRANSACTION_COORDINATOR_FENCED,
    UNKNOWN_TOPIC_OR_PARTITION,
    Retries,
    TransactionError,
    nested,
    request,
)
from kcli.client.errors import code_of, error_info
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import AbortSpec, PartitionProducers, ProducerState

if TYPE_CHECKING:
    from kcli.client.admin import Admin

_LEADER_MOVED = frozenset(
    {NOT_LEADER_OR_FOLLOWER, code_of("REPLICA_NOT_AVAILABLE"), code_of("BROKER_NOT_AVAILABLE")}
)


class PartitionPlace(NamedTuple):
    """A partition's leader (-1: none) and replicas, as Metadata reports them."""

    leader: int
    replicas: tuple[int, ...]


async def partition_places(
    admin: Admin, topics: Sequence[str]
) -> dict[str, dict[int, PartitionPlace] | KcliError]:
    """Each topic's partitions with their leaders and replicas, from Metadata v1-v12 without
    auto-creation; a topic the cluster does not have (or will not describe) as its error."""
    wanted = list(dict.fromkeys(topics))

    def build(version: int) -> Any:
        from kcli.client.protocol import make

        topic_cls = nested("metadata", version, "MetadataRequestTopic")
        return request(
            "metadata",
            version,
            topics=tuple(make(topic_cls, name=name, topic_id=None) for name in wanted),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
            include_cluster_authorized_operations=False,
        )

    response = await admin.call(ApiKey.METADATA, build, versions=(1, 12))
    out: dict[str, dict[int, PartitionPlace] | KcliError] = {}
    for topic in response.topics:
        name, code = str(topic.name), int(topic.error_code)
        if code != NONE:
            out[name] = TransactionError(error_info(code).message, code=code)
        else:
            out[name] = {
                int(p.partition_index): PartitionPlace(
                    int(p.leader_id), tuple(int(r) for r in p.replica_nodes)
                )
                for p in topic.partitions
            }
    for name in wanted:
        out.setdefault(
            name,
            TransactionError(error_info(UNKNOWN_TOPIC_OR_PARTITION).message, code=UNKNOWN_TOPIC_OR_PARTITION),
        )
    return out


async def describe_producers(
    admin: Admin, partitions: Sequence[TopicPartition], *, broker_id: int | None = None
) -> dict[TopicPartition, PartitionProducers | KcliError]:
    """The active producers of each partition, asked of its leader (or of `broker_id`)."""
    from kcli.client.admin import Target

    wanted = list(dict.fromkeys(partitions))
    results: dict[TopicPartition, PartitionProducers | KcliError] = {}
    retries = Retries(admin)
    while wanted:
        routes = await _route(admin, wanted, broker_id, results)
        wanted = []

        async def ask(node: int, group: list[TopicPartition]) -> tuple[int, Any]:
            return node, await admin.call(
                ApiKey.DESCRIBE_PRODUCERS,
                lambda version: _producers_request(version, group),
                versions=(0, 0),
                target=Target.node(node),
            )

        for node, response in await asyncio.gather(*(ask(n, g) for n, g in routes.items())):
            for topic in response.topics:
                for p in topic.partitions:
                    tp = TopicPartition(str(topic.name), int(p.partition_index))
                    outcome = _producers(node, tp, p, broker_id)
                    if outcome is None:
                        wanted.append(tp)
                    else:
                        results[tp] = outcome
        if wanted and not await retries.again():
            for tp in wanted:
                results[tp] = TransactionError(
                    f"the leader of partition {tp} did not describe its producers within "
                    f"{admin.config.default_api_timeout_ms} ms (default.api.timeout.ms)",
                    code=NOT_LEADER_OR_FOLLOWER,
                )
            break
    return results


async def _route(
    admin: Admin,
    partitions: list[TopicPartition],
    broker_id: int | None,
    results: dict[TopicPartition, PartitionProducers | KcliError],
) -> dict[int, list[TopicPartition]]:
    """The broker each partition is asked on; partitions of unknown topics get their error in `results`."""
    routes: dict[int, list[TopicPartition]] = {}
    if broker_id is not None:
        routes[broker_id] = list(partitions)
        return routes
    places = await partition_places(admin, sorted({tp.topic for tp in partitions}))
    for tp in partitions:
        known = places.get(tp.topic)
        if isinstance(known, KcliError):
            results[tp] = known
        elif known is None or tp.partition not in known:
            code = UNKNOWN_TOPIC_OR_PARTITION
            results[tp] = TransactionError(error_info(code).message, code=code)
        elif known[tp.partition].leader < 0:
            code = code_of("LEADER_NOT_AVAILABLE")
            results[tp] = TransactionError(
                f"partition {tp} has no leader: {error_info(code).message}", code=code
            )
        else:
            routes.setdefault(known[tp.partition].leader, []).append(tp)
    return routes


def _producers_request(version: int, group: list[TopicPartition]) -> Any:
    from kio.static.primitive import i32

    topic_cls = nested("describe_producers", version, "TopicRequest")
    by_topic: dict[str, list[int]] = {}
    for tp in group:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return request(
        "describe_producers",
        version,
        topics=tuple(
            topic_cls(name=name, partition_indexes=tuple(i32(p) for p in parts))
            for name, parts in by_topic.items()
        ),
    )


def _producers(
    node: int, tp: TopicPartition, answer: Any, broker_id: int | None
) -> PartitionProducers | KcliError | None:
    """One partition's answer: its producers, its error, or None to find its leader and ask again."""
    code = int(answer.error_code)
    if code == NONE:
        return PartitionProducers(
            partition=tp,
            broker_id=node,
            producers=tuple(
                ProducerState(
                    producer_id=int(s.producer_id),
                    producer_epoch=int(s.producer_epoch),
                    last_sequence=int(s.last_sequence),
                    last_timestamp=int(s.last_timestamp),
                    coordinator_epoch=int(s.coordinator_epoch) if int(s.coordinator_epoch) >= 0 else None,
                    txn_start_offset=int(s.current_txn_start_offset)
                    if int(s.current_txn_start_offset) >= 0
                    else None,
                )
                for s in answer.active_producers
            ),
        )
    if code == NOT_LEADER_OR_FOLLOWER and broker_id is None:
        return None  # the leader moved: Kafka's Admin finds the new one
    if code == NOT_LEADER_OR_FOLLOWER:
        return TransactionError(
            f"Failed to describe active producers for partition {tp} on brokerId {broker_id}: "
            f"{error_info(code).message}",
            code=code,
        )
    if code == TOPIC_AUTHORIZATION_FAILED:
        return TransactionError(
            f"Failed to describe active producers for partition {tp} due to authorization failure on topic "
            f"`{tp.topic}`",
            code=code,
        )
    return TransactionError(
        f"Failed to describe active producers for partition {tp} due to unexpected error: "
        f"{answer.error_message or error_info(code).message}",
        code=code,
    )


async def abort_transaction(admin: Admin, spec: AbortSpec) -> None:
    """An abort marker for the spec's producer on its partition (WriteTxnMarkers to the leader)."""
    from kcli.client.admin import Target

    retries = Retries(admin)
    while True:
        places = await partition_places(admin, [spec.partition.topic])
        known = places.get(spec.partition.topic)
        if isinstance(known, KcliError):
            raise known
        place = (known or {}).get(spec.partition.partition)
        if place is None:
            raise TransactionError(
                error_info(UNKNOWN_TOPIC_OR_PARTITION).message, code=UNKNOWN_TOPIC_OR_PARTITION
            )
        leader = place.leader
        if leader >= 0:
            response = await admin.call(
                ApiKey.WRITE_TXN_MARKERS,
                lambda version: _marker_request(version, spec),
                versions=(1, 2),
                target=Target.node(leader),
                idempotent=False,
            )
            code = _marker_code(response, spec)
            if code == NONE:
                return
            if code not in _LEADER_MOVED | {UNKNOWN_TOPIC_OR_PARTITION}:
                raise TransactionError(_marker_error(spec, code), code=code)
        if not await retries.again():
            raise TransactionError(
                f"WriteTxnMarkers request with {spec} did not reach the leader of {spec.partition} within "
                f"{admin.config.default_api_timeout_ms} ms (default.api.timeout.ms)",
                code=NOT_LEADER_OR_FOLLOWER,
            )


def _marker_request(version: int, spec: AbortSpec) -> Any:
    from kio.static.primitive import i16, i32, i64

    marker_cls = nested("write_txn_markers", version, "WritableTxnMarker")
    topic_cls = nested("write_txn_markers", version, "WritableTxnMarkerTopic")
    from kcli.client.protocol import make

    marker = make(
        marker_cls,
        producer_id=i64(spec.producer_id),
        producer_epoch=i16(spec.producer_epoch),
        transaction_result=False,  # abort
        topics=(topic_cls(name=spec.partition.topic, partition_indexes=(i32(spec.partition.partition),)),),
        coordinator_epoch=i32(spec.coordinator_epoch),
    )
    return request("write_txn_markers", version, markers=(marker,))


def _marker_code(response: Any, spec: AbortSpec) -> int:
    for marker in response.markers:
        if int(marker.producer_id) != spec.producer_id:
            continue
        for topic in marker.topics:
            for partition in topic.partitions:
                if (
                    str(topic.name) == spec.partition.topic
                    and int(partition.partition_index) == spec.partition.partition
                ):
                    return int(partition.error_code)
    raise TransactionError(
        f"WriteTxnMarkers response included unexpected marker entries (expected to find exactly one entry "
        f"with producerId {spec.producer_id} and topic partition {spec.partition})"
    )


def _marker_error(spec: AbortSpec, code: int) -> str:
    what = f"WriteTxnMarkers request with {spec}"
    if code == CLUSTER_AUTHORIZATION_FAILED:
        return f"{what} failed due to cluster authorization error"
    if code == INVALID_PRODUCER_EPOCH:
        return f"{what} failed due an invalid producer epoch"
    if code == TRANSACTION_COORDINATOR_FENCED:
        return (
            f"{what} failed since the provided coordinator epoch {spec.coordinator_epoch} has been fenced "
            "by the active coordinator"
        )
    return f"{what} failed due to unexpected error: {error_info(code).message}"


READ_UNCOMMITTED, READ_COMMITTED = 0, 1
LATEST = -1  # ListOffsets' timestamp of the offset after the last one the isolation level sees


async def stable_offsets(
    admin: Admin, leaders: Mapping[TopicPartition, int], *, timeout_ms: int | None = None
) -> dict[TopicPartition, tuple[int, int]]:
    """(last stable offset, high watermark) of each partition, asked of its leader: ListOffsets of the
    latest offset read committed, then read uncommitted (both requests to each leader at once).
    Partitions a leader could not answer for are left out."""
    from kcli.client.admin import Target

    by_leader: dict[int, list[TopicPartition]] = {}
    for tp, leader in leaders.items():
        if leader >= 0:
            by_leader.setdefault(leader, []).append(tp)

    async def ask(leader: int, partitions: list[TopicPartition], isolation: int) -> dict[TopicPartition, int]:
        try:
            response = await admin.call(
                ApiKey.LIST_OFFSETS,
                lambda version: _offsets_request(
                    version, partitions, isolation, admin.config.request_timeout_ms
                ),
                versions=(2, 11),
                target=Target.node(leader),
                timeout_ms=timeout_ms,
            )
        except KcliError:
            return {}
        return {
            TopicPartition(str(topic.name), int(p.partition_index)): int(p.offset)
            for topic in response.topics
            for p in topic.partitions
            if int(p.error_code) == NONE
        }

    jobs = [
        ask(leader, partitions, isolation)
        for leader, partitions in by_leader.items()
        for isolation in (READ_COMMITTED, READ_UNCOMMITTED)
    ]
    answers = await asyncio.gather(*jobs)
    committed: dict[TopicPartition, int] = {}
    uncommitted: dict[TopicPartition, int] = {}
    for index, answer in enumerate(answers):
        (committed if index % 2 == 0 else uncommitted).update(answer)
    return {tp: (committed[tp], uncommitted[tp]) for tp in committed if tp in uncommitted}


def _timeout(ms: int) -> Any:
    from kcli.client.api.reassign import timeout_value

    return timeout_value(ms)


def _offsets_request(version: int, partitions: list[TopicPartition], isolation: int, timeout_ms: int) -> Any:
    from kio.static.primitive import i8, i32, i64

    from kcli.client.protocol import make

    topic_cls = nested("list_offsets", version, "ListOffsetsTopic")
    partition_cls = nested("list_offsets", version, "ListOffsetsPartition")
    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)
    return request(
        "list_offsets",
        version,
        replica_id=i32(-1),
        isolation_level=i8(isolation),
        timeout=_timeout(timeout_ms),
        topics=tuple(
            topic_cls(
                name=name,
                partitions=tuple(
                    make(
                        partition_cls,
                        partition_index=i32(p),
                        current_leader_epoch=i32(-1),
                        timestamp=i64(LATEST),
                    )
                    for p in parts
                ),
            )
            for name, parts in by_topic.items()
        ),
    )
