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
from kcli.metadata.directory import LogDirectory, find_log_directory, full_log_sources, read_sources
from kcli.metadata.dump import entry_json, entry_text, json_dump_lines, type_filter
from kcli.metadata.image import MetadataImage, build_image
from kcli.metadata.reader import ReadStats
from kcli.metadata.tree import Node, build_tree
from kcli.shell.commands import Shell, parse_line, parse_words


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
    directory = find_log_directory(source)
    if request.dump:
        return dump(directory, request, env)
    _warn_if_partial(directory, env)
    stats = ReadStats()
    image = build_image(directory, skip_corrupt=request.skip_corrupt, stats=stats)

    def history(path: tuple[str, ...]) -> Iterable[str]:
        from kcli.metadata.history import record_history

        return record_history(directory, path, skip_corrupt=request.skip_corrupt)

    code = run_tree(build_tree(image), request.words, env, record_history=history, stdin=stdin)
    return skipped_code(stats, env) or code


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
        failed = False
        for raw in stdin or env.stdin:
            line = raw.rstrip("\n")
            if line.strip():
                shell.history.append(line)
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
        write("\n".join(lines) + "\n")
        lines.clear()


def skipped_code(stats: ReadStats, env: Env) -> int:
    """Exit 1 with a warning when corrupt data was skipped (the output above is incomplete)."""
    if not stats.skipped:
        return 0
    env.err(
        f"Warning: skipped corrupt data: {stats.skipped_records} records, {stats.skipped_batches} batches, "
        f"{stats.skipped_bytes} trailing bytes"
    )
    for problem in stats.problems[:20]:
        env.err(f"  {problem}")
    return int(ExitCode.ERROR)


def dump(
    directory: LogDirectory, request: SessionRequest, env: Env, *, stats: ReadStats | None = None
) -> int:
    """Print every record (text lines like kafka-dump-log, or one JSON object per line)."""
    keep = type_filter(request.types)
    stats = stats if stats is not None else ReadStats()
    write = env.stdout.write
    render = entry_json if request.json else entry_text
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
        if request.json and keep is None:
            json_dump_lines(reader, chunk, partial(_write_lines, write, chunk))
            _write_lines(write, chunk)
            continue
        for entry in reader.entries():
            if keep is not None and not keep(entry):
                continue
            chunk.append(render(entry))
            if len(chunk) >= 4096:
                write("\n".join(chunk) + "\n")
                chunk.clear()
        if chunk:
            write("\n".join(chunk) + "\n")
    env.stdout.flush()
    return skipped_code(stats, env)
