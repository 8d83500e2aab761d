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
from kcli.metadata.reader import Entry, FileReader, RawRecord
from kcli.metadata.records import CONTROL_RECORD_CLASSES, CONTROL_TYPE_NAMES, RECORD_NAMES
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


@functools.cache
def converter(cls: type) -> Callable[[Any], dict[str, Any]]:
    """A function record -> JSON-ready dict for one record class."""
    record_name = getattr(cls, "__record_name__", cls.__name__)
    plan: list[tuple[str, str, bool, bool]] = []  # attribute, key, needs conversion, redacted
    for field in dataclasses.fields(cls):
        kafka_type = field.metadata.get("kafka_type")
        simple = kafka_type in ("int8", "int16", "int32", "int64", "uint16", "float64", "bool", "string")
        plan.append(
            (field.name, camel(field.name), not simple, (record_name, field.name) in _REDACTED_FIELDS)
        )

    def convert(record: Any) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for attribute, key, complex_value, redacted in plan:
            value = getattr(record, attribute)
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
            cls.__record_name__
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


_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


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
        known[_normal(cls.__record_name__)] = (True, control_type)
    known["leaderchange"] = (True, 2)
    known["voters"] = (True, 6)
    return known


def type_filter(names: Iterable[str]) -> Callable[[Entry], bool] | None:
    """A predicate for --type NAME (any spelling: TopicRecord, TOPIC_RECORD, topic); UsageError if unknown."""
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
    if not wanted:
        return None
    return lambda entry: (entry.control, entry.key) in wanted


# -- the fast JSON path: compiled readers' value tuples straight to text --------------------------

_json_string = json.encoder.encode_basestring  # what the encoder above uses (ensure_ascii=False)
_UUID_JSON: dict[int, str] = {}


def _uuid_json(value: uuid.UUID | None) -> str:
    if value is None:
        return "null"
    text = _UUID_JSON.get(value.int)
    if text is None:
        if len(_UUID_JSON) > 1_000_000:
            _UUID_JSON.clear()
        text = _UUID_JSON[value.int] = f'"{kafka_uuid(value)}"'
    return text


def _bytes_json(value: bytes) -> str:
    return '"' + base64.b64encode(value).decode("ascii") + '"'


def _field_expression(value: str, kafka_type: str, array: bool, nullable: bool, redacted: bool) -> str:
    """An f-string replacement field rendering `value` exactly as `_encode(converter(cls)(record))` does."""
    if redacted:
        return '"[redacted]"'
    if array:
        item = {"string": "_json_string", "uuid": "_uuid_json"}.get(kafka_type, "str")
        text = f'"[" + ",".join(map({item}, {value})) + "]"'
    elif kafka_type in ("int8", "int16", "int32", "int64", "uint16"):
        return "{" + value + "}"
    elif kafka_type == "bool":
        text = f'"true" if {value} else "false"'
    elif kafka_type == "string":
        text = f"_json_string({value})"
    elif kafka_type == "uuid":
        return "{_uuid_json(" + value + ")}"
    elif kafka_type == "bytes":
        text = f"_bytes_json({value})"
    else:  # float64: the encoder's own spelling (NaN, Infinity, repr)
        text = f"_encode({value})"
    if nullable or array:
        text = f'"null" if {value} is None else {text}'
    return "{" + text + "}"


