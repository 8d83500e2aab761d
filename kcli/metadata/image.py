"""The metadata image: the cluster state that replaying metadata records in order produces.

`ImageBuilder.apply(entry)` replays one record; `build_image(path)` reads a directory (newest
snapshot, then the log) and returns the finished `MetadataImage`, which callers treat as read-only.

Each record changes the image by the one replay rule, kcli.metadata.delta (Kafka's MetadataDelta):
partitions merged as PartitionRegistration.merge, registrations, features, configs, quotas, ACLs,
SCRAM credentials, delegation tokens and producer ids as their deltas apply them, metadata
transactions (KIP-868) held until they end. Control records (LeaderChangeMessage, KRaftVersionRecord,
VotersRecord) feed the quorum view. A record Kafka's replay refuses changes nothing and is one of the
read's warnings.
"""

from __future__ import annotations

import gc
import operator
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from kcli.bounds.model import entity
from kcli.metadata import delta
from kcli.metadata.directory import LogDirectory, find_log_directory, read_sources
from kcli.metadata.fastdecode import values_of
from kcli.metadata.framing import FastHandler, RunHandler
from kcli.metadata.image_model import BrokerState, MetadataImage, TopicState
from kcli.metadata.read_model import BatchSpan, Entry, RawRecord, ReadStats
from kcli.metadata.uuids import kafka_uuid

# The keys of the image's keyed areas (ClusterDelta, AclsDelta, ScramDelta, DelegationTokenDelta).
_CONTROLLER = operator.attrgetter("controller_id")
_ACL = operator.attrgetter("id")
_SCRAM = operator.attrgetter("mechanism", "name")
_TOKEN = operator.attrgetter("token_id")
# Record types whose handlers take field-value tuples (the reader's `values=True` shape): the hot
# ones. The others take the record dataclass.
_VALUE_KEYS = frozenset({2, 3, 4, 5, 12})


