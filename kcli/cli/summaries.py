"""Whole command summaries in plain help (off a terminal, or with NO_COLOR).

click's plain formatter cuts each command's summary to what fits in 80 columns and ends it with
"...", so a piped `kcli` showed "Print the cluster id (like kafka-cluster.sh...". Groups here list the
first paragraph of each command's help whole, one line per command, as the rich help on a terminal
shows it (wrapped there to the terminal's width).
"""

from __future__ import annotations

import inspect
from typing import Any

from typer.core import TyperGroup


class WholeSummaryGroup(TyperGroup):
    """A typer group whose plain help shows every command's whole summary."""

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        rows = self.summary_rows(ctx)
        if not rows:
            return
        width = max(len(name) for name, _ in rows)
        with formatter.section("Commands"):
            for name, text in rows:
                # one line per command, never cut or wrapped: `kcli | grep configs` shows it whole
                formatter.write(f"{'':>{formatter.current_indent}}{name:<{width}}  {text}\n")

    def summary_rows(self, ctx: Any) -> list[tuple[str, str]]:
        """(name, whole summary) of each visible command, in listing order."""
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, summary(command)))
        return rows


def summary(command: Any) -> str:
    """A command's short help, else the first paragraph of its help, on one line."""
    if command.short_help:
        return " ".join(inspect.cleandoc(command.short_help).split())
    first = inspect.cleandoc(command.help or "").split("\n\n", 1)[0]
    return " ".join(first.replace("\b", "").split())
