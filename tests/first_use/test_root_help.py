"""`kcli` with no arguments, piped: every command's whole summary, one line each, never cut at 80 columns."""

from __future__ import annotations

import os
import subprocess
import sys

from kcli.cli.main import app
from kcli.cli.summaries import summary
from tests.conftest import REPO


def _piped(*args: str) -> subprocess.CompletedProcess[str]:
    """The real console entry with stdout and stderr on pipes, in an 80-column world."""
    environ = {k: v for k, v in os.environ.items() if k not in ("TYPER_USE_RICH", "NO_COLOR")}
    environ["COLUMNS"] = "80"
    return subprocess.run(
        [sys.executable, "-m", "kcli", *args],
        capture_output=True,
        text=True,
        env=environ,
        cwd=REPO,
        timeout=60,
    )


def _commands_block(help_text: str) -> list[str]:
    lines = help_text.splitlines()
    start = lines.index("Commands:") + 1
    end = lines.index("", start)
    return lines[start:end]


def test_root_help_off_a_terminal_lists_whole_summaries() -> None:
    done = _piped()
    assert done.returncode == 2 and done.stdout == ""  # no command given: usage on stderr
    block = _commands_block(done.stderr)
    assert (
        "  cluster-id           Print the cluster id (like kafka-cluster.sh cluster-id), from brokers or controllers."
        in block
    )
    assert (
        "  sandbox              A KRaft cluster on loopback for rehearsing runbooks and tests: the emulator (not "
        "Kafka; real wire protocol, real metadata log, fault injection) or real Kafka nodes (--kafka-home)."
    ) in block
    import typer.main

    root = typer.main.get_command(app)
    names = [name for name in root.list_commands(None) if not root.commands[name].hidden]
    width = max(map(len, names))
    assert block == [f"  {name:<{width}}  {summary(root.commands[name])}" for name in names]
    assert not any(line.endswith("...") for line in block)


def test_group_help_off_a_terminal_lists_whole_summaries_too() -> None:
    done = _piped("profile", "--help")
    assert done.returncode == 0
    assert _commands_block(done.stdout) == [
        "  list  List the profiles; the default one is marked with *.",
        "  show  Show a profile's settings (secrets are hidden).",
        "  add   Add a profile (the rest of the file, comments included, is left as it was).",
        "  use   Make a profile the default one.",
    ]
