"""Check the lengths declared in Kafka-encoded bytes against the bytes present, before kio decodes them.

kio's native decoder reserves memory for an array from its declared element count before reading
the elements. A forged count (a compact array claiming 2**32 elements in a 100-byte response or
metadata record) makes that reservation fail, and a failed allocation in native code aborts the
whole process instead of raising. `check(cls, buf, start, end)` walks the same schema kio would
(fields, nested structs, arrays, strings, bytes, tagged fields) reading only lengths, and raises
LengthError as soon as a declared count cannot fit in what is left; kio is then only ever asked
to decode bytes whose every declared length fits.

Behavior:
- Every array element takes at least one byte, so a count larger than the bytes left is refused.
- The walk follows kio's reading exactly, so every count kio will read is one the walk checked:
  a nullable struct is null only for the marker -1 (kio reads any other marker as "present"), and a
  known tagged field must fill its declared size exactly (kio reads the field, not the size, so a
  size that disagrees would let kio read bytes the walk skipped). Unknown tags are skipped by size
  (kio refuses them).
- Speed: the walk of each class is compiled once into one Python function (functools.cache): nested
  structs are inlined, consecutive fixed-size fields are one addition, an array of fixed-size
  values is skipped in one step, and strings only move the position. A string running past the end
  is caught by the next count check or by the final position check, so it needs no check of its own.
- A kafka type the walk does not know is refused when the walk is compiled (never skipped).
"""

from __future__ import annotations

import dataclasses
import functools
import struct
from collections.abc import Callable
from typing import Any

_FIXED = {
    "bool": 1,
    "int8": 1,
    "uint8": 1,
    "int16": 2,
    "uint16": 2,
    "error_code": 2,
    "int32": 4,
    "uint32": 4,
    "timedelta_i32": 4,
    "float64": 8,
    "int64": 8,
    "uint64": 8,
    "timedelta_i64": 8,
    "datetime_i64": 8,
    "uuid": 16,
}
_SIZED = frozenset({"string", "bytes", "records"})

Walker = Callable[[Any, int, int], int]


class LengthError(ValueError):
    """A declared length or count does not fit in the bytes that follow it."""


def check(cls: type, buf: Any, start: int, end: int | None = None) -> None:
    """Raise LengthError if any length declared in buf[start:end] for a `cls` value cannot fit."""
    stop = len(buf) if end is None else end
    try:
        position = walker(cls)(buf, start, stop)
    except (IndexError, struct.error):
        raise LengthError(f"the {cls.__name__} ends in the middle of a field") from None
    if position > stop:
        raise LengthError(f"the {cls.__name__} declares {position - start} bytes, {stop - start} are present")


@functools.cache
def walker(cls: type) -> Walker:
    """The compiled length walk of `cls`: (buf, start, end) -> the position after it."""
    return _Compiler().compile(cls)


# ---- the pieces every compiled walk calls ------------------------------------------------------------


def _uvarint(buf: Any, pos: int) -> tuple[int, int]:
    """A varint of two to five bytes (one-byte varints are read inline)."""
    value = shift = 0
    for index in range(5):
        byte = buf[pos + index]  # IndexError past the end
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos + index + 1
        shift += 7
    raise LengthError(f"varint longer than 5 bytes at byte {pos}")


def _skip_tags(buf: Any, pos: int, end: int) -> int:
    """A tagged-field section without known tags (an empty one is skipped inline)."""
    count, pos = _uvarint(buf, pos)
    if count > end - pos:
        raise _too_many(count, pos, end)
    for _ in range(count):
        _tag, pos = _uvarint(buf, pos)
        size, pos = _uvarint(buf, pos)
        if size > end - pos:
            raise _too_many(size, pos, end)
        pos += size
    return pos


def _too_many(count: int, pos: int, end: int) -> LengthError:
    return LengthError(
        f"array declares {count} elements but {max(0, end - pos)} bytes are left at byte {pos}"
    )


def _unfilled(tag: int, pos: int, size: int) -> LengthError:
    return LengthError(f"tagged field {tag} at byte {pos} does not fill its declared {size} bytes")


