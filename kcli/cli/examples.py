"""Examples at the end of each command's --help, recorded from real runs against the sandbox.

EXAMPLES maps a command path ("cluster-id", "metadata-quorum describe") to a block of lines:
"$ kcli ..." lines are the commands that were run, "# ..." lines are comments, and every other line
is what the command printed on stdout (trimmed). EXAMPLES lives in kcli/cli/examples_recorded.py,
written by scripts/refresh-examples.py, which starts a sandbox and runs each command for real;
refresh it instead of editing outputs by hand. Plain strings only: both modules are imported by
`kcli --help`.
"""

from __future__ import annotations

import os
import re
from typing import Any

from kcli.cli.examples_recorded import EXAMPLES as EXAMPLES

HEADING = "Examples"


def attach_examples(command: Any, path: tuple[str, ...], examples: dict[str, str] | None = None) -> None:
    """Set the epilog of the click command `command` (at `path`, e.g. ("cluster",)) and of every
    command below it: its example block, then the runbooks that use it (the root's is given to its
    typer.Typer)."""
    examples = EXAMPLES if examples is None else examples
    epilog = epilog_for(" ".join(path), examples)
    if epilog:
        command.epilog = epilog
    for name, sub in (getattr(command, "commands", None) or {}).items():
        attach_examples(sub, (*path, name), examples)


def epilog_for(path: str, examples: dict[str, str] | None = None) -> str:
    """The epilog of command `path`: its examples, then the runbooks that use it ("" when neither)."""
    block = (EXAMPLES if examples is None else examples).get(path, "")
    runbooks = runbooks_block(path)
    return epilog_of(block, runbooks=runbooks) if block or runbooks else ""


def epilog_of(block: str, *, rich: bool | None = None, runbooks: str = "") -> str:
    """The epilog text for an example block (and the runbooks that use the command): each under a
    heading, shown verbatim.

    With rich help (on a terminal) typer reads the epilog as rich markup and keeps line breaks,
    so brackets in the recorded output (JSON, lists) are escaped. Plain help (TYPER_USE_RICH=0,
    which kcli's entry point sets off a terminal) is click's formatter, which rewraps paragraphs
    unless each starts with a \\b line.
    """
    if rich is None:
        rich = typer_help_is_rich()
    out: list[str] = []
    for heading, text in ((HEADING, block.rstrip()), (RUNBOOKS_HEADING, runbooks.rstrip())):
        if not text:
            continue
        if rich:
            out.append(f"[bold]{heading}[/bold]\n\n{_escape_markup(text)}")
        else:
            paragraphs = [paragraph for paragraph in text.split("\n\n") if paragraph.strip()]
            out.append(f"{heading}:\n\n" + "\n\n".join(f"\b\n{paragraph}" for paragraph in paragraphs))
    return "\n\n".join(out)


def typer_help_is_rich() -> bool:
    """Whether typer renders help with rich: unless TYPER_USE_RICH says no, as typer reads it."""
    value = os.environ.get("TYPER_USE_RICH", "").lower()
    return value not in ("n", "no", "f", "false", "off", "0")


RUNBOOKS_HEADING = "Runbooks"
# Where an installed kcli's runbooks are (the wheel's shared data, beside share/man) and published.
INSTALLED = "share/doc/kcli/runbooks"
PUBLISHED = "https://github.com/kcli-project/kcli/tree/main/docs/runbooks"


def runbook_entries(path: str) -> tuple[tuple[str, str], ...]:
    """(file, title) of the runbooks that use the command `path` (the root: every runbook)."""
    from kcli.cli.runbooks import FOLDER, RUNBOOKS

    if path:
        found = RUNBOOKS.get(path, ())
    else:
        found = tuple(sorted({entry for entries in RUNBOOKS.values() for entry in entries}))
    return tuple((f"{FOLDER}/{name}", title) for name, title in found)


def runbooks_block(path: str) -> str:
    """The lines naming the runbooks of `path` (`docs/runbooks/FILE  Title`), then where they are:
    installed with kcli (the wheel's share/doc/kcli/runbooks) and published online."""
    entries = runbook_entries(path)
    if not entries:
        return ""
    width = max(len(name) for name, _ in entries)
    lines = [f"{name:<{width}}  {title}" for name, title in entries]
    return "\n".join(lines) + f"\n\nAlso installed with kcli, in {INSTALLED} under its prefix, and online at {PUBLISHED}"


def _escape_markup(text: str) -> str:
    # rich reads "[" as the start of a tag and "\[" as a literal bracket; backslashes right before
    # a bracket are doubled so they stay literal too (what rich.markup.escape does, without rich).
    return re.sub(r"(\\*)\[", lambda match: match.group(1) * 2 + "\\[", text)
