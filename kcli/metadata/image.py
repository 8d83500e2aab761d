"""The metadata image: the cluster state that replaying metadata records in order produces.

`ImageBuilder.apply(entry)` replays one record; `build_image(path)` reads a directory (newest
snapshot, then the log) and returns the finished `MetadataImage`, which callers treat as read-only.

Behavior (as Kafka's MetadataDelta/replay code):
- RegisterBrokerRecord replaces a registration; BrokerRegistrationChangeRecord, Fence/UnfenceBroker
  update it; UnregisterBrokerRecord removes it. Controllers likewise (RegisterController/Unregister).
- TopicRecord creates a topic; PartitionRecord sets a partition; PartitionChangeRecord changes only
  the fields it carries, bumps the leader epoch when the leader changes and always the partition epoch.
- RemoveTopicRecord drops the topic, its partitions and its TOPIC configs.
- ConfigRecord with a null value deletes the key; ClientQuotaRecord with Remove deletes the key.
- FeatureLevelRecord with level 0 removes the feature; metadata.version is kept as a level.
- Records between BeginTransactionRecord and EndTransactionRecord apply together at the end;
  AbortTransactionRecord discards them (KIP-868). An unfinished transaction is left unapplied.
- Control records: LeaderChangeMessage, KRaftVersionRecord and VotersRecord feed the quorum view.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.metadata.directory import LogDirectory, find_log_directory, read_sources
from kcli.metadata.fastdecode import ID_HEAD, values_of
from kcli.metadata.reader import (
    PLAIN_HEADERS,
    CorruptData,
    Entry,
    FileReader,
    RawRecord,
    ReadStats,
    frame_record,
)


class PartitionState:
    """One partition's registration (mutable only while the image is built)."""

    __slots__ = (
        "adding_replicas",
        "directories",
        "elr",
        "isr",
        "last_known_elr",
        "leader",
        "leader_epoch",
        "leader_recovery_state",
        "partition_epoch",
        "removing_replicas",
        "replicas",
    )
    replicas: tuple[int, ...]
    isr: tuple[int, ...]
    removing_replicas: tuple[int, ...]
    adding_replicas: tuple[int, ...]
    leader: int
    leader_recovery_state: int
    leader_epoch: int
    partition_epoch: int

    def __init__(self, values: tuple[Any, ...]) -> None:
        """From a PartitionRecord's field values after the partition and topic ids (any version:
        later versions only append fields)."""
        (
            self.replicas,
            self.isr,
            self.removing_replicas,
            self.adding_replicas,
            self.leader,
            self.leader_recovery_state,
            self.leader_epoch,
            self.partition_epoch,
        ) = values[:8]
        size = len(values)
        self.directories: tuple[uuid.UUID, ...] = values[8] if size > 8 else ()
        self.elr: tuple[int, ...] | None = values[9] if size > 9 else None
        self.last_known_elr: tuple[int, ...] | None = values[10] if size > 10 else None

    def merge(self, change: tuple[Any, ...]) -> None:
        """Apply a PartitionChangeRecord's field values after the partition and topic ids
        (PartitionRegistration.merge)."""
        isr, leader, replicas, removing, adding, recovery = change[:6]
        if isr is not None:
            self.isr = isr
        if leader != -2:
            self.leader = leader
            self.leader_epoch += 1
        if replicas is not None:
            self.replicas = replicas
        if removing is not None:
            self.removing_replicas = removing
        if adding is not None:
            self.adding_replicas = adding
        if recovery != -1:
            self.leader_recovery_state = recovery
        if len(change) > 6:
            directories = change[6]
            if directories is not None:
                self.directories = directories
            elif replicas is not None and self.directories and len(self.directories) != len(self.replicas):
                self.directories = tuple(uuid.UUID(int=0) for _ in self.replicas)
            if len(change) > 7:
                if change[7] is not None:
                    self.elr = change[7]
                if change[8] is not None:
                    self.last_known_elr = change[8]
        elif replicas is not None and self.directories and len(self.directories) != len(self.replicas):
            self.directories = tuple(uuid.UUID(int=0) for _ in self.replicas)
        self.partition_epoch += 1


@dataclass(slots=True)
class TopicState:
    name: str
    topic_id: uuid.UUID
    partitions: dict[int, PartitionState] = field(default_factory=dict)


@dataclass(slots=True)
class BrokerState:
    """A broker registration plus the changes applied to it since."""

    record: Any
    fenced: bool
    in_controlled_shutdown: bool
    log_dirs: tuple[uuid.UUID, ...]


