"""The replay rule of KRaft metadata records: how each record changes the cluster's state, as Kafka's
MetadataDelta applies it (metadata/.../image/*Delta.java, PartitionRegistration.merge, and
MetadataBatchLoader for transactions). Every reader of records that keeps state replays through this
module: the shell's image and `--dump image` (kcli.metadata.image), the audits' metadata source
(kcli.audit.metadata_source) and the sandbox emulator's image, so none reads a record differently.

Behavior:
- A PartitionRecord sets a partition whole. A PartitionChangeRecord changes only the fields it carries
  (null: unchanged); a leader other than -2 (NO_LEADER_CHANGE) replaces the leader and bumps the
  leader epoch; a recovery state other than -1 (NO_CHANGE) replaces it; the partition epoch always
  goes up by one. Directories that are absent or all MIGRATING (the zero uuid) stand for MIGRATING on
  every replica (defaultToMigrating); a record whose directories do not match its replicas in number
  is refused, as Kafka's replay refuses it (InvalidReplicaDirectoriesException / the registration's
  length check), and changes nothing.
- ClearElrRecord: every partition of the topic (of every topic when the name is empty) that has an
  ELR or a last known ELR gets both emptied by a change (partition epoch bumped, TopicDelta.maybeClearElr).
- RemoveTopicRecord: the topic goes, with the TOPIC configs of its name; its name goes only while
  it names that topic.
- Brokers: RegisterBrokerRecord replaces the registration, UnregisterBrokerRecord removes it.
  FenceBrokerRecord, UnfenceBrokerRecord and BrokerRegistrationChangeRecord apply only to a broker
  registered with the record's epoch (ClusterDelta.getBrokerOrThrow): fenced 1 fences, -1 unfences,
  0 keeps (another value refuses the record); in-controlled-shutdown 1 sets it, 0 keeps it; a
  non-empty list of log dirs replaces them. Controllers: RegisterControllerRecord replaces,
  UnregisterControllerRecord removes.
- FeatureLevelRecord: level 0 removes the feature; kraft.version's are passed over (KAFKA-18979: its
  level is the quorum's, in its control records); metadata.version is kept as a level like the others.
- ConfigRecord: a null value deletes the key; a resource left with no keys goes.
- ClientQuotaRecord: the entity is a map of entity type to name (a type given twice keeps its last
  name); Remove deletes the key; an entity left with no keys goes.
- ACLs (by id), SCRAM credentials (by mechanism and user), delegation tokens (by id): set or removed.
  ProducerIdsRecord sets the next producer id. ZkMigrationStateRecord changes nothing (Kafka 4).
- Transactions (KIP-868): the records between BeginTransactionRecord and EndTransactionRecord apply
  together at the end; AbortTransactionRecord drops them; a Begin inside a transaction, and an End or
  Abort outside one, change nothing; an unfinished transaction is not applied.
"""

from __future__ import annotations

import uuid
from typing import Any

NO_LEADER_CHANGE = -2  # PartitionChangeRecord.Leader: the leader stays
NO_RECOVERY_CHANGE = -1  # PartitionChangeRecord.LeaderRecoveryState: the state stays
MIGRATING = uuid.UUID(int=0)  # DirectoryId.MIGRATING: the replica's directory is not known yet
KRAFT_VERSION = "kraft.version"

# A partition's state: the field values of PartitionRecord v2 (13), what v0 and v1 lack at their
# defaults. The topic id (1) may be a UUID or its 16 raw bytes, the directories (10) a tuple of
# UUIDs or their raw bytes (as the layout readers leave them); ELR fields (11, 12) None when absent.
PARTITION_FIELDS = (
    "partition_id", "topic_id", "replicas", "isr", "removing_replicas", "adding_replicas", "leader",
    "leader_recovery_state", "leader_epoch", "partition_epoch", "directories", "eligible_leader_replicas",
    "last_known_elr",
)  # fmt: skip
STATE_TAIL = ((), None, None)  # the fields PartitionRecord v0 lacks, as their defaults
_UUID_SIZE = 16


