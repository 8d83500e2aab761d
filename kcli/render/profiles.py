"""Output of `kcli profile list|show`."""

from __future__ import annotations

from typing import Any

from kcli.env import Env
from kcli.render import OutputFormat, emit
from kcli.workflows.profiles import ProfileSummary, ProfileView


def render_list(env: Env, fmt: OutputFormat, profiles: list[ProfileSummary]) -> None:
    emit(env, fmt, profiles, text=_list_lines, json_value=_list_json, table=_list_table)


def render_show(env: Env, fmt: OutputFormat, view: ProfileView) -> None:
    emit(env, fmt, view, text=_show_lines, json_value=_show_json, table=_show_table)


def _list_lines(profiles: list[ProfileSummary]) -> list[str]:
    return [
        f"{'*' if p.is_default else ' '} {p.name}" + (f"  {p.bootstrap}" if p.bootstrap else "")
        for p in profiles
    ]


def _list_json(profiles: list[ProfileSummary]) -> list[dict[str, Any]]:
    return [
        {
            "name": p.name,
            "default": p.is_default,
            "bootstrap_servers": p.bootstrap_servers,
            "bootstrap_controllers": p.bootstrap_controllers,
        }
        for p in profiles
    ]


def _list_table(profiles: list[ProfileSummary]) -> Any:
    from rich.table import Table

    table = Table("", "PROFILE", "BOOTSTRAP")
    for p in profiles:
        table.add_row("*" if p.is_default else "", p.name, p.bootstrap)
    return table


def _show_lines(view: ProfileView) -> list[str]:
    return [f"{key}={value}" for key, value in view.settings.items()]


def _show_json(view: ProfileView) -> dict[str, Any]:
    return {"name": view.name, "default": view.is_default, "settings": dict(view.settings)}


def _show_table(view: ProfileView) -> Any:
    from rich.table import Table

    table = Table("KEY", "VALUE", title=f"profile {view.name}" + (" (default)" if view.is_default else ""))
    for key, value in view.settings.items():
        table.add_row(key, value)
    return table
