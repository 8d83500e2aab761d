"""A typer app wiring kcli's completers to options named as kcli's, to drive them through typer's
completion protocol before they are attached to the real commands (kcli/cli/completers.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kcli.cli import completers

app = typer.Typer()


@app.command("configs")
def configs(
    entity_type: Annotated[
        list[str] | None, typer.Option("--entity-type", autocompletion=completers.entity_types)
    ] = None,
    topic: Annotated[str | None, typer.Option("--topic")] = None,
    user: Annotated[str | None, typer.Option("--user")] = None,
    add_config: Annotated[
        str | None, typer.Option("--add-config", autocompletion=completers.config_names)
    ] = None,
) -> None:
    """Stand-in for `kcli configs` options."""


@app.command(
    "metadata-shell",
    context_settings={
        "allow_extra_args": True,
        "ignore_unknown_options": True,
        "allow_interspersed_args": False,
    },
)
def metadata_shell(
    directory: Annotated[Path | None, typer.Option("--directory", "-d")] = None,
    command: Annotated[
        list[str] | None, typer.Argument(autocompletion=completers.metadata_shell_words)
    ] = None,
) -> None:
    """Stand-in for `kcli metadata-shell` arguments."""


if __name__ == "__main__":
    app(prog_name="kcli")
