"""A metadata-shell run over a log directory or file: open it, then dump its records or hand it to the
shell (kcli.shell.session). The CLI parses flags and calls `run`; nothing here parses argv.

A dump needs the reader alone: the image, the tree and the shell's commands (30 ms of imports) load
only for the shell.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TextIO

from kcli.env import Env
from kcli.errors import UsageError
from kcli.metadata.directory import LogDirectory, find_log_directory, full_log_sources, read_sources
from kcli.metadata.dump import DumpSink, type_filter
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.shell.halves import dump_in_halves
from kcli.shell.problems import read_problems_code


@dataclass(frozen=True, slots=True, kw_only=True)
class SessionRequest:
    """What the operator asked for (flags, already validated for presence)."""

    directory: Path | None = None
    snapshot: Path | None = None
    skip_corrupt: bool = False
    dump: bool = False
    types: tuple[str, ...] = ()
    json: bool = False
    words: tuple[str, ...] = ()


def run(request: SessionRequest, env: Env, *, stdin: TextIO | None = None) -> int:
    """Run the request against a log directory or file; returns the exit code."""
    if request.directory is not None and request.snapshot is not None:
        raise UsageError("--directory and --snapshot are mutually exclusive")
    source = request.directory or request.snapshot
    if source is None:
        raise UsageError("give --directory DIR, --snapshot FILE or --bootstrap-controller HOST:PORT")
    directory = find_log_directory(source)  # read-only: no lock, a running node's log dir reads too
    for note in directory.notes:
        env.err(f"Warning: {note}")
    if request.dump:
        return dump(directory, request, env)
    from kcli.shell.session import run_shell

    return run_shell(directory, request.words, env, skip_corrupt=request.skip_corrupt, stdin=stdin)


def dump(
    directory: LogDirectory, request: SessionRequest, env: Env, *, stats: ReadStats | None = None
) -> int:
    """Print every record (text lines like kafka-dump-log, or one JSON object per line)."""
    wanted = type_filter(request.types)
    stats = stats if stats is not None else ReadStats()
    write = env.stdout.write
    for source, reader in read_sources(
        full_log_sources(directory), stats=stats, skip_corrupt=request.skip_corrupt
    ):
        if not request.json:
            write(f"Dumping {source.path}\n")
            if source.kind == "snapshot":
                write(f"Snapshot end offset: {source.offset}, epoch: {source.epoch}\n")
            elif source.kind == "bootstrap":
                write("KRaft bootstrap snapshot\n")
            else:
                write(f"Log starting offset: {source.offset}\n")
        scan = partial(_scan, json=request.json, wanted=wanted)
        if source.kind != "snapshot" or not dump_in_halves(reader, scan, write):
            scan(reader, write, False)
    env.stdout.flush()
    return read_problems_code(stats, env, directory)


def _scan(
    reader: FileReader,
    write: Callable[[str], object],
    resume: bool,
    *,
    json: bool,
    wanted: frozenset[tuple[bool, int]] | None,
) -> None:
    chunk: list[str] = []
    try:
        reader.scan(DumpSink(chunk, partial(_write_lines, write, chunk), json=json, wanted=wanted), resume=resume)
    finally:
        _write_lines(write, chunk)  # every record read before a damaged batch, then its error


def _write_lines(write: Callable[[str], object], lines: list[str]) -> None:
    if lines:
        lines.append("")  # the last line's newline, without copying the joined text again
        write("\n".join(lines))
        lines.clear()
