"""The one field model of the Kafka-encoded classes kcli decodes: kio's request, response, header and
control record classes, and kcli's metadata record classes (kcli.metadata.generated.records).

scripts/decoders.py generates every decoder kcli runs from this model at build time (the length
walks of kcli.bounds, the metadata values readers and JSON renderers); at run time kcli.bounds
compares a class's `fingerprint` with the one its walk was generated from, so a walk never runs
over a class whose shape changed (another kio release) without a regeneration.

Behavior:
- `entity(cls)` reads a class once (dataclass fields, their `kafka_type` metadata and tags, the
  optional and tuple annotations, nested entity classes) into frozen values; cached.
- `SIZES` is the one table of fixed-size kafka types: struct code and byte size.
- A kafka type that is neither fixed-size nor sized (`SIZED`) is refused (SchemaError), never skipped.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import types
import typing
from typing import Any

# kafka type -> (struct code, byte size)
SIZES: dict[str, tuple[str, int]] = {
    "bool": ("?", 1),
    "int8": ("b", 1),
    "uint8": ("B", 1),
    "int16": ("h", 2),
    "uint16": ("H", 2),
    "error_code": ("h", 2),
    "int32": ("i", 4),
    "uint32": ("I", 4),
    "timedelta_i32": ("i", 4),
    "float64": ("d", 8),
    "int64": ("q", 8),
    "uint64": ("Q", 8),
    "timedelta_i64": ("q", 8),
    "datetime_i64": ("q", 8),
    "uuid": ("16s", 16),
}
# Length-prefixed kafka types: int16 (string) or int32 (bytes, records) sizes, compact uvarint N+1
# in the flexible encoding (0: null).
SIZED = frozenset({"string", "bytes", "records"})


class SchemaError(TypeError):
    """A class the model cannot describe (an unknown kafka type, a recursive struct)."""


@dataclasses.dataclass(frozen=True, slots=True)
class Field:
    """One field: its kafka type ("" for a struct), array-ness, nullability, tag, default."""

    name: str
    kafka_type: str
    array: bool
    nullable: bool
    tag: int | None
    default: Any
    entity: Entity | None = None  # a nested struct (or the element of an array of structs)
    # encoded as in a non-flexible version whatever the class: RequestHeader.client_id, which
    # Kafka keeps an int16-sized string in header v2 (RequestHeader.json), as kio reads it
    legacy: bool = False

    @property
    def fixed(self) -> int | None:
        """The byte size of a fixed-size scalar field (None for arrays, structs and sized types)."""
        if self.array or self.entity is not None:
            return None
        found = SIZES.get(self.kafka_type)
        return None if found is None else found[1]


@dataclasses.dataclass(frozen=True, slots=True)
class Entity:
    """One class: its name, where it is defined, whether it is flexible, its fields in order."""

    name: str
    qualname: str  # module.Class: the key of its generated decoders
    flexible: bool
    fields: tuple[Field, ...]

    @property
    def regular(self) -> tuple[Field, ...]:
        return tuple(f for f in self.fields if f.tag is None)

    @property
    def tagged(self) -> tuple[Field, ...]:
        return tuple(sorted((f for f in self.fields if f.tag is not None), key=lambda f: f.tag or 0))

    def shape(self) -> str:
        """What decoding depends on, as text (names, types, arrays, nulls, tags; nested inline)."""
        parts = [f"{self.name}:{int(self.flexible)}("]
        for f in self.fields:
            inner = f.entity.shape() if f.entity is not None else f.kafka_type
            legacy = "!" if f.legacy else ""
            parts.append(
                f"{f.name}={inner}{legacy}{'[]' if f.array else ''}{'?' if f.nullable else ''}#{f.tag},"
            )
        return "".join(parts) + ")"


def fingerprint(cls: type) -> str:
    """A short digest of the class's shape: equal shapes, equal fingerprints."""
    return _fingerprint(cls)


@functools.cache
def _fingerprint(cls: type) -> str:
    return hashlib.sha256(entity(cls).shape().encode()).hexdigest()[:16]


def qualname(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


@functools.cache
def entity(cls: type) -> Entity:
    """The model of one dataclass (recursively)."""
    return _entity(cls, ())


def _entity(cls: type, stack: tuple[type, ...]) -> Entity:
    if cls in stack:
        raise SchemaError(f"recursive schema {cls.__name__}")
    fields = []
    for item in dataclasses.fields(cls):  # type: ignore[arg-type]
        annotation: Any = item.type
        nullable = False
        if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
            args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            nullable = len(args) < len(typing.get_args(annotation))
            annotation = args[0]
        array = typing.get_origin(annotation) is tuple
        if array:
            annotation = typing.get_args(annotation)[0]
        kafka_type = item.metadata.get("kafka_type") or ""
        nested = None
        if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
            nested = _entity(annotation, (*stack, cls))
            kafka_type = ""
        elif kafka_type not in SIZES and kafka_type not in SIZED:
            raise SchemaError(f"{cls.__name__}.{item.name}: unknown kafka type {kafka_type!r}")
        tag = item.metadata.get("tag")
        default = item.default if item.default is not dataclasses.MISSING else None
        legacy = cls.__name__ == "RequestHeader" and item.name == "client_id"
        fields.append(
            Field(
                item.name,
                kafka_type,
                array,
                nullable,
                None if tag is None else int(tag),
                default,
                nested,
                legacy,
            )
        )
    return Entity(cls.__name__, qualname(cls), bool(getattr(cls, "__flexible__", False)), tuple(fields))


# The kafka types of the flat metadata record classes' fields (a struct code each; bool, string
# and bytes are read apart), and those their arrays may hold.
FLAT_TYPES = frozenset(
    {"int8", "int16", "int32", "int64", "uint16", "float64", "uuid", "bool", "string", "bytes"}
)
FLAT_ARRAYS = frozenset({"int8", "int16", "int32", "int64", "uuid", "string"})


def flat_fields(cls: type) -> tuple[Field, ...] | None:
    """The fields of a flat, flexible class (primitives, strings, bytes, uuids, arrays of them: what
    kcli.metadata.fastdecode reads), or None."""
    found = entity(cls)
    if not found.flexible:
        return None  # the values readers know the flexible encoding only (AccessControlRecord is not)
    for f in found.fields:
        if f.entity is not None or f.kafka_type not in FLAT_TYPES:
            return None
        if f.array and f.kafka_type not in FLAT_ARRAYS:
            return None
    return found.fields
