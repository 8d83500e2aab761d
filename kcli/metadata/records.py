"""KRaft metadata records and Raft control records as kio-style frozen dataclasses.

One class per record type and schema version (`PartitionRecordV2`, ...), written from the field
tables of the apache/kafka JSON schemas (metadata/src/main/resources/common/metadata/*.json and
clients/src/main/resources/common/message/{LeaderChangeMessage,SnapshotHeaderRecord,
SnapshotFooterRecord,KRaftVersionRecord,VotersRecord}.json). Each class names its schema file in
`__schema__`; facts live in ClassVars (`__api_key__` or `__control_type__`, `__version__`,
`__flexible__`, `__record_name__`); each field carries `metadata={"kafka_type": ...}` and, when it
lives in the tagged-field section in that version, `"tag"`. kio's `entity_reader`/`entity_writer`
(de)serialise these classes directly (see kcli.metadata.codec).

The unsuffixed names (`PartitionRecord`, `RegisterBrokerRecord`, ...) are the newest version, except
`LeaderChangeMessage`, which Kafka always writes at version 0.

Behavior:
- Fields absent in a version are absent from its class; the image code reads them with defaults.
- Tagged fields default to the schema default ("no change" for PartitionChangeRecord).

Version notes:
- AccessControlRecord (6) and RemoveFeatureLevelRecord (16) are historical (never written by a
  released controller); ClearElrRecord (28) is 4.x; UnregisterControllerRecord (29) is unreleased trunk.
- PartitionRecord v1 means the released `Directories` layout; the Nov-2023 pre-release ELR layout is
  not supported (and must fail to decode).
"""

import uuid
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar, Final, Protocol

from kio.static.constants import EntityType
from kio.static.primitive import f64, i8, i16, i32, i64, u16

__all__ = [
    "CONTROL_RECORD_CLASSES",
    "CONTROL_TYPE_NAMES",
    "METADATA_RECORD_CLASSES",
    "RECORD_NAMES",
    "ControlRecord",
    "MetadataRecord",
]


class MetadataRecord(Protocol):
    """Any metadata record class: framed with (frame version 1, api key, version)."""

    __api_key__: ClassVar[int]
    __version__: ClassVar[i16]
    __record_name__: ClassVar[str]
    __schema__: ClassVar[str]


class ControlRecord(Protocol):
    """Any Raft control record class: keyed with (int16 0, int16 control type), body at version 0."""

    __control_type__: ClassVar[int]
    __version__: ClassVar[i16]
    __record_name__: ClassVar[str]
    __schema__: ClassVar[str]


# ControlRecordType ids (clients/.../record/ControlRecordType.java).
CONTROL_TYPE_NAMES: Final[Mapping[int, str]] = {
    0: "ABORT",
    1: "COMMIT",
    2: "LEADER_CHANGE",
    3: "SNAPSHOT_HEADER",
    4: "SNAPSHOT_FOOTER",
    5: "KRAFT_VERSION",
    6: "KRAFT_VOTERS",
}


