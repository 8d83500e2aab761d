"""A small validator for the JSON Schema 2020-12 subset the docs/json schemas use.

Keywords: type (one or a list), enum, properties, required, additionalProperties (false or a
schema), items, oneOf; annotations ($schema, $id, title, description) are ignored. Any other
keyword is refused, so a schema cannot silently rely on something this validator does not check.
"""

from __future__ import annotations

from typing import Any

ANNOTATIONS = frozenset({"$schema", "$id", "title", "description"})
KEYWORDS = frozenset({"type", "enum", "properties", "required", "additionalProperties", "items", "oneOf"})

_TYPES: dict[str, Any] = {
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
    "string": lambda v: isinstance(v, str),
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
}


class SchemaError(Exception):
    """The schema uses a keyword or type outside the supported subset."""


def errors(instance: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    """Every way `instance` fails `schema`, as "path: reason" lines (empty when it is valid)."""
    unknown = set(schema) - KEYWORDS - ANNOTATIONS
    if unknown:
        raise SchemaError(f"{where}: unsupported keywords {sorted(unknown)}")
    found: list[str] = []
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        for kind in kinds:
            if kind not in _TYPES:
                raise SchemaError(f"{where}: unknown type {kind!r}")
        if not any(_TYPES[kind](instance) for kind in kinds):
            return [f"{where}: expected {' or '.join(kinds)}, got {_json_type(instance)}"]
    if "enum" in schema and instance not in schema["enum"]:
        found.append(f"{where}: {instance!r} is not one of {schema['enum']}")
    if "oneOf" in schema:
        matches = [not errors(instance, variant, where) for variant in schema["oneOf"]]
        if matches.count(True) != 1:
            details = [
                f"  shape {index}: " + "; ".join(errors(instance, variant, where)[:3])
                for index, variant in enumerate(schema["oneOf"], 1)
            ]
            found.append(
                f"{where}: matches {matches.count(True)} of the shapes, not exactly one\n"
                + "\n".join(details)
            )
    if isinstance(instance, dict):
        properties: dict[str, Any] = schema.get("properties", {})
        for key in schema.get("required", []):
            if key not in instance:
                found.append(f"{where}: missing key {key!r}")
        extra = schema.get("additionalProperties", True)
        for key, value in instance.items():
            if key in properties:
                found += errors(value, properties[key], f"{where}.{key}")
            elif extra is False:
                found.append(f"{where}: undocumented key {key!r}")
            elif isinstance(extra, dict):
                found += errors(value, extra, f"{where}.{key}")
    if isinstance(instance, list) and "items" in schema:
        for index, item in enumerate(instance):
            found += errors(item, schema["items"], f"{where}[{index}]")
    return found


def _json_type(value: Any) -> str:
    for name in ("null", "boolean", "integer", "number", "string", "array", "object"):
        if _TYPES[name](value):
            return name
    return type(value).__name__
