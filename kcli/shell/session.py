"""One metadata-shell run: load the log (or live metadata), then dump, run one command, a script or
the interactive loop. The CLI parses flags and calls `run_session`; nothing here parses argv.

Imported only inside the command body (it pulls in the record schemas and kio).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import TextIO

from kcli.env import Env
from kcli.errors import ExitCode, UsageError
from kcli.metadata.directory import (
    LogDirectory,
    find_log_directory,
    full_log_sources,
    read_sources,
)
from kcli.metadata.dump import DumpSink, type_filter
from kcli.metadata.image import build_image
from kcli.metadata.image_model import MetadataImage
from kcli.metadata.projection import Projection, projection_of
from kcli.metadata.read_model import ReadStats
from kcli.metadata.tree import Node, build_tree
from kcli.shell.commands import Command, ErroneousCommand, Shell, parse_line, parse_words
from kcli.shell.glob import is_glob, normalize


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


def run_session(request: SessionRequest, env: Env, *, stdin: TextIO | None = None) -> int:
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
    _warn_if_partial(directory, env)
    stats = ReadStats()
    needed = Projection(None, None)  # a script or the interactive shell may look anywhere
    if request.words:
        needed = needed_projection(parse_words(list(request.words), interactive=False))
    image = build_image(
        directory, skip_corrupt=request.skip_corrupt, stats=stats, keys=needed.keys, topics=needed.topics
    )

    def history(path: tuple[str, ...]) -> Iterable[str]:
        from kcli.metadata.history import record_history

        return record_history(directory, path, skip_corrupt=request.skip_corrupt)

    code = run_tree(build_tree(image), request.words, env, record_history=history, stdin=stdin)
    return read_problems_code(stats, env, directory) or code


def needed_projection(command: Command | ErroneousCommand) -> Projection:
    """The record types and topics a one-shot command needs replayed: the union over the paths it
    shows (kcli.metadata.projection); a glob in a path means everything below the part before it."""
    requests: list[tuple[tuple[str, ...], int | None]] = []
    for target, depth in command.reads():
        parts = normalize((), target)
        globbed = next((index for index, part in enumerate(parts) if is_glob(part)), None)
        if globbed is not None:
            parts, depth = parts[:globbed], None
        requests.append((parts, depth))
    return projection_of(requests)


def _warn_if_partial(directory: LogDirectory, env: Env) -> None:
    """A later segment on its own lacks everything before its base offset: say so, once."""
    first = directory.sources[0]
    if directory.root is None and first.kind == "segment" and first.offset > 0:
        env.err(
            f"Warning: {first.path} is a log segment starting at offset {first.offset}: the records before "
            f"it are not read, so this state is partial (use --directory {first.path.parent} for the full state)"
        )


def run_image(image: MetadataImage, words: Sequence[str], env: Env, *, stdin: TextIO | None = None) -> int:
    """The shell over an image that did not come from a log (live mode): no record history."""
    return run_tree(build_tree(image), words, env, stdin=stdin)


def run_tree(
    root: Node,
    words: Sequence[str],
    env: Env,
    *,
    record_history: Callable[[tuple[str, ...]], Iterable[str]] | None = None,
    stdin: TextIO | None = None,
) -> int:
    """One command (`words`), a script on a non-terminal stdin, or the interactive shell."""
    shell = Shell(root=root, out=env.out, err=env.err, record_history=record_history)
    if words:
        ok = parse_words(list(words), interactive=False).run(shell)
        env.stdout.flush()
        return 0 if ok else int(ExitCode.ERROR)
    if stdin is not None or not env.stdin_isatty:
        lines = [raw.rstrip("\n") for raw in stdin or env.stdin]
        several = sum(1 for line in lines if line.strip()) > 1
        failed = False
        for line in lines:
            if line.strip():
                shell.history.append(line)
                if several:  # which output is whose: the command heads its output
                    shell.out(f"# {line.strip()}")
            failed |= not parse_line(line, interactive=True).run(shell)
            if shell.exit_requested:
                break
        env.stdout.flush()
        return int(ExitCode.ERROR) if failed else 0
    from kcli.shell.interactive import run_interactive

    shell.interactive = True
    shell.width = shutil.get_terminal_size((80, 24)).columns
    return run_interactive(shell, history_file=env.config_dir / "metadata-shell-history")


def _write_lines(write: Callable[[str], object], lines: list[str]) -> None:
    if lines:
        lines.append("")  # the last line's newline, without copying the joined text again
        write("\n".join(lines))
        lines.clear()


def read_problems_code(stats: ReadStats, env: Env, directory: LogDirectory | None = None) -> int:
    """Exit 1 with a warning when corrupt data was skipped (the output above is incomplete) or the
    log breaks Kafka's invariants (the output above may mix histories)."""
    code = 0
    if stats.skipped:
        env.err(
            f"Warning: skipped corrupt data: {stats.skipped_records} records, {stats.skipped_batches} batches, "
            f"{stats.skipped_bytes} trailing bytes"
        )
        for problem in stats.problems[:20]:
            env.err(f"  {problem}")
        code = int(ExitCode.ERROR)
    warnings = [*(directory.warnings if directory is not None else ()), *stats.warnings]
    if warnings:
        env.err(
            f"Warning: the log breaks Kafka's invariants ({len(warnings)} "
            f"{'problem' if len(warnings) == 1 else 'problems'}): a diverged or damaged log; "
            "offsets and epochs below are as read"
        )
        for warning in warnings[:20]:
            env.err(f"  {warning}")
        if len(warnings) > 20:
            env.err(f"  ... and {len(warnings) - 20} more")
        code = int(ExitCode.ERROR)
    return code


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
        chunk: list[str] = []
        reader.scan(DumpSink(chunk, partial(_write_lines, write, chunk), json=request.json, wanted=wanted))
        _write_lines(write, chunk)
    env.stdout.flush()
    return read_problems_code(stats, env, directory)
