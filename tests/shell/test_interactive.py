"""The interactive shell driven through prompt_toolkit's pipe input."""

from __future__ import annotations

import io
from pathlib import Path

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from kcli.metadata.image import build_image
from kcli.metadata.tree import build_tree
from kcli.shell.commands import Shell
from kcli.shell.interactive import run_interactive


def _run(small_log: Path, keys: str, history_file: Path) -> tuple[list[str], Shell]:
    out: list[str] = []
    shell = Shell(
        root=build_tree(build_image(small_log)), out=out.append, err=out.append, interactive=True, width=40
    )
    with create_pipe_input() as pipe:
        pipe.send_text(keys)
        code = run_interactive(shell, history_file=history_file, input=pipe, output=DummyOutput())
    assert code == 0
    return out, shell


def test_commands_ctrl_c_and_exit(small_log: Path, tmp_path: Path) -> None:
    history = tmp_path / "config" / "metadata-shell-history"
    keys = "cd /image/topics/byName\r" + "ls\r" + "cat /nowhere-and-more\x03" + "pwd\r" + "exit\r"
    out, shell = _run(small_log, keys, history)
    assert out == ["[ kcli metadata shell ]", "orders  payments", "^C", "/image/topics/byName"]
    assert shell.exit_requested
    assert "cd /image/topics/byName" in history.read_text()


def test_completer_adapter(small_log: Path) -> None:
    from prompt_toolkit.completion import CompleteEvent
    from prompt_toolkit.document import Document

    from kcli.shell.completion import make_completer

    root = build_tree(build_image(small_log))
    completer = make_completer(lambda: root, lambda: ("image",))
    found = list(completer.get_completions(Document("cat prov"), CompleteEvent(completion_requested=True)))
    assert [(c.text, c.start_position) for c in found] == [("provenance", -4)]


def test_history_across_sessions(small_log: Path, tmp_path: Path) -> None:
    history = tmp_path / "history"
    out, _shell = _run(small_log, "cat /image/provenance\r\x04", history)
    assert out[1].startswith("offset ")
    out, shell = _run(small_log, "history\r\x04", history)
    assert shell.history[0] == "cat /image/provenance"
    assert out[1:] == ["    1  cat /image/provenance", "    2  history"]


def test_output_goes_through_the_shell_writer(small_log: Path, tmp_path: Path) -> None:
    buffer = io.StringIO()
    shell = Shell(
        root=build_tree(build_image(small_log)), out=lambda s: print(s, file=buffer), err=lambda s: None
    )
    with create_pipe_input() as pipe:
        pipe.send_text("ls /image/cluster\r\x04")
        run_interactive(shell, history_file=None, input=pipe, output=DummyOutput())
    assert "brokers" in buffer.getvalue()