_RUNTIME: dict[str, Any] = {
    "_uvarint": _uvarint,
    "_skip_tags": _skip_tags,
    "_too_many": _too_many,
    "_unfilled": _unfilled,
    "_i16": struct.Struct(">h").unpack_from,
    "_i32": struct.Struct(">i").unpack_from,
}


# ---- the compiler ------------------------------------------------------------------------------------


@dataclasses.dataclass(frozen=True, slots=True)
class _Field:
    array: bool
    nested: Any  # a kio entity class, or None for a primitive
    kafka_type: str
    optional: bool
    tag: int | None


def _fields(cls: type) -> list[_Field]:
    from kio.serial._introspect import classify_field, get_field_tag, is_optional

    out = []
    for field in dataclasses.fields(cls):
        kind = classify_field(field)
        nested = kind.type_ if dataclasses.is_dataclass(kind.type_) else None
        kafka_type = field.metadata.get("kafka_type") or ""
        if nested is None and kafka_type not in _FIXED and kafka_type not in _SIZED:
            raise TypeError(
                f"kcli.bounds cannot walk {cls.__name__}.{field.name} of kafka type {kafka_type!r}"
            )
        tag = get_field_tag(field)
        out.append(
            _Field(kind.is_array, nested, kafka_type, is_optional(field), None if tag is None else int(tag))
        )
    return out


