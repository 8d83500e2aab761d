"""`--version`: kcli's version line, for the root and for the tools whose Kafka original has --version.

kafka-configs, kafka-acls and kafka-reassign-partitions accept `--version` ("Display Kafka version.")
and print their Kafka release; kcli's tools accept it too and print kcli's own line, exit 0.
"""

from __future__ import annotations

from typing import Annotated

import typer


def print_version(value: bool) -> None:
    """An eager option's callback: print `kcli X (kio Y, Python Z)` and exit 0."""
    if not value:
        return
    import platform

    from kcli import __version__

    try:  # kio's build records its version in the package: importlib.metadata would cost ~15 ms
        from kio import __version__ as kio_version
    except ImportError:
        kio_version = "not installed"
    typer.echo(f"kcli {__version__} (kio {kio_version}, Python {platform.python_version()})")
    raise typer.Exit()


VersionOpt = Annotated[
    bool,
    typer.Option("--version", callback=print_version, is_eager=True, help="Show kcli's version and exit."),
]
