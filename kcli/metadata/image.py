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

import gc
import operator
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kcli.bounds.model import entity
from kcli.metadata.directory import LogDirectory, find_log_directory, read_sources
from kcli.metadata.fastdecode import values_of
from kcli.metadata.framing import FastHandler, RunHandler
from kcli.metadata.image_model import _STATE_TAIL, BrokerState, MetadataImage, TopicState, merge_change
from kcli.metadata.read_model import BatchSpan, Entry, RawRecord, ReadStats

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

    @property
    def in_transaction(self) -> bool:
        """Records are being held until an EndTransactionRecord (KIP-868)."""
        return self._pending is not None

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
        self.image.topics[topic_id] = topic
        self.image.topic_names[name] = topic_id
        if topic_id is not None:
            self._by_raw[topic_id.bytes] = topic

    def _partition(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(_raw(values[1]) or b"")
        if topic is not None:
            topic.partitions[values[0]] = (
                values + _STATE_TAIL[len(values) - 10 :] if len(values) < 13 else values
            )

    def _partition_change(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(_raw(values[1]) or b"")
        if topic is None:
            return
        state = topic.partitions.get(values[0])
        if state is not None:
            topic.partitions[values[0]] = merge_change(state, values)

    def _remove_topic(self, record: Any) -> None:
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
            partitions = topic.partitions
            for partition_id, state in partitions.items():
                if len(state) > 11:
                    partitions[partition_id] = (*state[:11], None, None)

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
        # a map of entity type to name, as Kafka builds it (ClientQuotaEntity): a type given twice
        # keeps its last name, so no two parts compare by name (which may be null)
        entity = tuple(sorted({part.entity_type: part.entity_name for part in record.entity}.items()))
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


def _raw(topic_id: Any) -> bytes | None:
    """The 16 bytes of a topic id given as a UUID or as raw bytes (None stays None)."""
    return topic_id.bytes if isinstance(topic_id, uuid.UUID) else topic_id


def build_image(
    path: Path | str | LogDirectory,
    *,
    skip_corrupt: bool = False,
    stats: ReadStats | None = None,
    keys: frozenset[int] | None = None,
) -> MetadataImage:
    """Read a metadata log directory (or one file) and replay it into an image.

    `keys` (metadata api keys) limits the replay to those record types (see kcli.metadata.projection):
    every other data record is framed, CRC-checked and counted, then passed over after its frame
    header, undecoded. Transaction and control records always apply.
    """
    directory = path if isinstance(path, LogDirectory) else find_log_directory(path)
    stats = stats or ReadStats()
    builder = ImageBuilder(MetadataImage(stats=stats, directory=directory))
    collecting = gc.isenabled()
    gc.disable()  # a big image is millions of tuples: no cyclic garbage, only slower collections
    try:
        for source, reader in read_sources(
            directory.sources, stats=stats, skip_corrupt=skip_corrupt, skip_noop=True, values=_VALUE_KEYS
        ):
            provenance = builder.image.provenance
            reader.scan(ImageSink(builder, snapshot=source.kind != "segment", keys=keys))
            if source.kind == "segment":
                # NoOpRecords and the fast handlers' records do not pass apply(): the reader knows
                # the last offset read.
                if reader.last_good_offset is not None and reader.last_good_offset > provenance.offset:
                    provenance.offset = reader.last_good_offset
                    provenance.epoch = reader.last_epoch
                    provenance.timestamp = reader.last_timestamp
            elif source.kind == "snapshot":
                provenance.offset = source.offset - 1
                provenance.epoch = source.epoch
                provenance.timestamp = reader.last_timestamp
    finally:
        if collecting:
            gc.freeze()  # what was built stays: later collections need not walk it
            gc.enable()
    return builder.finish()


class ImageSink:
    """Feeds one file's records to an ImageBuilder (a `RecordSink` for `FileReader.scan`).

    PartitionRecord and PartitionChangeRecord (every version: most of a big log) are decoded by
    their layout readers and applied in place, TopicRecord and ConfigRecord by their compiled
    readers; anything those do not take, and every other type, goes through `ImageBuilder.apply`
    (or `apply_snapshot_record` for a snapshot) as an Entry. Inside a transaction every record goes
    through `apply`, which holds them until the transaction ends. With `keys`, data records of other
    types are passed over undecoded.
    """

    def __init__(self, builder: ImageBuilder, *, snapshot: bool, keys: frozenset[int] | None = None) -> None:
        self.builder = builder
        self.entry: Callable[[Entry], None] = self._snapshot_entry if snapshot else self._log_entry
        skipped = _skipped_headers(keys)
        self.fast, self.fast_runs = _fast_handlers(builder, keys)  # layout handlers replace themselves
        self.fast.update(skipped)
        self.runs: dict[bytes, RunHandler] = self.fast_runs
        self.held: dict[bytes, FastHandler | None] = skipped  # inside a transaction
        self.handlers: dict[bytes, FastHandler | None] = self.fast

    def begin(self, batch: BatchSpan) -> None:
        pass

    def noops(self, batch: BatchSpan) -> None:
        pass  # NoOpRecords change nothing

    def _log_entry(self, entry: Entry) -> None:
        builder = self.builder
        builder.apply(entry)
        if builder.in_transaction:
            self.handlers, self.runs = self.held, {}
        else:
            self.handlers, self.runs = self.fast, self.fast_runs

    def _snapshot_entry(self, entry: Entry) -> None:
        self.builder.apply_snapshot_record(entry)


def _change_picks(layout: Any) -> list[int | slice] | None:
    """Where each of a partition state's 13 fields comes from after a PartitionChangeRecord of this
    layout, as indexes into `state + t + (-2,)` (the state's 13 fields, the change's unpacked items,
    the leader of a change without one): the change's value where it carries one, the state's
    otherwise; the leader is the change's (its -2, "unchanged", is resolved by the caller), and so
    is the recovery state when it has one.
    None when the change carries replicas (merge_change decides the directories then)."""
    by_name = {source.field.name: source for source in layout.sources}

    def item(name: str) -> int | slice | None:
        source = by_name.get(name)
        if source is None or source.kind in ("default", "null"):
            return None
        if source.kind == "items":
            return slice(13 + source.slot, 13 + source.slot + source.length)
        return 13 + source.slot  # a value, or a blob: raw uuids, as the state keeps them

    if item("replicas") is not None:
        return None
    names = (None, None, None, "isr", "removing_replicas", "adding_replicas", "leader",
             "leader_recovery_state", None, None, "directories", "eligible_leader_replicas", "last_known_elr")  # fmt: skip
    picks: list[int | slice] = []
    for index, name in enumerate(names):
        found = item(name) if name else None
        picks.append(index if found is None else found)
    if item("leader") is None:  # no leader in the change: -2, "unchanged", after the items
        picks[6] = 13 + layout.width
    return picks


def _skipped_headers(keys: frozenset[int] | None) -> dict[bytes, FastHandler | None]:
    """Frame headers of the known record types outside `keys` (not the transaction markers): None."""
    if keys is None:
        return {}
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    return {
        bytes((1, key, version)): None
        for key, version in METADATA_RECORD_CLASSES
        if key not in keys and key not in _TRANSACTION_KEYS and key < 0x80 and version < 0x80
    }


_TRANSACTION_KEYS = frozenset({23, 24, 25})


def _fast_handlers(
    builder: ImageBuilder, keys: frozenset[int] | None
) -> tuple[dict[bytes, FastHandler | None], dict[bytes, RunHandler]]:
    """The fast handlers (and run handlers) of the hot record types, keyed by frame header:
    PartitionRecord and PartitionChangeRecord compiled per layout (kcli.metadata.layouts), applying
    the values in place; TopicRecord and ConfigRecord through their compiled readers."""
    from kcli.metadata.fastdecode import values_reader
    from kcli.metadata.layouts import Act, Layout, LayoutFamily, Many, each
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    handlers: dict[bytes, FastHandler | None] = {}
    runs: dict[bytes, RunHandler] = {}
    topics = builder._by_raw.get

    def partition(layout: Layout) -> Act:
        """A PartitionRecord of this layout: its values (padded to 13 fields) stored in place."""
        many = partitions(layout)
        return lambda t, offset: many((t,), offset) or True

    def partitions(layout: Layout) -> Many:
        """A run of PartitionRecords of this layout (a snapshot's), in one loop."""
        getter, tail = layout.getter, layout.tail
        partition_id, topic_id = layout.sources[0].slot, layout.sources[1].slot

        def many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
            for t in records:
                topic = topics(t[topic_id])
                if topic is not None:
                    topic.partitions[t[partition_id]] = getter(t + tail)

        return many

    def change(layout: Layout) -> Act:
        """A PartitionChangeRecord of this layout merged into the partition's state
        (PartitionRegistration.merge): `merge_change`, or, when the layout carries no new
        replicas (the usual leader and ISR changes), one tuple picked out of the state and the
        change's items at once, its leader and epochs set as merge_change sets them."""
        getter, tail = layout.getter, layout.tail
        partition_id, topic_id = layout.sources[0].slot, layout.sources[1].slot
        picks = _change_picks(layout)
        if picks is None:

            def merge(t: tuple[Any, ...], offset: int) -> bool:
                topic = topics(t[topic_id])
                if topic is not None:
                    partitions = topic.partitions
                    state = partitions.get(t[partition_id])
                    if state is not None:
                        partitions[t[partition_id]] = merge_change(state, getter(t + tail))
                return True

            return merge
        many = changes(layout)
        return lambda t, offset: many((t,), offset) or True

    def changes(layout: Layout) -> Many:
        """A run of PartitionChangeRecords of this layout (a controller's batch), in one loop."""
        picks = _change_picks(layout)
        if picks is None:
            return each(change(layout))
        merged = operator.itemgetter(*picks)
        partition_id, topic_id = layout.sources[0].slot, layout.sources[1].slot

        unchanged = (-2,)

        def many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
            for t in records:
                topic = topics(t[topic_id])
                if topic is None:
                    continue
                partitions = topic.partitions
                state = partitions.get(t[partition_id])
                if state is not None:
                    v = merged(state + t + unchanged)
                    leader = v[6]
                    partitions[t[partition_id]] = (
                        v[0], v[1], v[2], v[3], v[4], v[5],
                        state[6] if leader == -2 else leader,
                        state[7] if v[7] == -1 else v[7],
                        state[8] + (leader != -2),
                        state[9] + 1,
                        v[10], v[11], v[12],
                    )  # fmt: skip

        return many

    def compiled(read: Any, apply: Callable[[tuple[Any, ...]], None]) -> FastHandler:
        def handle(area: Any, body: int, end: int, offset: int) -> bool:
            try:
                values, used = read(area, body)
            except Exception:
                return False
            if body + used != end:
                return False
            apply(values)
            return True

        return handle

    def installer(header: bytes) -> Callable[[Any], None]:
        def install(function: Any) -> None:
            handlers[header] = function

        return install

    for key, version in METADATA_RECORD_CLASSES:
        if keys is not None and key not in keys:
            continue
        header = bytes((1, key, version))
        if key in (3, 5):
            fields = len(entity(METADATA_RECORD_CLASSES[key, version]).fields)
            family = LayoutFamily(
                key,
                version,
                partition if key == 3 else change,
                install=installer(header),
                failed=False,
                # a partition's values have the 13 fields of PartitionRecord v2 whatever the version
                pad={10: ((), None, None), 11: (None, None)}.get(fields, ()) if key == 3 else (),
                bind_run=partitions if key == 3 else changes,
            )
            handlers[header] = family.first
            runs[header] = family.run
        elif key in (2, 4):
            read = values_reader(key, version)
            if read is not None:
                handlers[header] = compiled(read, builder._topic if key == 2 else builder._config)
    return handlers, runs
