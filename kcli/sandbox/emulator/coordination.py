"""The emulator's coordinators wired to its cluster: the metadata image as their topic view, the brokers'
configs as their settings, the data plane's logs as their storage, and the internal topics they live in.

Behavior:
- One group coordinator per cluster, made on first use; it reads the image, never imports the cluster.
- A broker coordinates the groups (transactions) whose __consumer_offsets (__transaction_state)
  partition it leads; another broker answers NOT_COORDINATOR.
- FindCoordinator while the internal topic does not exist creates it, as a Kafka broker does through
  the controller (offsets.topic.num.partitions, offsets.topic.replication.factor; Kafka's topic
  configs), and answers COORDINATOR_NOT_AVAILABLE until it has a live leader.
"""

from __future__ import annotations

import uuid
import weakref
from collections.abc import Iterable
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ConfigResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC, GroupCoordinator
from kcli.sandbox.emulator.groups.settings import GroupSettings
from kcli.sandbox.emulator.groups.txn_coordinator import TRANSACTIONS_TOPIC, TxnCoordinator, TxnSettings

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

# The configs Kafka creates each internal topic with (GroupCoordinator/TransactionLog.offsetsTopicConfigs).
INTERNAL_TOPIC_CONFIGS = {
    OFFSETS_TOPIC: {
        "cleanup.policy": "compact",
        "compression.type": "producer",
        "segment.bytes": "104857600",
    },
    TRANSACTIONS_TOPIC: {
        "compression.type": "uncompressed",
        "cleanup.policy": "compact",
        "min.insync.replicas": "{min_isr}",
        "segment.bytes": "104857600",
        "unclean.leader.election.enable": "false",
    },
}
_SETTING_KEYS = (
    "offsets.topic.num.partitions",
    "offsets.topic.replication.factor",
    "offset.metadata.max.bytes",
    "offsets.retention.minutes",
    "group.min.session.timeout.ms",
    "group.max.session.timeout.ms",
    "group.initial.rebalance.delay.ms",
    "group.max.size",
    "group.consumer.session.timeout.ms",
    "group.consumer.min.session.timeout.ms",
    "group.consumer.max.session.timeout.ms",
    "group.consumer.heartbeat.interval.ms",
    "group.consumer.max.size",
    "group.consumer.assignors",
    "group.consumer.migration.policy",
    "transaction.state.log.num.partitions",
    "transaction.state.log.replication.factor",
    "transaction.state.log.min.isr",
    "transaction.max.timeout.ms",
    "transaction.abort.timed.out.transaction.cleanup.interval.ms",
    "transactional.id.expiration.ms",
    "transaction.remove.expired.transaction.cleanup.interval.ms",
)
PRODUCER_ID_BLOCK = 1000  # ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE

_COORDINATORS: weakref.WeakKeyDictionary[Any, GroupCoordinator] = weakref.WeakKeyDictionary()
_TXN_COORDINATORS: weakref.WeakKeyDictionary[Any, TxnCoordinator] = weakref.WeakKeyDictionary()
_SETTINGS: weakref.WeakKeyDictionary[Any, tuple[tuple[int, int], GroupSettings, dict[str, str]]] = (
    weakref.WeakKeyDictionary()
)


class ImageTopics:
    """The topics of the cluster's metadata image (kcli.sandbox.emulator.groups.model.TopicsView)."""

    def __init__(self, cluster: Any) -> None:
        self._cluster = cluster

    def topic_id(self, name: str) -> uuid.UUID | None:
        return self._cluster.image.topic_ids.get(name)  # type: ignore[no-any-return]

    def topic_name(self, topic_id: uuid.UUID) -> str | None:
        topic = self._cluster.image.topics.get(topic_id)
        return None if topic is None else topic.name  # type: ignore[no-any-return]

    def partition_count(self, topic_id: uuid.UUID) -> int:
        topic = self._cluster.image.topics.get(topic_id)
        return -1 if topic is None else len(topic.partitions)

    def topic_names(self) -> Iterable[str]:
        return list(self._cluster.image.topic_ids)


def group_coordinator(cluster: Any) -> GroupCoordinator:
    """The cluster's group coordinator (made on first use)."""
    coordinator = _COORDINATORS.get(cluster)
    if coordinator is None:
        coordinator = GroupCoordinator(
            lambda: partition_logs(cluster), ImageTopics(cluster), lambda: group_settings(cluster)
        )
        _COORDINATORS[cluster] = coordinator
    return coordinator


