"""Compiled body decoders for the flat metadata record classes: bytes -> a tuple of field values.

kio's entity reader builds a frozen dataclass per record; replaying or dumping a million records
spends most of its time in those constructors. For every record class whose fields are primitives,
strings, bytes, uuids or arrays of them (TopicRecord, PartitionRecord, PartitionChangeRecord,
ConfigRecord, FeatureLevelRecord, ...) this module generates, once per class, a Python function
that reads the body with `struct.unpack_from` and returns the field values as a plain tuple in the
dataclass's field order. Classes with nested structs (RegisterBrokerRecord, ClientQuotaRecord, ...)
get no compiled decoder; callers use kio's reader for them.

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
import types
import typing
import uuid
from collections.abc import Callable
from typing import Any

from kcli.metadata.records import METADATA_RECORD_CLASSES

ValuesReader = Callable[[Any, int], tuple[tuple[Any, ...], int]]

# kafka_type -> (struct code, byte size) of the fixed-size primitives.
_FIXED: dict[str, tuple[str, int]] = {
    "int8": ("b", 1),
    "int16": ("h", 2),
    "int32": ("i", 4),
    "int64": ("q", 8),
    "uint16": ("H", 2),
    "float64": ("d", 8),
    "uuid": ("16s", 16),
}
_SAFE = uuid.SafeUUID.unknown
_ZERO = bytes(16)
_UUIDS: dict[bytes, uuid.UUID | None] = {_ZERO: None}
_MAX_SHARED_UUIDS = 2_000_000


class NotCanonical(ValueError):
    """The body is not in the form the compiled reader handles (kio's reader decides instead)."""


def _new_uuid(raw: bytes) -> uuid.UUID | None:
    """A UUID from 16 bytes without UUID.__init__'s checks (the bytes are exactly 16)."""
    if raw == _ZERO:
        return None
    value = object.__new__(uuid.UUID)
    object.__setattr__(value, "int", int.from_bytes(raw, "big"))
    object.__setattr__(value, "is_safe", _SAFE)
    if len(_UUIDS) > _MAX_SHARED_UUIDS:
        _UUIDS.clear()
        _UUIDS[_ZERO] = None
    _UUIDS[raw] = value
    return value


def shared_uuid(raw: bytes) -> uuid.UUID | None:
    """The UUID of 16 raw bytes, one object per distinct id; None for all zeros (as kio)."""
    found = _UUIDS.get(raw)
    return found if found is not None else _new_uuid(raw)


def read_uvarint(buf: Any, pos: int) -> tuple[int, int]:
    """Unsigned varint at `pos` -> (value, position after it)."""
    result = 0
    shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if byte < 0x80:
            return result, pos
        shift += 7
        if shift > 28:
            raise NotCanonical("varint longer than 5 bytes")


@functools.lru_cache(maxsize=256)
def _array_struct(count: int, code: str) -> struct.Struct:
    return struct.Struct(f">{count}{code}")


class FieldLayout(typing.NamedTuple):
    """How one field is encoded (what the compiled readers and the JSON dump need to know)."""

    name: str
    kafka_type: str
    array: bool
    nullable: bool
    tag: int | None
    default: Any


def describe_fields(cls: type) -> list[FieldLayout] | None:
    """The fields of a flat record class, or None when one is a nested struct or the class is not flexible."""
    if not getattr(cls, "__flexible__", True):
        return None  # compiled readers know the flexible encoding only (AccessControlRecord is not)
    out: list[FieldLayout] = []
    for item in dataclasses.fields(cls):
        kafka_type = item.metadata.get("kafka_type")
        if kafka_type is None:
            return None  # an array of structs
        annotation = item.type
        nullable = False
        if isinstance(annotation, types.UnionType) or typing.get_origin(annotation) is typing.Union:
            args = [arg for arg in typing.get_args(annotation) if arg is not type(None)]
            nullable = len(args) < len(typing.get_args(annotation))
            annotation = args[0]
        array = typing.get_origin(annotation) is tuple
        if kafka_type not in _FIXED and kafka_type not in ("bool", "string", "bytes"):
            return None
        if array and kafka_type not in ("int32", "int64", "int16", "int8", "uuid", "string"):
            return None
        default = item.default if item.default is not dataclasses.MISSING else None
        out.append(FieldLayout(item.name, kafka_type, array, nullable, item.metadata.get("tag"), default))
    return out


def field_names(cls: type) -> tuple[str, ...]:
    return tuple(item.name for item in dataclasses.fields(cls))


def values_of(record: Any) -> tuple[Any, ...]:
    """The field values of a decoded record dataclass, in field order (the compiled readers' shape)."""
    return tuple(getattr(record, name) for name in field_names(type(record)))


class _Source:
    """Accumulates generated source lines with indentation."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.depth = 1

    def add(self, line: str) -> None:
        self.lines.append("    " * self.depth + line)


def _uvarint_into(src: _Source, target: str) -> None:
    src.add(f"{target} = buf[pos]")
    src.add(f"if {target} < 0x80:")
    src.add("    pos += 1")
    src.add("else:")
    src.add(f"    {target}, pos = _uvarint(buf, pos)")


def _shared_uuid(src: _Source, target: str) -> None:
    """Emit shared_uuid() inline: a dict hit is the common case."""
    src.add(f"_u = _UUIDS.get({target})")
    src.add(f"{target} = _u if _u is not None else _new_uuid({target})")


def _read_field(src: _Source, field: FieldLayout, target: str, constants: dict[str, Any]) -> None:
    """Emit code reading one (non-fixed-run) field at `pos` into `target`."""
    kafka_type = field.kafka_type
    if field.array:
        _uvarint_into(src, "_n")
        src.add("if _n == 0:")
        src.add(f"    {target} = None" if field.nullable else "    raise _NotCanonical('null array')")
        src.add("else:")
        src.depth += 1
        src.add("_n -= 1")
        if kafka_type in ("int8", "int16", "int32", "int64"):
            code, size = _FIXED[kafka_type]
            # No bounds check: unpack_from raises past the buffer, and a read past the record's
            # end makes the size the caller checks come out wrong.
            table = f"_ARRAYS_{code}"
            constants[table] = tuple(struct.Struct(f">{count}{code}").unpack_from for count in range(64))
            src.add("if _n < 64:")
            src.add(f"    {target} = {table}[_n](buf, pos)")
            src.add("else:")
            src.add(f"    {target} = _array_struct(_n, {code!r}).unpack_from(buf, pos)")
            src.add(f"pos += {size} * _n")
        elif kafka_type == "uuid":
            src.add("if pos + 16 * _n > len(buf): raise _NotCanonical('array overruns')")
            src.add(
                f"{target} = tuple([_uuid(bytes(buf[p : p + 16])) for p in range(pos, pos + 16 * _n, 16)])"
            )
            src.add("pos += 16 * _n")
        else:  # string
            src.add("_items = []")
            src.add("for _ in range(_n):")
            src.depth += 1
            _uvarint_into(src, "_s")
            src.add("if _s == 0: raise _NotCanonical('null string in array')")
            src.add("_s += pos - 1")
            src.add("_items.append(str(buf[pos:_s], 'utf-8'))")
            src.add("pos = _s")
            src.depth -= 1
            src.add(f"{target} = tuple(_items)")
        src.depth -= 1
        return
    if kafka_type in ("string", "bytes"):
        _uvarint_into(src, "_s")
        src.add("if _s == 0:")
        src.add(f"    {target} = None" if field.nullable else "    raise _NotCanonical('null value')")
        src.add("else:")
        src.add("    _s += pos - 1")
        conversion = "str(buf[pos:_s], 'utf-8')" if kafka_type == "string" else "bytes(buf[pos:_s])"
        src.add(f"    {target} = {conversion}")
        src.add("    pos = _s")
        return
    if kafka_type == "bool":
        src.add(f"{target} = buf[pos]")
        src.add(f"if {target} > 1: raise _NotCanonical('bool byte')")
        src.add(f"{target} = {target} == 1")
        src.add("pos += 1")
        return
    code, size = _FIXED[kafka_type]
    name = f"_S_{code}"
    constants[name] = struct.Struct(">" + code)
    src.add(f"({target},) = {name}.unpack_from(buf, pos)")
    if kafka_type == "uuid":
        _shared_uuid(src, target)
    src.add(f"pos += {size}")


def _compile(cls: type) -> ValuesReader | None:
    fields = describe_fields(cls)
    if fields is None:
        return None
    constants: dict[str, Any] = {
        "_uvarint": read_uvarint,
        "_uuid": shared_uuid,
        "_UUIDS": _UUIDS,
        "_new_uuid": _new_uuid,
        "_array_struct": _array_struct,
        "_NotCanonical": NotCanonical,
    }
    src = _Source()
    regular = [f for f in fields if f.tag is None]
    tagged = sorted((f for f in fields if f.tag is not None), key=lambda f: f.tag or 0)
    targets = {f.name: f"v_{f.name}" for f in fields}
    src.add("start = pos")
    index = 0
    while index < len(regular):
        # A run of fixed-size, non-array fields is read with one struct.
        run: list[FieldLayout] = []
        while index < len(regular) and not regular[index].array and regular[index].kafka_type in _FIXED:
            run.append(regular[index])
            index += 1
        if len(run) > 1:
            name = f"_RUN{len(constants)}"
            constants[name] = struct.Struct(">" + "".join(_FIXED[f.kafka_type][0] for f in run))
            src.add(f"{', '.join(targets[f.name] for f in run)}, = {name}.unpack_from(buf, pos)")
            src.add(f"pos += {constants[name].size}")
            for f in run:
                if f.kafka_type == "uuid":
                    _shared_uuid(src, targets[f.name])
            continue
        if run:
            _read_field(src, run[0], targets[run[0].name], constants)
            continue
        _read_field(src, regular[index], targets[regular[index].name], constants)
        index += 1
    for f in tagged:
        constants[f"_D_{f.name}"] = f.default
        src.add(f"{targets[f.name]} = _D_{f.name}")
    _uvarint_into(src, "_tags")
    if not tagged:
        src.add("if _tags: raise _NotCanonical('unknown tagged field')")
    else:
        src.add("_last = -1")
        src.add("while _tags:")
        src.depth += 1
        src.add("_tags -= 1")
        _uvarint_into(src, "_tag")
        _uvarint_into(src, "_size")
        src.add("if _tag <= _last: raise _NotCanonical('tags out of order')")
        src.add("_last = _tag")
        src.add("_stop = pos + _size")
        for number, f in enumerate(tagged):
            src.add(f"{'if' if number == 0 else 'elif'} _tag == {f.tag}:")
            src.depth += 1
            _read_field(src, f, targets[f.name], constants)
            src.depth -= 1
        src.add("else:")
        src.add("    raise _NotCanonical('unknown tagged field')")
        src.add("if pos != _stop: raise _NotCanonical('tagged field size')")
        src.depth -= 1
    values = ", ".join(targets[f.name] for f in fields)
    src.add(f"return ({values}{',' if len(fields) == 1 else ''}), pos - start")
    code = "def read(buf, pos):\n" + "\n".join(src.lines) + "\n"
    namespace: dict[str, Any] = dict(constants)
    exec(compile(code, f"<compiled reader {cls.__name__}>", "exec"), namespace)
    reader: ValuesReader = namespace["read"]
    reader.__doc__ = f"{cls.__name__} body -> field values.\n\n{code}"
    return reader


@functools.cache
def values_reader(api_key: int, version: int) -> ValuesReader | None:
    """The compiled reader of one metadata record type and version, or None (unknown or nested)."""
    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    return None if cls is None else _compile(cls)


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
