"""The process environment a command runs in: streams, terminal facts, config dir.

Passed to commands (through the typer context) so tests can supply their own.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO


@dataclass(slots=True, kw_only=True)
class Env:
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    stderr: TextIO = field(default_factory=lambda: sys.stderr)
    stdin: TextIO = field(default_factory=lambda: sys.stdin)
    environ: Mapping[str, str] = field(default_factory=lambda: dict(os.environ))
    debug: bool = False

    @property
    def stdout_isatty(self) -> bool:
        return _isatty(self.stdout)

    @property
    def stderr_isatty(self) -> bool:
        return _isatty(self.stderr)

    @property
    def stdin_isatty(self) -> bool:
        return _isatty(self.stdin)

    @property
    def color(self) -> bool:
        """Colour only on a terminal and only when NO_COLOR is unset (https://no-color.org)."""
        return self.stdout_isatty and not self.environ.get("NO_COLOR")

    @property
    def config_dir(self) -> Path:
        base = self.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
        return Path(base) / "kcli"

    @property
    def config_file(self) -> Path:
        explicit = self.environ.get("KCLI_CONFIG")
        return Path(explicit) if explicit else self.config_dir / "config.toml"

    def err(self, line: str) -> None:
        with contextlib.suppress(OSError):  # stderr itself is gone or full (2>/dev/full): nowhere to say it
            print(line, file=self.stderr, flush=True)

    def out(self, line: str = "") -> None:
        print(line, file=self.stdout)


def _isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False