def new_partition(values: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """A partition's state from a PartitionRecord's field values (any version), or None when Kafka
    refuses the record (directories that do not match the replicas in number)."""
    state = values + STATE_TAIL[len(values) - 10 :] if len(values) < 13 else values
    directories = state[10]
    if directories and _count(directories) != len(state[2]) and not _migrating(directories):
        return None
    return state


def merge_partition(state: tuple[Any, ...], change: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """`state` after a PartitionChangeRecord's field values (any version): PartitionRegistration.merge.
    None when Kafka refuses the change (its directories, or the ones kept, do not match the replicas)."""
    isr, leader, replicas, removing, adding, recovery = change[2:8]
    size = len(change)
    changed_directories = change[8] if size > 8 else None
    elr = change[9] if size > 9 else None
    last_known_elr = change[10] if size > 10 else None
    if replicas is None:
        replicas = state[2]
    directories = state[10] if changed_directories is None else changed_directories
    if directories and _count(directories) != len(replicas) and not _migrating(directories):
        return None
    if leader == NO_LEADER_CHANGE:
        leader, leader_epoch = state[6], state[8]
    else:
        leader_epoch = state[8] + 1
    return (
        state[0],
        state[1],
        replicas,
        state[3] if isr is None else isr,
        state[4] if removing is None else removing,
        state[5] if adding is None else adding,
        leader,
        state[7] if recovery == NO_RECOVERY_CHANGE else recovery,
        leader_epoch,
        state[9] + 1,
        directories,
        state[11] if elr is None else elr,
        state[12] if last_known_elr is None else last_known_elr,
    )


def cleared_elr(state: tuple[Any, ...]) -> tuple[Any, ...] | None:
    """`state` after a ClearElrRecord of its topic, or None when it has no ELR to clear."""
    if not state[11] and not state[12]:
        return None
    return (*state[:9], state[9] + 1, state[10], (), ())


def directories(state: tuple[Any, ...]) -> tuple[uuid.UUID, ...]:
    """The partition's replica directories as Kafka's registration holds them: MIGRATING for every
    replica when none are known (defaultToMigrating)."""
    found = state[10]
    if not found or _migrating(found):
        return (MIGRATING,) * len(state[2])
    if isinstance(found, bytes):
        return tuple(uuid.UUID(bytes=found[i : i + _UUID_SIZE]) for i in range(0, len(found), _UUID_SIZE))
    return tuple(found)


def _count(directories: tuple[uuid.UUID, ...] | bytes) -> int:
    return len(directories) // _UUID_SIZE if isinstance(directories, bytes) else len(directories)


def _migrating(directories: tuple[uuid.UUID, ...] | bytes) -> bool:
    if isinstance(directories, bytes):
        return not any(directories)
    return all(directory == MIGRATING for directory in directories)


def change_picks(layout: Any) -> list[int | slice] | None:
    """`merge_partition` compiled for one PartitionChangeRecord layout (kcli.metadata.layouts): where
    each of a partition state's 13 fields comes from, as indexes into `state + t + (-2,)` (the state's
    fields, the change's unpacked items, the leader of a change without one). The caller resolves the
    leader's -2 and the recovery state's -1 and bumps the epochs as merge_partition does. None for a
    layout that carries replicas or directories (merge_partition checks those against each other)."""
    by_name = {source.field.name: source for source in layout.sources}

    def item(name: str) -> int | slice | None:
        source = by_name.get(name)
        if source is None or source.kind in ("default", "null"):
            return None
        if source.kind == "items":
            return slice(13 + source.slot, 13 + source.slot + source.length)
        return 13 + source.slot  # a value, or a blob: raw uuids, as the state keeps them

    if item("replicas") is not None or item("directories") is not None:
        return None
    picks: list[int | slice] = []
    for index, name in enumerate(PARTITION_FIELDS):
        found = item(name) if 3 <= index <= 7 or index >= 11 else None
        picks.append(index if found is None else found)
    if item("leader") is None:  # no leader in the change: -2, "unchanged", after the items
        picks[6] = 13 + layout.width
    return picks


def directories_fit(layout: Any) -> bool:
    """Whether every PartitionRecord of this layout (kcli.metadata.layouts) is one `new_partition`
    takes as it is: no directories, or as many as replicas (the arrays' lengths make the layout)."""
    by_name = {source.field.name: source for source in layout.sources}
    found = by_name.get("directories")
    if found is None or found.kind in ("default", "null") or found.length == 0:
        return True
    replicas = by_name["replicas"]
    return replicas.kind == "items" and replicas.length == found.length


# -- brokers -----------------------------------------------------------------------------------------

_FENCING = {1: True, 0: None, -1: False}  # BrokerRegistrationFencingChange
_CONTROLLED_SHUTDOWN = {1: True, 0: None}  # BrokerRegistrationInControlledShutdownChange


def broker_change(
    epoch: int, fenced: bool, in_controlled_shutdown: bool, log_dirs: tuple[Any, ...], record: Any
) -> tuple[bool, bool, tuple[Any, ...]] | None:
    """A registered broker's (fenced, in controlled shutdown, log dirs) after a FenceBrokerRecord,
    UnfenceBrokerRecord or BrokerRegistrationChangeRecord; None when Kafka refuses the record (another
    epoch than the registration's, or a value the change fields do not have)."""
    name = type(record).__record_name__
    if name == "FenceBrokerRecord" or name == "UnfenceBrokerRecord":
        if record.epoch != epoch:
            return None
        return name == "FenceBrokerRecord", in_controlled_shutdown, log_dirs
    if record.broker_epoch != epoch:
        return None
    fencing = int(record.fenced)
    shutdown = int(getattr(record, "in_controlled_shutdown", 0))
    if fencing not in _FENCING or shutdown not in _CONTROLLED_SHUTDOWN:
        return None
    new_fenced = _FENCING[fencing]
    new_shutdown = _CONTROLLED_SHUTDOWN[shutdown]
    new_dirs = getattr(record, "log_dirs", None)
    return (
        fenced if new_fenced is None else new_fenced,
        in_controlled_shutdown if new_shutdown is None else new_shutdown,
        tuple(new_dirs) if new_dirs else log_dirs,
    )


def fencing_change(record: Any) -> bool | None:
    """What a BrokerRegistrationChangeRecord does to the broker's fencing: True fences, False
    unfences, None leaves it (or is not a change Kafka knows)."""
    return _FENCING.get(int(record.fenced))


def enters_controlled_shutdown(record: Any) -> bool:
    """Whether a BrokerRegistrationChangeRecord puts the broker in controlled shutdown."""
    return _CONTROLLED_SHUTDOWN.get(int(getattr(record, "in_controlled_shutdown", 0))) is True


def endpoints_by_name(endpoints: Any) -> list[Any]:
    """A registration's listeners as Kafka keeps them: a map by listener name (a name given twice
    keeps its last endpoint), in name order (BrokerRegistration/ControllerRegistration.toString)."""
    return [endpoint for _, endpoint in sorted({e.name: e for e in endpoints}.items())]


# -- features, configs, quotas ---------------------------------------------------------------------


def set_feature(features: dict[str, int], name: str, level: int) -> None:
    """A FeatureLevelRecord (FeaturesDelta.replay)."""
    if name == KRAFT_VERSION:
        return
    if level == 0:
        features.pop(name, None)
    else:
        features[name] = level


def set_config(
    configs: dict[tuple[int, str], dict[str, str]], resource: tuple[int, str], name: str, value: str | None
) -> None:
    """A ConfigRecord (ConfigurationsDelta.replay): a null value deletes the key."""
    _set_key(configs, resource, name, value, remove=value is None)


def _set_key(maps: dict[Any, dict[str, Any]], owner: Any, key: str, value: Any, *, remove: bool) -> None:
    """A key of one resource's (or entity's) map set, or removed; a map left empty goes."""
    if not remove:
        maps.setdefault(owner, {})[key] = value
        return
    values = maps.get(owner)
    if values is not None:
        values.pop(key, None)
        if not values:
            del maps[owner]


QuotaEntity = tuple[tuple[str, str | None], ...]


def quota_entity(parts: Any) -> QuotaEntity:
    """A ClientQuotaRecord's entity as Kafka keys it (ClientQuotaImage.dataToEntity): a map of entity
    type to name, here sorted by type."""
    return tuple(sorted({part.entity_type: part.entity_name for part in parts}.items()))


def set_quota(
    quotas: dict[QuotaEntity, dict[str, float]], entity: QuotaEntity, key: str, value: float, remove: bool
) -> None:
    """A ClientQuotaRecord (ClientQuotasDelta.replay)."""
    _set_key(quotas, entity, key, value, remove=remove)


# -- transactions ----------------------------------------------------------------------------------

BEGIN_TRANSACTION, END_TRANSACTION, ABORT_TRANSACTION = 23, 24, 25


class Transaction:
    """KIP-868's metadata transactions as MetadataBatchLoader applies them: `hold` says whether a
    record waits for the end of an open transaction; `mark(key)` takes the markers and returns what
    an EndTransactionRecord lets apply (in order)."""

    __slots__ = ("held", "name")

    def __init__(self) -> None:
        self.held: list[Any] | None = None  # the records of an open transaction
        self.name: str | None = None

    @property
    def open(self) -> bool:
        return self.held is not None

    def mark(self, key: int, name: str | None = None) -> list[Any]:
        """A Begin, End or Abort record: what it lets apply now."""
        if key == BEGIN_TRANSACTION:
            if self.held is None:
                self.held, self.name = [], name or ""
            return []
        held, self.held, self.name = self.held, None, None
        return (held or []) if key == END_TRANSACTION else []

    def hold(self, item: Any) -> bool:
        """Keep `item` for the end of the open transaction (False when none is open)."""
        if self.held is None:
            return False
        self.held.append(item)
        return True
