"""Body decoders for the flat metadata record classes: bytes -> a tuple of field values.

kio's entity reader builds a frozen dataclass per record; replaying or dumping a million records
spends most of its time in those constructors. For every record class whose fields are primitives,
strings, bytes, uuids or arrays of them (TopicRecord, PartitionRecord, PartitionChangeRecord,
ConfigRecord, FeatureLevelRecord, ...) scripts/decoders.py generates (at build time, into
kcli.metadata.generated.decoders) a function that reads the body with `struct.unpack_from` and
returns the field values as a plain tuple in the dataclass's field order; this module holds what
those functions share. Classes with nested structs (RegisterBrokerRecord, ClientQuotaRecord, ...)
have no values reader; callers use kio's reader for them.

Behavior:
- `values_reader(key, version)` has kio's reader signature, `(buf, pos) -> (values, size)`.
- The compiled readers accept only the canonical encoding: known tags in ascending order, each
  tagged field filling its declared size exactly, booleans 0 or 1. Anything else raises (any
  exception), and the caller falls back to kio's reader, which decides between a value and a
  DecodeError; the compiled path never accepts bytes that kio rejects.
- Values equal kio's: ints, str, bytes, tuples, `uuid.UUID` (the all-zero uuid reads as None, as
  kio reads it). Equal uuids are shared (one object per distinct id) to save memory and time.
- `field_names(cls)` and `values_of(record)` convert a kio-decoded dataclass to the same tuple.
"""

from __future__ import annotations

import dataclasses
import functools
import struct
from typing import Any

from kcli.bounds.model import Field, flat_fields
from kcli.metadata.records import METADATA_RECORD_CLASSES
from kcli.metadata.unpack import ValuesReader

FieldLayout = Field


def describe_fields(cls: type) -> tuple[Field, ...] | None:
    """The fields of a flat record class (kcli.bounds.model.flat_fields), or None when one is a
    nested struct or the class is not flexible."""
    return flat_fields(cls)


def field_names(cls: type) -> tuple[str, ...]:
    return tuple(item.name for item in dataclasses.fields(cls))


def values_of(record: Any) -> tuple[Any, ...]:
    """The field values of a decoded record dataclass, in field order (the compiled readers' shape)."""
    return tuple(getattr(record, name) for name in field_names(type(record)))


@functools.cache
def values_reader(api_key: int, version: int) -> ValuesReader | None:
    """The compiled reader of one metadata record type and version, or None (unknown or nested)."""
    from kcli.metadata.generated.decoders import READERS

    return READERS.get((api_key, version))


ID_HEAD = struct.Struct(">i16s")
_MAX_TAILS = 65536


class IdTailReader:
    """For a class opening with (int32, uuid) fields (PartitionRecord, PartitionChangeRecord):
    `reader(buf, body, end)` -> the values after those two, or None when the body does not decode
    canonically (kio's reader decides then).

    The rest of such a record (replicas, ISR, leader, epochs, tagged fields) repeats across
    partitions and changes, and its values depend only on its own bytes (any 20 bytes are a valid
    int32 and uuid), so each distinct byte string is decoded once and the values are shared:
    `memo` maps the bytes after the two ids (`buf[body + 20 : end]`) to the values of bodies that
    decoded to exactly `end`; a hot loop may look there first. Read the two ids with `ID_HEAD`.
    """

    __slots__ = ("_compiled", "memo")

    def __init__(self, compiled: ValuesReader) -> None:
        self._compiled = compiled
        self.memo: dict[bytes, tuple[Any, ...]] = {}

    def __call__(self, buf: Any, body: int, end: int) -> tuple[Any, ...] | None:
        tail = buf[body + 20 : end]
        rest = self.memo.get(tail)
        if rest is None:
            if end - body <= 20:
                return None
            try:
                values, used = self._compiled(buf, body)
            except Exception:
                return None
            if body + used != end:
                return None
            rest = values[2:]
            if len(self.memo) >= _MAX_TAILS:
                self.memo.clear()
            self.memo[tail] = rest
        return rest


def id_tail_reader(api_key: int, version: int) -> IdTailReader | None:
    """A fresh IdTailReader for one (int32, uuid)-led record type and version, else None."""
    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    compiled = values_reader(api_key, version)
    if cls is None or compiled is None:
        return None
    fields = describe_fields(cls)
    assert fields is not None
    head = [(f.kafka_type, f.array, f.tag) for f in fields[:2]]
    if head != [("int32", False, None), ("uuid", False, None)]:
        return None
    return IdTailReader(compiled)
