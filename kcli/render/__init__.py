"""Output: one place that turns a result into text, a rich table or JSON on stdout.

Each command supplies pure functions of its result; this module picks one by `-o` and writes it.
Text lines keep the shapes of the Kafka tool being mirrored; JSON is the stable, documented form.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.env import Env

if TYPE_CHECKING:
    from rich.console import RenderableType

R = TypeVar("R")


class OutputFormat(StrEnum):
    text = "text"
    table = "table"
    json = "json"


def emit(
    env: Env,
    fmt: OutputFormat,
    result: R,
    *,
    text: Callable[[R], Iterable[str]],
    json_value: Callable[[R], Any],
    table: Callable[[R], RenderableType] | None = None,
) -> None:
    """Write `result` to stdout in the chosen format (a command without a table falls back to text)."""
    if fmt is OutputFormat.json:
        write_json(env, json_value(result))
    elif fmt is OutputFormat.table and table is not None:
        write_rich(env, table(result))
    else:
        for line in text(result):
            env.stdout.write(line + "\n")
        env.stdout.flush()


def write_json(env: Env, value: Any) -> None:
    env.stdout.write(json.dumps(value, indent=2, default=_json_default) + "\n")
    env.stdout.flush()


def write_json_line(env: Env, value: Any) -> None:
    env.stdout.write(json.dumps(value, separators=(",", ":"), default=_json_default) + "\n")


NO_RESULTS = "no results"


def write_rich(env: Env, renderable: RenderableType) -> None:
    console(env).print(_mark_empty_tables(renderable))


def _mark_empty_tables(renderable: RenderableType) -> RenderableType:
    """Give every table without rows (also inside a Group) one "no results" row under its headers,
    so an empty result never prints as an empty box."""
    from rich.console import Group
    from rich.table import Table

    if isinstance(renderable, Table) and renderable.row_count == 0 and renderable.columns:
        renderable.add_row(NO_RESULTS, *([""] * (len(renderable.columns) - 1)))
    elif isinstance(renderable, Group):
        for part in renderable.renderables:
            _mark_empty_tables(part)
    return renderable


def console(env: Env, *, stderr: bool = False) -> Any:
    """A rich Console bound to the env's stream; plain (no colour, no markup styling) off a terminal."""
    from rich.console import Console

    stream = env.stderr if stderr else env.stdout
    plain = not env.color
    return Console(
        file=stream,
        no_color=plain,
        color_system=None if plain else "auto",
        force_terminal=False if plain else None,
        highlight=False,
        width=None if env.stdout_isatty else 200,
    )


def _json_default(value: Any) -> Any:
    import dataclasses
    import uuid

    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    if isinstance(value, uuid.UUID):
        return str(value)
    if isinstance(value, Enum):
        return value.name
    if isinstance(value, (set, frozenset, tuple)):
        return list(value)
    if isinstance(value, bytes):
        return value.hex()
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")
