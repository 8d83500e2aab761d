"""Records as text lines or JSON objects, the way kafka-dump-log's metadata decoder shows them.

Behavior:
- JSON: one object per record: offset, epoch, timestamp (ms), type (record name), version, and
  `data` with Kafka's JsonConverter spelling (camelCase keys, uuids as Kafka base64, bytes as base64).
  Control records add "control": true. Undecodable/unknown records carry "raw" (base64) and "reason".
- Text: `offset: O epoch: E CreateTime: T type: NAME version: V payload: {data}`.
- SCRAM salts/keys are printed as "[redacted]" (the log holds them; a dump need not spread them).
- Converters are compiled once per record class (dataclass field walk), not per record.
"""

from __future__ import annotations

import base64
import dataclasses
import functools
import json
import uuid
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from kcli.errors import UsageError
from kcli.metadata.json_text import encode as _encode
from kcli.metadata.read_model import BatchSpan, Entry, RawRecord
from kcli.metadata.records import CONTROL_RECORD_CLASSES, CONTROL_TYPE_NAMES, RECORD_NAMES, record_name
from kcli.metadata.uuids import kafka_uuid

_REDACTED_FIELDS = {("UserScramCredentialRecord", "salt"), ("UserScramCredentialRecord", "stored_key"),
                    ("UserScramCredentialRecord", "server_key")}  # fmt: skip


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _plain(value: Any) -> Any:
    if isinstance(value, uuid.UUID):
        return kafka_uuid(value)
    if isinstance(value, bytes):
        return base64.b64encode(value).decode("ascii")
    if isinstance(value, tuple):
        return [_plain(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return converter(type(value))(value)
    return value


def tagged_default(field: dataclasses.Field[Any]) -> tuple[bool, Any]:
    """(True, its default) for a tagged field: Kafka's JsonConverter writes a tagged field only when
    its value differs from the default, as the wire format leaves such a field out."""
    if "tag" not in field.metadata:
        return False, None
    if field.default_factory is not dataclasses.MISSING:
        return True, field.default_factory()
    return True, field.default


@functools.cache
def converter(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A function record -> JSON-ready dict for one record class, with the fields Kafka's
    JsonConverter writes (tagged fields only when not at their default)."""
    record_name = getattr(cls, "__record_name__", cls.__name__)
    plan: list[tuple[str, str, bool, bool, bool, Any]] = []
    for field in dataclasses.fields(cls):
        kafka_type = field.metadata.get("kafka_type")
        simple = kafka_type in ("int8", "int16", "int32", "int64", "uint16", "float64", "bool", "string")
        tagged, default = tagged_default(field)
        plan.append(
            (
                field.name,
                camel(field.name),
                not simple,
                (record_name, field.name) in _REDACTED_FIELDS,
                tagged,
                default,
            )
        )

    def convert(record: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attribute, key, complex_value, redacted, tagged, default in plan:
            value = getattr(record, attribute)
            if tagged and value == default:
                continue
            if redacted:
                out[key] = "[redacted]"
            elif complex_value:
                out[key] = _plain(value)
            else:
                out[key] = list(value) if type(value) is tuple else value
        return out

    return convert


def type_name(entry: Entry) -> str:
    if entry.control:
        cls = CONTROL_RECORD_CLASSES.get((entry.key, 0))
        return (
            record_name(cls)
            if cls is not None
            else f"Control({CONTROL_TYPE_NAMES.get(entry.key, entry.key)})"
        )
    return RECORD_NAMES.get(entry.key, f"UnknownRecord({entry.key})")


def entry_object(entry: Entry) -> dict[str, Any]:
    """The JSON object of one record."""
    out: dict[str, Any] = {
        "offset": entry.offset,
        "epoch": entry.epoch,
        "timestamp": entry.timestamp,
        "type": type_name(entry),
        "version": entry.version,
    }
    if entry.control:
        out["control"] = True
    record = entry.record
    if type(record) is RawRecord:
        out["raw"] = base64.b64encode(record.data).decode("ascii")
        out["reason"] = record.reason
    elif record is not None:
        out["data"] = converter(type(record))(record)  # type: ignore[arg-type]
    return out




def entry_json(entry: Entry) -> str:
    if entry.key == 20 and not entry.control:  # NoOpRecord: most of every log, nothing to convert
        return (
            f'{{"offset":{entry.offset},"epoch":{entry.epoch},"timestamp":{entry.timestamp},'
            f'"type":"NoOpRecord","version":{entry.version},"data":{{}}}}'
        )
    return _encode(entry_object(entry))


def entry_text(entry: Entry) -> str:
    obj = entry_object(entry)
    payload = _encode(obj["data"]) if "data" in obj else f"raw {obj.get('raw', '')} ({obj.get('reason', '')})"
    return (
        f"offset: {entry.offset} epoch: {entry.epoch} CreateTime: {entry.timestamp} type: {obj['type']} "
        f"version: {entry.version} payload: {payload}"
    )


def _normal(name: str) -> str:
    name = name.lower().replace("_", "").replace("-", "")
    for suffix in ("record", "message"):
        if name.endswith(suffix) and name != suffix:
            return name[: -len(suffix)]
    return name


def _known_types() -> Mapping[str, tuple[bool, int]]:
    known: dict[str, tuple[bool, int]] = {_normal(name): (False, key) for key, name in RECORD_NAMES.items()}
    for (control_type, _version), cls in CONTROL_RECORD_CLASSES.items():
        known[_normal(record_name(cls))] = (True, control_type)
    known["leaderchange"] = (True, 2)
    known["voters"] = (True, 6)
    return known


def type_filter(names: Iterable[str]) -> frozenset[tuple[bool, int]] | None:
    """The (control, key) pairs --type NAME asks for (any spelling: TopicRecord, TOPIC_RECORD, topic);
    None for every type; UsageError if a name is unknown."""
    wanted: set[tuple[bool, int]] = set()
    known = _known_types()
    for raw in names:
        for name in raw.split(","):
            if not name.strip():
                continue
            found = known.get(_normal(name.strip()))
            if found is None:
                choices = ", ".join(sorted(RECORD_NAMES.values()))
                raise UsageError(
                    f"--type {name}: unknown record type (known: {choices}, LeaderChangeMessage, ...)"
                )
            wanted.add(found)
    return frozenset(wanted) if wanted else None


# -- the fast JSON path: compiled readers' value tuples straight to text --------------------------

@functools.cache
def json_formatter(api_key: int, version: int) -> Callable[[tuple[Any, ...]], str] | None:
    """values -> the `data` object text for one flat record class (None when it has no values
    reader); generated by scripts/decoders.py into kcli.metadata.generated.renderers."""
    from kcli.metadata.generated.renderers import RENDERERS

    return RENDERERS.get((api_key, version))


def layout_spec(sources: list[Any]) -> tuple[int, ...]:
    """Where each field of a layout (kcli.metadata.layouts, arrays unpacked an element an item) is
    in its unpacked items, as the generated LAYOUT_LINES functions take it: two ints per field,
    (slot, 0) for a value, (start, stop) for an array's items, (-1, 0) for a null array, (-2, 0)
    for an absent tagged field."""
    spec: list[int] = []
    for source in sources:
        if source.kind == "value":
            spec += (source.slot, 0)
        elif source.kind == "items":
            spec += (source.slot, source.slot + source.length)
        elif source.kind == "null":
            spec += (-1, 0)
        elif source.kind == "default":
            spec += (-2, 0)
        else:
            raise ValueError("the dump unpacks arrays an element an item (no blobs)")
    return tuple(spec)


def _renderer(api_key: int, version: int) -> Callable[[Any, int, int], str | None] | None:
    """`(buf, body, end)` -> the `data` object text of one record type whose class has a compiled
    reader, or None when the body is not one it takes (the general path decides); None for types
    without one."""
    from kcli.metadata.fastdecode import values_reader

    read = values_reader(api_key, version)
    render = json_formatter(api_key, version)
    if read is None or render is None:
        return None

    def text(buf: Any, body: int, end: int) -> str | None:
        try:
            values, used = read(buf, body)
        except Exception:
            return None
        return render(values) if body + used == end else None

    return text


class DumpSink:
    """The dump lines of one file's records (`entry_json` or `entry_text`), in order, for
    `FileReader.scan`: records of the flat types are rendered from their bytes (layouts or compiled
    readers), the rest through the general decoder and `entry_json`/`entry_text`, so errors and the
    skip policy are those of `reader.entries()`.

    `wanted` (from `type_filter`) keeps only those types; data records of other types are passed
    over after their frame header. `flush` is called between batches once 4096 lines are waiting.
    """

    def __init__(
        self,
        lines: list[str],
        flush: Callable[[], Any],
        *,
        json: bool,
        wanted: frozenset[tuple[bool, int]] | None = None,
    ) -> None:
        from kcli.metadata.records import METADATA_RECORD_CLASSES

        self.lines = lines
        self.flush = flush
        self.json = json
        self.wanted = wanted
        self.render = entry_json if json else entry_text
        self.epoch = -1
        self.timestamp = -1
        self.stamp = ""
        self.handlers: dict[bytes, Any] = {}
        self.runs: dict[bytes, Any] = {}
        for api_key, version in METADATA_RECORD_CLASSES:
            if api_key >= 0x80 or version >= 0x80:
                continue
            header = bytes((1, api_key, version))
            if wanted is not None and (False, api_key) not in wanted:
                self.handlers[header] = None
            else:
                self.handlers[header] = self._first_of(api_key, version)

    def _first_of(self, api_key: int, version: int) -> Any:
        """The handler of a type's first record: it makes the type's own handler (and with it the
        type's classes) and hands the record on, so a file defines only the types it holds."""
        header = bytes((1, api_key, version))

        def first(area: Any, body: int, end: int, offset: int) -> bool:
            handler = self._layout_handler(api_key, version) or self._handler(api_key, version)
            if handler is None:
                del self.handlers[header]  # the general path takes this type
                return False
            self.handlers[header] = handler
            return bool(handler(area, body, end, offset))

        return first

    def _layout_handler(self, api_key: int, version: int) -> Any:
        """A fast handler of a type with layouts (PartitionRecord, PartitionChangeRecord, ...), and
        its run handler: the lines of a layout's records by the type's generated function
        (kcli.metadata.generated.renderers.LAYOUT_LINES), given where each field is in the
        unpacked items (`layout_spec`)."""
        from kcli.metadata.generated.renderers import LAYOUT_LINES, SPELLED_LINES
        from kcli.metadata.layouts import Layout, LayoutFamily, has_layouts

        write_lines = LAYOUT_LINES.get((api_key, version))
        if write_lines is None or not has_layouts(api_key, version):
            return None
        header = bytes((1, api_key, version))
        name = RECORD_NAMES[api_key]
        if self.json:
            before, separator, middle, close = (
                '{"offset":',
                ",",
                f'"type":{json.dumps(name)},"version":{version},"data":',
                "}",
            )
        else:
            before, separator, middle, close = (
                "offset: ",
                " ",
                f"type: {name} version: {version} payload: ",
                "",
            )
        emit = self.lines.append
        sink = self

        def bind_run(layout: Layout) -> Callable[[Iterable[tuple[Any, ...]], int], None]:
            spelled = SPELLED_LINES.get((api_key, version, layout.key))
            if spelled is not None:  # a layout Kafka writes most: every item spelled out

                def spelled_many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
                    spelled(records, offset, emit, before, separator + sink.stamp + middle, close)

                return spelled_many
            spec = layout_spec(layout.sources)

            def many(records: Iterable[tuple[Any, ...]], offset: int) -> None:
                write_lines(records, offset, emit, before, separator + sink.stamp + middle, close, spec)

            return many

        def bind(layout: Layout) -> Callable[[tuple[Any, ...], int], bool]:
            many = bind_run(layout)

            def act(t: tuple[Any, ...], offset: int) -> bool:
                many((t,), offset)
                return True

            return act

        def install(function: Any) -> None:
            self.handlers[header] = function

        blobs: frozenset[str] = frozenset()  # every uuid of an array an item: the renderer spells each
        family = LayoutFamily(
            api_key, version, bind, install=install, failed=False, blobs=blobs, bind_run=bind_run
        )
        lines, flush, run = self.lines, self.flush, family.run

        def run_and_flush(*run_arguments: Any) -> int:  # a batch may hold a million lines: stream them
            done = run(*run_arguments)
            if len(lines) >= 4096:
                flush()
            return done

        self.runs[header] = run_and_flush
        return family.first

    def _handler(self, api_key: int, version: int) -> Any:
        renderer = _renderer(api_key, version)
        if renderer is None:
            return None
        emit = self.lines.append
        name = RECORD_NAMES[api_key]
        sink = self
        if self.json:
            middle = f'"type":{json.dumps(name)},"version":{version},"data":'

            def handle(area: Any, body: int, end: int, offset: int) -> bool:
                text = renderer(area, body, end)
                if text is None:
                    return False
                emit(
                    f'{{"offset":{offset},"epoch":{sink.epoch},"timestamp":{sink.timestamp},{middle}{text}}}'
                )
                return True

        else:
            middle = f"type: {name} version: {version} payload: "

            def handle(area: Any, body: int, end: int, offset: int) -> bool:
                text = renderer(area, body, end)
                if text is None:
                    return False
                emit(f"offset: {offset} epoch: {sink.epoch} CreateTime: {sink.timestamp} {middle}{text}")
                return True

        return handle

    def begin(self, batch: BatchSpan) -> None:
        self.epoch = batch.epoch
        self.timestamp = batch.base_timestamp
        if self.json:
            self.stamp = f'"epoch":{batch.epoch},"timestamp":{batch.base_timestamp},'
        else:
            self.stamp = f"epoch: {batch.epoch} CreateTime: {batch.base_timestamp} "
        if len(self.lines) >= 4096:
            self.flush()

    def entry(self, entry: Entry) -> None:
        if self.wanted is None or (entry.control, entry.key) in self.wanted:
            self.lines.append(self.render(entry))

    def noops(self, batch: BatchSpan) -> None:
        if self.wanted is not None and (False, 20) not in self.wanted:
            return
        if self.json:
            self.lines += [
                f'{{"offset":{offset},"epoch":{epoch},"timestamp":{timestamp},'
                '"type":"NoOpRecord","version":0,"data":{}}'
                for offset, epoch, _crc, timestamp in batch.noops or ()
            ]
        else:
            self.lines += [
                f"offset: {offset} epoch: {epoch} CreateTime: {timestamp} type: NoOpRecord version: 0 payload: {{}}"
                for offset, epoch, _crc, timestamp in batch.noops or ()
            ]
        if len(self.lines) >= 4096:
            self.flush()
