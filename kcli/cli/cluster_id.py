"""`kcli cluster-id`."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add this tool's commands to the root app."""
