"""One `struct.unpack` per record, or per run of records, for the types a big log is made of.

A PartitionRecord or PartitionChangeRecord body (every version) holds only fixed-size ints, uuids
and arrays of them, so where each value sits depends only on the arrays' lengths and on which
tagged fields are present: its layout. A `LayoutFamily` walks a body to learn its layout and
builds, once per layout, a struct that checks and unpacks a body at once (every length and tag byte
and the total size compared at once), where each field is in the unpacked items (`Source`s), and an
`operator.itemgetter` that picks the field values out of them; its user binds a function to the
layout that stores the values (the image) or writes a line (the dump: a function generated per
record type at build time, kcli.metadata.generated.renderers, given the layout's slots). The layout
of the previous record is tried first; consecutive records mostly share it. Nothing is compiled at
run time: a layout is data (a struct format, item indexes).

Records framed the same way with the same layout (a snapshot's PartitionRecords, a controller's
batch of changes) also run in bulk: `LayoutFamily.run` checks the framing of up to a few hundred
records at once (kcli.metadata.framing.framed_alike), unpacks their bodies at once with
`struct.iter_unpack`, checks every length and tag byte of them all with one list comparison, and
hands them to the user's function of a run (one loop).

Behavior:
- Only classes made of int8/16/32/64 and uuid fields and arrays of them have layouts.
- A body (or record) is accepted only when every length byte, tag and tag size, and its total size,
  are exactly those of its layout (and, in a run, when its framing is exactly that of the first
  record but for its offset delta, which must be its index); anything else (an array of 127 items
  or more, a length that is not its canonical one-byte varint, unknown or out-of-order tags) is left
  to the caller's general readers, which decide between a value and an error.
- The values are those of kcli.metadata.fastdecode.values_reader, except that a uuid field (not an
  array) is its 16 raw bytes (all zeros where kio says None), and an array of the kafka types in
  `LayoutFamily.blobs` is its raw bytes: cheap to look up by. `layout_reader(api_key, version)` ->
  `read(buf, body, end)` gives the values with such arrays made tuples of uuids.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, Iterable
from typing import Any, NamedTuple

from kcli.bounds.model import SIZES
from kcli.metadata.fastdecode import FieldLayout, describe_fields
from kcli.metadata.framing import framed_alike
from kcli.metadata.records import METADATA_RECORD_CLASSES
from kcli.metadata.unpack import shared_uuid

_CODES = {kafka_type: SIZES[kafka_type] for kafka_type in ("int8", "int16", "int32", "int64", "uuid")}
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


# (field values, offset) -> what a layout's function returns (the family's `failed` means "not taken")
Apply = Callable[[tuple[Any, ...], int], Any]
# (a body's unpacked items `t`, offset) -> the same: a user's function of one layout (`bind(layout)`)
Act = Callable[[tuple[Any, ...], int], Any]
# (the unpacked items of consecutive records, the first's offset): a user's function of a run
Many = Callable[[Iterable[tuple[Any, ...]], int], Any]


def _fields(api_key: int, version: int) -> tuple[type, tuple[FieldLayout, ...]] | None:
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
    """One layout of one record type: the body's struct, the checks, where each field's value is."""

    __slots__ = (
        "attempt",
        "checks",
        "expected",
        "fmt",
        "getter",
        "handle",
        "key",
        "runs",
        "size",
        "sources",
        "tail",
        "width",
    )

    def __init__(self, family: LayoutFamily, key: tuple[int, ...]) -> None:
        self.key = key
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
        self.width = width  # how many items a body unpacks to
        self.size = struct.calcsize(">" + self.fmt)
        self.checks = _getter([index for index, _byte in checks])
        self.expected = _expected([byte for _index, byte in checks])
        self.sources = [sources.get(f.name) or Source(f, "default") for f in fields]
        # The values, picked out of the items `t` followed by `tail` (the constants: nulls,
        # defaults, the family's padding) by one itemgetter.
        tail: list[Any] = []
        picks: list[int | slice] = []
        for source in self.sources:
            if source.kind in ("value", "blob"):
                picks.append(source.slot)
            elif source.kind == "items":
                picks.append(slice(source.slot, source.slot + source.length))
            else:
                picks.append(width + len(tail))
                tail.append(None if source.kind == "null" else source.field.default)
        for value in family.pad:
            picks.append(width + len(tail))
            tail.append(value)
        self.tail = tuple(tail)
        self.getter = _values_getter(picks)
        self.runs: dict[int, Callable[..., int]] = {}
        self.handle, self.attempt = _functions(family, self)


def _values_getter(picks: list[int | slice]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """t -> the tuple of the values at `picks` (an itemgetter of one pick gives a bare value)."""
    if len(picks) > 1:
        return operator.itemgetter(*picks)
    single = operator.itemgetter(*picks)
    return lambda t: (single(t),)


def _functions(family: LayoutFamily, layout: Layout) -> tuple[Callable[..., Any], Callable[..., Any]]:
    """(handle, attempt) of one layout: unpack and check a body, then run the user's function of
    this layout (`bind`) on the items. `handle` goes back to the family (`miss`) for a body of
    another layout; `attempt` returns None then."""
    size, checks, expected = layout.size, layout.checks, layout.expected
    unpack = struct.Struct(">" + layout.fmt).unpack_from
    act, miss = family.bind(layout), family.miss

    def handle(buf: Any, pos: int, end: int, offset: int = 0) -> Any:
        if end - pos != size:
            return miss(buf, pos, end, offset)
        t = unpack(buf, pos)
        if checks(t) != expected:
            return miss(buf, pos, end, offset)
        return act(t, offset)

    def attempt(buf: Any, pos: int, end: int, offset: int = 0) -> Any:
        if end - pos != size:
            return None
        t = unpack(buf, pos)
        if checks(t) != expected:
            return None
        return act(t, offset)

    return handle, attempt


def _run_function(layout: Layout, prefix: int, many: Many) -> Callable[..., int]:
    """The bulk function of a layout for records whose body starts `prefix` bytes in (their framing
    is checked apart: kcli.metadata.framing.framed_alike)."""
    unpack = struct.Struct(f">{prefix}x{layout.fmt}x")
    records_of, step = unpack.iter_unpack, unpack.size
    checks, expected = layout.checks, layout.expected

    def run(area: Any, pos: int, count: int, offset: int) -> int:
        records = list(records_of(area[pos : pos + count * step]))
        layouts = list(map(checks, records))
        if layouts.count(expected) != count:
            count = _first_other(layouts, expected)
            del records[count:]
        many(records, offset)
        return count

    return run


def each(act: Act) -> Many:
    """A `Many` of an `Act`: the records one by one."""

    def many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
        for at, t in enumerate(records, offset):
            act(t, at)

    return many


def values_binder(apply: Apply) -> Callable[[Layout], Act]:
    """A `bind` for users of the field values: `apply(values, offset)` (see the module docstring)."""

    def bind(layout: Layout) -> Act:
        getter, tail = layout.getter, layout.tail
        if tail:
            return lambda t, offset: apply(getter(t + tail), offset)
        return lambda t, offset: apply(getter(t), offset)

    return bind


def _first_other(values: list[Any], expected: Any) -> int:
    """The index of the first value that is not `expected`."""
    return next(index for index, value in enumerate(values) if value != expected)


def _getter(indexes: list[int]) -> Callable[[tuple[Any, ...]], Any]:
    return operator.itemgetter(*indexes)


def _expected(values: list[int]) -> Any:
    return tuple(values) if len(values) > 1 else values[0]


class LayoutFamily:
    """The layouts of one record type for one user (see the module docstring).

    `first` is the function to call first (`install` receives each layout's `handle` as it is
    learned: the caller calls that next, and it comes back here for a body of another layout);
    `failed` is what the functions give for a body in no layout handled here. `bind(layout)` gives
    the user's function of a body of that layout, `act(t, offset)` over its unpacked items; a user
    of the field values binds with `values_binder(apply)` (`Layout.getter` picks the values out of
    `t + Layout.tail`; `pad` values are appended to them). Arrays of the kafka types in `blobs` are
    their raw bytes, others a tuple of items. `bind_run(layout)` may give the user's function of a
    run of records of that layout at once (by default, `bind`'s for each).
    """

    def __init__(
        self,
        api_key: int,
        version: int,
        bind: Callable[[Layout], Act],
        *,
        install: Callable[[Callable[..., Any]], None],
        failed: Any = None,
        blobs: frozenset[str] = frozenset({"uuid"}),
        pad: tuple[Any, ...] = (),
        bind_run: Callable[[Layout], Many] | None = None,
    ) -> None:
        found = _fields(api_key, version)
        if found is None:
            raise ValueError(f"record type {api_key} v{version} has no layouts")
        self.cls, self.fields = found
        self.api_key = api_key
        self.version = version
        self.bind = bind
        self.bind_run = bind_run or (lambda layout: each(bind(layout)))
        self.install = install
        self.failed = failed
        self.blobs = blobs
        self.pad = pad
        self.current: Layout | None = None
        self._regular = [f for f in self.fields if f.tag is None]
        self._tagged = {f.tag: f for f in self.fields if f.tag is not None}
        self._compiled: dict[tuple[int, ...], Layout] = {}
        self._by_size: dict[int, list[Layout]] = {}
        self.first: Callable[..., Any] = self.miss

    def miss(self, buf: Any, pos: int, end: int, offset: int = 0) -> Any:
        """A body not of the current layout: find or learn its layout, install it, use it."""
        for candidate in self._by_size.get(end - pos, ()):  # layouts seen before with this size
            result = candidate.attempt(buf, pos, end, offset)
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
        result = layout.attempt(buf, pos, end, offset)
        return self.failed if result is None else result

    def _use(self, layout: Layout) -> None:
        self.current = layout
        self.install(layout.handle)

    def run(
        self, area: Any, pos: int, size: int, hdr: int, value: int, index: int, count: int, offset: int
    ) -> int:
        """A run handler (kcli.metadata.framing.RunHandler) for records of the current layout: the
        framing of them all checked at once, their bodies unpacked at once, `apply` run for each.
        -> how many were handled from the first (0: none, use the per-record path)."""
        layout = self.current
        prefix = value + 3 - pos
        if layout is None or size - prefix - 1 != layout.size:
            return 0
        count = framed_alike(area, pos, size, hdr, value, index, count)
        if not count:
            return 0
        found = layout.runs.get(prefix)
        if found is None:
            found = layout.runs[prefix] = _run_function(layout, prefix, self.bind_run(layout))
        return found(area, pos, count, offset)


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


class _Reader:
    """`layout_reader`'s function: the layout used last, else learn the body's layout."""

    __slots__ = ("current", "uuid_arrays")

    def __init__(self, api_key: int, version: int) -> None:
        family = LayoutFamily(api_key, version, values_binder(self._values), install=self._install)
        self.uuid_arrays = [
            index for index, f in enumerate(family.fields) if f.array and f.kafka_type == "uuid"
        ]
        self.current = family.first

    def _values(self, values: tuple[Any, ...], offset: int) -> tuple[Any, ...]:
        if not self.uuid_arrays:
            return values
        out = list(values)
        for index in self.uuid_arrays:
            if out[index] is not None:
                out[index] = _UUID_TUPLES.get(out[index]) or uuid_tuple(out[index])
        return tuple(out)

    def _install(self, function: Callable[..., Any]) -> None:
        self.current = function

    def __call__(self, buf: Any, pos: int, end: int) -> tuple[Any, ...] | None:
        result: tuple[Any, ...] | None = self.current(buf, pos, end)
        return result


@functools.cache
def layout_reader(api_key: int, version: int) -> Callable[[Any, int, int], tuple[Any, ...] | None] | None:
    """`read(buf, body, end)` -> the record's field values (raw bytes for uuid fields), or None."""
    return _Reader(api_key, version) if has_layouts(api_key, version) else None
