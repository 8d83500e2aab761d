"""One `struct.unpack` per record, or per run of records, for the types a big log is made of.

A PartitionRecord or PartitionChangeRecord body (every version) holds only fixed-size ints, uuids
and arrays of them, so where each value sits depends only on the arrays' lengths and on which
tagged fields are present: its layout. A `LayoutFamily` walks a body to learn its layout and
compiles, once per layout, a function that checks and unpacks a body with one struct (every length
and tag byte and the total size compared at once) and then runs its user's statements over the
unpacked items `t`: the image stores the values, the dump formats a line. The layout of the
previous record is tried first; consecutive records mostly share it.

Records framed the same way with the same layout (a snapshot's PartitionRecords, a controller's
batch of changes) also run in bulk: `LayoutFamily.run` checks the framing of up to a few hundred
records at once (kcli.metadata.framing.framed_alike), unpacks their bodies at once with
`struct.iter_unpack`, checks every length and tag byte of them all with one list comparison, and
runs the statements in one loop.

Behavior:
- Only classes made of int8/16/32/64 and uuid fields and arrays of them have layouts.
- A body (or record) is accepted only when every length byte, tag and tag size, and its total size,
  are exactly those of its layout (and, in a run, when its framing is exactly that of the first
  record but for its offset delta, which must be its index); anything else (an array of 127 items
  or more, a length that is not its canonical one-byte varint, unknown or out-of-order tags) is left
  to the caller's general readers, which decide between a value and an error.
- `layout_reader(api_key, version)` -> `read(buf, body, end)` -> the values of
  kcli.metadata.fastdecode.values_reader, except that a uuid field (not an array) is its 16 raw
  bytes (all zeros where kio says None): cheap to look up by.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable
from typing import Any, NamedTuple

from kcli.metadata.fastdecode import FieldLayout, describe_fields, shared_uuid
from kcli.metadata.framing import framed_alike
from kcli.metadata.records import METADATA_RECORD_CLASSES

_CODES = {"int8": ("b", 1), "int16": ("h", 2), "int32": ("i", 4), "int64": ("q", 8), "uuid": ("16s", 16)}
_MAX_LAYOUTS = 4096


class Source(NamedTuple):
    """Where one field's value is in a layout's unpacked items `t`.

    kind "value": `t[slot]` (an int, or a uuid's 16 raw bytes); "items": the `length` ints (or
    uuids' raw bytes) `t[slot : slot + length]`; "blob": `t[slot]`, the raw bytes of an array of
    `length` items (the types in `LayoutFamily.blobs`); "null": a null array; "default": an absent
    tagged field (its default).
    """

    field: FieldLayout
    kind: str
    slot: int = 0
    length: int = 0


class Action(NamedTuple):
    """What a layout's function does with one record's items `t` (and `offset`): `lines` (statements)
    then `return result`. `names` are the globals they use."""

    lines: list[str]
    result: str
    names: dict[str, Any]


Builder = Callable[[list[Source]], Action]


def _fields(api_key: int, version: int) -> tuple[type, list[FieldLayout]] | None:
    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    fields = describe_fields(cls) if cls is not None else None
    if cls is None or not fields or any(f.kafka_type not in _CODES for f in fields):
        return None
    return cls, fields


def has_layouts(api_key: int, version: int) -> bool:
    """Whether the record type has layouts (ints and uuids only)."""
    return _fields(api_key, version) is not None


def _walk(
    regular: list[FieldLayout], tagged: dict[int, FieldLayout], buf: Any, pos: int, end: int
) -> tuple[int, ...] | None:
    """The layout of the body at `pos`: array length bytes, the tag count, then (tag, size, length
    byte) of each tagged field; None when it is not a layout handled here."""
    key: list[int] = []
    for item in regular:
        if item.array:
            count = buf[pos]
            if count >= 0x80 or (count == 0 and not item.nullable):
                return None
            key.append(count)
            pos += 1 + max(count - 1, 0) * _CODES[item.kafka_type][1]
        else:
            pos += _CODES[item.kafka_type][1]
        if pos > end:
            return None
    tags = buf[pos]
    if tags >= 0x80:
        return None
    key.append(tags)
    pos += 1
    last = -1
    for _ in range(tags):
        if pos + 2 > end:
            return None
        tag, size = buf[pos], buf[pos + 1]
        tagged_item = tagged.get(tag)
        if tagged_item is None or tag <= last or size >= 0x80:
            return None
        last = tag
        key += (tag, size)
        pos += 2
        if tagged_item.array:
            count = buf[pos] if pos < end else 0x80
            if count >= 0x80 or (count == 0 and not tagged_item.nullable):
                return None
            if size != 1 + max(count - 1, 0) * _CODES[tagged_item.kafka_type][1]:
                return None
            key.append(count)
        elif size != _CODES[tagged_item.kafka_type][1]:
            return None
        pos += size
    return tuple(key) if pos == end else None


class Layout:
    """One compiled layout of one record type: the body's struct, the checks, and the functions."""

    __slots__ = ("_family", "attempt", "checks", "fmt", "handle", "runs", "size", "sources")

    def __init__(self, family: LayoutFamily, key: tuple[int, ...]) -> None:
        self._family = family
        fields = family.fields
        regular = [f for f in fields if f.tag is None]
        tagged = {f.tag: f for f in fields if f.tag is not None}
        fmt: list[str] = []
        width = 0  # items unpacked so far
        checks: list[tuple[int, int]] = []  # (item index, expected byte)
        sources: dict[str, Source] = {}
        layout = iter(key)

        def place(item: FieldLayout, count: int | None) -> None:
            nonlocal width
            code, _size = _CODES[item.kafka_type]
            if count is None:  # a single value
                fmt.append(code)
                sources[item.name] = Source(item, "value", width)
                width += 1
                return
            fmt.append("B")
            checks.append((width, count))
            width += 1
            if count == 0:
                sources[item.name] = Source(item, "null")
            elif item.kafka_type in family.blobs:
                fmt.append(f"{_CODES[item.kafka_type][1] * (count - 1)}s")
                sources[item.name] = Source(item, "blob", width, count - 1)
                width += 1
            else:
                fmt.append(code * (count - 1) if item.kafka_type == "uuid" else f"{count - 1}{code}")
                sources[item.name] = Source(item, "items", width, count - 1)
                width += count - 1

        for item in regular:
            place(item, next(layout) if item.array else None)
        tags = next(layout)
        fmt.append("B")
        checks.append((width, tags))
        width += 1
        for _ in range(tags):
            tag, size = next(layout), next(layout)
            fmt.append("BB")
            checks += ((width, tag), (width + 1, size))
            width += 2
            item = tagged[tag]
            place(item, next(layout) if item.array else None)
        self.fmt = "".join(fmt)
        self.size = struct.calcsize(">" + self.fmt)
        self.checks = checks
        self.sources = [sources.get(f.name) or Source(f, "default") for f in fields]
        self.runs: dict[int, Callable[..., int]] = {}
        action = family.build(self.sources)
        namespace = {
            **action.names,
            "_miss": family.miss,
            "_unpack": struct.Struct(">" + self.fmt).unpack_from,
            "_layout": _getter([index for index, _byte in checks]),
            "_expected": _expected([byte for _index, byte in checks]),
        }
        arguments = "buf, pos, end" + "".join(f", {name}" for name in family.context.split())
        body = "".join(f"    {line}\n" for line in action.lines) + f"    return {action.result}\n"
        code = (
            f"def handle({arguments}):\n"
            f"    if end - pos != {self.size}:\n"
            f"        return _miss({arguments})\n"
            "    t = _unpack(buf, pos)\n"
            "    if _layout(t) != _expected:\n"
            f"        return _miss({arguments})\n"
            f"{body}"
            f"def attempt({arguments}):\n"
            f"    if end - pos != {self.size}:\n"
            "        return None\n"
            "    t = _unpack(buf, pos)\n"
            "    if _layout(t) != _expected:\n"
            "        return None\n"
            f"{body}"
        )
        _define(code, f"<layout {family.cls.__name__} {key}>", namespace)
        self.handle: Callable[..., Any] = namespace["handle"]
        self.attempt: Callable[..., Any] = namespace["attempt"]

    def run_function(self, prefix: int) -> Callable[..., int]:
        """The bulk function of this layout for records whose body starts `prefix` bytes in (their
        framing is checked apart: kcli.metadata.framing.framed_alike)."""
        found = self.runs.get(prefix)
        if found is not None:
            return found
        family = self._family
        action = family.build(self.sources)
        unpack = struct.Struct(f">{prefix}x{self.fmt}x")
        namespace = {
            **action.names,
            "_records": unpack.iter_unpack,
            "_layout": _getter([index for index, _byte in self.checks]),
            "_expected": _expected([byte for _index, byte in self.checks]),
            "_first_other": _first_other,
        }
        loop = "".join(f"        {line}\n" for line in action.lines) or "        pass\n"
        code = (
            "def run(area, pos, count, offset):\n"
            f"    records = list(_records(area[pos : pos + count * {unpack.size}]))\n"
            "    layouts = list(map(_layout, records))\n"
            "    if layouts.count(_expected) != count:\n"
            "        count = _first_other(layouts, _expected)\n"
            "        del records[count:]\n"
            "    for offset, t in enumerate(records, offset):\n"
            f"{loop}"
            "    return count\n"
        )
        _define(code, f"<run {family.cls.__name__}>", namespace)
        run: Callable[..., int] = namespace["run"]
        self.runs[prefix] = run
        return run


def _first_other(values: list[Any], expected: Any) -> int:
    """The index of the first value that is not `expected`."""
    return next(index for index, value in enumerate(values) if value != expected)


def _define(code: str, filename: str, namespace: dict[str, Any]) -> None:
    """Run generated source into `namespace`. Its text holds a kcli record class's field names and
    integers (sizes, counts, tags: parsed as ints from a body); no text from a log ever gets in."""
    exec(compile(code, filename, "exec"), namespace)


def _items(fmt: str) -> int:
    """How many items a struct format (without byte order) unpacks to."""
    return len(struct.unpack(">" + fmt, bytes(struct.calcsize(">" + fmt))))


def _getter(indexes: list[int]) -> Callable[[tuple[Any, ...]], Any]:
    return operator.itemgetter(*indexes)


def _expected(values: list[int]) -> Any:
    return tuple(values) if len(values) > 1 else values[0]


class LayoutFamily:
    """The layouts of one record type for one user (see the module docstring).

    `first` is the function to call first (`install` receives each layout's `handle` as it is
    learned: the caller calls that next, and it comes back here for a body of another layout);
    `failed` is what the functions give for a body in no layout handled here. `context` names the
    arguments after `(buf, pos, end)`, space-separated, which the statements may use. Arrays of
    the kafka types in `blobs` are unpacked as their raw bytes ("blob" sources), others one item
    per element ("items").
    """

    def __init__(
        self,
        api_key: int,
        version: int,
        build: Builder,
        *,
        install: Callable[[Callable[..., Any]], None],
        failed: Any = None,
        context: str = "",
        blobs: frozenset[str] = frozenset({"uuid"}),
    ) -> None:
        found = _fields(api_key, version)
        if found is None:
            raise ValueError(f"record type {api_key} v{version} has no layouts")
        self.cls, self.fields = found
        self.api_key = api_key
        self.version = version
        self.build = build
        self.install = install
        self.failed = failed
        self.context = context
        self.blobs = blobs
        self.current: Layout | None = None
        self._regular = [f for f in self.fields if f.tag is None]
        self._tagged = {f.tag: f for f in self.fields if f.tag is not None}
        self._compiled: dict[tuple[int, ...], Layout] = {}
        self._by_size: dict[int, list[Layout]] = {}
        self.first: Callable[..., Any] = self.miss

    def miss(self, buf: Any, pos: int, end: int, *rest: Any) -> Any:
        """A body not of the current layout: find or learn its layout, install it, use it."""
        for candidate in self._by_size.get(end - pos, ()):  # layouts seen before with this size
            result = candidate.attempt(buf, pos, end, *rest)
            if result is not None:
                self._use(candidate)
                return result
        try:
            key = _walk(self._regular, self._tagged, buf, pos, end)
        except IndexError:
            return self.failed
        if key is None:
            return self.failed
        if len(self._compiled) >= _MAX_LAYOUTS:
            self._compiled.clear()
            self._by_size.clear()
        layout = self._compiled[key] = Layout(self, key)
        self._by_size.setdefault(end - pos, []).append(layout)
        self._use(layout)
        result = layout.attempt(buf, pos, end, *rest)
        return self.failed if result is None else result

    def _use(self, layout: Layout) -> None:
        self.current = layout
        self.install(layout.handle)

    def run(
        self, area: Any, pos: int, size: int, hdr: int, value: int, index: int, count: int, offset: int
    ) -> int:
        """A run handler (kcli.metadata.framing.RunHandler) for records of the current layout: the
        framing of them all checked at once, their bodies unpacked at once, the statements run for
        each. -> how many were handled from the first (0: none, use the per-record path)."""
        layout = self.current
        prefix = value + 3 - pos
        if layout is None or size - prefix - 1 != layout.size:
            return 0
        count = framed_alike(area, pos, size, hdr, value, index, count)
        return layout.run_function(prefix)(area, pos, count, offset) if count else 0


# -- the field values --------------------------------------------------------------------------------

_UUID_TUPLES: dict[bytes, tuple[Any, ...]] = {}


def uuid_tuple(raw: bytes) -> tuple[Any, ...]:
    """The uuids of an array's raw bytes, one shared tuple per distinct array."""
    found = _UUID_TUPLES.get(raw)
    if found is None:
        if len(_UUID_TUPLES) > 1_000_000:
            _UUID_TUPLES.clear()
        found = _UUID_TUPLES[raw] = tuple(shared_uuid(raw[at : at + 16]) for at in range(0, len(raw), 16))
    return found


def values_expression(sources: list[Source], *, raw_arrays: bool = False) -> tuple[str, dict[str, Any]]:
    """The field values of a layout as an expression over its items `t` (see `layout_reader`);
    with `raw_arrays`, a uuid array stays its raw bytes (`uuid_tuple` reads them)."""
    names: dict[str, Any] = {"_uuids": uuid_tuple, "_known_uuids": _UUID_TUPLES.get, "_uuid": shared_uuid}
    parts = []
    for source in sources:
        index, count = source.slot, source.length
        if source.kind == "value":
            parts.append(f"t[{index}]")
        elif source.kind == "items" and source.field.kafka_type == "uuid":
            parts.append("(" + "".join(f"_uuid(t[{at}])," for at in range(index, index + count)) + ")")
        elif source.kind == "items":
            parts.append(f"t[{index}:{index + count}]" if count else "()")
        elif source.kind == "blob":
            if raw_arrays:
                parts.append(f"t[{index}]")
            else:
                parts.append(f"(_known_uuids(t[{index}]) or _uuids(t[{index}]))" if count else "()")
        elif source.kind == "null":
            parts.append("None")
        else:
            names[f"_D_{source.field.name}"] = source.field.default
            parts.append(f"_D_{source.field.name}")
    return "(" + ", ".join(parts) + ",)", names


class _Reader:
    """`layout_reader`'s function: the layout used last, else learn the body's layout."""

    __slots__ = ("current",)

    def __init__(self, api_key: int, version: int) -> None:
        def build(sources: list[Source]) -> Action:
            expression, names = values_expression(sources)
            return Action([], expression, names)

        self.current = LayoutFamily(api_key, version, build, install=self._install).first

    def _install(self, function: Callable[..., Any]) -> None:
        self.current = function

    def __call__(self, buf: Any, pos: int, end: int) -> tuple[Any, ...] | None:
        result: tuple[Any, ...] | None = self.current(buf, pos, end)
        return result


@functools.cache
def layout_reader(api_key: int, version: int) -> Callable[[Any, int, int], tuple[Any, ...] | None] | None:
    """`read(buf, body, end)` -> the record's field values (raw bytes for uuid fields), or None."""
    return _Reader(api_key, version) if has_layouts(api_key, version) else None
