"""Every file kcli writes goes through here: beside and rename, fsync where the data matters, the
temporary removed on any error, the cause in one line.

Behavior:
- `write_file` and `replacing` write a temporary file beside the target (same directory, so the
  rename is atomic), fsync it when `durable`, rename it over the target and fsync the directory:
  a crash, a full disk or Ctrl-C leaves either the old file or the new one, never half of one.
  On any error (ENOSPC, EDQUOT, EIO, KeyboardInterrupt) the temporary is removed and the target is
  as it was; an OSError becomes one WriteFailed line naming what, where and why.
- A target that is a symbolic link is written through: the file it names is replaced, the link
  stays. A target that exists and is not a regular file (/dev/stdout, /dev/null, a FIFO a reader
  holds, a terminal) is written into directly, never replaced by a file; a FIFO nobody reads is
  refused rather than waited on; a directory is refused.
- The new file keeps the mode of the one it replaces, else `mode` (umask applied); `private`
  forces 0600 (files that hold secrets in clear).
- `make_directories` is `mkdir -p` worded the same way; `move_into_place` renames what kcli
  wrote beside a target (a directory staged whole) over it.
- `scratch_file` is an unlinked temporary text file (kcli.shell.halves' second half).
- `open_append` opens a file for appending (logs, a shell's rc file); `create_private` creates a
  new 0600 file that must not exist yet (material for a library that only reads paths). Writes to
  their handles raise OSError; callers word it with `write_failure`.
- Nothing else in kcli calls open() for writing, os.open with a write flag, Path.write_*,
  os.replace/rename, shutil's copies or tempfile: tests/reliability/test_writes.py fails on any.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from kcli.errors import KcliError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_CREATE_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC


class WriteFailed(KcliError):
    """A file kcli writes could not be written; the target is unchanged (one line says why)."""


def write_failure(error: OSError, path: Path | str, what: str, *, unchanged: bool = True) -> WriteFailed:
    """The one wording of a failed write: what, where, the system's reason, and what is left."""
    reason = error.strerror or str(error) or type(error).__name__
    left = f"; {path} is unchanged" if unchanged else ""
    hint = _HINTS.get(error.errno or 0)
    return WriteFailed(f"cannot write {what} {path}: {reason}{left}", hint=hint)


_HINTS = {
    errno.ENOSPC: "free some space on that file system, or give a path on another one",
    errno.EDQUOT: "the disk quota is used up: free some space, or give a path on another file system",
    errno.EROFS: "the file system is read-only: give a path on another one",
    errno.EACCES: "check the permissions of the file and its directory",
    errno.EFBIG: "the file is larger than this process may write (ulimit -f)",
}


def write_file(
    path: Path | str,
    data: str | bytes,
    *,
    what: str,
    mode: int = 0o666,
    private: bool = False,
    durable: bool = True,
) -> None:
    """Replace `path` with `data` (text is UTF-8) atomically; WriteFailed on any OSError."""
    with replacing(path, what=what, mode=mode, private=private, durable=durable, binary=True) as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextlib.contextmanager
def replacing(
    path: Path | str,
    *,
    what: str,
    mode: int = 0o666,
    private: bool = False,
    durable: bool = True,
    binary: bool = False,
    temporary_name: str | None = None,
) -> Iterator[IO[Any]]:
    """A handle whose content replaces `path` when the block ends without error (else nothing
    changes and the temporary is gone). Write errors inside the block become WriteFailed too.
    `temporary_name` names the temporary where a format has its own (Kafka's `.checkpoint.part`)."""
    target = _resolved(Path(path), what)
    existing = _existing_mode(target, what)
    if existing is not None and not stat.S_ISREG(existing):
        with _stream_into(target, what, binary) as stream:
            yield stream
        return
    keep = mode if existing is None else stat.S_IMODE(existing)
    temporary = target.with_name(temporary_name or f".{target.name}.{secrets.token_hex(4)}.tmp")
    if temporary_name is not None:
        remove_file(temporary)  # a fixed name of ours, left by a crash
    try:
        descriptor = os.open(temporary, _CREATE_NEW, 0o600 if private else keep)
    except OSError as error:
        raise write_failure(error, target, what, unchanged=existing is not None) from None
    handle = _handle(descriptor, "w", binary)
    try:
        try:
            yield handle
            handle.flush()
            if private or existing is not None:
                os.fchmod(handle.fileno(), 0o600 if private else keep)  # exact, whatever the umask
            if durable:
                os.fsync(handle.fileno())
        finally:
            handle.close()
        os.replace(temporary, target)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        if isinstance(error, OSError):
            raise write_failure(error, target, what, unchanged=existing is not None) from None
        raise
    if durable:
        sync_directory(target.parent)


def open_append(path: Path | str, *, what: str, binary: bool = True, mode: int = 0o666) -> IO[Any]:
    """`path` opened for appending (created when missing); WriteFailed when it cannot be."""
    target = Path(path)
    try:
        descriptor = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT | _CLOEXEC, mode)
    except OSError as error:
        raise write_failure(error, target, what) from None
    return _handle(descriptor, "a", binary)


