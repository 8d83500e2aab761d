"""JSON input files read as Kafka's tools read them (org.apache.kafka.server.util.Json and DecodeJson),
with kcli's precision on top: a syntax error names the file, line and column.

Behavior (Kafka 4.4's server-common json helpers):
- a document that does not parse is, to Kafka's tools, no document (`parseFull` is empty): each tool
  says so in its own words, kcli adds where the JSON broke;
- `obj.apply(name)`: `No such field exists: `name``; `to(INT)`: a JSON int in 32 bits, else
  `Expected `Integer` value, received X`; LONG any JSON integer in 64 bits; STRING a JSON string;
  `asJsonObject` / `asJsonArray`: `Expected JSON object, received X` (X as Jackson prints the node).
"""

from __future__ import annotations

import json
from typing import Any

from kcli.errors import UsageError


def parse_or_none(text: str) -> tuple[Any, str | None]:
    """(the document, None), or (None, where and why it does not parse: `line L, column C: reason`)."""
    from kcli.integers import json_int

    try:
        return json.loads(text, parse_int=json_int), None
    except json.JSONDecodeError as error:
        return None, f"line {error.lineno}, column {error.colno}: {error.msg}"
    except RecursionError:
        return None, "nested too deeply"


def node_text(value: Any) -> str:
    """A JSON node as Jackson's JsonNode.toString prints it (compact)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, default=str)


def _refuse(expected: str, value: Any, where: str) -> UsageError:
    return UsageError(f"Expected `{expected}` value, received {node_text(value)} ({where})")


def as_object(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise UsageError(f"Expected JSON object, received {node_text(value)} ({where})")
    return value


def as_array(value: Any, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise UsageError(f"Expected JSON array, received {node_text(value)} ({where})")
    return value


def field(obj: dict[str, Any], name: str, where: str) -> Any:
    if name not in obj:
        raise UsageError(f"No such field exists: `{name}` ({where})")
    return obj[name]


def as_string(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise _refuse("String", value, where)
    return value


def _is_int(value: Any) -> bool:
    return type(value) is int


def as_int(value: Any, where: str) -> int:
    if not _is_int(value) or not -(2**31) <= value < 2**31:
        raise _refuse("Integer", value, where)
    return int(value)


def as_long(value: Any, where: str) -> int:
    if not _is_int(value) or not -(2**63) <= value < 2**63:
        raise _refuse("Long", value, where)
    return int(value)
