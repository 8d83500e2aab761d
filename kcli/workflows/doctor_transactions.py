"""The doctor's transaction scan: every partition's last stable offset, and the open transactions behind it.

Behavior (all within the doctor's --timeout-ms, on one connection per broker):
- Metadata of every topic (internal ones included), then ListOffsets of every partition at its leader,
  read committed (the last stable offset) and read uncommitted (the high watermark);
- only partitions whose last stable offset is below their high watermark hold an open transaction:
  DescribeProducers at their leaders finds its producer; one whose producer last wrote longer ago
  than the brokers' transaction.max.timeout.ms (DescribeConfigs of one broker) is stuck;
- for the stuck ones, ListTransactions (by producer id) and DescribeTransactions say whether a
  coordinator still holds the transaction for that partition, as kafka-transactions.sh find-hanging
  judges it.
The judgement is kcli.ops.doctor_transactions'.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.doctor_transactions import StuckPartition, TransactionFacts
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.transactions import TransactionDescription, by_producer, candidates

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig

MAX_TIMEOUT_KEY = "transaction.max.timeout.ms"
MAX_TIMEOUT_DEFAULT_MS = 900_000


async def collect_transaction_facts(
    config: ClientConfig, *, timeout_ms: int, abort_prefix: Sequence[str], threshold_ms: int | None = None
) -> TransactionFacts:
    """Scan the cluster `config` bootstraps from (brokers); a failure is the facts' error, not raised.

    An open transaction is old once its producer is silent for `threshold_ms` (default: the brokers'
    transaction.max.timeout.ms)."""
    from kcli.client.admin import Admin

    bounded = replace(config, default_api_timeout_ms=timeout_ms, request_timeout_ms=min(timeout_ms, 30_000))
    try:
        async with Admin(bounded) as admin:
            return await _scan(
                admin, timeout_ms=timeout_ms, abort_prefix=tuple(abort_prefix), threshold_ms=threshold_ms
            )
    except KcliError as error:
        return TransactionFacts(
            partitions=0, open_partitions=0, threshold_ms=MAX_TIMEOUT_DEFAULT_MS, error=error.line()
        )


async def _scan(
    admin: Admin, *, timeout_ms: int, abort_prefix: tuple[str, ...], threshold_ms: int | None
) -> TransactionFacts:
    from kcli.client.api import producers as partitions_wire
    from kcli.client.api import transactions as wire
    from kcli.client.api.topic_names import metadata_of_every_topic

    metadata = await metadata_of_every_topic(admin)
    leaders = {
        TopicPartition(str(topic.name), int(p.partition_index)): int(p.leader_id)
        for topic in metadata.topics
        if int(topic.error_code) == 0
        for p in topic.partitions
    }
    offsets = await partitions_wire.stable_offsets(admin, leaders, timeout_ms=timeout_ms)
    held = {tp: span for tp, span in offsets.items() if span[0] < span[1]}
    threshold = threshold_ms if threshold_ms is not None else await _max_timeout_ms(admin)
    facts = TransactionFacts(
        partitions=len(offsets),
        open_partitions=len(held),
        threshold_ms=threshold,
        now_ms=int(time.time() * 1000),
        abort_prefix=abort_prefix,
    )
    if not held:
        return facts
    described = await partitions_wire.describe_producers(admin, sorted(held))
    now = int(time.time() * 1000)
    answered = [d for d in described.values() if not isinstance(d, KcliError)]
    # Only the transaction that holds the last stable offset back (it starts there) is reported.
    old = [
        t
        for t in candidates(answered, now_ms=now, max_timeout_ms=threshold)
        if t.producer.txn_start_offset == held[t.partition][0]
    ]
    if not old:
        return replace(facts, now_ms=now)
    grouped = by_producer(old)
    listed = await wire.list_transactions(admin, producer_ids=sorted(grouped))
    ids = {t.producer_id: t.transactional_id for t in listed if t.producer_id in grouped}
    states: dict[str, TransactionDescription] = {}
    if ids:
        for key, answer in (await wire.describe_transactions(admin, sorted(set(ids.values())))).items():
            if isinstance(answer, TransactionDescription):
                states[key] = answer
    stuck = []
    for transaction in sorted(old, key=lambda t: (t.partition.topic, t.partition.partition)):
        transactional_id = ids.get(transaction.producer.producer_id)
        state = states.get(transactional_id) if transactional_id is not None else None
        hanging = state is None or transaction.partition not in state.topic_partitions
        stuck.append(
            StuckPartition(
                partition=transaction.partition,
                last_stable_offset=held[transaction.partition][0],
                high_watermark=held[transaction.partition][1],
                transaction=transaction,
                hanging=hanging,
                transactional_id=transactional_id if state is not None else None,
                coordinator_state=state.state if state is not None else None,
            )
        )
    return replace(facts, stuck=tuple(stuck), now_ms=now)


async def _max_timeout_ms(admin: Admin) -> int:
    """transaction.max.timeout.ms of one broker (Kafka's default when it cannot be read)."""
    from kcli.client.api.configs import describe_configs
    from kcli.ops.config_spec import Entity, EntityType

    broker = min(admin.nodes, default=None)
    if broker is None:
        return MAX_TIMEOUT_DEFAULT_MS
    (result,) = await describe_configs(
        admin, [Entity(type=EntityType.BROKERS, name=str(broker))], include_synonyms=False
    )
    value = result.by_name().get(MAX_TIMEOUT_KEY)
    try:
        return int(value.value) if value is not None and value.value is not None else MAX_TIMEOUT_DEFAULT_MS
    except ValueError:
        return MAX_TIMEOUT_DEFAULT_MS