def open_segment(path: Path | str, *, what: str) -> IO[bytes]:
    """A log segment opened for appending at its end, created when missing (metadata log writers)."""
    return open_append(path, what=what, binary=True, mode=0o644)


def create_private(path: Path | str, data: str | bytes, *, what: str) -> None:
    """A new 0600 file holding `data`; it must not exist yet (O_EXCL). Removed again on failure."""
    target = Path(path)
    try:
        descriptor = os.open(target, _CREATE_NEW, 0o600)
    except OSError as error:
        raise write_failure(error, target, what, unchanged=False) from None
    try:
        with os.fdopen(descriptor, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
    except BaseException as error:
        with contextlib.suppress(OSError):
            os.unlink(target)
        if isinstance(error, OSError):
            raise write_failure(error, target, what, unchanged=False) from None
        raise


def extract_members(archive: Any, prefix: str, into: Path | str, *, what: str) -> None:
    """Unpack the members of a zipfile.ZipFile under `prefix` into directory `into`."""
    try:
        for member in archive.namelist():
            if member.startswith(prefix):
                archive.extract(member, into)
    except OSError as error:
        raise write_failure(error, into, what, unchanged=False) from None


def truncate_file(path: Path | str, size: int, *, what: str) -> None:
    """Cut a file kcli owns to `size` bytes (a torn tail of a log it writes)."""
    try:
        os.truncate(path, size)
    except OSError as error:
        raise write_failure(error, path, what, unchanged=False) from None


def move_into_place(source: Path | str, target: Path | str, *, what: str, durable: bool = True) -> None:
    """Rename `source` (a file or directory kcli wrote beside `target`) to `target`, atomically."""
    try:
        os.replace(source, target)
    except OSError as error:
        raise write_failure(error, target, what) from None
    if durable:
        sync_directory(Path(target).parent)


def make_directories(path: Path | str, *, what: str, mode: int = 0o777) -> None:
    """`mkdir -p path` (umask applied); WriteFailed naming `what` when it cannot be made."""
    try:
        os.makedirs(path, mode=mode, exist_ok=True)
    except OSError as error:
        raise write_failure(error, path, what, unchanged=False) from None


@contextlib.contextmanager
def private_directory(*, prefix: str) -> Iterator[Path]:
    """A new 0700 directory under the system's temporary directory, removed with all it holds."""
    import tempfile

    try:
        holder = tempfile.TemporaryDirectory(prefix=prefix)
    except OSError as error:
        raise write_failure(error, tempfile.gettempdir(), "a temporary directory", unchanged=False) from None
    with holder as directory:
        yield Path(directory)


def scratch_file(*, what: str) -> IO[str]:
    """A new text file in the system's temporary directory that no path names: gone when closed or
    when the process ends (room for text a process makes before it may print it)."""
    import tempfile

    try:
        return tempfile.TemporaryFile("w+", encoding="utf-8")
    except OSError as error:
        raise write_failure(error, tempfile.gettempdir(), what, unchanged=False) from None


def remove_file(path: Path | str) -> None:
    """Remove a file kcli wrote, if it is still there (clean-up: never an error)."""
    with contextlib.suppress(OSError):
        os.unlink(path)


def sync_directory(directory: Path | str) -> None:
    """fsync a directory, so a rename in it survives a power loss (best effort: not every file
    system can fsync a directory)."""
    with contextlib.suppress(OSError):
        descriptor = os.open(directory, os.O_RDONLY | _CLOEXEC)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _handle(descriptor: int, mode: str, binary: bool) -> IO[Any]:
    if binary:
        return os.fdopen(descriptor, mode + "b")
    return os.fdopen(descriptor, mode, encoding="utf-8")


def _resolved(path: Path, what: str) -> Path:
    """The file a link names (so the link survives), or `path` itself when it is no link."""
    if not path.is_symlink():
        return path
    try:
        return Path(os.path.realpath(path, strict=True))
    except FileNotFoundError:
        return Path(os.path.realpath(path))  # a dangling link: create the file it names
    except OSError as error:
        raise write_failure(error, path, what) from None


def _existing_mode(path: Path, what: str) -> int | None:
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return None
    except OSError as error:
        raise write_failure(error, path, what) from None
    if stat.S_ISDIR(mode):
        raise WriteFailed(f"cannot write {what} {path}: it is a directory", hint="give the path of a file")
    return mode


@contextlib.contextmanager
def _stream_into(path: Path, what: str, binary: bool) -> Iterator[IO[Any]]:
    """Write into an existing device or FIFO (/dev/stdout, a pipe): there is nothing to replace."""
    try:
        # non-blocking open: a FIFO without a reader is ENXIO at once, not a wait for ever
        descriptor = os.open(path, os.O_WRONLY | os.O_NONBLOCK | _CLOEXEC)
        os.set_blocking(descriptor, True)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise WriteFailed(
                f"cannot write {what} {path}: it is a FIFO nobody reads", hint="start its reader first"
            ) from None
        raise write_failure(error, path, what, unchanged=False) from None
    handle = _handle(descriptor, "w", binary)
    try:
        with handle:
            yield handle
    except OSError as error:
        raise write_failure(error, path, what, unchanged=False) from None
