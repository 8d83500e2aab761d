#!/usr/bin/env python3
"""Write kcli/cli/runbooks.py: which runbooks of docs/runbooks use each kcli command.

Each command's --help epilogue and man page name the runbooks that run it (a tool's page those of
all its subcommands). A runbook's commands are the `kcli ...` lines of its ```sh blocks (the ones
the runner runs, not the ```sh kafka equivalents).

    python scripts/runbook-index.py            # rewrite kcli/cli/runbooks.py
    python scripts/runbook-index.py --check    # exit 1 if it is out of date

tests/runbooks/test_runbook_texts.py runs --check's comparison: a runbook added, renamed or changed
to use other commands fails until this is run again.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
RUNBOOKS = REPO / "docs" / "runbooks"
TARGET = REPO / "kcli" / "cli" / "runbooks.py"
FENCE = re.compile(r"^```sh\n(.*?)^```$", re.MULTILINE | re.DOTALL)

HEADER = '''"""The runbooks of docs/runbooks that use each command: named in its --help epilogue and man page.

Written by scripts/runbook-index.py from the runbooks' ```sh blocks; run it again after changing a
runbook instead of editing this by hand. Plain strings only: this module is imported by `kcli --help`.
"""

from __future__ import annotations

FOLDER = "docs/runbooks"
# command path below `kcli` -> ((runbook file, its title), ...), by file name
RUNBOOKS: dict[str, tuple[tuple[str, str], ...]] = {
'''


def commands_of(text: str, root: object) -> set[str]:
    """The command paths ("reassign-partitions", "sandbox add-node") a runbook's ```sh blocks run."""
    found: set[str] = set()
    for block in FENCE.findall(text):
        script = block.replace("\\\n", " ")
        for line in script.splitlines():
            code = line.split(" #", 1)[0]
            for match in re.finditer(r"(?:^|[\s;(|&`])kcli\s+(.*)", code):
                try:
                    words = shlex.split(match.group(1), comments=True)
                except ValueError:
                    words = match.group(1).split()
                found |= set(_path(words, root))
    return found


def _path(words: list[str], root: object) -> list[str]:
    """The command path of `kcli WORDS...`, and each group above it."""
    commands = getattr(root, "commands", {})
    if not words or words[0] not in commands:
        return []
    path = [words[0]]
    command = commands[words[0]]
    rest = words[1:]
    while getattr(command, "commands", None):
        names = [w for w in rest if w in command.commands]
        if not names:
            break
        rest = rest[rest.index(names[0]) + 1 :]
        command = command.commands[names[0]]
        path.append(names[0])
    return [" ".join(path[: i + 1]) for i in range(len(path))]


def title_of(text: str, path: Path) -> str:
    for line in text.splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise SystemExit(f"{path}: no '# ' title")


def render() -> str:
    from kcli.cli.docgen import root_command

    root = root_command()
    by_command: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(RUNBOOKS.glob("*.md")):
        if path.name == "README.md":
            continue
        text = path.read_text(encoding="utf-8")
        title = title_of(text, path)
        for command in commands_of(text, root):
            by_command.setdefault(command, []).append((path.name, title))
    lines = [HEADER]
    for command in sorted(by_command):
        entries = "".join(
            f"        ({json.dumps(name)}, {json.dumps(title)}),\n" for name, title in sorted(by_command[command])
        )
        lines.append(f"    {json.dumps(command)}: (\n{entries}    ),\n")
    lines.append("}\n")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if kcli/cli/runbooks.py is out of date")
    options = parser.parse_args()
    sys.path.insert(0, str(REPO))
    text = render()
    if options.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(f"{TARGET.relative_to(REPO)} is out of date: run python scripts/runbook-index.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
