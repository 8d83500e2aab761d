"""The root's table of tools (kcli/cli/tools.py): it matches the tools' own help, and running one tool
imports no other tool's module (nor what only reading metadata files needs)."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.cli.summaries import summary
from kcli.cli.tools import TOOLS, Tool, tool_command
from tests.fresh_process import run_fresh

CLI = Path(__file__).resolve().parents[1] / "kcli" / "cli"
TOOL_MODULES = {tool.module for tool in TOOLS}
# what only reading metadata files needs: the CRC-32C extension (kcli.crc), never the crc32c package's
# __init__ nor the importlib.metadata it imports (~15 ms)
METADATA_ONLY = {"importlib.metadata", "crc32c", "crc32c._crc32c"}


def _run(*args: str) -> tuple[int, set[str]]:
    """Run `kcli ARGS` in a fresh interpreter: (exit code, the modules loaded when it ended)."""
    code, _out, modules = run_fresh(*args)
    return code, modules


def test_the_table_names_every_module_that_registers_a_tool() -> None:
    registering = {
        f"kcli.cli.{path.stem}" for path in CLI.glob("*.py") if "\ndef register(" in path.read_text()
    }
    assert registering == TOOL_MODULES
    assert len({tool.name for tool in TOOLS}) == len(TOOLS)


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_each_summary_is_the_tools_own(tool: Tool) -> None:
    command = tool_command(tool)
    assert command.name == tool.name
    assert not command.hidden
    assert summary(command) == tool.summary


@pytest.mark.parametrize("tool", TOOLS, ids=lambda tool: tool.name)
def test_a_tools_help_imports_no_other_tool(tool: Tool) -> None:
    code, modules = _run(tool.name, "--help")
    assert code == 0
    assert modules & TOOL_MODULES == {tool.module}
    assert not modules & METADATA_ONLY


@pytest.mark.parametrize("args", [("--help",), ("--version",), ()], ids=" ".join)
def test_the_root_alone_imports_no_tool(args: tuple[str, ...]) -> None:
    code, modules = _run(*args)
    assert code == (2 if not args else 0)  # no arguments: help, as a usage error
    assert not modules & (TOOL_MODULES | METADATA_ONLY)
