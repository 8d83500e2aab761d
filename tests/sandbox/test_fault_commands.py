"""The fault commands of `kcli sandbox` are written from kcli.sandbox.engine.FAULTS, one function each."""

from __future__ import annotations

import subprocess
import sys

import typer.main

from kcli.cli.main import app
from kcli.sandbox.engine import FAULTS
from tests.conftest import REPO


def test_the_fault_commands_are_up_to_date_with_the_engine_table() -> None:
    done = subprocess.run(
        [sys.executable, str(REPO / "scripts" / "sandbox-faults.py"), "--check"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr


def test_every_fault_is_a_sandbox_command_with_its_parameters() -> None:
    sandbox = typer.main.get_command(app).commands["sandbox"]  # type: ignore[attr-defined]
    for fault in FAULTS:
        command = sandbox.commands[fault.command]
        names = {p.name for p in command.params}
        assert names == {p.name for p in fault.parameters} | {"directory", "output"}, fault.command
        assert command.help == fault.help
        options = {o for p in command.params for o in p.opts}
        assert {p.option for p in fault.parameters if p.option} <= options, fault.command
