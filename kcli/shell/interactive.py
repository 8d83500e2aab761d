"""The interactive loop: prompt with the current path, completion, history file, Ctrl-C safe."""

from __future__ import annotations

from pathlib import Path as FsPath
from typing import Any

from kcli.shell.commands import Shell, parse_line
from kcli.shell.glob import display


def run_interactive(
    shell: Shell, *, history_file: FsPath | None, input: Any = None, output: Any = None
) -> int:
    """Read, parse and run lines until exit or Ctrl-D. `input`/`output` let tests drive it."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    from kcli.shell.completion import make_completer
    from kcli.shell.keys import shell_bindings

    history: Any = InMemoryHistory()
    if history_file is not None:
        from kcli.writes import WriteFailed, make_directories

        try:
            make_directories(history_file.parent, what="the shell history's directory")
            history = FileHistory(str(history_file))
            shell.history.extend(reversed(list(history.load_history_strings())))  # newest first on disk
        except (OSError, WriteFailed):
            history = InMemoryHistory()
    session: Any = PromptSession(
        history=history,
        completer=make_completer(lambda: shell.root, lambda: shell.cwd),
        key_bindings=shell_bindings(),
        complete_while_typing=False,
        input=input,
        output=output,
    )
    shell.out("[ kcli metadata shell ]")
    while not shell.exit_requested:
        try:
            line = session.prompt(f"{display(shell.cwd)} >> ")
        except KeyboardInterrupt:
            shell.out("^C")
            continue
        except EOFError:
            break
        if line.strip():
            shell.history.append(line)
        parse_line(line, interactive=True).run(shell)
    return 0