class ImageBuilder:
    """Replays entries into a MetadataImage. Dispatch is a table by api key, for speed.

    Entries may carry dataclasses or (for the flat record types) field-value tuples.
    """

    def __init__(self, image: MetadataImage | None = None, *, topics: frozenset[str] | None = None) -> None:
        self.image = image or MetadataImage()
        # the topics whose partitions are kept, by name or id text (kcli.metadata.projection): the
        # others are listed, their partition records passed over
        self._kept_topics = topics
        self._transaction = delta.Transaction()
        self.snapshot_time: int | None = None  # a snapshot's SnapshotHeaderRecord.LastContainedLogTimestamp
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
            10: self._keyed("delegation_tokens", _TOKEN),
            11: self._keyed("scram", _SCRAM),
            12: self._feature_level,
            14: self._client_quota,
            15: self._producer_ids,
            16: self._remove_feature_level,
            17: self._broker_registration_change,
            18: self._keyed("acls", _ACL),
            19: self._keyed("acls", _ACL, remove=True),
            22: self._keyed("scram", _SCRAM, remove=True),
            26: self._keyed("delegation_tokens", _TOKEN, remove=True),
            27: self._keyed("controllers", _CONTROLLER),
            28: self._clear_elr,
            29: self._keyed("controllers", _CONTROLLER, remove=True),
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
        transaction = self._transaction
        if 23 <= key <= 25:
            for key_held, record_held in transaction.mark(key, getattr(record, "name", None)):
                self._dispatch[key_held](record_held)
            self.image.open_transaction = transaction.name
            return
        handler = self._dispatch.get(key)
        if handler is None:
            return
        if key in _VALUE_KEYS and type(record) is not tuple:
            record = values_of(record)
        if not transaction.hold((key, record)):
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

    def _keyed(self, area: str, key: Callable[[Any], Any], *, remove: bool = False) -> Callable[[Any], None]:
        """The handler of a record that sets (or removes) one entry of an area of the image, the
        record itself, by its key: controllers, ACLs, SCRAM credentials, delegation tokens."""
        entries: dict[Any, Any] = getattr(self.image, area)

        def put(record: Any) -> None:
            entries[key(record)] = record

        def drop(record: Any) -> None:
            entries.pop(key(record), None)

        return drop if remove else put

    @property
    def in_transaction(self) -> bool:
        """Records are being held until an EndTransactionRecord (KIP-868)."""
        return self._transaction.open

    def finish(self) -> MetadataImage:
        image = self.image
        image.unapplied_records = len(self._transaction.held or ())
        return image

    def refused(self, what: str) -> None:
        """A record Kafka's replay refuses: it changes nothing, and the read says so."""
        self.image.stats.warnings.append(f"{what}: Kafka's replay refuses it; not applied")

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
        elif control_type == 3:
            self.snapshot_time = record.last_contained_log_timestamp
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

    def _broker_change(self, record: Any, broker_id: int) -> None:
        """A FenceBrokerRecord, UnfenceBrokerRecord or BrokerRegistrationChangeRecord."""
        broker = self.image.brokers.get(broker_id)
        if broker is None:
            return self.refused(
                f"{type(record).__record_name__} of broker {broker_id}, which is not registered"
            )
        changed = delta.broker_change(
            broker.record.broker_epoch, broker.fenced, broker.in_controlled_shutdown, broker.log_dirs, record
        )
        if changed is None:
            return self.refused(
                f"{type(record).__record_name__} of broker {broker_id} (epoch {broker.record.broker_epoch})"
            )
        broker.fenced, broker.in_controlled_shutdown, broker.log_dirs = changed
        return None

    def _fence_broker(self, record: Any) -> None:
        self._broker_change(record, record.id)

    def _unfence_broker(self, record: Any) -> None:
        self._broker_change(record, record.id)

    def _broker_registration_change(self, record: Any) -> None:
        self._broker_change(record, record.broker_id)

    # -- topics ------------------------------------------------------------------------------------

    def _topic(self, values: tuple[Any, ...]) -> None:
        name, topic_id = values
        topic = TopicState(name, topic_id)
        self.image.topics[topic_id] = topic
        self.image.topic_names[name] = topic_id
        kept = self._kept_topics
        if topic_id is not None and (kept is None or name in kept or kafka_uuid(topic_id) in kept):
            self._by_raw[topic_id.bytes] = topic

    def _partition(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(_raw(values[1]) or b"")
        if topic is not None:
            state = delta.new_partition(values)
            if state is None:
                return self.refused(
                    f"PartitionRecord of {topic.name}-{values[0]}, its directories not its replicas"
                )
            topic.partitions[values[0]] = state
        return None

    def _partition_change(self, values: tuple[Any, ...]) -> None:
        topic = self._by_raw.get(_raw(values[1]) or b"")
        if topic is None:
            return
        state = topic.partitions.get(values[0])
        if state is not None:
            self._merge(topic, values[0], state, values)

    def _merge(
        self, topic: TopicState, partition: int, state: tuple[Any, ...], change: tuple[Any, ...]
    ) -> None:
        merged = delta.merge_partition(state, change)
        if merged is None:
            self.refused(
                f"PartitionChangeRecord of {topic.name}-{partition}, its directories not its replicas"
            )
        else:
            topic.partitions[partition] = merged

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
                cleared = delta.cleared_elr(state)
                if cleared is not None:
                    partitions[partition_id] = cleared

    # -- configs, quotas, security -----------------------------------------------------------------

    def _config(self, values: tuple[Any, ...]) -> None:
        resource_type, resource_name, name, value = values
        delta.set_config(self.image.configs, (resource_type, resource_name), name, value)

    def _client_quota(self, record: Any) -> None:
        entity = delta.quota_entity(record.entity)
        delta.set_quota(self.image.client_quotas, entity, record.key, record.value, record.remove)

    def _producer_ids(self, record: Any) -> None:
        self.image.next_producer_id = record.next_producer_id

    # -- features ----------------------------------------------------------------------------------

    def _feature_level(self, values: tuple[Any, ...]) -> None:
        name, level = values
        delta.set_feature(self.image.features, name, level)

    def _remove_feature_level(self, record: Any) -> None:
        self.image.features.pop(record.name, None)


def _raw(topic_id: Any) -> bytes | None:
    """The 16 bytes of a topic id given as a UUID or as raw bytes (None stays None)."""
    return topic_id.bytes if isinstance(topic_id, uuid.UUID) else topic_id


def build_image(
    path: Path | str | LogDirectory,
    *,
    skip_corrupt: bool = False,
    stats: ReadStats | None = None,
    keys: frozenset[int] | None = None,
    topics: frozenset[str] | None = None,
) -> MetadataImage:
    """Read a metadata log directory (or one file) and replay it into an image.

    `keys` (metadata api keys) limits the replay to those record types (see kcli.metadata.projection):
    every other data record is framed, CRC-checked and counted, then passed over after its frame
    header, undecoded. Transaction and control records always apply. `topics` (names or ids in
    Kafka's text form) keeps the partitions of those topics only.
    """
    directory = path if isinstance(path, LogDirectory) else find_log_directory(path)
    stats = stats or ReadStats()
    builder = ImageBuilder(MetadataImage(stats=stats, directory=directory), topics=topics)
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
                # MetadataLoader's provenance of a snapshot: its end, and the time its header names
                provenance.offset = source.offset - 1
                provenance.epoch = source.epoch
                time = builder.snapshot_time
                provenance.timestamp = reader.last_timestamp if time is None else time
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
        if not delta.directories_fit(layout):  # delta.new_partition decides, record by record
            getter, tail = layout.getter, layout.tail

            def checked(t: tuple[Any, ...], offset: int) -> bool:
                builder._partition(getter(t + tail))
                return True

            return checked
        many = partitions(layout)
        return lambda t, offset: many((t,), offset) or True

    def partitions(layout: Layout) -> Many:
        """A run of PartitionRecords of this layout (a snapshot's), in one loop."""
        if not delta.directories_fit(layout):
            return each(partition(layout))
        getter, tail = layout.getter, layout.tail
        partition_id, topic_id = layout.sources[0].slot, layout.sources[1].slot

        def many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
            for t in records:
                topic = topics(t[topic_id])
                if topic is not None:
                    topic.partitions[t[partition_id]] = getter(t + tail)

        return many

    def change(layout: Layout) -> Act:
        """A PartitionChangeRecord of this layout merged into the partition's state by the replay
        rule: `delta.merge_partition`, or, when the layout carries no replicas or directories (the
        usual leader and ISR changes), one tuple picked out of the state and the change's items at
        once (`delta.change_picks`), its leader and epochs set as merge_partition sets them."""
        getter, tail = layout.getter, layout.tail
        partition_id, topic_id = layout.sources[0].slot, layout.sources[1].slot
        picks = delta.change_picks(layout)
        if picks is None:

            def merge(t: tuple[Any, ...], offset: int) -> bool:
                topic = topics(t[topic_id])
                if topic is not None:
                    partitions = topic.partitions
                    state = partitions.get(t[partition_id])
                    if state is not None:
                        builder._merge(topic, t[partition_id], state, getter(t + tail))
                return True

            return merge
        many = changes(layout)
        return lambda t, offset: many((t,), offset) or True

    def changes(layout: Layout) -> Many:
        """A run of PartitionChangeRecords of this layout (a controller's batch), in one loop."""
        picks = delta.change_picks(layout)
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