def partition_logs(cluster: Any) -> Any:
    """The data plane's PartitionLogs of the cluster (COORDINATOR_NOT_AVAILABLE without one)."""
    logs = getattr(cluster, "partition_logs", None)
    if logs is None:
        from kcli.sandbox.emulator.groups.model import CoordinatorError

        raise CoordinatorError(ErrorCode.coordinator_not_available, "the sandbox serves no partition logs")
    return logs


def broker_settings(cluster: Any) -> dict[str, str]:
    """The coordinator-related broker configs (of the lowest live broker: a sandbox's brokers share them)."""
    return _cached(cluster)[1]


def group_settings(cluster: Any) -> GroupSettings:
    return _cached(cluster)[0]


def _cached(cluster: Any) -> tuple[GroupSettings, dict[str, str]]:
    from kcli.sandbox.emulator.configview import broker_value

    image = cluster.image
    stamp = (image.broker_config_version, image.records_applied)
    cached = _SETTINGS.get(cluster)
    if cached is not None and cached[0] == stamp:
        return cached[1], cached[2]
    brokers = sorted(n.node_id for n in cluster.brokers())
    node = brokers[0] if brokers else 1
    values = {key: value for key in _SETTING_KEYS if (value := broker_value(cluster, node, key)) is not None}
    groups = {name: dict(v) for (kind, name), v in image.configs.items() if kind == ConfigResourceType.GROUP}
    settings = GroupSettings.from_configs(values, groups)
    _SETTINGS[cluster] = (stamp, settings, values)
    return settings, values


def coordinator_of(cluster: Any, topic: str, partition: int) -> int | None:
    """The live broker leading `partition` of an internal topic (None: no topic, no live leader)."""
    found = cluster.image.topic(topic)
    if found is None:
        return None
    state = found.partitions.get(partition)
    if state is None or state.leader < 0:
        return None
    registration = cluster.image.brokers.get(state.leader)
    node = cluster.nodes.get(state.leader)
    if registration is None or registration.fenced or node is None or not node.running:
        return None
    return int(state.leader)


async def ensure_internal_topic(cluster: Any, topic: str) -> None:
    """Create an internal topic as a broker's auto topic creation does (nothing when it exists or the
    cluster cannot host it yet)."""
    if cluster.image.topic(topic) is not None:
        return
    from kcli.sandbox.emulator.placement import assign, partition_records

    values = broker_settings(cluster)
    prefix = "offsets.topic" if topic == OFFSETS_TOPIC else "transaction.state.log"
    partitions = int(values.get(f"{prefix}.num.partitions", "50"))
    factor = int(values.get(f"{prefix}.replication.factor", "3"))
    brokers = cluster.live_broker_ids()
    if len(brokers) < factor:
        return  # INVALID_REPLICATION_FACTOR on a real broker: the coordinator stays unavailable
    topic_id = uuid.uuid4()
    records: list[Any] = [R.TopicRecord(name=topic, topic_id=topic_id)]
    min_isr = values.get("transaction.state.log.min.isr", "2")
    for key, value in INTERNAL_TOPIC_CONFIGS[topic].items():
        records.append(
            R.ConfigRecord(
                resource_type=ConfigResourceType.TOPIC,
                resource_name=topic,
                name=key,
                value=value.format(min_isr=min_isr),
            )
        )
    records.extend(partition_records(cluster, topic_id, assign(brokers, partitions, factor)))
    if cluster.image.topic(topic) is None:
        await cluster.commit(records)


def coordinator_error(cluster: Any, node_id: int, topic: str, partition: int) -> ErrorCode | None:
    """NOT_COORDINATOR unless `node_id` leads the partition (COORDINATOR_NOT_AVAILABLE: nobody does)."""
    leader = coordinator_of(cluster, topic, partition)
    if leader is None:
        return ErrorCode.coordinator_not_available
    if leader != node_id:
        return ErrorCode.not_coordinator
    return None


# ---------------------------------------------------------------- transactions


def txn_coordinator(cluster: Any) -> TxnCoordinator:
    """The cluster's transaction coordinator (made on first use; it becomes the data plane's gate)."""
    coordinator = _TXN_COORDINATORS.get(cluster)
    if coordinator is None:
        coordinator = TxnCoordinator(
            lambda: partition_logs(cluster),
            lambda: txn_settings(cluster),
            producer_ids=lambda: new_producer_id(cluster),
            markers=_MarkerWriter(cluster),
            coordinator_epoch=lambda partition: _leader_epoch(cluster, TRANSACTIONS_TOPIC, partition),
        )
        _TXN_COORDINATORS[cluster] = coordinator
        logs = getattr(cluster, "partition_logs", None)
        if logs is not None:
            logs.transaction_gate = TransactionGate(coordinator)
    return coordinator


