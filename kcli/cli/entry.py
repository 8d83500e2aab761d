"""The `kcli` program's entry point: process-wide start-up choices, made before typer is imported."""

from __future__ import annotations

import os
import sys

import kcli.cli.clock  # noqa: F401  (before the rest of kcli: the time --debug counts from)


def console() -> None:
    """Console-script entry point."""
    # Help is rendered with rich panels on a terminal and as plain text otherwise (pipes, NO_COLOR),
    # like every other output; plain rendering also skips importing rich's markdown stack (~70 ms).
    if not _stdout_is_tty() or os.environ.get("NO_COLOR"):
        os.environ.setdefault("TYPER_USE_RICH", "0")
    # kio registers hypothesis strategies at import when hypothesis is importable; kcli never uses
    # them and the probe costs ~150 ms of start-up, so it is hidden from kio in the real program.
    if "hypothesis" not in sys.modules:
        sys.modules["hypothesis"] = None  # type: ignore[assignment]
    from kcli.cli.main import main

    try:
        code = main(sys.argv[1:])
    except KeyboardInterrupt:  # Ctrl-C after the command's own edge (guarded) had finished
        code = 130
    try:
        sys.stdout.flush()  # what is still buffered, while an error can still be one line
    except OSError as error:
        from kcli.cli.common import fail_output
        from kcli.env import Env

        failed = fail_output(error, Env())
        code = failed if failed is not None and code == 0 else code
    sys.exit(code)


def _stdout_is_tty() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False