@dataclass(frozen=True, slots=True, kw_only=True)
class Voter:
    """The `Voter` struct of LeaderChangeMessage (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    voter_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `VoterId` (int32)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderChangeMessageV0:
    """LeaderChangeMessage version 0, mirroring `clients/src/main/resources/common/message/LeaderChangeMessage.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/LeaderChangeMessage.json"
    __record_name__: ClassVar[str] = "LeaderChangeMessage"
    __control_type__: ClassVar[int] = 2
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""
    leader_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `LeaderId` (int32); entity: brokerId."""
    voters: tuple[Voter, ...]
    """Kafka field `Voters` ([]Voter)."""
    granting_voters: tuple[Voter, ...]
    """Kafka field `GrantingVoters` ([]Voter)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderChangeMessageVoter:
    """The `Voter` struct of LeaderChangeMessage (schema version 1)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    voter_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `VoterId` (int32)."""
    voter_directory_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `VoterDirectoryId` (uuid)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaderChangeMessageV1:
    """LeaderChangeMessage version 1, mirroring `clients/src/main/resources/common/message/LeaderChangeMessage.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/LeaderChangeMessage.json"
    __record_name__: ClassVar[str] = "LeaderChangeMessage"
    __control_type__: ClassVar[int] = 2
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""
    leader_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `LeaderId` (int32); entity: brokerId."""
    voters: tuple[LeaderChangeMessageVoter, ...]
    """Kafka field `Voters` ([]Voter)."""
    granting_voters: tuple[LeaderChangeMessageVoter, ...]
    """Kafka field `GrantingVoters` ([]Voter)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotHeaderRecordV0:
    """SnapshotHeaderRecord version 0, mirroring `clients/src/main/resources/common/message/SnapshotHeaderRecord.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/SnapshotHeaderRecord.json"
    __record_name__: ClassVar[str] = "SnapshotHeaderRecord"
    __control_type__: ClassVar[int] = 3
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""
    last_contained_log_timestamp: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `LastContainedLogTimestamp` (int64)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotFooterRecordV0:
    """SnapshotFooterRecord version 0, mirroring `clients/src/main/resources/common/message/SnapshotFooterRecord.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/SnapshotFooterRecord.json"
    __record_name__: ClassVar[str] = "SnapshotFooterRecord"
    __control_type__: ClassVar[int] = 4
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KRaftVersionRecordV0:
    """KRaftVersionRecord version 0, mirroring `clients/src/main/resources/common/message/KRaftVersionRecord.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/KRaftVersionRecord.json"
    __record_name__: ClassVar[str] = "KRaftVersionRecord"
    __control_type__: ClassVar[int] = 5
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""
    k_raft_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `KRaftVersion` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Endpoint:
    """The `Endpoint` struct of VotersRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); mapKey."""
    host: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Host` (string)."""
    port: u16 = field(metadata={"kafka_type": "uint16"})
    """Kafka field `Port` (uint16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class KRaftVersionFeature:
    """The `KRaftVersionFeature` struct of VotersRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    min_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MinSupportedVersion` (int16)."""
    max_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MaxSupportedVersion` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VotersRecordVoter:
    """The `Voter` struct of VotersRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    voter_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `VoterId` (int32); entity: brokerId."""
    voter_directory_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `VoterDirectoryId` (uuid)."""
    endpoints: tuple[Endpoint, ...]
    """Kafka field `Endpoints` ([]Endpoint)."""
    k_raft_version_feature: KRaftVersionFeature
    """Kafka field `KRaftVersionFeature` (KRaftVersionFeature)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class VotersRecordV0:
    """VotersRecord version 0, mirroring `clients/src/main/resources/common/message/VotersRecord.json`."""

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "clients/src/main/resources/common/message/VotersRecord.json"
    __record_name__: ClassVar[str] = "VotersRecord"
    __control_type__: ClassVar[int] = 6
    version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `Version` (int16)."""
    voters: tuple[VotersRecordVoter, ...]
    """Kafka field `Voters` ([]Voter)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerEndpoint:
    """The `BrokerEndpoint` struct of RegisterBrokerRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); mapKey."""
    host: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Host` (string)."""
    port: u16 = field(metadata={"kafka_type": "uint16"})
    """Kafka field `Port` (uint16)."""
    security_protocol: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `SecurityProtocol` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerFeature:
    """The `BrokerFeature` struct of RegisterBrokerRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); mapKey."""
    min_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MinSupportedVersion` (int16)."""
    max_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MaxSupportedVersion` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterBrokerRecordV0:
    """RegisterBrokerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json`.

    Written by the active controller when a broker registers (BrokerRegistrationRequest). Creates or
    replaces the registration for `BrokerId`; a broker re-registering after restart gets a new
    `IncarnationId` and a new `BrokerEpoch` (the controller derives the epoch from the metadata log
    offset at registration time; in the 4.0 fixtures it equals the record's own offset, in the 3.3.1
    fixture it is off by one for the first broker, so do not rely on equality). `Fenced` defaults to
    true; it is unfenced later by UnfenceBrokerRecord (≤3.2) or BrokerRegistrationChangeRecord
    (3.3+). Version written depends on metadata.version: v0 below 3.3-IV3, v1 from 3.3-IV3, v2 from
    3.4-IV0, v3 from 3.7-IV2. `SecurityProtocol` uses the SecurityProtocol ids (0 PLAINTEXT, 1 SSL,
    2 SASL_PLAINTEXT, 3 SASL_SSL). `Features` is the *supported* range the broker advertises, not
    the finalized level.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json"
    __record_name__: ClassVar[str] = "RegisterBrokerRecord"
    __api_key__: ClassVar[int] = 0
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    incarnation_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `IncarnationId` (uuid)."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    end_points: tuple[BrokerEndpoint, ...]
    """Kafka field `EndPoints` ([]BrokerEndpoint)."""
    features: tuple[BrokerFeature, ...]
    """Kafka field `Features` ([]BrokerFeature)."""
    rack: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `Rack` (string, nullable)."""
    fenced: bool = field(metadata={"kafka_type": "bool"}, default=True)
    """Kafka field `Fenced` (bool)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterBrokerRecordV1:
    """RegisterBrokerRecord version 1, mirroring `metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json`.

    Written by the active controller when a broker registers (BrokerRegistrationRequest). Creates or
    replaces the registration for `BrokerId`; a broker re-registering after restart gets a new
    `IncarnationId` and a new `BrokerEpoch` (the controller derives the epoch from the metadata log
    offset at registration time; in the 4.0 fixtures it equals the record's own offset, in the 3.3.1
    fixture it is off by one for the first broker, so do not rely on equality). `Fenced` defaults to
    true; it is unfenced later by UnfenceBrokerRecord (≤3.2) or BrokerRegistrationChangeRecord
    (3.3+). Version written depends on metadata.version: v0 below 3.3-IV3, v1 from 3.3-IV3, v2 from
    3.4-IV0, v3 from 3.7-IV2. `SecurityProtocol` uses the SecurityProtocol ids (0 PLAINTEXT, 1 SSL,
    2 SASL_PLAINTEXT, 3 SASL_SSL). `Features` is the *supported* range the broker advertises, not
    the finalized level.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json"
    __record_name__: ClassVar[str] = "RegisterBrokerRecord"
    __api_key__: ClassVar[int] = 0
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    incarnation_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `IncarnationId` (uuid)."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    end_points: tuple[BrokerEndpoint, ...]
    """Kafka field `EndPoints` ([]BrokerEndpoint)."""
    features: tuple[BrokerFeature, ...]
    """Kafka field `Features` ([]BrokerFeature)."""
    rack: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `Rack` (string, nullable)."""
    fenced: bool = field(metadata={"kafka_type": "bool"}, default=True)
    """Kafka field `Fenced` (bool)."""
    in_controlled_shutdown: bool = field(metadata={"kafka_type": "bool"}, default=False)
    """Kafka field `InControlledShutdown` (bool)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterBrokerRecordV2:
    """RegisterBrokerRecord version 2, mirroring `metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json`.

    Written by the active controller when a broker registers (BrokerRegistrationRequest). Creates or
    replaces the registration for `BrokerId`; a broker re-registering after restart gets a new
    `IncarnationId` and a new `BrokerEpoch` (the controller derives the epoch from the metadata log
    offset at registration time; in the 4.0 fixtures it equals the record's own offset, in the 3.3.1
    fixture it is off by one for the first broker, so do not rely on equality). `Fenced` defaults to
    true; it is unfenced later by UnfenceBrokerRecord (≤3.2) or BrokerRegistrationChangeRecord
    (3.3+). Version written depends on metadata.version: v0 below 3.3-IV3, v1 from 3.3-IV3, v2 from
    3.4-IV0, v3 from 3.7-IV2. `SecurityProtocol` uses the SecurityProtocol ids (0 PLAINTEXT, 1 SSL,
    2 SASL_PLAINTEXT, 3 SASL_SSL). `Features` is the *supported* range the broker advertises, not
    the finalized level.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json"
    __record_name__: ClassVar[str] = "RegisterBrokerRecord"
    __api_key__: ClassVar[int] = 0
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    is_migrating_zk_broker: bool = field(metadata={"kafka_type": "bool"}, default=False)
    """Kafka field `IsMigratingZkBroker` (bool)."""
    incarnation_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `IncarnationId` (uuid)."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    end_points: tuple[BrokerEndpoint, ...]
    """Kafka field `EndPoints` ([]BrokerEndpoint)."""
    features: tuple[BrokerFeature, ...]
    """Kafka field `Features` ([]BrokerFeature)."""
    rack: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `Rack` (string, nullable)."""
    fenced: bool = field(metadata={"kafka_type": "bool"}, default=True)
    """Kafka field `Fenced` (bool)."""
    in_controlled_shutdown: bool = field(metadata={"kafka_type": "bool"}, default=False)
    """Kafka field `InControlledShutdown` (bool)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterBrokerRecordV3:
    """RegisterBrokerRecord version 3, mirroring `metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json`.

    Written by the active controller when a broker registers (BrokerRegistrationRequest). Creates or
    replaces the registration for `BrokerId`; a broker re-registering after restart gets a new
    `IncarnationId` and a new `BrokerEpoch` (the controller derives the epoch from the metadata log
    offset at registration time; in the 4.0 fixtures it equals the record's own offset, in the 3.3.1
    fixture it is off by one for the first broker, so do not rely on equality). `Fenced` defaults to
    true; it is unfenced later by UnfenceBrokerRecord (≤3.2) or BrokerRegistrationChangeRecord
    (3.3+). Version written depends on metadata.version: v0 below 3.3-IV3, v1 from 3.3-IV3, v2 from
    3.4-IV0, v3 from 3.7-IV2. `SecurityProtocol` uses the SecurityProtocol ids (0 PLAINTEXT, 1 SSL,
    2 SASL_PLAINTEXT, 3 SASL_SSL). `Features` is the *supported* range the broker advertises, not
    the finalized level.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(3)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RegisterBrokerRecord.json"
    __record_name__: ClassVar[str] = "RegisterBrokerRecord"
    __api_key__: ClassVar[int] = 0
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    is_migrating_zk_broker: bool = field(metadata={"kafka_type": "bool"}, default=False)
    """Kafka field `IsMigratingZkBroker` (bool)."""
    incarnation_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `IncarnationId` (uuid)."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    end_points: tuple[BrokerEndpoint, ...]
    """Kafka field `EndPoints` ([]BrokerEndpoint)."""
    features: tuple[BrokerFeature, ...]
    """Kafka field `Features` ([]BrokerFeature)."""
    rack: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `Rack` (string, nullable)."""
    fenced: bool = field(metadata={"kafka_type": "bool"}, default=True)
    """Kafka field `Fenced` (bool)."""
    in_controlled_shutdown: bool = field(metadata={"kafka_type": "bool"}, default=False)
    """Kafka field `InControlledShutdown` (bool)."""
    log_dirs: tuple[uuid.UUID, ...] = field(metadata={"kafka_type": "uuid", "tag": 0}, default=())
    """Kafka field `LogDirs` ([]uuid, tag 0)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnregisterBrokerRecordV0:
    """UnregisterBrokerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/UnregisterBrokerRecord.json`.

    Removes the registration of a broker (admin `unregisterBroker`). After replay the broker id
    disappears from the cluster image.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/UnregisterBrokerRecord.json"
    __record_name__: ClassVar[str] = "UnregisterBrokerRecord"
    __api_key__: ClassVar[int] = 1
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TopicRecordV0:
    """TopicRecord version 0, mirroring `metadata/src/main/resources/common/metadata/TopicRecord.json`.

    Creates a topic: binds `Name` to `TopicId`. Always followed (in the same atomic batch when the
    controller writes it) by one PartitionRecord per partition and optionally ConfigRecords for the
    topic.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/TopicRecord.json"
    __record_name__: ClassVar[str] = "TopicRecord"
    __api_key__: ClassVar[int] = 2
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); entity: topicName."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionRecordV0:
    """PartitionRecord version 0, mirroring `metadata/src/main/resources/common/metadata/PartitionRecord.json`.

    Full state of one partition at creation time (and in snapshots). Later changes arrive as
    PartitionChangeRecord deltas. v1 adds the non-tagged `Directories` array (one directory UUID per
    replica, same order as `Replicas`) — note it is a *regular* field from v1 on, so a v1/v2 body is
    not readable with the v0 layout. v2 adds ELR tagged fields. Written version: v0 below 3.7-IV2,
    v1 from 3.7-IV2, v2 from 4.0-IV1 (ELR support level).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionRecord.json"
    __record_name__: ClassVar[str] = "PartitionRecord"
    __api_key__: ClassVar[int] = 3
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Replicas` ([]int32); entity: brokerId."""
    isr: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Isr` ([]int32)."""
    removing_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `RemovingReplicas` ([]int32); entity: brokerId."""
    adding_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `AddingReplicas` ([]int32); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `Leader` (int32); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `LeaderRecoveryState` (int8, tag 0)."""
    leader_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `LeaderEpoch` (int32)."""
    partition_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionEpoch` (int32)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionRecordV1:
    """PartitionRecord version 1, mirroring `metadata/src/main/resources/common/metadata/PartitionRecord.json`.

    Full state of one partition at creation time (and in snapshots). Later changes arrive as
    PartitionChangeRecord deltas. v1 adds the non-tagged `Directories` array (one directory UUID per
    replica, same order as `Replicas`) — note it is a *regular* field from v1 on, so a v1/v2 body is
    not readable with the v0 layout. v2 adds ELR tagged fields. Written version: v0 below 3.7-IV2,
    v1 from 3.7-IV2, v2 from 4.0-IV1 (ELR support level).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionRecord.json"
    __record_name__: ClassVar[str] = "PartitionRecord"
    __api_key__: ClassVar[int] = 3
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Replicas` ([]int32); entity: brokerId."""
    isr: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Isr` ([]int32)."""
    removing_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `RemovingReplicas` ([]int32); entity: brokerId."""
    adding_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `AddingReplicas` ([]int32); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `Leader` (int32); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `LeaderRecoveryState` (int8, tag 0)."""
    leader_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `LeaderEpoch` (int32)."""
    partition_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionEpoch` (int32)."""
    directories: tuple[uuid.UUID, ...] = field(metadata={"kafka_type": "uuid"})
    """Kafka field `Directories` ([]uuid)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionRecordV2:
    """PartitionRecord version 2, mirroring `metadata/src/main/resources/common/metadata/PartitionRecord.json`.

    Full state of one partition at creation time (and in snapshots). Later changes arrive as
    PartitionChangeRecord deltas. v1 adds the non-tagged `Directories` array (one directory UUID per
    replica, same order as `Replicas`) — note it is a *regular* field from v1 on, so a v1/v2 body is
    not readable with the v0 layout. v2 adds ELR tagged fields. Written version: v0 below 3.7-IV2,
    v1 from 3.7-IV2, v2 from 4.0-IV1 (ELR support level).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionRecord.json"
    __record_name__: ClassVar[str] = "PartitionRecord"
    __api_key__: ClassVar[int] = 3
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Replicas` ([]int32); entity: brokerId."""
    isr: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `Isr` ([]int32)."""
    removing_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `RemovingReplicas` ([]int32); entity: brokerId."""
    adding_replicas: tuple[i32, ...] = field(metadata={"kafka_type": "int32"})
    """Kafka field `AddingReplicas` ([]int32); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `Leader` (int32); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `LeaderRecoveryState` (int8, tag 0)."""
    leader_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `LeaderEpoch` (int32)."""
    partition_epoch: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionEpoch` (int32)."""
    directories: tuple[uuid.UUID, ...] = field(metadata={"kafka_type": "uuid"})
    """Kafka field `Directories` ([]uuid)."""
    eligible_leader_replicas: tuple[i32, ...] | None = field(
        metadata={"kafka_type": "int32", "tag": 1}, default=None
    )
    """Kafka field `EligibleLeaderReplicas` ([]int32, nullable, tag 1); entity: brokerId."""
    last_known_elr: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 2}, default=None)
    """Kafka field `LastKnownElr` ([]int32, nullable, tag 2); entity: brokerId."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ConfigRecordV0:
    """ConfigRecord version 0, mirroring `metadata/src/main/resources/common/metadata/ConfigRecord.json`.

    Sets (or, when `Value` is null, deletes) one dynamic configuration key on one resource.
    `ResourceType` uses the ConfigResource.Type byte ids: 2 TOPIC, 4 BROKER, 8 BROKER_LOGGER, 16
    CLIENT_METRICS, 32 GROUP (4.x), 0 UNKNOWN. An empty `ResourceName` with type BROKER means the
    cluster-wide default broker config.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/ConfigRecord.json"
    __record_name__: ClassVar[str] = "ConfigRecord"
    __api_key__: ClassVar[int] = 4
    resource_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `ResourceType` (int8)."""
    resource_name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `ResourceName` (string)."""
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string)."""
    value: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `Value` (string, nullable)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionChangeRecordV0:
    """PartitionChangeRecord version 0, mirroring `metadata/src/main/resources/common/metadata/PartitionChangeRecord.json`.

    Delta applied to an existing partition. Every change field is optional: tagged fields that are
    absent keep their default, and the default means "unchanged" (`Leader` -2 = no change, -1 = no
    leader; `LeaderRecoveryState` -1 = no change; null arrays = no change). Replay semantics (from
    the shell/image code): a leader change bumps the partition's leader epoch, and every
    PartitionChangeRecord bumps the partition epoch. Written version: v0 below 3.7-IV2, v1 from
    3.7-IV2 (adds `Directories`, tag 8), v2 from 4.0-IV1 (ELR, tags 6 and 7).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionChangeRecord.json"
    __record_name__: ClassVar[str] = "PartitionChangeRecord"
    __api_key__: ClassVar[int] = 5
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    isr: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 0}, default=None)
    """Kafka field `Isr` ([]int32, nullable, tag 0); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32", "tag": 1}, default=i32(-2))
    """Kafka field `Leader` (int32, tag 1); entity: brokerId."""
    replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 2}, default=None)
    """Kafka field `Replicas` ([]int32, nullable, tag 2); entity: brokerId."""
    removing_replicas: tuple[i32, ...] | None = field(
        metadata={"kafka_type": "int32", "tag": 3}, default=None
    )
    """Kafka field `RemovingReplicas` ([]int32, nullable, tag 3); entity: brokerId."""
    adding_replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 4}, default=None)
    """Kafka field `AddingReplicas` ([]int32, nullable, tag 4); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 5}, default=i8(-1))
    """Kafka field `LeaderRecoveryState` (int8, tag 5)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionChangeRecordV1:
    """PartitionChangeRecord version 1, mirroring `metadata/src/main/resources/common/metadata/PartitionChangeRecord.json`.

    Delta applied to an existing partition. Every change field is optional: tagged fields that are
    absent keep their default, and the default means "unchanged" (`Leader` -2 = no change, -1 = no
    leader; `LeaderRecoveryState` -1 = no change; null arrays = no change). Replay semantics (from
    the shell/image code): a leader change bumps the partition's leader epoch, and every
    PartitionChangeRecord bumps the partition epoch. Written version: v0 below 3.7-IV2, v1 from
    3.7-IV2 (adds `Directories`, tag 8), v2 from 4.0-IV1 (ELR, tags 6 and 7).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionChangeRecord.json"
    __record_name__: ClassVar[str] = "PartitionChangeRecord"
    __api_key__: ClassVar[int] = 5
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    isr: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 0}, default=None)
    """Kafka field `Isr` ([]int32, nullable, tag 0); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32", "tag": 1}, default=i32(-2))
    """Kafka field `Leader` (int32, tag 1); entity: brokerId."""
    replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 2}, default=None)
    """Kafka field `Replicas` ([]int32, nullable, tag 2); entity: brokerId."""
    removing_replicas: tuple[i32, ...] | None = field(
        metadata={"kafka_type": "int32", "tag": 3}, default=None
    )
    """Kafka field `RemovingReplicas` ([]int32, nullable, tag 3); entity: brokerId."""
    adding_replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 4}, default=None)
    """Kafka field `AddingReplicas` ([]int32, nullable, tag 4); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 5}, default=i8(-1))
    """Kafka field `LeaderRecoveryState` (int8, tag 5)."""
    directories: tuple[uuid.UUID, ...] | None = field(metadata={"kafka_type": "uuid", "tag": 8}, default=None)
    """Kafka field `Directories` ([]uuid, nullable, tag 8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionChangeRecordV2:
    """PartitionChangeRecord version 2, mirroring `metadata/src/main/resources/common/metadata/PartitionChangeRecord.json`.

    Delta applied to an existing partition. Every change field is optional: tagged fields that are
    absent keep their default, and the default means "unchanged" (`Leader` -2 = no change, -1 = no
    leader; `LeaderRecoveryState` -1 = no change; null arrays = no change). Replay semantics (from
    the shell/image code): a leader change bumps the partition's leader epoch, and every
    PartitionChangeRecord bumps the partition epoch. Written version: v0 below 3.7-IV2, v1 from
    3.7-IV2 (adds `Directories`, tag 8), v2 from 4.0-IV1 (ELR, tags 6 and 7).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/PartitionChangeRecord.json"
    __record_name__: ClassVar[str] = "PartitionChangeRecord"
    __api_key__: ClassVar[int] = 5
    partition_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """Kafka field `PartitionId` (int32)."""
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""
    isr: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 0}, default=None)
    """Kafka field `Isr` ([]int32, nullable, tag 0); entity: brokerId."""
    leader: i32 = field(metadata={"kafka_type": "int32", "tag": 1}, default=i32(-2))
    """Kafka field `Leader` (int32, tag 1); entity: brokerId."""
    replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 2}, default=None)
    """Kafka field `Replicas` ([]int32, nullable, tag 2); entity: brokerId."""
    removing_replicas: tuple[i32, ...] | None = field(
        metadata={"kafka_type": "int32", "tag": 3}, default=None
    )
    """Kafka field `RemovingReplicas` ([]int32, nullable, tag 3); entity: brokerId."""
    adding_replicas: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 4}, default=None)
    """Kafka field `AddingReplicas` ([]int32, nullable, tag 4); entity: brokerId."""
    leader_recovery_state: i8 = field(metadata={"kafka_type": "int8", "tag": 5}, default=i8(-1))
    """Kafka field `LeaderRecoveryState` (int8, tag 5)."""
    directories: tuple[uuid.UUID, ...] | None = field(metadata={"kafka_type": "uuid", "tag": 8}, default=None)
    """Kafka field `Directories` ([]uuid, nullable, tag 8)."""
    eligible_leader_replicas: tuple[i32, ...] | None = field(
        metadata={"kafka_type": "int32", "tag": 6}, default=None
    )
    """Kafka field `EligibleLeaderReplicas` ([]int32, nullable, tag 6); entity: brokerId."""
    last_known_elr: tuple[i32, ...] | None = field(metadata={"kafka_type": "int32", "tag": 7}, default=None)
    """Kafka field `LastKnownElr` ([]int32, nullable, tag 7); entity: brokerId."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AccessControlRecordV0:
    """AccessControlRecord version 0, mirroring `metadata/src/main/resources/common/metadata/AccessControlRecord.json`.

    HISTORICAL placeholder (present in schema files of 2.8–3.4, deleted in 3.5). Never written by a
    released controller as far as the source shows; ACLs use api keys 18/19 from 3.2 on. A reader
    may treat key 6 as unknown.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/AccessControlRecord.json"
    __record_name__: ClassVar[str] = "AccessControlRecord"
    __api_key__: ClassVar[int] = 6
    resource_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `ResourceType` (int8)."""
    resource_name: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `ResourceName` (string, nullable)."""
    pattern_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `PatternType` (int8)."""
    principal: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Principal` (string)."""
    host: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Host` (string)."""
    operation: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `Operation` (int8)."""
    permission_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `PermissionType` (int8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FenceBrokerRecordV0:
    """FenceBrokerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/FenceBrokerRecord.json`.

    Pre-3.3 way of fencing a broker (removes it from ISRs). From 3.3-IV2 on the controller writes
    BrokerRegistrationChangeRecord(Fenced=1) instead, but readers must still accept this record.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/FenceBrokerRecord.json"
    __record_name__: ClassVar[str] = "FenceBrokerRecord"
    __api_key__: ClassVar[int] = 7
    id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `Id` (int32); entity: brokerId."""
    epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `Epoch` (int64)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnfenceBrokerRecordV0:
    """UnfenceBrokerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/UnfenceBrokerRecord.json`.

    Pre-3.3 way of unfencing a broker. Seen in the Kafka 3.2.0 fixture (offset 2). Superseded by
    BrokerRegistrationChangeRecord(Fenced=-1) from 3.3-IV2.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/UnfenceBrokerRecord.json"
    __record_name__: ClassVar[str] = "UnfenceBrokerRecord"
    __api_key__: ClassVar[int] = 8
    id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `Id` (int32); entity: brokerId."""
    epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `Epoch` (int64)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveTopicRecordV0:
    """RemoveTopicRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RemoveTopicRecord.json`.

    Deletes a topic and all of its partitions by id.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RemoveTopicRecord.json"
    __record_name__: ClassVar[str] = "RemoveTopicRecord"
    __api_key__: ClassVar[int] = 9
    topic_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `TopicId` (uuid)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class DelegationTokenRecordV0:
    """DelegationTokenRecord version 0, mirroring `metadata/src/main/resources/common/metadata/DelegationTokenRecord.json`.

    Creates/renews a delegation token (KRaft support from metadata.version 3.6-IV2). Timestamps are
    epoch milliseconds.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/DelegationTokenRecord.json"
    __record_name__: ClassVar[str] = "DelegationTokenRecord"
    __api_key__: ClassVar[int] = 10
    owner: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Owner` (string)."""
    requester: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Requester` (string)."""
    renewers: tuple[str, ...] = field(metadata={"kafka_type": "string"})
    """Kafka field `Renewers` ([]string)."""
    issue_timestamp: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `IssueTimestamp` (int64)."""
    max_timestamp: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `MaxTimestamp` (int64)."""
    expiration_timestamp: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `ExpirationTimestamp` (int64)."""
    token_id: str = field(metadata={"kafka_type": "string"})
    """Kafka field `TokenId` (string)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UserScramCredentialRecordV0:
    """UserScramCredentialRecord version 0, mirroring `metadata/src/main/resources/common/metadata/UserScramCredentialRecord.json`.

    Upserts one SCRAM credential for (`Name`, `Mechanism`). Mechanism ids: 1 SCRAM-SHA-256, 2 SCRAM-
    SHA-512 (0 UNKNOWN). Salt/StoredKey/ServerKey are raw bytes (compact bytes on the wire). Allowed
    from metadata.version 3.5-IV2. Present in the galgrayzer fixture (offset 812).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/UserScramCredentialRecord.json"
    __record_name__: ClassVar[str] = "UserScramCredentialRecord"
    __api_key__: ClassVar[int] = 11
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string)."""
    mechanism: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `Mechanism` (int8)."""
    salt: bytes = field(metadata={"kafka_type": "bytes"})
    """Kafka field `Salt` (bytes)."""
    stored_key: bytes = field(metadata={"kafka_type": "bytes"})
    """Kafka field `StoredKey` (bytes)."""
    server_key: bytes = field(metadata={"kafka_type": "bytes"})
    """Kafka field `ServerKey` (bytes)."""
    iterations: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `Iterations` (int32)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureLevelRecordV0:
    """FeatureLevelRecord version 0, mirroring `metadata/src/main/resources/common/metadata/FeatureLevelRecord.json`.

    Sets the finalized level of one feature (`metadata.version`, `kraft.version` is NOT stored here,
    but `group.version`, `transaction.version`, `eligible.leader.replicas.version`, `share.version`,
    `streams.version` etc. are). A level of 0 means the feature is removed/disabled. The version of
    this record is frozen at 0 because a reader needs it before it knows the metadata.version. The
    first FeatureLevelRecord for `metadata.version` tells a reader which record versions to expect.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/FeatureLevelRecord.json"
    __record_name__: ClassVar[str] = "FeatureLevelRecord"
    __api_key__: ClassVar[int] = 12
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string)."""
    feature_level: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `FeatureLevel` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EntityData:
    """The `EntityData` struct of ClientQuotaRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    entity_type: str = field(metadata={"kafka_type": "string"})
    """Kafka field `EntityType` (string)."""
    entity_name: str | None = field(metadata={"kafka_type": "string"})
    """Kafka field `EntityName` (string, nullable)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClientQuotaRecordV0:
    """ClientQuotaRecord version 0, mirroring `metadata/src/main/resources/common/metadata/ClientQuotaRecord.json`.

    Sets or removes one quota key for an entity. `Entity` is a list of (EntityType, EntityName)
    pairs; EntityType is one of `user`, `client-id`, `ip`; a null EntityName is the default entity.
    `Remove`=true deletes the key (Value ignored).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/ClientQuotaRecord.json"
    __record_name__: ClassVar[str] = "ClientQuotaRecord"
    __api_key__: ClassVar[int] = 14
    entity: tuple[EntityData, ...]
    """Kafka field `Entity` ([]EntityData)."""
    key: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Key` (string)."""
    value: f64 = field(metadata={"kafka_type": "float64"})
    """Kafka field `Value` (float64)."""
    remove: bool = field(metadata={"kafka_type": "bool"})
    """Kafka field `Remove` (bool)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProducerIdsRecordV0:
    """ProducerIdsRecord version 0, mirroring `metadata/src/main/resources/common/metadata/ProducerIdsRecord.json`.

    Records that the controller handed out a block of producer ids; `NextProducerId` is the first id
    of the *next* block (e.g. 1000 after the first block of 1000).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/ProducerIdsRecord.json"
    __record_name__: ClassVar[str] = "ProducerIdsRecord"
    __api_key__: ClassVar[int] = 15
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"}, default=i64(-1))
    """Kafka field `BrokerEpoch` (int64)."""
    next_producer_id: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `NextProducerId` (int64)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveFeatureLevelRecordV0:
    """RemoveFeatureLevelRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RemoveFeatureLevelRecord.json`.

    HISTORICAL: only in the 3.0–3.2 schema set (deleted June 2022, before 3.3). Not expected in any
    log; features are removed with FeatureLevelRecord level 0.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RemoveFeatureLevelRecord.json"
    __record_name__: ClassVar[str] = "RemoveFeatureLevelRecord"
    __api_key__: ClassVar[int] = 16
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerRegistrationChangeRecordV0:
    """BrokerRegistrationChangeRecord version 0, mirroring `metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json`.

    Delta on a broker registration (3.3-IV2+). `Fenced`: -1 unfenced, 0 no change, 1 fenced.
    `InControlledShutdown` (v1+): 0 no change, 1 in controlled shutdown. `LogDirs` (v2+) replaces
    the online directory list. All three are tagged, so an absent tag means default/no change.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = (
        "metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json"
    )
    __record_name__: ClassVar[str] = "BrokerRegistrationChangeRecord"
    __api_key__: ClassVar[int] = 17
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    fenced: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `Fenced` (int8, tag 0)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerRegistrationChangeRecordV1:
    """BrokerRegistrationChangeRecord version 1, mirroring `metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json`.

    Delta on a broker registration (3.3-IV2+). `Fenced`: -1 unfenced, 0 no change, 1 fenced.
    `InControlledShutdown` (v1+): 0 no change, 1 in controlled shutdown. `LogDirs` (v2+) replaces
    the online directory list. All three are tagged, so an absent tag means default/no change.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(1)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = (
        "metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json"
    )
    __record_name__: ClassVar[str] = "BrokerRegistrationChangeRecord"
    __api_key__: ClassVar[int] = 17
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    fenced: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `Fenced` (int8, tag 0)."""
    in_controlled_shutdown: i8 = field(metadata={"kafka_type": "int8", "tag": 1}, default=i8(0))
    """Kafka field `InControlledShutdown` (int8, tag 1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerRegistrationChangeRecordV2:
    """BrokerRegistrationChangeRecord version 2, mirroring `metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json`.

    Delta on a broker registration (3.3-IV2+). `Fenced`: -1 unfenced, 0 no change, 1 fenced.
    `InControlledShutdown` (v1+): 0 no change, 1 in controlled shutdown. `LogDirs` (v2+) replaces
    the online directory list. All three are tagged, so an absent tag means default/no change.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(2)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = (
        "metadata/src/main/resources/common/metadata/BrokerRegistrationChangeRecord.json"
    )
    __record_name__: ClassVar[str] = "BrokerRegistrationChangeRecord"
    __api_key__: ClassVar[int] = 17
    broker_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `BrokerId` (int32); entity: brokerId."""
    broker_epoch: i64 = field(metadata={"kafka_type": "int64"})
    """Kafka field `BrokerEpoch` (int64)."""
    fenced: i8 = field(metadata={"kafka_type": "int8", "tag": 0}, default=i8(0))
    """Kafka field `Fenced` (int8, tag 0)."""
    in_controlled_shutdown: i8 = field(metadata={"kafka_type": "int8", "tag": 1}, default=i8(0))
    """Kafka field `InControlledShutdown` (int8, tag 1)."""
    log_dirs: tuple[uuid.UUID, ...] = field(metadata={"kafka_type": "uuid", "tag": 2}, default=())
    """Kafka field `LogDirs` ([]uuid, tag 2)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class AccessControlEntryRecordV0:
    """AccessControlEntryRecord version 0, mirroring `metadata/src/main/resources/common/metadata/AccessControlEntryRecord.json`.

    Creates one ACL binding identified by `Id` (StandardAuthorizer, 3.2+). Byte codes: ResourceType
    0 UNKNOWN,1 ANY,2 TOPIC,3 GROUP,4 CLUSTER,5 TRANSACTIONAL_ID,6 DELEGATION_TOKEN,7 USER;
    PatternType 0 UNKNOWN,1 ANY,2 MATCH,3 LITERAL,4 PREFIXED; Operation 0 UNKNOWN,1 ANY,2 ALL,3
    READ,4 WRITE,5 CREATE,6 DELETE,7 ALTER,8 DESCRIBE,9 CLUSTER_ACTION,10 DESCRIBE_CONFIGS,11
    ALTER_CONFIGS,12 IDEMPOTENT_WRITE,13 CREATE_TOKENS,14 DESCRIBE_TOKENS; PermissionType 0
    UNKNOWN,1 ANY,2 DENY,3 ALLOW.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/AccessControlEntryRecord.json"
    __record_name__: ClassVar[str] = "AccessControlEntryRecord"
    __api_key__: ClassVar[int] = 18
    id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `Id` (uuid)."""
    resource_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `ResourceType` (int8)."""
    resource_name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `ResourceName` (string)."""
    pattern_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `PatternType` (int8)."""
    principal: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Principal` (string)."""
    host: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Host` (string)."""
    operation: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `Operation` (int8)."""
    permission_type: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `PermissionType` (int8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveAccessControlEntryRecordV0:
    """RemoveAccessControlEntryRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RemoveAccessControlEntryRecord.json`.

    Deletes the ACL with the given id.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = (
        "metadata/src/main/resources/common/metadata/RemoveAccessControlEntryRecord.json"
    )
    __record_name__: ClassVar[str] = "RemoveAccessControlEntryRecord"
    __api_key__: ClassVar[int] = 19
    id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `Id` (uuid)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class NoOpRecordV0:
    """NoOpRecord version 0, mirroring `metadata/src/main/resources/common/metadata/NoOpRecord.json`.

    Empty body (only the frame header plus the tagged-field count byte 0). The active controller
    appends one whenever the log has been idle for `metadata.max.idle.interval.ms` (default 500 ms)
    from metadata.version 3.3-IV1 on, so it dominates every real log (e.g. 99.9% of records in the
    fixtures). Never appears in snapshots.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/NoOpRecord.json"
    __record_name__: ClassVar[str] = "NoOpRecord"
    __api_key__: ClassVar[int] = 20


@dataclass(frozen=True, slots=True, kw_only=True)
class ZkMigrationStateRecordV0:
    """ZkMigrationStateRecord version 0, mirroring `metadata/src/main/resources/common/metadata/ZkMigrationRecord.json`.

    ZooKeeper→KRaft migration state: 0 NONE, 1 MIGRATION, 2 PRE_MIGRATION, 3 POST_MIGRATION (3.4
    briefly used 1 for PRE_MIGRATION; 3.5 swapped 1 and 2). Written with value 0 among the bootstrap
    records of new KRaft clusters on 3.5–3.9 (not by 3.4 in the fixture); 4.x still parses it but
    new 4.x clusters in the fixtures no longer write it. The schema file is `ZkMigrationRecord.json`
    but the record name is ZkMigrationStateRecord.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/ZkMigrationRecord.json"
    __record_name__: ClassVar[str] = "ZkMigrationStateRecord"
    __api_key__: ClassVar[int] = 21
    zk_migration_state: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `ZkMigrationState` (int8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveUserScramCredentialRecordV0:
    """RemoveUserScramCredentialRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RemoveUserScramCredentialRecord.json`.

    Deletes the SCRAM credential for (`Name`, `Mechanism`).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = (
        "metadata/src/main/resources/common/metadata/RemoveUserScramCredentialRecord.json"
    )
    __record_name__: ClassVar[str] = "RemoveUserScramCredentialRecord"
    __api_key__: ClassVar[int] = 22
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string)."""
    mechanism: i8 = field(metadata={"kafka_type": "int8"})
    """Kafka field `Mechanism` (int8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BeginTransactionRecordV0:
    """BeginTransactionRecord version 0, mirroring `metadata/src/main/resources/common/metadata/BeginTransactionRecord.json`.

    Opens a *metadata transaction* (KIP-868, 3.6-IV1+): the records up to the matching
    EndTransactionRecord must be applied atomically even if they span several batches. The bootstrap
    records written when a new cluster's controller first becomes leader are wrapped like this with
    Name "Bootstrap records" (see fixtures, offsets 1..5).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/BeginTransactionRecord.json"
    __record_name__: ClassVar[str] = "BeginTransactionRecord"
    __api_key__: ClassVar[int] = 23
    name: str | None = field(metadata={"kafka_type": "string", "tag": 0}, default=None)
    """Kafka field `Name` (string, nullable, tag 0)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class EndTransactionRecordV0:
    """EndTransactionRecord version 0, mirroring `metadata/src/main/resources/common/metadata/EndTransactionRecord.json`.

    Closes the current metadata transaction (no fields).
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/EndTransactionRecord.json"
    __record_name__: ClassVar[str] = "EndTransactionRecord"
    __api_key__: ClassVar[int] = 24


@dataclass(frozen=True, slots=True, kw_only=True)
class AbortTransactionRecordV0:
    """AbortTransactionRecord version 0, mirroring `metadata/src/main/resources/common/metadata/AbortTransactionRecord.json`.

    Aborts the current metadata transaction; the records since BeginTransactionRecord must be
    discarded by the reader.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/AbortTransactionRecord.json"
    __record_name__: ClassVar[str] = "AbortTransactionRecord"
    __api_key__: ClassVar[int] = 25
    reason: str | None = field(metadata={"kafka_type": "string", "tag": 0}, default=None)
    """Kafka field `Reason` (string, nullable, tag 0)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RemoveDelegationTokenRecordV0:
    """RemoveDelegationTokenRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RemoveDelegationTokenRecord.json`.

    Deletes a delegation token by id. (Api key 26 was chosen because 23–25 had been taken by the
    transaction records.)
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RemoveDelegationTokenRecord.json"
    __record_name__: ClassVar[str] = "RemoveDelegationTokenRecord"
    __api_key__: ClassVar[int] = 26
    token_id: str = field(metadata={"kafka_type": "string"})
    """Kafka field `TokenId` (string)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ControllerEndpoint:
    """The `ControllerEndpoint` struct of RegisterControllerRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); mapKey."""
    host: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Host` (string)."""
    port: u16 = field(metadata={"kafka_type": "uint16"})
    """Kafka field `Port` (uint16)."""
    security_protocol: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `SecurityProtocol` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ControllerFeature:
    """The `ControllerFeature` struct of RegisterControllerRecord (schema version 0)."""

    __type__: ClassVar = EntityType.nested
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `Name` (string); mapKey."""
    min_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MinSupportedVersion` (int16)."""
    max_supported_version: i16 = field(metadata={"kafka_type": "int16"})
    """Kafka field `MaxSupportedVersion` (int16)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class RegisterControllerRecordV0:
    """RegisterControllerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/RegisterControllerRecord.json`.

    Controller registration (KIP-919, 3.7-IV0+): endpoints and supported feature ranges of a
    controller node. Written once per controller incarnation; in combined mode you see one
    RegisterControllerRecord and one RegisterBrokerRecord per restart.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/RegisterControllerRecord.json"
    __record_name__: ClassVar[str] = "RegisterControllerRecord"
    __api_key__: ClassVar[int] = 27
    controller_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `ControllerId` (int32)."""
    incarnation_id: uuid.UUID = field(metadata={"kafka_type": "uuid"})
    """Kafka field `IncarnationId` (uuid)."""
    zk_migration_ready: bool = field(metadata={"kafka_type": "bool"})
    """Kafka field `ZkMigrationReady` (bool)."""
    end_points: tuple[ControllerEndpoint, ...]
    """Kafka field `EndPoints` ([]ControllerEndpoint)."""
    features: tuple[ControllerFeature, ...]
    """Kafka field `Features` ([]ControllerFeature)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ClearElrRecordV0:
    """ClearElrRecord version 0, mirroring `metadata/src/main/resources/common/metadata/ClearElrRecord.json`.

    NEWER than the reference snapshot (added in trunk after the 3.9 branch, present in 4.x): clears
    the eligible-leader-replica sets of one topic, or of all topics when `TopicName` is empty.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/ClearElrRecord.json"
    __record_name__: ClassVar[str] = "ClearElrRecord"
    __api_key__: ClassVar[int] = 28
    topic_name: str = field(metadata={"kafka_type": "string"})
    """Kafka field `TopicName` (string); entity: topicName."""


@dataclass(frozen=True, slots=True, kw_only=True)
class UnregisterControllerRecordV0:
    """UnregisterControllerRecord version 0, mirroring `metadata/src/main/resources/common/metadata/UnregisterControllerRecord.json`.

    VERY NEW / unreleased at time of writing: found only in the apache/kafka index at commit
    4425e970 (trunk). Removes a controller registration; third-party notes tie it to KIP-1312 and
    gate it at metadata.version 4.4-IV2. Treat as optional.
    """

    __type__: ClassVar = EntityType.data
    __version__: ClassVar[i16] = i16(0)
    __flexible__: ClassVar[bool] = True
    __schema__: ClassVar[str] = "metadata/src/main/resources/common/metadata/UnregisterControllerRecord.json"
    __record_name__: ClassVar[str] = "UnregisterControllerRecord"
    __api_key__: ClassVar[int] = 29
    controller_id: i32 = field(metadata={"kafka_type": "int32"})
    """Kafka field `ControllerId` (int32)."""


METADATA_RECORD_CLASSES: Final[Mapping[tuple[int, int], type[MetadataRecord]]] = {
    (0, 0): RegisterBrokerRecordV0,
    (0, 1): RegisterBrokerRecordV1,
    (0, 2): RegisterBrokerRecordV2,
    (0, 3): RegisterBrokerRecordV3,
    (1, 0): UnregisterBrokerRecordV0,
    (2, 0): TopicRecordV0,
    (3, 0): PartitionRecordV0,
    (3, 1): PartitionRecordV1,
    (3, 2): PartitionRecordV2,
    (4, 0): ConfigRecordV0,
    (5, 0): PartitionChangeRecordV0,
    (5, 1): PartitionChangeRecordV1,
    (5, 2): PartitionChangeRecordV2,
    (6, 0): AccessControlRecordV0,
    (7, 0): FenceBrokerRecordV0,
    (8, 0): UnfenceBrokerRecordV0,
    (9, 0): RemoveTopicRecordV0,
    (10, 0): DelegationTokenRecordV0,
    (11, 0): UserScramCredentialRecordV0,
    (12, 0): FeatureLevelRecordV0,
    (14, 0): ClientQuotaRecordV0,
    (15, 0): ProducerIdsRecordV0,
    (16, 0): RemoveFeatureLevelRecordV0,
    (17, 0): BrokerRegistrationChangeRecordV0,
    (17, 1): BrokerRegistrationChangeRecordV1,
    (17, 2): BrokerRegistrationChangeRecordV2,
    (18, 0): AccessControlEntryRecordV0,
    (19, 0): RemoveAccessControlEntryRecordV0,
    (20, 0): NoOpRecordV0,
    (21, 0): ZkMigrationStateRecordV0,
    (22, 0): RemoveUserScramCredentialRecordV0,
    (23, 0): BeginTransactionRecordV0,
    (24, 0): EndTransactionRecordV0,
    (25, 0): AbortTransactionRecordV0,
    (26, 0): RemoveDelegationTokenRecordV0,
    (27, 0): RegisterControllerRecordV0,
    (28, 0): ClearElrRecordV0,
    (29, 0): UnregisterControllerRecordV0,
}

CONTROL_RECORD_CLASSES: Final[Mapping[tuple[int, int], type[ControlRecord]]] = {
    (2, 0): LeaderChangeMessageV0,
    (2, 1): LeaderChangeMessageV1,
    (3, 0): SnapshotHeaderRecordV0,
    (4, 0): SnapshotFooterRecordV0,
    (5, 0): KRaftVersionRecordV0,
    (6, 0): VotersRecordV0,
}

RECORD_NAMES: Final[Mapping[int, str]] = {
    0: "RegisterBrokerRecord",
    1: "UnregisterBrokerRecord",
    2: "TopicRecord",
    3: "PartitionRecord",
    4: "ConfigRecord",
    5: "PartitionChangeRecord",
    6: "AccessControlRecord",
    7: "FenceBrokerRecord",
    8: "UnfenceBrokerRecord",
    9: "RemoveTopicRecord",
    10: "DelegationTokenRecord",
    11: "UserScramCredentialRecord",
    12: "FeatureLevelRecord",
    14: "ClientQuotaRecord",
    15: "ProducerIdsRecord",
    16: "RemoveFeatureLevelRecord",
    17: "BrokerRegistrationChangeRecord",
    18: "AccessControlEntryRecord",
    19: "RemoveAccessControlEntryRecord",
    20: "NoOpRecord",
    21: "ZkMigrationStateRecord",
    22: "RemoveUserScramCredentialRecord",
    23: "BeginTransactionRecord",
    24: "EndTransactionRecord",
    25: "AbortTransactionRecord",
    26: "RemoveDelegationTokenRecord",
    27: "RegisterControllerRecord",
    28: "ClearElrRecord",
    29: "UnregisterControllerRecord",
}

LeaderChangeMessage = LeaderChangeMessageV0
SnapshotHeaderRecord = SnapshotHeaderRecordV0
SnapshotFooterRecord = SnapshotFooterRecordV0
KRaftVersionRecord = KRaftVersionRecordV0
VotersRecord = VotersRecordV0
RegisterBrokerRecord = RegisterBrokerRecordV3
UnregisterBrokerRecord = UnregisterBrokerRecordV0
TopicRecord = TopicRecordV0
PartitionRecord = PartitionRecordV2
ConfigRecord = ConfigRecordV0
PartitionChangeRecord = PartitionChangeRecordV2
AccessControlRecord = AccessControlRecordV0
FenceBrokerRecord = FenceBrokerRecordV0
UnfenceBrokerRecord = UnfenceBrokerRecordV0
RemoveTopicRecord = RemoveTopicRecordV0
DelegationTokenRecord = DelegationTokenRecordV0
UserScramCredentialRecord = UserScramCredentialRecordV0
FeatureLevelRecord = FeatureLevelRecordV0
ClientQuotaRecord = ClientQuotaRecordV0
ProducerIdsRecord = ProducerIdsRecordV0
RemoveFeatureLevelRecord = RemoveFeatureLevelRecordV0
BrokerRegistrationChangeRecord = BrokerRegistrationChangeRecordV2
AccessControlEntryRecord = AccessControlEntryRecordV0
RemoveAccessControlEntryRecord = RemoveAccessControlEntryRecordV0
NoOpRecord = NoOpRecordV0
ZkMigrationStateRecord = ZkMigrationStateRecordV0
RemoveUserScramCredentialRecord = RemoveUserScramCredentialRecordV0
BeginTransactionRecord = BeginTransactionRecordV0
EndTransactionRecord = EndTransactionRecordV0
AbortTransactionRecord = AbortTransactionRecordV0
RemoveDelegationTokenRecord = RemoveDelegationTokenRecordV0
RegisterControllerRecord = RegisterControllerRecordV0
ClearElrRecord = ClearElrRecordV0
UnregisterControllerRecord = UnregisterControllerRecordV0
