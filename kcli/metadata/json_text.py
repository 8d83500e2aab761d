"""JSON text of metadata values, made fast: the encoder, strings, uuids (Kafka's base64), bytes, and
caches of the texts that repeat across a log (replica ids, replica sets, uuids).

What the generated renderers (kcli.metadata.generated.renderers) use, below kcli.metadata.dump,
which picks a renderer for a record type: nothing imports a module that imports it back.
"""

from __future__ import annotations

import base64
import json
import uuid
from collections.abc import Callable
from typing import Any

from kcli.metadata.unpack import shared_uuid
from kcli.metadata.uuids import kafka_uuid

encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode
json_string: Callable[[str], str] = json.encoder.encode_basestring  # the encoder's (ensure_ascii=False)
_UUID_JSON: dict[int, str] = {}


def uuid_json(value: uuid.UUID | None) -> str:
    if value is None:
        return "null"
    text = _UUID_JSON.get(value.int)
    if text is None:
        if len(_UUID_JSON) > 1_000_000:
            _UUID_JSON.clear()
        text = _UUID_JSON[value.int] = f'"{kafka_uuid(value)}"'
    return text


def bytes_json(value: bytes) -> str:
    return '"' + base64.b64encode(value).decode("ascii") + '"'


class _TextCache(dict[Any, str]):
    """Values' JSON text by value, made on first use (`cache[value]`: a subscript, no call, when
    known) and forgotten wholesale past a million entries, so memory stays bounded."""

    def __init__(self, spell: Callable[[Any], str]) -> None:
        super().__init__()
        self.spell = spell

    def __missing__(self, value: Any) -> str:
        if len(self) > 1_000_000:
            self.clear()
        text = self[value] = self.spell(value)
        return text


def _raw_uuid_spelling(raw: bytes) -> str:
    """A uuid's 16 raw bytes as the dump spells it (all zeros: null, as kio reads them)."""
    return uuid_json(shared_uuid(raw))


raw_uuid_text = _TextCache(_raw_uuid_spelling)
# Replica ids, epochs, replica sets and ISRs repeat across a log: their text is looked up, not made again.
int_text = _TextCache(str)
int_array_text = _TextCache(lambda items: "[" + ",".join(map(str, items)) + "]")