class _Compiler:
    """Writes the source of one walk function per class (plus one per tagged-field section) and runs it."""

    def __init__(self) -> None:
        self.functions: list[str] = []
        self.names: dict[tuple[type, str], str] = {}

    def compile(self, cls: type) -> Walker:
        entry = self._function(cls, "walk", self._entity)
        namespace = dict(_RUNTIME)
        exec(compile("\n\n".join(self.functions), f"<kcli.bounds walk of {cls.__name__}>", "exec"), namespace)
        return namespace[entry]  # type: ignore[no-any-return]

    def _function(
        self, cls: type, kind: str, body: Callable[[type, list[str], int, tuple[type, ...]], None]
    ) -> str:
        key = (cls, kind)
        if key in self.names:
            return self.names[key]
        name = self.names[key] = f"_{kind}_{len(self.names)}_{cls.__name__}"
        lines = [f"def {name}(buf, p, end):"]
        body(cls, lines, 1, ())
        lines.append("    return p")
        self.functions.append("\n".join(lines))
        return name

    def _entity(self, cls: type, lines: list[str], depth: int, stack: tuple[type, ...]) -> None:
        """Inline the walk of one `cls` value (fields, then its tagged-field section)."""
        if cls in stack:
            raise TypeError(f"kcli.bounds cannot walk the recursive schema {cls.__name__}")
        stack = (*stack, cls)
        flexible = bool(getattr(cls, "__flexible__", False))
        fields = _fields(cls)
        pad = "    " * depth
        fixed = 0
        for field in fields:
            if field.tag is not None:
                continue
            size = self._fixed_size(field)
            if size is not None:
                fixed += size
                continue
            if fixed:
                lines.append(f"{pad}p += {fixed}")
                fixed = 0
            self._field(field, flexible, lines, depth, stack)
        if fixed:
            lines.append(f"{pad}p += {fixed}")
        if flexible:
            if any(field.tag is not None for field in fields):
                tags = self._function(cls, "tags", lambda c, ls, d, s: self._tags_body(c, ls, d, stack))
            else:
                tags = "_skip_tags"
            lines.append(f"{pad}if buf[p]:")
            lines.append(f"{pad}    p = {tags}(buf, p, end)")
            lines.append(f"{pad}else:")
            lines.append(f"{pad}    p += 1")

    @staticmethod
    def _fixed_size(field: _Field) -> int | None:
        if field.array or field.nested is not None:
            return None
        return _FIXED.get(field.kafka_type)

    def _field(
        self, field: _Field, flexible: bool, lines: list[str], depth: int, stack: tuple[type, ...]
    ) -> None:
        pad = "    " * depth
        if field.array:
            self._count(flexible, lines, depth)
            lines.append(f"{pad}if v > 0:")
            lines.append(f"{pad}    if v > end - p:")
            lines.append(f"{pad}        raise _too_many(v, p, end)")
            element = _FIXED.get(field.kafka_type) if field.nested is None else None
            if element is not None:
                lines.append(f"{pad}    p += v * {element}")
                return
            lines.append(f"{pad}    for _ in range(v):")
            self._value(field, flexible, lines, depth + 2, stack, in_array=True)
            return
        self._value(field, flexible, lines, depth, stack, in_array=False)

    def _value(
        self,
        field: _Field,
        flexible: bool,
        lines: list[str],
        depth: int,
        stack: tuple[type, ...],
        *,
        in_array: bool,
    ) -> None:
        pad = "    " * depth
        if field.nested is not None:
            # A nullable struct has an int8 marker (-1 = null); in a nullable *array* of structs the
            # nullability belongs to the array, whose elements carry no marker.
            if field.optional and not in_array:
                lines.append(f"{pad}if buf[p] == 255:")
                lines.append(f"{pad}    p += 1")
                lines.append(f"{pad}else:")
                lines.append(f"{pad}    p += 1")
                self._entity(field.nested, lines, depth + 1, stack)
            else:
                self._entity(field.nested, lines, depth, stack)
            return
        fixed = _FIXED.get(field.kafka_type)
        if fixed is not None:
            lines.append(f"{pad}p += {fixed}")
        elif flexible:  # compact string or bytes: uvarint N+1, 0 = null
            lines.append(f"{pad}v = buf[p]")
            lines.append(f"{pad}if v < 128:")
            lines.append(f"{pad}    p += v or 1")
            lines.append(f"{pad}else:")
            lines.append(f"{pad}    v, p = _uvarint(buf, p)")
            lines.append(f"{pad}    p += v - 1")
        else:  # int16-sized string, int32-sized bytes; negative = null (or refused by kio)
            reader, width = ("_i16", 2) if field.kafka_type == "string" else ("_i32", 4)
            lines.append(f"{pad}v = {reader}(buf, p)[0]")
            lines.append(f"{pad}p += {width}")
            lines.append(f"{pad}if v > 0:")
            lines.append(f"{pad}    p += v")

    @staticmethod
    def _count(flexible: bool, lines: list[str], depth: int) -> None:
        """Leave an array's element count in v (compact: uvarint N+1; legacy: int32; <= 0 = none)."""
        pad = "    " * depth
        if flexible:
            lines.append(f"{pad}v = buf[p]")
            lines.append(f"{pad}if v < 128:")
            lines.append(f"{pad}    p += 1")
            lines.append(f"{pad}else:")
            lines.append(f"{pad}    v, p = _uvarint(buf, p)")
            lines.append(f"{pad}v -= 1")
        else:
            lines.append(f"{pad}v = _i32(buf, p)[0]")
            lines.append(f"{pad}p += 4")

    def _tags_body(self, cls: type, lines: list[str], depth: int, stack: tuple[type, ...]) -> None:
        """The tagged-field section of `cls`: known tags walked within their size, others skipped."""
        pad = "    " * depth
        lines.append(f"{pad}count, p = _uvarint(buf, p)")
        lines.append(f"{pad}if count > end - p:")
        lines.append(f"{pad}    raise _too_many(count, p, end)")
        lines.append(f"{pad}for _ in range(count):")
        lines.append(f"{pad}    tag, p = _uvarint(buf, p)")
        lines.append(f"{pad}    size, p = _uvarint(buf, p)")
        lines.append(f"{pad}    if size > end - p:")
        lines.append(f"{pad}        raise _too_many(size, p, end)")
        for field in _fields(cls):
            if field.tag is None:
                continue
            name = f"_tag{field.tag}_{len(self.names)}_{cls.__name__}"
            self.names[(cls, f"tag{field.tag}")] = name
            body = [f"def {name}(buf, p, end):"]
            self._field(field, True, body, 1, stack)
            body.append("    return p")
            self.functions.append("\n".join(body))
            lines.append(f"{pad}    if tag == {field.tag} and {name}(buf, p, p + size) != p + size:")
            lines.append(f"{pad}        raise _unfilled(tag, p, size)")
        lines.append(f"{pad}    p += size")
