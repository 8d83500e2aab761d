"""The records the coordinators keep in __consumer_offsets and __transaction_state, as Kafka writes them.

A key is its record type (int16) and the key struct at version 0; a value is its version (int16) and
the value struct; a tombstone (value None) deletes what its key names (Kafka's CoordinatorRecordSerde).
The classes are generated from Kafka's schemas (generated_records.py); bytes read back from a log go
through their length walks (kcli.bounds) before kio decodes them.

Value versions are the ones Kafka 4.4 writes: OffsetCommitValue 4 (1 when the commit carries an
expiry), GroupMetadataValue 3, the KIP-848 consumer group records 0, TransactionLogValue 1.
"""

from __future__ import annotations

import dataclasses
import functools
import io
import struct
from dataclasses import dataclass
from typing import Any

from kcli.kafka import write_uvarint
from kcli.sandbox.emulator.groups import generated_records as G

_SHORT = struct.Struct(">h")

TYPE_OFFSET_COMMIT = 1
TYPE_GROUP_METADATA = 2
TYPE_CONSUMER_GROUP_METADATA = 3
TYPE_CONSUMER_GROUP_PARTITION_METADATA = 4
TYPE_CONSUMER_GROUP_MEMBER_METADATA = 5
TYPE_CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA = 6
TYPE_CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER = 7
TYPE_CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT = 8
TYPE_CONSUMER_GROUP_REGULAR_EXPRESSION = 16
TYPE_TRANSACTION_LOG = 0  # in __transaction_state (type 0 of __consumer_offsets is the legacy offset key)

GROUP_METADATA_VERSION = 3
TRANSACTION_LOG_VERSION = 1


class RecordError(Exception):
    """Bytes of a coordinator log that are not a record this sandbox knows."""


@dataclass(frozen=True, slots=True)
class CoordinatorRecord:
    """One key and its value (None: a tombstone), with the value's version."""

    key: Any
    value: Any = None
    version: int = 0

    @property
    def type(self) -> int:
        return int(type(self.key).__api_key__)


# ---------------------------------------------------------------------------------------- codec


@functools.cache
def _writer(cls: Any) -> Any:
    from kio.serial import entity_writer

    return entity_writer(cls)  # type: ignore[arg-type]


@functools.cache
def _reader(cls: Any) -> Any:
    from kcli.bounds import checked_reader

    return checked_reader(cls)


def _bytes(value: Any) -> bytes:
    cls: Any = type(value)
    structs = _tagged_structs(cls)
    present = [(tag, name, getattr(value, name)) for tag, name in structs if getattr(value, name) is not None]
    if present:
        value = dataclasses.replace(value, **{name: None for _, name, _ in present})
    buffer = io.BytesIO()
    _writer(cls)(buffer, value)
    data = buffer.getvalue()
    if not present:
        return data
    # Kafka writes a tagged nullable struct with its KIP-893 marker (size + 1, then 1); kio's writer
    # leaves the marker out, so these fields (their class's only tagged ones) are written here, in
    # place of the empty tagged-field section kio ends the value with.
    section = bytearray(write_uvarint(len(present)))
    for tag, _, struct_value in present:
        body = _bytes(struct_value)
        section += write_uvarint(tag) + write_uvarint(len(body) + 1) + b"\x01" + body
    return data[:-1] + bytes(section)


@functools.cache
def _tagged_structs(cls: Any) -> tuple[tuple[int, str], ...]:
    """(tag, field name) of the tagged nullable struct fields of a record class."""
    out = []
    tags = 0
    for f in dataclasses.fields(cls):  # type: ignore[arg-type]
        if "tag" not in f.metadata:
            continue
        tags += 1
        if "kafka_type" not in f.metadata and f.default is None:
            out.append((int(f.metadata["tag"]), f.name))
    if out and len(out) != tags:
        raise TypeError(f"{cls.__name__} mixes tagged nullable structs with other tagged fields")
    return tuple(out)


def encode(record: CoordinatorRecord) -> tuple[bytes, bytes | None]:
    """The key and value bytes of a record (None for a tombstone)."""
    key = _SHORT.pack(record.type) + _bytes(record.key)
    if record.value is None:
        return key, None
    return key, _SHORT.pack(record.version) + _bytes(record.value)


