"""Read the files kcli is given: files and devices, and only up to a stated size.

Every file a command reads (.properties, TOML profiles, reassignment and ACL JSON, rule files, PEM
stores, secret files, sandbox settings) goes through here, so `/dev/zero`, a FIFO or a directory
is refused at once with one line, instead of being read until the process is killed.

Behavior:
- The file is opened non-blocking (a FIFO without a writer does not hang the open) and checked
  with fstat on that descriptor. A directory or a socket is a UsageError (exit 2).
- A pipe or FIFO is read as Kafka's tools read it (`--command-config <(vault ...)`,
  `--reassignment-json-file /dev/stdin`: scripts keep secrets off disk that way), bounded in
  size and in time: the writer has INPUT_TIMEOUT_S (KCLI_INPUT_TIMEOUT_MS) to finish. A FIFO
  nobody writes to is refused once that deadline has passed, never waited on for ever.
- A regular file or a device is read up to its limit, as Kafka's tools read any file: /dev/null
  reads as empty (`--command-config /dev/null`, a common idiom in scripts), while /dev/zero gives
  more than the limit and is refused. A device with nothing to read yet (a terminal) is refused
  rather than waited for.
- A file larger than its limit is a UsageError naming the limit; the read itself stops at the
  limit too, so a file that grows while it is read cannot exceed it.
- Errors of opening (missing file, no permission) pass through as OSError: each caller words a
  missing file in its own way (a missing profile file is simply empty).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

from kcli.errors import UsageError

KIB = 1024
MIB = 1024 * KIB
CONFIG_LIMIT = 1 * MIB  # .properties, TOML profiles, rule files, secret files, sandbox settings
PEM_LIMIT = 4 * MIB  # PEM trust and key stores (a full public CA bundle is ~0.25 MiB)
DOCUMENT_LIMIT = 64 * MIB  # reassignment and ACL JSON documents (~500k partitions)
_CHUNK = 1 * MIB

_REFUSED = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISSOCK, "a socket"),
)
INPUT_TIMEOUT_S = 30.0  # for a pipe's writer to send all it has; KCLI_INPUT_TIMEOUT_MS overrides


class FileRefused(UsageError):
    """A directory, FIFO or socket, or a file larger than kcli reads for its purpose."""


def size_text(count: int) -> str:
    """1048576 -> '1 MiB' (whole units when exact)."""
    for unit, name in ((MIB, "MiB"), (KIB, "KiB")):
        if count >= unit:
            value = count / unit
            return f"{value:.0f} {name}" if value == int(value) else f"{value:.1f} {name}"
    return f"{count} bytes"


def _refused_kind(mode: int) -> str | None:
    return next((name for test, name in _REFUSED if test(mode)), None)


def read_bytes(path: Path | str, *, what: str, limit: int = CONFIG_LIMIT, pipes: bool = True) -> bytes:
    """The bytes of file or device `path` (at most `limit`); `what` names it in errors (e.g. a flag).
    A pipe or FIFO is read until its writer closes it, unless `pipes` is False (files only Kafka
    writes, as regular files: a FIFO there is refused at once, never waited for)."""
    flags = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    descriptor = os.open(path, flags)
    try:
        info = os.fstat(descriptor)
        kind = _refused_kind(info.st_mode)
        if kind is not None:
            raise FileRefused(
                f"{what} {path} is {kind}, not a regular file", hint="give the path of a regular file"
            )
        if stat.S_ISFIFO(info.st_mode) and not pipes:
            raise FileRefused(f"{what} {path} is a FIFO, not a regular file", hint="give the path of a regular file")
        if stat.S_ISFIFO(info.st_mode):
            return _read_pipe(descriptor, path, what=what, limit=limit)
        regular = stat.S_ISREG(info.st_mode)
        if regular and info.st_size > limit:
            raise FileRefused(
                f"{what} {path} is {size_text(info.st_size)}, over the {size_text(limit)} kcli reads for it"
            )
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = os.read(descriptor, min(_CHUNK, limit + 1 - total))
            except BlockingIOError:
                raise FileRefused(
                    f"{what} {path} is a device with nothing to read", hint="give the path of a regular file"
                ) from None
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:
                grew = "grew over" if regular else "gives more than"
                raise FileRefused(f"{what} {path} {grew} the {size_text(limit)} kcli reads for it")
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def input_timeout_s() -> float:
    """How long a pipe's writer has to send everything (KCLI_INPUT_TIMEOUT_MS, else 30 s)."""
    from kcli.integers import java_long

    raw = os.environ.get("KCLI_INPUT_TIMEOUT_MS", "").strip()
    value = java_long(raw) if raw else None
    if raw and (value is None or value < 0):
        raise UsageError(f"KCLI_INPUT_TIMEOUT_MS must be a whole number of milliseconds, not {raw[:40]!r}")
    return INPUT_TIMEOUT_S if value is None else value / 1000


def _read_pipe(descriptor: int, path: Path | str, *, what: str, limit: int) -> bytes:
    """All a pipe or FIFO gives until its writer closes it, within the input deadline and `limit`.

    A FIFO nobody has opened for writing reads as empty and polls as idle, so only the deadline
    tells "no writer" from "a slow writer": both are refused when it passes.
    """
    import select
    import time

    timeout = input_timeout_s()
    deadline = time.monotonic() + timeout
    poller = select.poll()
    poller.register(descriptor, select.POLLIN)
    chunks: list[bytes] = []
    total = 0
    while True:
        remaining = deadline - time.monotonic()
        events = poller.poll(max(0, int(remaining * 1000))) if remaining > 0 else []
        if not events:
            sent = f"sent {size_text(total)} and did not finish" if total else "was not written to"
            raise FileRefused(
                f"{what} {path} is a pipe that {sent} within {timeout:g} s",
                hint="start its writer first, give a regular file, or raise KCLI_INPUT_TIMEOUT_MS",
            )
        try:
            chunk = os.read(descriptor, min(_CHUNK, limit + 1 - total))
        except BlockingIOError:
            continue
        if not chunk:
            return b"".join(chunks)  # the writer closed it
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise FileRefused(f"{what} {path} gives more than the {size_text(limit)} kcli reads for it")


def read_text(path: Path | str, *, what: str, limit: int = CONFIG_LIMIT) -> str:
    """The UTF-8 text of regular file `path` (UsageError when it is not UTF-8)."""
    data = read_bytes(path, what=what, limit=limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise UsageError(f"{what} {path} is not UTF-8 text (byte {error.start})") from None


def read_stream(stream: IO[str], *, what: str, limit: int = DOCUMENT_LIMIT) -> str:
    """Text from an open stream (standard input), refused past `limit` characters."""
    text = stream.read(limit + 1)
    if len(text) > limit:
        raise FileRefused(f"{what} is over the {size_text(limit)} kcli reads for it")
    return text