def txn_settings(cluster: Any) -> TxnSettings:
    values = broker_settings(cluster)
    defaults = TxnSettings()

    def number(key: str, default: int) -> int:
        try:
            return int(values.get(key, default))
        except ValueError:
            return default

    return TxnSettings(
        partitions=number("transaction.state.log.num.partitions", defaults.partitions),
        max_timeout_ms=number("transaction.max.timeout.ms", defaults.max_timeout_ms),
        abort_interval_ms=number(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", defaults.abort_interval_ms
        ),
        expiration_ms=number("transactional.id.expiration.ms", defaults.expiration_ms),
        expiration_check_ms=number(
            "transaction.remove.expired.transaction.cleanup.interval.ms", defaults.expiration_check_ms
        ),
        server_version=int(cluster.image.features.get("transaction.version", 0)),
    )


async def new_producer_id(cluster: Any, node_id: int | None = None) -> int:
    """The next producer id of a broker's block; a new block from the controller when it is used up
    (a ProducerIdsRecord naming the next free id, as Kafka's AllocateProducerIds)."""
    logs = partition_logs(cluster)
    blocks: dict[int, list[int]] = logs.producer_id_blocks
    if node_id is None:
        node_id = min((b for b in cluster.live_broker_ids()), default=0)
    block = blocks.get(node_id)
    if block is None or block[0] >= block[1]:
        start = cluster.image.next_producer_id
        registration = cluster.image.brokers.get(node_id)
        await cluster.commit(
            [
                R.ProducerIdsRecord(
                    broker_id=node_id,
                    broker_epoch=registration.broker_epoch if registration is not None else -1,
                    next_producer_id=start + PRODUCER_ID_BLOCK,
                )
            ]
        )
        block = blocks[node_id] = [start, start + PRODUCER_ID_BLOCK]
    block[0] += 1
    return block[0] - 1


def _leader_epoch(cluster: Any, topic: str, partition: int) -> int:
    found = cluster.image.topic(topic)
    state = found.partitions.get(partition) if found is not None else None
    return int(state.leader_epoch) if state is not None else 0


class _MarkerWriter:
    """A transaction marker to a partition's leader: __consumer_offsets through the group coordinator."""

    def __init__(self, cluster: Any) -> None:
        self._cluster = cluster

    async def __call__(
        self,
        topic: str,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        commit: bool,
        coordinator_epoch: int,
        transaction_version: int,
    ) -> ErrorCode:
        return await write_marker(
            self._cluster,
            topic,
            partition,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            commit=commit,
            coordinator_epoch=coordinator_epoch,
            transaction_version=transaction_version,
        )


async def write_marker(
    cluster: Any,
    topic: str,
    partition: int,
    *,
    producer_id: int,
    producer_epoch: int,
    commit: bool,
    coordinator_epoch: int,
    transaction_version: int,
) -> ErrorCode:
    """What WriteTxnMarkers does for one partition: the Kafka error code of the write."""
    from kcli.sandbox.emulator.data.interface import LogError, Marker
    from kcli.sandbox.emulator.groups.model import CoordinatorError

    if cluster.image.topic(topic) is None or partition not in cluster.image.topic(topic).partitions:
        return ErrorCode.unknown_topic_or_partition
    try:
        if topic == OFFSETS_TOPIC:
            await group_coordinator(cluster).complete_transaction(
                partition,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                coordinator_epoch=coordinator_epoch,
                commit=commit,
                transaction_version=transaction_version,
            )
        else:
            await partition_logs(cluster).write_marker(
                topic,
                partition,
                producer_id=producer_id,
                producer_epoch=producer_epoch,
                marker=Marker.COMMIT if commit else Marker.ABORT,
                coordinator_epoch=coordinator_epoch,
                transaction_version=transaction_version,
            )
    except LogError as error:
        return ErrorCode(error.code)
    except CoordinatorError as error:
        if error.code in (
            ErrorCode.coordinator_not_available,
            ErrorCode.coordinator_load_in_progress,
            ErrorCode.not_coordinator,
        ):
            return ErrorCode.not_leader_or_follower
        return error.code
    return ErrorCode.none


