"""One `sandbox up` in a directory at a time: an exclusive flock on DIR/sandbox.lock.

Behavior:
- `up` takes the lock before it writes anything into DIR and holds it while it runs; the emulator's
  own process (`up --detach`) inherits it and holds it as long as it serves, so a second `up` on DIR
  is refused at once, even while the first is still starting and has written no sandbox.json.
- The lock goes with the process that holds it (a crash, a kill -9): nothing stale to clean up.
- Real Kafka nodes do not hold it: once `up --detach` has started them, sandbox.json guards DIR.
"""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from kcli.errors import KcliError

LOCK_FILE = "sandbox.lock"
_HELD: dict[Path, IO[Any]] = {}


class SandboxBusy(KcliError):
    """Another kcli process runs or starts a sandbox in the directory."""


@contextlib.contextmanager
def holding(directory: Path) -> Iterator[None]:
    """Hold DIR's lock for the block (DIR made if missing); SandboxBusy when another process has it.
    A DIR this made is removed again when the block fails leaving nothing in it but the lock."""
    from kcli.writes import make_directories, open_append, remove_file

    made = not directory.exists()
    make_directories(directory, what="the sandbox directory")
    handle = open_append(directory / LOCK_FILE, what="the sandbox's lock file", mode=0o644)
    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SandboxBusy(
            f"another kcli sandbox up is starting or running a sandbox in {directory}",
            hint=f"wait for it, or stop it with: kcli sandbox down --dir {directory}",
        ) from None
    _HELD[directory] = handle
    try:
        yield
    except BaseException:
        if made and directory.is_dir() and [p.name for p in directory.iterdir()] == [LOCK_FILE]:
            remove_file(directory / LOCK_FILE)
            with contextlib.suppress(OSError):
                directory.rmdir()
        raise
    finally:
        _HELD.pop(directory, None)
        handle.close()


def held_descriptor(directory: Path) -> int | None:
    """The descriptor of DIR's lock this process holds (for the process that takes it over), else None."""
    handle = _HELD.get(directory)
    return handle.fileno() if handle is not None else None
