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
from kcli.metadata.reader import Entry, RawRecord
from kcli.metadata.records import CONTROL_RECORD_CLASSES, CONTROL_TYPE_NAMES, RECORD_NAMES

_REDACTED_FIELDS = {("UserScramCredentialRecord", "salt"), ("UserScramCredentialRecord", "stored_key"),
                    ("UserScramCredentialRecord", "server_key")}  # fmt: skip


def camel(name: str) -> str:
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def kafka_uuid(value: uuid.UUID) -> str:
    return base64.urlsafe_b64encode(value.bytes).rstrip(b"=").decode("ascii")


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