class TransactionGate:
    """What a broker asks before it appends a transactional batch that opens a transaction (KIP-890),
    with the mapping Kafka's AddPartitionsToTxnManager applies for the producer."""

    def __init__(self, coordinator: TxnCoordinator) -> None:
        self._coordinator = coordinator

    async def verify(
        self,
        transactional_id: str,
        producer_id: int,
        producer_epoch: int,
        topic: str,
        partition: int,
        *,
        add: bool,
    ) -> int:
        from kcli.sandbox.emulator.groups.model import CoordinatorError

        try:
            if add:
                code = await self._coordinator.add_partitions(
                    transactional_id, producer_id, producer_epoch, {(topic, partition)}, 2
                )
            else:
                code = self._coordinator.verify(
                    transactional_id, producer_id, producer_epoch, {(topic, partition)}
                )[(topic, partition)]
        except CoordinatorError as error:
            code = error.code
        if code == ErrorCode.producer_fenced:
            return ErrorCode.invalid_producer_epoch
        if code == ErrorCode.transaction_abortable and not add:
            return ErrorCode.invalid_txn_state
        return int(code)


# ---------------------------------------------------------------- delegation tokens


def token_settings(cluster: Any) -> Any:
    """The brokers' delegation token settings (kcli.sandbox.emulator.groups.tokens.TokenSettings)."""
    from kcli.sandbox.emulator.configview import broker_value
    from kcli.sandbox.emulator.groups.tokens import TokenSettings

    node = min((n.node_id for n in cluster.brokers()), default=1)

    def number(key: str, default: int) -> int:
        try:
            return int(broker_value(cluster, node, key) or default)
        except ValueError:
            return default

    defaults = TokenSettings(secret_key=None)
    return TokenSettings(
        secret_key=broker_value(cluster, node, "delegation.token.secret.key") or None,
        max_lifetime_ms=number("delegation.token.max.lifetime.ms", defaults.max_lifetime_ms),
        expiry_time_ms=number("delegation.token.expiry.time.ms", defaults.expiry_time_ms),
    )


def token_login(cluster: Any) -> Any:
    """(token id, SCRAM mechanism) -> (its SCRAM credential, its owner) for a live token, else None."""
    import time

    from kcli.sandbox.emulator.groups.tokens import scram_credential
    from kcli.sandbox.emulator.image import ScramCredential

    def login(token_id: str, mechanism: int) -> tuple[ScramCredential, str] | None:
        settings = token_settings(cluster)
        token = cluster.image.tokens.get(token_id)
        now = int(time.time() * 1000)
        if (
            not settings.enabled
            or token is None
            or token.expiration_timestamp < now
            or token.max_timestamp < now
        ):
            return None
        salt, stored, server, iterations = scram_credential(settings.secret_key, token_id, mechanism)
        credential = ScramCredential(
            name=token_id,
            mechanism=mechanism,
            salt=salt,
            stored_key=stored,
            server_key=server,
            iterations=iterations,
        )
        return credential, token.owner

    return login


def token_requests_allowed(ctx: Any) -> bool:
    """Kafka's allowTokenRequests: not over PLAINTEXT (unless forwarded to a controller), not over SSL
    without a client certificate, never from a principal that logged in with a token."""
    session = ctx.extra.get("session")
    if session is not None and session.sasl_extensions.get("tokenauth") == "true":
        return False
    if ctx.forwarded:
        return True
    security = ctx.cluster.settings.security
    if not security.sasl and not security.tls:
        return False
    return not (security.tls and not security.sasl and ctx.principal == "User:ANONYMOUS")


def merged(errors: list[Any], results: list[Any]) -> list[Any]:
    """Per-topic answers as Kafka's response builders merge them (OffsetCommit, TxnOffsetCommit,
    OffsetDelete): the errors KafkaApis found first, in request order, then the coordinator's topics, a
    topic already listed getting the coordinator's partitions after its own. Each answer is a tuple: the
    topic's name first, its partition list last."""
    out = [(*e[:-1], list(e[-1])) for e in errors]
    index = {e[0]: e for e in out}
    for result in results:
        existing = index.get(result[0])
        if existing is None:
            entry = (*result[:-1], list(result[-1]))
            out.append(entry)
            index[entry[0]] = entry
        else:
            existing[-1].extend(result[-1])
    return out
