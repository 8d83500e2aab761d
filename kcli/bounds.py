"""Check the lengths declared in Kafka-encoded bytes against the bytes present, before kio decodes them.

kio's native decoder reserves memory for an array from its declared element count before reading
the elements. A forged count (a compact array claiming 2**32 elements in a 100-byte response or
metadata record) makes that reservation fail, and a failed allocation in native code aborts the
whole process instead of raising. `check(cls, buf, start, end)` walks the same schema kio would
(fields, nested structs, arrays, strings, bytes, tagged fields) reading only lengths, and raises
LengthError as soon as a declared size cannot fit in what is left; kio is then only ever asked
to decode bytes whose every declared length fits.

Behavior:
- Every array element takes at least one byte, so a count larger than the bytes left is refused.
- Known tagged fields are walked inside their declared size; unknown ones are skipped by size.
- The walk plan of each class is built once (functools.cache) from the kio dataclass fields.
"""

from __future__ import annotations

import dataclasses
import functools
import struct
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


class LengthError(ValueError):
    """A declared length or count does not fit in the bytes that follow it."""


@dataclasses.dataclass(frozen=True, slots=True)
class _Step:
    array: bool
    nested: Any  # a kio entity class, or None for a primitive
    kafka_type: str | None
    optional: bool


@functools.cache
def _plan(cls: type) -> tuple[tuple[_Step, ...], dict[int, _Step], bool]:
    from kio.serial._introspect import classify_field, get_field_tag, is_optional

    steps: list[_Step] = []
    tagged: dict[int, _Step] = {}
    for field in dataclasses.fields(cls):
        if not field.init:
            continue
        kind = classify_field(field)
        nested = kind.type_ if dataclasses.is_dataclass(kind.type_) else None
        step = _Step(
            array=kind.is_array,
            nested=nested,
            kafka_type=field.metadata.get("kafka_type"),
            optional=is_optional(field),
        )
        tag = get_field_tag(field)
        if tag is None:
            steps.append(step)
        else:
            tagged[int(tag)] = step
    return tuple(steps), tagged, bool(getattr(cls, "__flexible__", False))


def _uvarint(buf: Any, pos: int, end: int) -> tuple[int, int]:
    value = shift = 0
    for index in range(5):
        if pos + index >= end:
            raise LengthError(f"varint runs past the end at byte {pos}")
        byte = buf[pos + index]
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos + index + 1
        shift += 7
    raise LengthError(f"varint longer than 5 bytes at byte {pos}")


def _fits(size: int, pos: int, end: int, what: str) -> None:
    if size > end - pos:
        raise LengthError(f"{what} declares {size} but only {max(0, end - pos)} bytes are left at byte {pos}")


def _need(pos: int, size: int, end: int) -> None:
    if pos + size > end:
        raise LengthError(f"needs {size} bytes at byte {pos}, {max(0, end - pos)} left")


def _length(buf: Any, pos: int, end: int, flexible: bool, legacy_format: str) -> tuple[int, int]:
    """A declared length: compact (uvarint N+1, 0 = null) or legacy (int16/int32, -1 = null)."""
    if flexible:
        value, pos = _uvarint(buf, pos, end)
        return value - 1, pos
    size = struct.calcsize(legacy_format)
    _need(pos, size, end)
    return struct.unpack_from(legacy_format, buf, pos)[0], pos + size


def _value(step: _Step, buf: Any, pos: int, end: int, flexible: bool) -> int:
    if step.nested is not None:
        # A nullable struct has an int8 marker (-1 = null); in a nullable *array* of structs the
        # nullability belongs to the array, whose elements carry no marker.
        if step.optional and not step.array:
            _need(pos, 1, end)
            if struct.unpack_from(">b", buf, pos)[0] < 0:
                return pos + 1
            pos += 1
        return _entity(step.nested, buf, pos, end)
    kafka_type = step.kafka_type or ""
    fixed = _FIXED.get(kafka_type)
    if fixed is not None:
        _need(pos, fixed, end)
        return pos + fixed
    if kafka_type in _SIZED:
        legacy = ">h" if kafka_type == "string" else ">i"
        size, pos = _length(buf, pos, end, flexible, legacy)
        if size > 0:
            _fits(size, pos, end, kafka_type)
            pos += size
        return pos
    return end  # a type this walk does not know: leave the rest to kio's own checks


def _entity(cls: type, buf: Any, pos: int, end: int) -> int:
    steps, tagged, flexible = _plan(cls)
    for step in steps:
        if step.array:
            count, pos = _length(buf, pos, end, flexible, ">i")
            if count > 0:
                _fits(count, pos, end, "array")
                for _ in range(count):
                    pos = _value(step, buf, pos, end, flexible)
        else:
            pos = _value(step, buf, pos, end, flexible)
    if flexible:
        count, pos = _uvarint(buf, pos, end)
        _fits(count, pos, end, "tagged fields")
        for _ in range(count):
            tag, pos = _uvarint(buf, pos, end)
            size, pos = _uvarint(buf, pos, end)
            _fits(size, pos, end, "tagged field")
            known = tagged.get(tag)
            if known is not None:
                inner = pos
                if known.array:
                    items, inner = _length(buf, inner, pos + size, True, ">i")
                    if items > 0:
                        _fits(items, inner, pos + size, "array")
                        for _ in range(items):
                            inner = _value(known, buf, inner, pos + size, True)
                else:
                    _value(known, buf, inner, pos + size, True)
            pos += size
    return pos


def check(cls: type, buf: Any, start: int, end: int | None = None) -> None:
    """Raise LengthError if any length declared in buf[start:end] for a `cls` value cannot fit."""
    _entity(cls, buf, start, len(buf) if end is None else end)
