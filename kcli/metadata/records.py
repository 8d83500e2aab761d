"""KRaft metadata records and Raft control records: the classes kcli decodes into and writes from.

Metadata record classes are generated from Kafka's schemas (kcli.metadata.generated.records, one class
per record type and version: `PartitionRecordV2`, ...; the unsuffixed names are the newest version),
each record type's made when first asked for, here as there. Control record classes are kio's. This
module is the one place the rest of kcli looks them up.

Version notes:
- AccessControlRecord (6) and RemoveFeatureLevelRecord (16) are historical (never written by a
  released controller); ClearElrRecord (28) is 4.x; UnregisterControllerRecord (29) is unreleased trunk.
- PartitionRecord v1 means the released `Directories` layout; the Nov-2023 pre-release ELR layout is
  not supported (and must fail to decode).
- Kafka always writes LeaderChangeMessage at version 0, so `LeaderChangeMessage` is v0.
"""

from collections.abc import Mapping
from typing import TYPE_CHECKING, ClassVar, Final, Protocol

from kio.schema.k_raft_version_record.v0.data import KRaftVersionRecord as KRaftVersionRecordV0
from kio.schema.leader_change_message.v0.data import LeaderChangeMessage as LeaderChangeMessageV0
from kio.schema.leader_change_message.v0.data import Voter
from kio.schema.leader_change_message.v1.data import LeaderChangeMessage as LeaderChangeMessageV1
from kio.schema.leader_change_message.v1.data import Voter as LeaderChangeMessageVoter
from kio.schema.snapshot_footer_record.v0.data import SnapshotFooterRecord as SnapshotFooterRecordV0
from kio.schema.snapshot_header_record.v0.data import SnapshotHeaderRecord as SnapshotHeaderRecordV0
from kio.schema.voters_record.v0.data import Endpoint, KRaftVersionFeature
from kio.schema.voters_record.v0.data import Voter as VotersRecordVoter
from kio.schema.voters_record.v0.data import VotersRecord as VotersRecordV0
from kio.static.primitive import i16

from kcli.metadata.generated import records as _generated
from kcli.metadata.generated.records import RECORD_CLASSES, RECORD_NAMES

if TYPE_CHECKING:
    from kcli.metadata.generated.records import *  # noqa: F403

__all__ = [
    "CONTROL_RECORD_CLASSES",
    "CONTROL_TYPES",
    "CONTROL_TYPE_NAMES",
    "METADATA_RECORD_CLASSES",
    "RECORD_NAMES",
    "ControlRecord",
    "Endpoint",
    "KRaftVersionFeature",
    "KRaftVersionRecord",
    "KRaftVersionRecordV0",
    "LeaderChangeMessage",
    "LeaderChangeMessageV0",
    "LeaderChangeMessageV1",
    "LeaderChangeMessageVoter",
    "MetadataRecord",
    "SnapshotFooterRecord",
    "SnapshotFooterRecordV0",
    "SnapshotHeaderRecord",
    "SnapshotHeaderRecordV0",
    "Voter",
    "VotersRecord",
    "VotersRecordV0",
    "VotersRecordVoter",
    "record_name",
]


class MetadataRecord(Protocol):
    """Any metadata record class: framed with (frame version 1, api key, version)."""

    __api_key__: ClassVar[int]
    __version__: ClassVar[i16]
    __record_name__: ClassVar[str]
    __schema__: ClassVar[str]


class ControlRecord(Protocol):
    """Any Raft control record class (kio's): keyed with (int16 0, int16 control type, see CONTROL_TYPES)."""

    __version__: ClassVar[i16]
    __flexible__: ClassVar[bool]


METADATA_RECORD_CLASSES: Final[Mapping[tuple[int, int], type[MetadataRecord]]] = RECORD_CLASSES

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

# (control type, schema version) -> class; Kafka reads every control record body at version 0.
CONTROL_RECORD_CLASSES: Final[Mapping[tuple[int, int], type[ControlRecord]]] = {
    (2, 0): LeaderChangeMessageV0,
    (2, 1): LeaderChangeMessageV1,
    (3, 0): SnapshotHeaderRecordV0,
    (4, 0): SnapshotFooterRecordV0,
    (5, 0): KRaftVersionRecordV0,
    (6, 0): VotersRecordV0,
}

# class -> the control type it is written with (kio's classes carry no control type).
CONTROL_TYPES: Final[Mapping[type, int]] = {cls: key for (key, _), cls in CONTROL_RECORD_CLASSES.items()}


def record_name(cls: type) -> str:
    """Kafka's name of a record class: a metadata class's `__record_name__`, a kio control class's own name."""
    return getattr(cls, "__record_name__", cls.__name__)


LeaderChangeMessage = LeaderChangeMessageV0
SnapshotHeaderRecord = SnapshotHeaderRecordV0
SnapshotFooterRecord = SnapshotFooterRecordV0
KRaftVersionRecord = KRaftVersionRecordV0
VotersRecord = VotersRecordV0


def __getattr__(name: str) -> type:
    """A generated metadata record class (`PartitionRecord`, `PartitionRecordV2`, ...), made on first use."""
    found: type = getattr(_generated, name)
    return found
