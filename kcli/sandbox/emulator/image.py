"""The sandbox's metadata image: cluster state rebuilt from KRaft metadata records.

Every change the controller makes is a record (kcli.metadata.records); `Image.apply` is the only
way state changes, so replaying a metadata log rebuilds exactly the state that wrote it.
Records are read by their Kafka field names (snake_case), dispatched on the record class name.
Partitions, ELR clears, configs and feature levels change by kcli.metadata.delta, the replay rule
the metadata shell and the audits use too; a record that rule refuses changes nothing here either.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from kcli.kafka import ConfigResourceType
from kcli.metadata import delta

# ConfigResource type ids (ConfigRecord.ResourceType)


@dataclass(slots=True, kw_only=True)
class Partition:
    """One partition's replica assignment and leadership."""

    topic_id: uuid.UUID
    partition_id: int
    replicas: list[int]
    isr: list[int]
    removing_replicas: list[int] = field(default_factory=list)
    adding_replicas: list[int] = field(default_factory=list)
    leader: int = -1
    leader_recovery_state: int = 0
    leader_epoch: int = 0
    partition_epoch: int = 0
    directories: list[uuid.UUID] = field(default_factory=list)
    eligible_leader_replicas: list[int] = field(default_factory=list)
    last_known_elr: list[int] = field(default_factory=list)

    def state(self) -> tuple[Any, ...]:
        """The partition as kcli.metadata.delta's state (PartitionRecord's fields, in its order)."""
        return (
            self.partition_id, self.topic_id, self.replicas, self.isr, self.removing_replicas,
            self.adding_replicas, self.leader, self.leader_recovery_state, self.leader_epoch,
            self.partition_epoch, tuple(self.directories), self.eligible_leader_replicas, self.last_known_elr,
        )  # fmt: skip

    @classmethod
    def of(cls, state: tuple[Any, ...]) -> Partition:
        partition = cls(topic_id=state[1], partition_id=state[0], replicas=[], isr=[])
        partition.take(state)
        return partition

    def take(self, state: tuple[Any, ...]) -> None:
        """Become `state` in place (whoever holds this partition sees the change)."""
        (_, _, replicas, isr, removing, adding, self.leader, self.leader_recovery_state, self.leader_epoch,
         self.partition_epoch, directories, elr, last_known_elr) = state  # fmt: skip
        self.replicas, self.isr = list(replicas), list(isr)
        self.removing_replicas, self.adding_replicas = list(removing), list(adding)
        self.directories = list(directories or ())
        self.eligible_leader_replicas, self.last_known_elr = list(elr or ()), list(last_known_elr or ())


@dataclass(slots=True, kw_only=True)
class Topic:
    """A topic and its partitions, keyed by partition id."""

    name: str
    topic_id: uuid.UUID
    partitions: dict[int, Partition] = field(default_factory=dict)
    revision: int = 0  # bumped on every change to the topic's partitions (response caches key on it)


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """A listener of a registered node."""

    name: str
    host: str
    port: int
    security_protocol: int


@dataclass(slots=True, kw_only=True)
class BrokerRegistration:
    """A registered broker (RegisterBrokerRecord + BrokerRegistrationChangeRecord deltas)."""

    broker_id: int
    incarnation_id: uuid.UUID
    broker_epoch: int
    endpoints: tuple[Endpoint, ...]
    rack: str | None
    fenced: bool
    in_controlled_shutdown: bool = False
    log_dirs: tuple[uuid.UUID, ...] = ()
    features: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(slots=True, kw_only=True)
