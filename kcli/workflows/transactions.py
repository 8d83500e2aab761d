"""`kcli transactions`: each subcommand of kafka-transactions.sh as a sequence of client calls.

Behavior (TransactionsCommand of Kafka 4.4):
- list: ListTransactions of every broker, with the duration and transactional-id pattern filters;
- describe: DescribeTransactions at the id's coordinator;
- describe-producers: DescribeProducers of the partition's leader, or of --broker-id;
- abort: by --start-offset, DescribeProducers finds the producer whose open transaction starts
  there; then one abort marker (WriteTxnMarkers) on the partition;
- find-hanging: the partitions to search (the one named; the topic's; every topic's, internal
  included, kept to those with a replica on --broker-id), their producers in batches of 500, the
  transactional ids of the candidates' producer ids (ListTransactions), their coordinators' view
  (DescribeTransactions), and what no coordinator will close;
- forceTerminateTransaction (4.4): InitProducerId for the id at its coordinator, which fences the
  producer and aborts its transaction. kcli first checks that the id exists (DescribeTransactions):
  InitProducerId of an unknown id would create it.
Each failure is Kafka's sentence: `Failed to ... : <cause>.`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from kcli.errors import KcliError, UsageError
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import (
    BATCH,
    AbortSpec,
    HangingReport,
    PartitionProducers,
    TransactionDescription,
    TransactionListing,
    abort_spec_at,
    by_producer,
    candidates,
    hanging,
)

if TYPE_CHECKING:
    from kcli.client.admin import Admin


def failed(prefix: str, cause: KcliError) -> KcliError:
    """Kafka's `<what failed>: <cause>.`, keeping the cause's hint and exit code."""
    text = cause.message if cause.message.endswith(".") else f"{cause.message}."
    kind = UsageError if isinstance(cause, UsageError) else KcliError
    return kind(f"{prefix}: {text}", hint=cause.hint)


def now_ms() -> int:
    return int(time.time() * 1000)


async def list_transactions(
    admin: Admin, *, duration_ms: int | None, pattern: str | None
) -> list[TransactionListing]:
    from kcli.client.api import transactions as wire

    try:
        return await wire.list_transactions(admin, duration_ms=duration_ms, pattern=pattern)
    except KcliError as error:
        raise failed("Failed to list transactions", error) from None


async def describe(admin: Admin, transactional_id: str) -> tuple[TransactionDescription, int]:
    """The id's transaction and the time it was described at (the duration column's now)."""
    from kcli.client.api import transactions as wire

    prefix = f"Failed to describe transaction state of transactional-id `{transactional_id}`"
    try:
        found = (await wire.describe_transactions(admin, [transactional_id]))[transactional_id]
    except KcliError as error:
        raise failed(prefix, error) from None
    if isinstance(found, KcliError):
        raise failed(prefix, found)
    return found, now_ms()


async def describe_producers(
    admin: Admin, partition: TopicPartition, *, broker_id: int | None
) -> PartitionProducers:
    from kcli.client.api import producers as partitions_wire

    where = f"broker {broker_id}" if broker_id is not None else "leader"
    prefix = f"Failed to describe producers for partition {partition} on {where}"
    try:
        _known_broker(admin, broker_id)
        found = (await partitions_wire.describe_producers(admin, [partition], broker_id=broker_id))[partition]
    except KcliError as error:
        raise failed(prefix, error) from None
    if isinstance(found, KcliError):
        raise failed(prefix, found)
    return found


def _known_broker(admin: Admin, broker_id: int | None) -> None:
    """A broker id the cluster does not have is refused at once (Kafka's Admin waits for it to appear)."""
    if broker_id is not None and broker_id not in admin.nodes:
        known = ", ".join(str(n) for n in sorted(admin.nodes))
        raise UsageError(f"broker {broker_id} is not a broker of this cluster (its brokers: {known})")


async def abort(
    admin: Admin,
    partition: TopicPartition,
    *,
    start_offset: int | None,
    spec: AbortSpec | None,
) -> AbortSpec:
    """Abort the open transaction at `start_offset` of `partition` (or the one `spec` names)."""
    from kcli.client.api import producers as partitions_wire

    if spec is None:
        assert start_offset is not None
        prefix = f"Failed to validate producer state for partition {partition}"
        try:
            found = (await partitions_wire.describe_producers(admin, [partition]))[partition]
        except KcliError as error:
            raise failed(prefix, error) from None
        if isinstance(found, KcliError):
            raise failed(prefix, found)
        spec = abort_spec_at(partition, start_offset, found.producers)
    try:
        await partitions_wire.abort_transaction(admin, spec)
    except KcliError as error:
        raise failed(f"Failed to abort transaction {spec}", error) from None
    return spec


async def force_terminate(admin: Admin, transactional_id: str, *, timeout_ms: int) -> tuple[int, int]:
    """Fence the id's producer and abort its transaction; the new (producer id, epoch)."""
    from kcli.client.api import transactions as wire

    prefix = f"Failed to force terminate transactionalId `{transactional_id}`"
    try:
        known = (await wire.describe_transactions(admin, [transactional_id]))[transactional_id]
        if isinstance(known, KcliError):
            raise known
        return await wire.fence_producer(admin, transactional_id, timeout_ms=timeout_ms)
    except KcliError as error:
        raise failed(prefix, error) from None


async def find_hanging(
    admin: Admin,
    *,
    broker_id: int | None,
    topic: str | None,
    partition: int | None,
    max_timeout_minutes: int,
) -> HangingReport:
    """The hanging transactions of the partitions in scope (FindHangingTransactionsCommand)."""
    from kcli.client.api import producers as partitions_wire
    from kcli.client.api import transactions as wire

    _known_broker(admin, broker_id)
    partitions = await _partitions_in_scope(admin, broker_id=broker_id, topic=topic, partition=partition)
    described: list[PartitionProducers] = []
    for start in range(0, len(partitions), BATCH):
        batch = partitions[start : start + BATCH]
        # Kafka prints the Optional broker id: `broker Optional[1]`, `broker Optional.empty`
        shown = f"Optional[{broker_id}]" if broker_id is not None else "Optional.empty"
        prefix = f"Failed to describe producers for {len(batch)} partitions on broker {shown}"
        try:
            answers = await partitions_wire.describe_producers(admin, batch, broker_id=broker_id)
        except KcliError as error:
            raise failed(prefix, error) from None
        for answer in answers.values():
            if isinstance(answer, KcliError):
                raise failed(prefix, answer)
            described.append(answer)
    now = now_ms()
    found = candidates(described, now_ms=now, max_timeout_ms=max_timeout_minutes * 60_000)
    if not found:
        return HangingReport(hanging=(), now_ms=now)
    grouped = by_producer(found)
    try:
        listed = await wire.list_transactions(admin, producer_ids=sorted(grouped))
    except KcliError as error:
        raise failed(f"Failed to list transactions for {len(grouped)} producers", error) from None
    ids = {t.producer_id: t.transactional_id for t in listed if t.producer_id in grouped}
    descriptions: dict[str, TransactionDescription | None] = {}
    if ids:
        try:
            answers_by_id = await wire.describe_transactions(admin, sorted(set(ids.values())))
        except KcliError as error:
            raise failed(f"Failed to describe {len(set(ids.values()))} transactions", error) from None
        for key, state in answers_by_id.items():
            if (
                isinstance(state, KcliError)
                and getattr(state, "code", None) != wire.TRANSACTIONAL_ID_NOT_FOUND
            ):
                raise failed(f"Failed to describe {len(set(ids.values()))} transactions", state)
            descriptions[key] = state if isinstance(state, TransactionDescription) else None
    result = hanging(grouped, ids, descriptions)
    result.sort(key=lambda t: (t.partition.topic, t.partition.partition, t.producer.producer_id))
    return HangingReport(hanging=tuple(result), now_ms=now)


async def _partitions_in_scope(
    admin: Admin, *, broker_id: int | None, topic: str | None, partition: int | None
) -> list[TopicPartition]:
    from kcli.client.api import producers as partitions_wire
    from kcli.client.api.topic_names import list_topic_names

    if topic is not None and partition is not None:
        return [TopicPartition(topic, partition)]
    if topic is not None:
        topics: Sequence[str] = [topic]
    else:
        try:
            topics = await list_topic_names(admin)  # internal topics included, as listInternal(true)
        except KcliError as error:
            raise failed("Failed to list topics", error) from None
    found: list[TopicPartition] = []
    for start in range(0, len(topics), BATCH):
        batch = list(topics[start : start + BATCH])
        try:
            places = await partitions_wire.partition_places(admin, batch)
        except KcliError as error:
            raise failed(f"Failed to describe {len(batch)} topics", error) from None
        for name in batch:
            known = places[name]
            if isinstance(known, KcliError):
                raise failed(f"Failed to describe {len(batch)} topics", known)
            found.extend(
                TopicPartition(name, index)
                for index, place in sorted(known.items())
                if broker_id is None or broker_id in place.replicas
            )
    return found