@functools.cache
def json_formatter(api_key: int, version: int) -> Callable[[tuple[Any, ...]], str] | None:
    """values -> the `data` object text for one flat record class (None when it has no compiled reader)."""
    from kcli.metadata.fastdecode import describe_fields, values_reader
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    if cls is None or values_reader(api_key, version) is None:
        return None
    fields = describe_fields(cls)
    assert fields is not None
    record_name = cls.__record_name__
    names = [f"a{index}" for index in range(len(fields))]
    parts = [
        f'"{camel(item.name)}":'
        + _field_expression(
            name, item.kafka_type, item.array, item.nullable, (record_name, item.name) in _REDACTED_FIELDS
        )
        for name, item in zip(names, fields, strict=True)
    ]
    if names:
        code = f"def render(v):\n    {', '.join(names)}, = v\n    return f'{{{{{','.join(parts)}}}}}'\n"
    else:
        code = "def render(v):\n    return '{}'\n"
    namespace: dict[str, Any] = {
        "_json_string": _json_string, "_uuid_json": _uuid_json, "_bytes_json": _bytes_json, "_encode": _encode,
    }  # fmt: skip
    exec(compile(code, f"<json {cls.__name__}>", "exec"), namespace)
    render: Callable[[tuple[Any, ...]], str] = namespace["render"]
    return render


_RAW_UUID_JSON: dict[bytes, str] = {}


def _raw_uuid_json(raw: bytes) -> str:
    from kcli.metadata.fastdecode import shared_uuid

    if len(_RAW_UUID_JSON) > 1_000_000:
        _RAW_UUID_JSON.clear()
    text = _RAW_UUID_JSON[raw] = _uuid_json(shared_uuid(raw))
    return text


@functools.cache
def _id_tail_json(api_key: int, version: int) -> Callable[[Any, int, int], str | None] | None:
    """For (int32, uuid)-led classes: `(buf, body, end) -> the data object's text after the two ids`
    (from `,` to the closing brace), rendered once per distinct tail (see fastdecode.id_tail_reader)."""
    from kcli.metadata.fastdecode import describe_fields, id_tail_reader
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    read_tail = id_tail_reader(api_key, version)
    render = json_formatter(api_key, version)
    if read_tail is None or render is None:
        return None
    fields = describe_fields(METADATA_RECORD_CLASSES[(api_key, version)])
    assert fields is not None
    head = f'{{"{camel(fields[0].name)}":0,"{camel(fields[1].name)}":null'
    memo: dict[bytes, str] = {}

    def tail_json(buf: Any, body: int, end: int) -> str | None:
        tail = buf[body + 20 : end]
        text = memo.get(tail)
        if text is None:
            rest = read_tail(buf, body, end)
            if rest is None:
                return None
            full = render((0, None, *rest))
            assert full.startswith(head)
            text = full[len(head) :]
            if len(memo) >= 65536:
                memo.clear()
            memo[tail] = text
        return text

    return tail_json


def _json_plan(api_key: int, version: int) -> Any:
    """How json_dump_lines renders one record type: (True, tail_json, before id, before uuid),
    (False, reader, render, before data), or False (through entry_json)."""
    from kcli.metadata.fastdecode import describe_fields, values_reader
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    if api_key >= 0x80 or version >= 0x80:
        return False
    render = json_formatter(api_key, version)
    if render is None:
        return False
    middle = f'"type":{json.dumps(RECORD_NAMES[api_key])},"version":{version},"data":'
    tail_json = _id_tail_json(api_key, version)
    if tail_json is not None:
        fields = describe_fields(METADATA_RECORD_CLASSES[(api_key, version)])
        assert fields is not None
        return (True, tail_json, f'{middle}{{"{camel(fields[0].name)}":', f',"{camel(fields[1].name)}":')
    return (False, values_reader(api_key, version), render, middle)