class ControllerRegistration:
    """A registered controller (RegisterControllerRecord)."""

    controller_id: int
    incarnation_id: uuid.UUID
    endpoints: tuple[Endpoint, ...]
    features: dict[str, tuple[int, int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class AclEntry:
    """One ACL binding (AccessControlEntryRecord); codes as in Kafka's AclBinding enums."""

    acl_id: uuid.UUID
    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int


@dataclass(frozen=True, slots=True, kw_only=True)
class ScramCredential:
    """One SCRAM credential of a user (UserScramCredentialRecord)."""

    name: str
    mechanism: int
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


@dataclass(frozen=True, slots=True, kw_only=True)
class DelegationToken:
    """One delegation token (DelegationTokenRecord): principals as "User:name"."""

    token_id: str
    owner: str
    requester: str
    renewers: tuple[str, ...]
    issue_timestamp: int
    max_timestamp: int
    expiration_timestamp: int


@dataclass(slots=True)
class Image:
    """All metadata state, exactly as the records built it."""

    features: dict[str, int] = field(default_factory=dict)
    brokers: dict[int, BrokerRegistration] = field(default_factory=dict)
    controllers: dict[int, ControllerRegistration] = field(default_factory=dict)
    topics: dict[uuid.UUID, Topic] = field(default_factory=dict)
    topic_ids: dict[str, uuid.UUID] = field(default_factory=dict)
    configs: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)
    acls: dict[uuid.UUID, AclEntry] = field(default_factory=dict)
    quotas: dict[delta.QuotaEntity, dict[str, float]] = field(default_factory=dict)
    scram: dict[tuple[str, int], ScramCredential] = field(default_factory=dict)
    next_producer_id: int = 0
    tokens: dict[str, DelegationToken] = field(default_factory=dict)
    broker_version: int = 0  # bumped on every broker registration change (fencing, endpoints)
    broker_config_version: int = 0  # bumped on every broker-level config change
    features_epoch: int = -1
    records_applied: int = 0

    def topic(self, name: str) -> Topic | None:
        """The topic called `name`, if it exists."""
        topic_id = self.topic_ids.get(name)
        return None if topic_id is None else self.topics.get(topic_id)

    def apply(self, record: Any) -> None:
        """Apply one metadata record (unknown and control-only records change nothing)."""
        name = getattr(type(record), "__record_name__", type(record).__name__)
        handler = _APPLIERS.get(name)
        if handler is not None:
            handler(self, record)
        self.records_applied += 1

    def apply_all(self, records: Iterable[Any]) -> None:
        """Apply records in order."""
        for record in records:
            self.apply(record)


def _endpoints(values: Iterable[Any]) -> tuple[Endpoint, ...]:
    return tuple(
        Endpoint(name=e.name, host=e.host, port=int(e.port), security_protocol=int(e.security_protocol))
        for e in values
    )


def _features(values: Iterable[Any]) -> dict[str, tuple[int, int]]:
    return {f.name: (int(f.min_supported_version), int(f.max_supported_version)) for f in values}


def _register_broker(image: Image, r: Any) -> None:
    image.broker_version += 1
    image.brokers[r.broker_id] = BrokerRegistration(
        broker_id=r.broker_id,
        incarnation_id=r.incarnation_id,
        broker_epoch=r.broker_epoch,
        endpoints=_endpoints(r.end_points),
        rack=r.rack,
        fenced=bool(r.fenced),
        in_controlled_shutdown=bool(getattr(r, "in_controlled_shutdown", False)),
        log_dirs=tuple(getattr(r, "log_dirs", ()) or ()),
        features=_features(r.features),
    )


def _unregister_broker(image: Image, r: Any) -> None:
    image.broker_version += 1
    image.brokers.pop(r.broker_id, None)


def _broker_change(image: Image, r: Any) -> None:
    """A BrokerRegistrationChangeRecord, FenceBrokerRecord or UnfenceBrokerRecord, as
    kcli.metadata.delta replays it (a record of another epoch than the registration's changes nothing)."""
    image.broker_version += 1
    broker = image.brokers.get(r.broker_id if hasattr(r, "broker_id") else r.id)
    if broker is None:
        return
    changed = delta.broker_change(
        broker.broker_epoch, broker.fenced, broker.in_controlled_shutdown, broker.log_dirs, r
    )
    if changed is not None:
        broker.fenced, broker.in_controlled_shutdown, broker.log_dirs = changed


def _register_controller(image: Image, r: Any) -> None:
    image.controllers[r.controller_id] = ControllerRegistration(
        controller_id=r.controller_id,
        incarnation_id=r.incarnation_id,
        endpoints=_endpoints(r.end_points),
        features=_features(r.features),
    )


def _unregister_controller(image: Image, r: Any) -> None:
    image.controllers.pop(r.controller_id, None)


def _topic(image: Image, r: Any) -> None:
    image.topics[r.topic_id] = Topic(name=r.name, topic_id=r.topic_id)
    image.topic_ids[r.name] = r.topic_id


def _remove_topic(image: Image, r: Any) -> None:
    topic = image.topics.pop(r.topic_id, None)
    if topic is not None:
        image.topic_ids.pop(topic.name, None)
        image.configs.pop((ConfigResourceType.TOPIC, topic.name), None)


def _values(r: Any, names: tuple[str, ...]) -> tuple[Any, ...]:
    """A record's field values in `names`' order (None for a field its version lacks)."""
    return tuple(getattr(r, name, None) for name in names)


_CHANGE = (
    "partition_id", "topic_id", "isr", "leader", "replicas", "removing_replicas", "adding_replicas",
    "leader_recovery_state", "directories", "eligible_leader_replicas", "last_known_elr",
)  # fmt: skip


def _partition(image: Image, r: Any) -> None:
    topic = image.topics.get(r.topic_id)
    if topic is None:
        return
    values = _values(r, delta.PARTITION_FIELDS)
    state = delta.new_partition((*values[:7], values[7] or 0, *values[8:10], values[10] or (), *values[11:]))
    if state is not None:  # else Kafka refuses it: directories that are not its replicas
        topic.revision += 1
        topic.partitions[r.partition_id] = Partition.of(state)


def _partition_change(image: Image, r: Any) -> None:
    topic = image.topics.get(r.topic_id)
    partition = topic.partitions.get(r.partition_id) if topic else None
    if topic is None or partition is None:
        return
    change = _values(r, _CHANGE)
    if change[7] is None:  # a version without LeaderRecoveryState: no change to it
        change = (*change[:7], delta.NO_RECOVERY_CHANGE, *change[8:])
    merged = delta.merge_partition(partition.state(), change)
    if merged is not None:  # else Kafka refuses it: directories that are not its replicas
        topic.revision += 1
        partition.take(merged)


def _clear_elr(image: Image, r: Any) -> None:
    if r.topic_name:
        topic_id = image.topic_ids.get(r.topic_name)
        topics = [image.topics[topic_id]] if topic_id in image.topics else []
    else:
        topics = list(image.topics.values())
    for topic in topics:
        for partition in topic.partitions.values():
            cleared = delta.cleared_elr(partition.state())
            if cleared is not None:
                topic.revision += 1
                partition.take(cleared)


def _config(image: Image, r: Any) -> None:
    key = (int(r.resource_type), r.resource_name)
    if key[0] == ConfigResourceType.BROKER:
        image.broker_config_version += 1
    delta.set_config(image.configs, key, r.name, r.value)


def _feature_level(image: Image, r: Any) -> None:
    image.features_epoch = image.records_applied
    delta.set_feature(image.features, r.name, int(r.feature_level))


def _acl(image: Image, r: Any) -> None:
    image.acls[r.id] = AclEntry(
        acl_id=r.id,
        resource_type=int(r.resource_type),
        resource_name=r.resource_name,
        pattern_type=int(r.pattern_type),
        principal=r.principal,
        host=r.host,
        operation=int(r.operation),
        permission_type=int(r.permission_type),
    )


def _remove_acl(image: Image, r: Any) -> None:
    image.acls.pop(r.id, None)


def _quota(image: Image, r: Any) -> None:
    delta.set_quota(image.quotas, delta.quota_entity(r.entity), r.key, float(r.value), bool(r.remove))


def _scram(image: Image, r: Any) -> None:
    image.scram[(r.name, int(r.mechanism))] = ScramCredential(
        name=r.name,
        mechanism=int(r.mechanism),
        salt=bytes(r.salt),
        stored_key=bytes(r.stored_key),
        server_key=bytes(r.server_key),
        iterations=int(r.iterations),
    )


def _remove_scram(image: Image, r: Any) -> None:
    image.scram.pop((r.name, int(r.mechanism)), None)


def _token(image: Image, r: Any) -> None:
    image.tokens[r.token_id] = DelegationToken(
        token_id=r.token_id,
        owner=r.owner,
        requester=r.requester,
        renewers=tuple(r.renewers),
        issue_timestamp=int(r.issue_timestamp),
        max_timestamp=int(r.max_timestamp),
        expiration_timestamp=int(r.expiration_timestamp),
    )


def _remove_token(image: Image, r: Any) -> None:
    image.tokens.pop(r.token_id, None)


def _producer_ids(image: Image, r: Any) -> None:
    image.next_producer_id = int(r.next_producer_id)


_APPLIERS: dict[str, Callable[[Image, Any], None]] = {
    "RegisterBrokerRecord": _register_broker,
    "UnregisterBrokerRecord": _unregister_broker,
    "BrokerRegistrationChangeRecord": _broker_change,
    "FenceBrokerRecord": _broker_change,
    "UnfenceBrokerRecord": _broker_change,
    "RegisterControllerRecord": _register_controller,
    "UnregisterControllerRecord": _unregister_controller,
    "TopicRecord": _topic,
    "RemoveTopicRecord": _remove_topic,
    "PartitionRecord": _partition,
    "PartitionChangeRecord": _partition_change,
    "ClearElrRecord": _clear_elr,
    "ConfigRecord": _config,
    "FeatureLevelRecord": _feature_level,
    "AccessControlEntryRecord": _acl,
    "RemoveAccessControlEntryRecord": _remove_acl,
    "ClientQuotaRecord": _quota,
    "UserScramCredentialRecord": _scram,
    "RemoveUserScramCredentialRecord": _remove_scram,
    "ProducerIdsRecord": _producer_ids,
    "DelegationTokenRecord": _token,
    "RemoveDelegationTokenRecord": _remove_token,
}
