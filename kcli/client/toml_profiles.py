"""The profiles of kcli's TOML config file: nested tables flattened to dotted Kafka keys."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kcli.errors import UsageError


def load_profiles(path: Path) -> dict[str, dict[str, str]]:
    """Read the profiles of a kcli TOML config file: {name: {kafka.key: value}}. Missing file: {}."""
    document = _load_toml(path)
    profiles = document.get("profiles", {})
    if not isinstance(profiles, dict):
        raise UsageError(f"{path}: `profiles` must be a table of tables ([profiles.NAME])")
    result: dict[str, dict[str, str]] = {}
    for name, table in profiles.items():
        if not isinstance(table, dict):
            raise UsageError(f"{path}: profile {name!r} must be a table ([profiles.{name}])")
        result[str(name)] = _flatten(table)
    return result


def default_profile_name(path: Path) -> str | None:
    """The `default_profile` named in the config file, if any."""
    value = _load_toml(path).get("default_profile")
    return str(value) if value else None


def _load_toml(path: Path) -> dict[str, Any]:
    from kcli.files import read_bytes

    try:
        raw = read_bytes(path, what="config file")
    except FileNotFoundError:
        return {}
    except OSError as error:
        raise UsageError(f"cannot read config file {path}: {error.strerror}") from None
    import tomllib

    from kcli.integers import TomlLimit, load_toml

    try:
        return load_toml(raw.decode("utf-8"))
    except (tomllib.TOMLDecodeError, TomlLimit, UnicodeDecodeError) as error:
        raise UsageError(f"config file {path} is not valid TOML: {error}") from None


def _flatten(table: Mapping[str, Any]) -> dict[str, str]:
    """Nested tables as dotted keys, in document order; iterative, as TOML nests tables without limit
    (`[profiles.p.a.a.a...]` thousands deep is a valid document)."""
    out: dict[str, str] = {}
    stack: list[tuple[str, Any]] = [("", table)]
    while stack:
        prefix, current = stack.pop()
        nested: list[tuple[str, Any]] = []
        for key, value in current.items():
            name = f"{prefix}{key}"
            if isinstance(value, dict):
                nested.append((name + ".", value))
            elif isinstance(value, bool):
                out[name] = "true" if value else "false"
            elif isinstance(value, list):
                out[name] = ",".join(str(item) for item in value)
            else:
                out[name] = str(value)
        stack.extend(reversed(nested))
    return out

