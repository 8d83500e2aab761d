"""Where `sandbox up` may write: a new or empty directory, or a sandbox's whose files are kcli's.

Behavior:
- A file, or a non-empty directory that holds no sandbox (no sandbox-settings.json, no
  kafka-cluster.json), is refused with one line before anything is written: kcli never writes into
  what it did not make. What a failed `up` left (sandbox.lock, sandbox.log) counts as empty.
- A sandbox's directory holds directories and regular files only: a FIFO, a device or a link to one
  where kcli wrote a file (meta.properties, quorum-state, a segment) would block or flood the process
  that reads it, so it is named and refused before any node starts.
"""

from __future__ import annotations

import os
import shlex
import stat
from pathlib import Path

from kcli.errors import UsageError
from kcli.sandbox.dirlock import LOCK_FILE

OWN_LEFTOVERS = (LOCK_FILE, "sandbox.log")  # what a failed `up` may leave in a directory


def check_directory(path: Path) -> None:
    """UsageError when `up` must not start a sandbox in `path`."""
    from kcli.sandbox.nodes import KAFKA_LAYOUT_FILE
    from kcli.sandbox.settings import SAVED_SETTINGS

    where = shlex.quote(str(path))
    if path.exists() and not path.is_dir():
        raise UsageError(
            f"--dir {where} is a file, not a directory", hint="name a new or empty directory, or a sandbox's"
        )
    if not path.is_dir():
        return
    if (path / SAVED_SETTINGS).is_file() or (path / KAFKA_LAYOUT_FILE).is_file():
        _check_own_files(path)
        return
    try:
        others = [p for p in path.iterdir() if p.name not in OWN_LEFTOVERS]
    except OSError as error:
        raise UsageError(f"cannot read --dir {where}: {error.strerror}") from None
    if others:
        raise UsageError(
            f"--dir {where} is not empty and holds no sandbox (no {SAVED_SETTINGS}): kcli starts a "
            "sandbox only in a new or empty directory, or reopens one it made",
            hint="name a new directory with --dir",
        )


def _check_own_files(path: Path) -> None:
    pending = [str(path)]
    while pending:
        directory = pending.pop()
        try:
            entries = list(os.scandir(directory))
        except OSError as error:
            raise UsageError(f"cannot read {shlex.quote(directory)}: {error.strerror}") from None
        for entry in entries:
            try:
                mode = os.stat(entry.path).st_mode  # a link: what it points to
            except OSError:
                continue  # a dangling link, or removed meanwhile: the engine says what is missing
            if stat.S_ISDIR(mode):
                if not entry.is_symlink():
                    pending.append(entry.path)
            elif not stat.S_ISREG(mode):
                kind = "a FIFO" if stat.S_ISFIFO(mode) else "not a regular file"
                kind = "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else kind
                raise UsageError(
                    f"{shlex.quote(entry.path)} in the sandbox is {kind}, not a file kcli wrote",
                    hint="remove it, or the sandbox (kcli sandbox down, then rm -r the directory)",
                )