@dataclass(slots=True, kw_only=True)
class Provenance:
    offset: int = -1
    epoch: int = -1
    timestamp: int = -1


@dataclass(slots=True, kw_only=True)
class QuorumView:
    """What the control records said about the Raft quorum."""

    leader_id: int | None = None
    leader_epoch: int | None = None
    voters: tuple[int, ...] = ()
    granting_voters: tuple[int, ...] = ()
    kraft_version: int | None = None
    voters_record: Any = None


@dataclass(slots=True, kw_only=True)
class MetadataImage:
    """The replayed state. Built by ImageBuilder; read-only afterwards (the tree wraps it)."""

    features: dict[str, int] = field(default_factory=dict)
    zk_migration_state: int | None = None
    brokers: dict[int, BrokerState] = field(default_factory=dict)
    controllers: dict[int, Any] = field(default_factory=dict)
    topics: dict[uuid.UUID, TopicState] = field(default_factory=dict)
    topic_names: dict[str, uuid.UUID] = field(default_factory=dict)
    configs: dict[tuple[int, str], dict[str, str]] = field(default_factory=dict)
    client_quotas: dict[tuple[tuple[str, str | None], ...], dict[str, float]] = field(default_factory=dict)
    next_producer_id: int | None = None
    acls: dict[uuid.UUID, Any] = field(default_factory=dict)
    scram: dict[tuple[int, str], Any] = field(default_factory=dict)
    delegation_tokens: dict[str, Any] = field(default_factory=dict)
    provenance: Provenance = field(default_factory=Provenance)
    quorum: QuorumView = field(default_factory=QuorumView)
    stats: ReadStats = field(default_factory=ReadStats)
    directory: LogDirectory | None = None
    open_transaction: str | None = None
    unapplied_records: int = 0
    partial: str | None = None  # set when the image comes from a live read that cannot see everything


# Record types whose handlers take field-value tuples (the reader's `values=True` shape): the hot
# ones. The others take the record dataclass.
_VALUE_KEYS = frozenset({2, 3, 4, 5, 12})