def json_dump_lines(reader: FileReader, lines: list[str], flush: Callable[[], Any]) -> None:
    """Every record of one file as `entry_json` spells it, appended to `lines` in order
    (`flush` is called between batches once 4096 lines are waiting).

    Records the compiled readers take (in KRaft's usual framing) go from bytes to text without an
    Entry or a dataclass; everything else goes through `reader.record_entry` and `entry_json`, so
    errors and the skip policy are those of `reader.entries()`.
    """
    from kcli.metadata.fastdecode import ID_HEAD
    from kcli.metadata.reader import PLAIN_HEADERS, CorruptData, frame_record

    plans: dict[int, Any] = {}  # (api key << 8 | version) -> _json_plan
    emit = lines.append
    stats = reader.stats
    min_offset = reader.min_offset
    read_head = ID_HEAD.unpack_from
    raw_json = _RAW_UUID_JSON
    plain_headers = PLAIN_HEADERS
    for batch in reader.batches():
        if len(lines) >= 4096:
            flush()
        base_offset, epoch, base_ts, count, control, area, rpos, end, shift, noops = batch
        if area is None:
            lines += [
                f'{{"offset":{offset},"epoch":{noop_epoch},"timestamp":{timestamp},'
                '"type":"NoOpRecord","version":0,"data":{}}'
                for offset, noop_epoch, _crc, timestamp in noops or ()
            ]
            continue
        ts_delta = 0
        try:
            for index in range(count):
                # reader.frame_fast, inlined (a call per record is a tenth of the dump).
                b = area[rpos] if rpos + 8 <= end and index < 64 else 1
                if b < 0x80:
                    hdr = rpos + 1
                elif area[rpos + 1] < 0x80:
                    b = (b & 0x7F) | (area[rpos + 1] << 7)
                    hdr = rpos + 2
                else:
                    b = 1
                fast = False
                if not b & 1 and area[hdr : hdr + 4] == plain_headers[index]:
                    record_end = hdr + (b >> 1)
                    value_start = hdr + 5
                    b = area[hdr + 4]
                    if b >= 0x80 and area[value_start] < 0x80:
                        b = (b & 0x7F) | (area[value_start] << 7)
                        value_start += 1
                    value_length = b >> 1
                    fast = not (b & 1 or value_start + value_length + 1 != record_end or record_end > end)
                    fast = fast and not area[record_end - 1]
                    ts_delta, key_start, key_length = 0, hdr + 4, -1
                offset = base_offset + index
                if (
                    fast
                    and not control
                    and value_length >= 3
                    and area[value_start] == 1
                    and offset >= min_offset
                ):
                    plan_key = area[value_start + 1] << 8 | area[value_start + 2]
                    plan = plans.get(plan_key)
                    if plan is None:
                        plan = plans[plan_key] = _json_plan(area[value_start + 1], area[value_start + 2])
                    if plan:
                        body = value_start + 3
                        if plan[0]:
                            text = plan[1](area, body, value_start + value_length)
                            if text is not None:
                                stats.records += 1
                                reader.last_good_offset = offset
                                rpos = record_end
                                partition_id, raw = read_head(area, body)
                                uuid_text = raw_json.get(raw) or _raw_uuid_json(raw)
                                emit(
                                    f'{{"offset":{offset},"epoch":{epoch},"timestamp":{base_ts},'
                                    f"{plan[2]}{partition_id}{plan[3]}{uuid_text}{text}}}"
                                )
                                continue
                        else:
                            try:
                                values, used = plan[1](area, body)
                            except Exception:
                                used = -1
                            if used == value_length - 3:
                                stats.records += 1
                                reader.last_good_offset = offset
                                rpos = record_end
                                emit(
                                    f'{{"offset":{offset},"epoch":{epoch},"timestamp":{base_ts},'
                                    f"{plan[3]}{plan[2](values)}}}"
                                )
                                continue
                if not fast:
                    ts_delta, key_start, key_length, value_start, value_length, record_end = frame_record(
                        area, rpos, end, index, count, shift
                    )
                found = reader.record_entry(
                    batch, index, rpos, ts_delta, key_start, key_length, value_start, value_length
                )
                rpos = record_end
                if found is not None:
                    emit(entry_json(found))
            if rpos != end:
                raise CorruptData(f"{end - rpos} bytes after the last record of the batch", shift + rpos)
        except CorruptData as problem:
            reader.batch_failed(problem)
            continue
        if count:
            reader.last_epoch = epoch
            reader.last_timestamp = base_ts + ts_delta
