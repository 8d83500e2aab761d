#!/usr/bin/env python3
"""Write kcli/cli/sandbox_faults.py: one typer command per fault of kcli.sandbox.engine.FAULTS.

typer reads a command's parameters from its function as written, so each fault gets a function of
its own, with its arguments and options spelled out, rather than a signature made at run time. A new
fault is a method of the engine interface, of each engine, and an entry of FAULTS; this script then
writes its command.

    python scripts/sandbox-faults.py            # rewrite kcli/cli/sandbox_faults.py
    python scripts/sandbox-faults.py --check    # exit 1 if it is out of date

tests/sandbox/test_fault_commands.py runs --check's comparison.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "kcli" / "cli" / "sandbox_faults.py"
sys.path.insert(0, str(REPO))

HEADER = '''"""The fault commands of `kcli sandbox`, one per entry of kcli.sandbox.engine.FAULTS.

Written by scripts/sandbox-faults.py from that table; run it again after changing a fault instead of
editing this by hand. Each command opens the engine of DIR and calls the method its fault names
(kcli.cli.sandbox_common.run_fault).
"""

from __future__ import annotations

from typing import Annotated

import typer

from kcli.cli.common import OutputOpt, guarded
from kcli.cli.sandbox_common import DirOpt, run_fault
from kcli.render import OutputFormat
'''


def _annotation(parameter: Any) -> str:
    """The typer annotation of one fault parameter: an argument, an --option, or a flag."""
    settings = [] if parameter.option is None else [repr(parameter.option)]
    settings += [] if parameter.minimum is None else [f"min={parameter.minimum}"]
    settings.append(f"help={parameter.help!r}")
    if parameter.option is None:
        return f"Annotated[{parameter.kind.__name__}, typer.Argument({', '.join(settings)})]"
    kind = "bool" if parameter.flag else f"{parameter.kind.__name__} | None"
    return f"Annotated[{kind}, typer.Option({', '.join(settings)})]"


def render() -> str:
    from kcli.sandbox.engine import FAULTS

    parts = [HEADER]
    for fault in FAULTS:
        lines = ["", "", "", "@guarded", f"def {fault.method}("]
        for parameter in fault.parameters:
            default = "" if parameter.option is None else f" = {parameter.default!r}"
            lines.append(f"    {parameter.name}: {_annotation(parameter)}{default},")
        given = "".join(f", {p.name}={p.name}" for p in fault.parameters)
        lines += [
            "    directory: DirOpt = None,",
            "    output: OutputOpt = OutputFormat.text,",
            ") -> None:",
            f'    """{fault.help}"""',
            f"    run_fault({fault.method!r}, directory, output{given})",
        ]
        parts.append("\n".join(lines))
    commands = "".join(f"\n    ({fault.command!r}, {fault.method})," for fault in FAULTS)
    parts.append(f"\n\n\n# (command name, function), in the order of FAULTS\nCOMMANDS = ({commands}\n)\n")
    return _formatted("".join(parts))


def _formatted(source: str) -> str:
    """The module as the project's formatter writes it (ruff format, the dev extra)."""
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(TARGET), "-"],
        input=source, capture_output=True, text=True, check=True, cwd=REPO, timeout=60,
    )  # fmt: skip
    return done.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    options = parser.parse_args()
    text = render()
    if options.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(REPO)} is out of date: run python scripts/sandbox-faults.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
