"""The metadata shell over a log's image (or live metadata): one command, a script or the interactive
loop (kcli.shell.log_reading opens the log and calls `run_shell`).

Imported only inside the command body (it pulls in the record schemas and kio).
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from typing import TextIO

from kcli.env import Env
from kcli.errors import ExitCode
from kcli.metadata.directory import LogDirectory
from kcli.metadata.image import build_image
from kcli.metadata.image_model import MetadataImage
from kcli.metadata.projection import Projection, projection_of
from kcli.metadata.read_model import ReadStats
from kcli.metadata.tree import Node, build_tree
from kcli.shell.commands import Command, ErroneousCommand, Shell, parse_line, parse_words
from kcli.shell.glob import is_glob, normalize
from kcli.shell.problems import read_problems_code


def run_shell(
    directory: LogDirectory,
    words: Sequence[str],
    env: Env,
    *,
    skip_corrupt: bool = False,
    stdin: TextIO | None = None,
) -> int:
    """One command (`words`), a script or the interactive shell over the image of `directory`."""
    _warn_if_partial(directory, env)
    stats = ReadStats()
    needed = Projection(None, None)  # a script or the interactive shell may look anywhere
    if words:
        needed = needed_projection(parse_words(list(words), interactive=False))
    image = build_image(
        directory, skip_corrupt=skip_corrupt, stats=stats, keys=needed.keys, topics=needed.topics
    )

    def history(path: tuple[str, ...]) -> Iterable[str]:
        from kcli.metadata.history import record_history

        return record_history(directory, path, skip_corrupt=skip_corrupt)

    code = run_tree(build_tree(image), words, env, record_history=history, stdin=stdin)
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