def decode(key: bytes, value: bytes | None, *, transactions: bool = False) -> CoordinatorRecord:
    """The record of a key and value read from __consumer_offsets (or, `transactions`, __transaction_state)."""
    if len(key) < 2:
        raise RecordError("a record key shorter than its type")
    (kind,) = _SHORT.unpack_from(key)
    if transactions != (kind == TYPE_TRANSACTION_LOG):
        raise RecordError(f"record type {kind} does not belong in this log")
    key_cls = G.KEY_CLASSES.get((kind, 0))
    if key_cls is None:
        raise RecordError(f"unknown record type {kind}")
    try:
        key_value, _ = _reader(key_cls)(key, 2)
        if value is None:
            return CoordinatorRecord(key_value)
        (version,) = _SHORT.unpack_from(value)
        value_cls = G.VALUE_CLASSES.get((kind, version))
        if value_cls is None:
            raise RecordError(f"unknown version {version} of record type {kind}")
        decoded, _ = _reader(value_cls)(value, 2)
    except RecordError:
        raise
    except Exception as error:  # kio's and the walks' decode errors: the record is damaged
        raise RecordError(f"a damaged record of type {kind}: {error}") from None
    return CoordinatorRecord(key_value, decoded, version)


# ---------------------------------------------------------------------------------------- records


def offset_commit(
    group: str,
    topic: str,
    partition: int,
    *,
    offset: int,
    leader_epoch: int,
    metadata: str,
    commit_timestamp: int,
    expire_timestamp: int | None = None,
    topic_id: Any = None,
) -> CoordinatorRecord:
    """An offset commit (version 1 when it expires, else 4 with the topic id)."""
    import uuid

    key = G.OffsetCommitKeyV0(group=group, topic=topic, partition=partition)  # type: ignore[arg-type]
    if expire_timestamp is not None:
        value: Any = G.OffsetCommitValueV1(
            offset=offset,  # type: ignore[arg-type]
            metadata=metadata,
            commit_timestamp=commit_timestamp,  # type: ignore[arg-type]
            expire_timestamp=expire_timestamp,  # type: ignore[arg-type]
        )
        return CoordinatorRecord(key, value, 1)
    value = G.OffsetCommitValueV4(
        offset=offset,  # type: ignore[arg-type]
        leader_epoch=leader_epoch,  # type: ignore[arg-type]
        metadata=metadata,
        commit_timestamp=commit_timestamp,  # type: ignore[arg-type]
        topic_id=topic_id or uuid.UUID(int=0),
    )
    return CoordinatorRecord(key, value, 4)


def offset_tombstone(group: str, topic: str, partition: int) -> CoordinatorRecord:
    return CoordinatorRecord(G.OffsetCommitKeyV0(group=group, topic=topic, partition=partition))  # type: ignore[arg-type]


def group_metadata(
    group: str,
    *,
    protocol_type: str,
    generation: int,
    protocol: str | None,
    leader: str | None,
    state_timestamp: int,
    members: list[Any],
) -> CoordinatorRecord:
    """A classic group (GroupMetadataValue v3); `members` are MemberMetadataV3 values."""
    value = G.GroupMetadataValueV3(
        protocol_type=protocol_type,
        generation=generation,  # type: ignore[arg-type]
        protocol=protocol,
        leader=leader,
        current_state_timestamp=state_timestamp,  # type: ignore[arg-type]
        members=tuple(members),
    )
    return CoordinatorRecord(G.GroupMetadataKeyV0(group=group), value, GROUP_METADATA_VERSION)


def classic_member(
    *,
    member_id: str,
    instance_id: str | None,
    client_id: str,
    client_host: str,
    rebalance_timeout: int,
    session_timeout: int,
    subscription: bytes,
    assignment: bytes,
) -> Any:
    return G.MemberMetadataV3(
        member_id=member_id,
        group_instance_id=instance_id,
        client_id=client_id,
        client_host=client_host,
        rebalance_timeout=rebalance_timeout,  # type: ignore[arg-type]
        session_timeout=session_timeout,  # type: ignore[arg-type]
        subscription=subscription,
        assignment=assignment,
    )


def group_tombstone(group: str) -> CoordinatorRecord:
    return CoordinatorRecord(G.GroupMetadataKeyV0(group=group))


def keyed(key_cls: Any, value: Any = None, **key: Any) -> CoordinatorRecord:
    """A KIP-848 consumer group record (every value at version 0), or its tombstone."""
    return CoordinatorRecord(key_cls(**key), value, 0)


def transaction(transactional_id: str, value: Any) -> CoordinatorRecord:
    """A transaction's state (TransactionLogValue v1), or None for its tombstone."""
    key = G.TransactionLogKeyV0(transactional_id=transactional_id)
    return CoordinatorRecord(key, value, TRANSACTION_LOG_VERSION)