class ImageBuilder:
    """Replays entries into a MetadataImage. Dispatch is a table by api key, for speed.

    Entries may carry dataclasses or (for the flat record types) field-value tuples.
    """

    def __init__(self, image: MetadataImage | None = None) -> None:
        self.image = image or MetadataImage()
        self._pending: list[Any] | None = None
        # topics by the uuid's int value: C-level hashing on the hot path (UUID.__hash__ is Python)
        self._by_raw: dict[bytes, TopicState] = {
            t.topic_id.bytes: t for t in self.image.topics.values() if t.topic_id is not None
        }
        # ID_HEAD bytes (partition id, topic id) -> the partition, filled by the inline replay
        self.partition_cache: dict[bytes, PartitionState] = {}
        self._dispatch: dict[int, Callable[[Any], None]] = {
            0: self._register_broker,
            1: self._unregister_broker,
            2: self._topic,
            3: self._partition,
            4: self._config,
            5: self._partition_change,
            7: self._fence_broker,
            8: self._unfence_broker,
            9: self._remove_topic,
            10: self._delegation_token,
            11: self._scram,
            12: self._feature_level,
            14: self._client_quota,
            15: self._producer_ids,
            16: self._remove_feature_level,
            17: self._broker_registration_change,
            18: self._acl,
            19: self._remove_acl,
            21: self._zk_migration,
            22: self._remove_scram,
            26: self._remove_delegation_token,
            27: self._register_controller,
            28: self._clear_elr,
            29: self._unregister_controller,
        }

    def apply(self, entry: Entry) -> None:
        """Replay one record (data or control) and advance the provenance."""
        provenance = self.image.provenance
        provenance.offset = entry.offset
        provenance.epoch = entry.epoch
        provenance.timestamp = entry.timestamp
        record = entry.record
        if entry.control:
            self._control(entry.key, record)
            return
        key = entry.key
        if key == 20 or record is None or type(record) is RawRecord:
            return
        if key == 23:
            self._pending = []
            self.image.open_transaction = record.name or ""
            return
        if key == 24 or key == 25:
            pending, self._pending = self._pending or [], None
            self.image.open_transaction = None
            if key == 24:
                for key_pending, record_pending in pending:
                    self._dispatch[key_pending](record_pending)
            return
        handler = self._dispatch.get(key)
        if handler is None:
            return
        if key in _VALUE_KEYS and type(record) is not tuple:
            record = values_of(record)
        if self._pending is not None:
            self._pending.append((key, record))
            return
        handler(record)

    def apply_snapshot_record(self, entry: Entry) -> None:
        """A snapshot record: state only (its batch offsets are not log offsets)."""
        record = entry.record
        if entry.control:
            self._control(entry.key, record)
            return
        handler = self._dispatch.get(entry.key)
        if handler is not None and record is not None and type(record) is not RawRecord:
            if entry.key in _VALUE_KEYS and type(record) is not tuple:
                record = values_of(record)
            handler(record)

    def finish(self) -> MetadataImage:
        image = self.image
        image.unapplied_records = len(self._pending or ())
        return image

    # -- control records ---------------------------------------------------------------------------

    def _control(self, control_type: int, record: Any) -> None:
        if record is None or type(record) is RawRecord:
            return
        quorum = self.image.quorum
        if control_type == 2:
            quorum.leader_id = record.leader_id
            quorum.voters = tuple(voter.voter_id for voter in record.voters)
            quorum.granting_voters = tuple(voter.voter_id for voter in record.granting_voters)
            quorum.leader_epoch = self.image.provenance.epoch
        elif control_type == 5:
            quorum.kraft_version = record.k_raft_version
        elif control_type == 6:
            quorum.voters_record = record
            quorum.voters = tuple(voter.voter_id for voter in record.voters)

    # -- cluster -----------------------------------------------------------------------------------

    def _register_broker(self, record: Any) -> None:
        self.image.brokers[record.broker_id] = BrokerState(
            record=record,
            fenced=record.fenced,
            in_controlled_shutdown=getattr(record, "in_controlled_shutdown", False),
            log_dirs=getattr(record, "log_dirs", ()),
        )

    def _unregister_broker(self, record: Any) -> None:
        self.image.brokers.pop(record.broker_id, None)

    def _fence_broker(self, record: Any) -> None:
        broker = self.image.brokers.get(record.id)
        if broker is not None:
            broker.fenced = True

    def _unfence_broker(self, record: Any) -> None:
        broker = self.image.brokers.get(record.id)
        if broker is not None:
            broker.fenced = False

    def _broker_registration_change(self, record: Any) -> None:
        broker = self.image.brokers.get(record.broker_id)
        if broker is None:
            return
        if record.fenced == 1:
            broker.fenced = True
        elif record.fenced == -1:
            broker.fenced = False
        if getattr(record, "in_controlled_shutdown", 0) == 1:
            broker.in_controlled_shutdown = True
        log_dirs = getattr(record, "log_dirs", ())
        if log_dirs:
            broker.log_dirs = log_dirs

    def _register_controller(self, record: Any) -> None:
        self.image.controllers[record.controller_id] = record

    def _unregister_controller(self, record: Any) -> None:
        self.image.controllers.pop(record.controller_id, None)

    # -- topics ------------------------------------------------------------------------------------

    def _topic(self, values: tuple[Any, ...]) -> None:
        name, topic_id = values
        topic = TopicState(name, topic_id)
        if topic_id in self.image.topics:
            self.partition_cache.clear()  # the topic's partitions start over
        self.image.topics[topic_id] = topic
        self.image.topic_names[name] = topic_id
        if topic_id is not None:
            self._by_raw[topic_id.bytes] = topic

    def _partition(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(values[1].bytes) if values[1] is not None else None
        if topic is not None:
            topic.partitions[values[0]] = PartitionState(values[2:])
            self.partition_cache.pop(ID_HEAD.pack(values[0], values[1].bytes), None)

    def _partition_change(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(values[1].bytes) if values[1] is not None else None
        if topic is None:
            return
        partition = topic.partitions.get(values[0])
        if partition is not None:
            partition.merge(values[2:])

    def _remove_topic(self, record: Any) -> None:
        self.partition_cache.clear()
        topic = self.image.topics.pop(record.topic_id, None)
        if record.topic_id is not None:
            self._by_raw.pop(record.topic_id.bytes, None)
        if topic is None:
            return
        if self.image.topic_names.get(topic.name) == record.topic_id:
            del self.image.topic_names[topic.name]
        self.image.configs.pop((2, topic.name), None)

    def _clear_elr(self, record: Any) -> None:
        topics = (
            [self.image.topics[self.image.topic_names[record.topic_name]]]
            if record.topic_name in self.image.topic_names
            else list(self.image.topics.values())
            if record.topic_name == ""
            else []
        )
        for topic in topics:
            for partition in topic.partitions.values():
                partition.elr = None
                partition.last_known_elr = None

    # -- configs, quotas, security -----------------------------------------------------------------

    def _config(self, values: tuple[Any, ...]) -> None:
        resource_type, resource_name, name, value = values
        resource = (resource_type, resource_name)
        if value is None:
            keys = self.image.configs.get(resource)
            if keys is not None:
                keys.pop(name, None)
                if not keys:
                    del self.image.configs[resource]
            return
        self.image.configs.setdefault(resource, {})[name] = value

    def _client_quota(self, record: Any) -> None:
        entity = tuple(sorted((part.entity_type, part.entity_name) for part in record.entity))
        if record.remove:
            quotas = self.image.client_quotas.get(entity)
            if quotas is not None:
                quotas.pop(record.key, None)
                if not quotas:
                    del self.image.client_quotas[entity]
            return
        self.image.client_quotas.setdefault(entity, {})[record.key] = record.value

    def _producer_ids(self, record: Any) -> None:
        self.image.next_producer_id = record.next_producer_id

    def _acl(self, record: Any) -> None:
        self.image.acls[record.id] = record

    def _remove_acl(self, record: Any) -> None:
        self.image.acls.pop(record.id, None)

    def _scram(self, record: Any) -> None:
        self.image.scram[(record.mechanism, record.name)] = record

    def _remove_scram(self, record: Any) -> None:
        self.image.scram.pop((record.mechanism, record.name), None)

    def _delegation_token(self, record: Any) -> None:
        self.image.delegation_tokens[record.token_id] = record

    def _remove_delegation_token(self, record: Any) -> None:
        self.image.delegation_tokens.pop(record.token_id, None)

    # -- features ----------------------------------------------------------------------------------

    def _feature_level(self, values: tuple[Any, ...]) -> None:
        name, level = values
        if level == 0:
            self.image.features.pop(name, None)
        else:
            self.image.features[name] = level

    def _remove_feature_level(self, record: Any) -> None:
        self.image.features.pop(record.name, None)

    def _zk_migration(self, record: Any) -> None:
        self.image.zk_migration_state = record.zk_migration_state


def build_image(
    path: Path | str | LogDirectory, *, skip_corrupt: bool = False, stats: ReadStats | None = None
) -> MetadataImage:
    """Read a metadata log directory (or one file) and replay it into an image."""
    directory = path if isinstance(path, LogDirectory) else find_log_directory(path)
    stats = stats or ReadStats()
    builder = ImageBuilder(MetadataImage(stats=stats, directory=directory))
    for source, reader in read_sources(
        directory.sources, stats=stats, skip_corrupt=skip_corrupt, skip_noop=True, values=_VALUE_KEYS
    ):
        provenance = builder.image.provenance
        if source.kind == "segment":
            replay_segment(builder, reader)
            # NoOpRecords are dropped before decoding: the reader knows the true last offset.
            if reader.last_good_offset is not None and reader.last_good_offset > provenance.offset:
                provenance.offset = reader.last_good_offset
                provenance.epoch = reader.last_epoch
                provenance.timestamp = reader.last_timestamp
        else:
            for entry in reader.entries():
                builder.apply_snapshot_record(entry)
            if source.kind == "snapshot":
                provenance.offset = source.offset - 1
                provenance.epoch = source.epoch
                provenance.timestamp = reader.last_timestamp
    return builder.finish()


def replay_segment(builder: ImageBuilder, reader: FileReader) -> None:
    """Replay one segment: `builder.apply` on every entry, with PartitionRecord and
    PartitionChangeRecord (most of a big log) framed, decoded and applied inline.

    The inline path takes only what the compiled readers accept in KRaft's usual record framing,
    outside transactions; everything else goes through `reader.record_entry` and `builder.apply`,
    so errors, the skip policy and the record order are those of `reader.entries()`.
    """
    from kcli.metadata.fastdecode import id_tail_reader, values_reader

    apply = builder.apply
    provenance = builder.image.provenance
    by_raw = builder._by_raw
    stats = reader.stats
    min_offset = reader.min_offset
    read_head = ID_HEAD.unpack_from
    plain_headers = PLAIN_HEADERS
    partition_cache = builder.partition_cache
    # frame header (frame version 1, api key, version) -> (is a change, tail reader, its memo), or
    # for TopicRecord/ConfigRecord (compiled reader, None, handler)
    inline_types: dict[bytes, tuple[Any, Any, Any]] = {}
    for key in (3, 5):
        for version in range(3):
            tails = id_tail_reader(key, version)
            if tails is not None:
                inline_types[bytes((1, key, version))] = (key == 5, tails, tails.memo)
    for key, handler in ((2, builder._topic), (4, builder._config)):
        compiled = values_reader(key, 0)
        if compiled is not None:
            inline_types[bytes((1, key, 0))] = (compiled, None, handler)
    for batch in reader.batches():
        base_offset, epoch, base_ts, count, control, area, rpos, end, shift, _noops = batch
        if area is None:
            continue  # a NoOpRecord batch (the reader skips them with skip_noop)
        if control:
            out: list[Entry] = []
            try:
                reader.batch_entries(batch, out.append)
            except CorruptData as problem:
                for entry in out:
                    apply(entry)
                reader.batch_failed(problem)
                continue
            for entry in out:
                apply(entry)
            continue
        inline = builder._pending is None
        inline_offset = -1
        ts_delta = 0
        try:
            for index in range(count):
                # frame_fast, inlined (a call per record is a tenth of the replay).
                b = area[rpos] if rpos + 8 <= end and index < 64 else 1
                if b < 0x80:
                    hdr = rpos + 1
                elif area[rpos + 1] < 0x80:
                    b = (b & 0x7F) | (area[rpos + 1] << 7)
                    hdr = rpos + 2
                else:
                    b = 1
                fast = False
                if not b & 1 and area[hdr : hdr + 4] == plain_headers[index]:
                    record_end = hdr + (b >> 1)
                    value_start = hdr + 5
                    b = area[hdr + 4]
                    if b >= 0x80 and area[value_start] < 0x80:
                        b = (b & 0x7F) | (area[value_start] << 7)
                        value_start += 1
                    value_length = b >> 1
                    fast = not (b & 1 or value_start + value_length + 1 != record_end or record_end > end)
                    fast = fast and not area[record_end - 1]
                    ts_delta, key_start, key_length = 0, hdr + 4, -1
                if fast and inline:
                    kind = inline_types.get(area[value_start : value_start + 3])
                    offset = base_offset + index
                    if kind is not None and offset >= min_offset:
                        body = value_start + 3
                        value_end = value_start + value_length
                        change, read_tail, memo = kind
                        if read_tail is None:  # TopicRecord, ConfigRecord: compiled reader, then the handler
                            try:
                                values, used = change(area, body)
                            except Exception:
                                used = -1
                            rest = None
                            if body + used == value_end:
                                memo(values)
                                rest = ()
                        else:
                            rest = memo.get(area[body + 20 : value_end]) or read_tail(area, body, value_end)
                            if rest is not None:
                                head = area[body : body + 20]
                                if change:
                                    partition = partition_cache.get(head)
                                    if partition is None:
                                        partition_id, raw_topic_id = read_head(head)
                                        topic = by_raw.get(raw_topic_id)
                                        if topic is not None:
                                            partition = topic.partitions.get(partition_id)
                                            if partition is not None:
                                                partition_cache[head] = partition
                                    if partition is not None:
                                        partition.merge(rest)
                                else:
                                    partition_id, raw_topic_id = read_head(head)
                                    topic = by_raw.get(raw_topic_id)
                                    if topic is not None:
                                        partition = topic.partitions[partition_id] = PartitionState(rest)
                                        partition_cache[head] = partition
                        if rest is not None:
                            stats.records += 1
                            reader.last_good_offset = offset
                            inline_offset = offset
                            rpos = record_end
                            continue
                if not fast:
                    ts_delta, key_start, key_length, value_start, value_length, record_end = frame_record(
                        area, rpos, end, index, count, shift
                    )
                found = reader.record_entry(
                    batch, index, rpos, ts_delta, key_start, key_length, value_start, value_length
                )
                rpos = record_end
                if found is not None:
                    inline_offset = -1
                    apply(found)
                    inline = builder._pending is None
            if rpos != end:
                raise CorruptData(f"{end - rpos} bytes after the last record of the batch", shift + rpos)
        except CorruptData as problem:
            if inline_offset >= 0:
                provenance.offset, provenance.epoch, provenance.timestamp = inline_offset, epoch, base_ts
            reader.batch_failed(problem)
            continue
        if inline_offset >= 0:
            provenance.offset, provenance.epoch, provenance.timestamp = (
                inline_offset,
                epoch,
                base_ts + ts_delta,
            )
        if count:
            reader.last_epoch = epoch
            reader.last_timestamp = base_ts + ts_delta
