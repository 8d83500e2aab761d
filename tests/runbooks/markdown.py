"""A runbook of docs/runbooks/ read as the runner sees it: its steps, their shell blocks, their variables.

The format (docs/runbooks/README.md says it for writers):
- one `# Title`, then a `## Before you start` section naming every variable the runbook expects as
  `` `$NAME` ``;
- steps as `## Step N: Heading`, numbered from 1; each has at least one ```` ```sh ```` block, a
  `**Check:**` paragraph (what to look at before going on) and a `**Roll back:**` paragraph;
- ```` ```sh ```` blocks are run, in order; ```` ```sh kafka ```` blocks are the Kafka tools' equivalent
  and are not run (their programs and options are checked against Kafka's own tools); other fences
  (json, yaml, text) are illustrations. A ```` ```sh ```` block outside a step is an error: nothing a
  reader would copy goes unrun.
A runbook that breaks a rule is refused with its file and line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

RUN = "sh"
KAFKA = "sh kafka"
STEP_HEADING = re.compile(r"^## Step (\d+): (\S.*)$")
BEFORE = "## Before you start"
FENCE = re.compile(r"^```(.*)$")
VARIABLE_USE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
ASSIGNMENT = re.compile(r"(?:^|[\s;(])(?:export\s+|local\s+)?([A-Za-z_][A-Za-z0-9_]*)=")
LOOP_VARIABLE = re.compile(r"\bfor\s+([A-Za-z_][A-Za-z0-9_]*)\s+in\b")
DOCUMENTED = re.compile(r"`\$([A-Za-z_][A-Za-z0-9_]*)`")
# Set by bash or the environment every shell has: a runbook may use them without saying so.
SHELL_VARIABLES = {"PATH", "HOME", "PWD", "TMPDIR", "REPLY", "RANDOM", "SECONDS", "BASH_SOURCE", "IFS"}


class RunbookError(ValueError):
    """A runbook that does not follow the format: its file, line and the rule."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Block:
    kind: str  # RUN, KAFKA, or another fence's info string
    text: str
    line: int  # of the opening fence, 1-based


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    number: int
    heading: str
    line: int
    blocks: tuple[Block, ...]
    check: str
    roll_back: str

    @property
    def script(self) -> str:
        """The step's ```sh blocks, joined in order: what the runner runs."""
        return "\n".join(b.text for b in self.blocks if b.kind == RUN)

    @property
    def kafka_equivalents(self) -> tuple[Block, ...]:
        return tuple(b for b in self.blocks if b.kind == KAFKA)


@dataclass(frozen=True, slots=True, kw_only=True)
class Runbook:
    path: Path
    title: str
    variables: tuple[str, ...]  # documented in "Before you start"
    steps: tuple[Step, ...]

    @property
    def name(self) -> str:
        return self.path.name


def parse(path: Path) -> Runbook:
    """Read and check one runbook (RunbookError names the file, the line and the broken rule)."""
    lines = path.read_text(encoding="utf-8").splitlines()

    def fail(line: int, message: str) -> RunbookError:
        return RunbookError(f"{path.name}:{line}: {message}")

    title: str | None = None
    before: list[str] = []
    in_before = False
    steps: list[Step] = []
    current: dict[str, object] | None = None
    index = 0

    def close_step() -> None:
        if current is None:
            return
        text = str(current["prose"])
        check = _paragraph(text, "**Check:**")
        roll_back = _paragraph(text, "**Roll back:**")
        where = int(str(current["line"]))
        blocks = tuple(current["blocks"])  # type: ignore[call-overload]
        if not any(b.kind == RUN for b in blocks):
            raise fail(where, f"step {current['number']} has no ```sh block to run")
        if not check:
            raise fail(where, f"step {current['number']} does not say what to check (a **Check:** paragraph)")
        if not roll_back:
            raise fail(
                where, f"step {current['number']} does not say how to roll back (a **Roll back:** paragraph)"
            )
        steps.append(
            Step(
                number=int(str(current["number"])),
                heading=str(current["heading"]),
                line=where,
                blocks=blocks,
                check=check,
                roll_back=roll_back,
            )
        )

    while index < len(lines):
        line = lines[index]
        number = index + 1
        fence = FENCE.match(line)
        if fence:
            info = fence.group(1).strip()
            end = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), None)
            if end is None:
                raise fail(number, "a code block is not closed")
            block = Block(kind=info, text="\n".join(lines[index + 1 : end]), line=number)
            if info.split(" ", 1)[0] == "sh" and info not in (RUN, KAFKA):
                raise fail(number, f"unknown shell block ```{info}: use ```sh (run) or ```sh kafka (not run)")
            if info in (RUN, KAFKA) and current is None:
                raise fail(number, "a shell block outside a step: put it under a '## Step N: ...' heading")
            if current is not None:
                current["blocks"].append(block)  # type: ignore[attr-defined]
            index = end + 1
            continue
        if line.startswith("# "):
            if title is not None:
                raise fail(number, "a second '# ' title")
            title = line[2:].strip()
        elif line.startswith("## "):
            close_step()
            current = None
            in_before = line.strip() == BEFORE
            heading = STEP_HEADING.match(line)
            if heading:
                expected = len(steps) + 1
                if int(heading.group(1)) != expected:
                    raise fail(number, f"step {heading.group(1)} should be step {expected}")
                current = {
                    "number": expected,
                    "heading": heading.group(2).strip(),
                    "line": number,
                    "blocks": [],
                    "prose": "",
                }
        elif in_before:
            before.append(line)
        elif current is not None:
            current["prose"] = f"{current['prose']}{line}\n"
        index += 1
    close_step()
    if title is None:
        raise fail(1, "no '# ' title")
    if not any(line.strip() == BEFORE for line in lines):
        raise fail(1, f"no '{BEFORE}' section naming the variables it expects")
    if not steps:
        raise fail(1, "no '## Step 1: ...' heading")
    headings = [s.heading for s in steps]
    for step in steps:
        if headings.count(step.heading) > 1:
            raise fail(step.line, f"two steps are headed {step.heading!r}")
    documented = tuple(dict.fromkeys(DOCUMENTED.findall("\n".join(before))))
    runbook = Runbook(path=path, title=title, variables=documented, steps=tuple(steps))
    _check_variables(runbook)
    return runbook


def _paragraph(text: str, label: str) -> str:
    """The text of the paragraph that starts with `label` (up to the next blank line), without it."""
    for paragraph in re.split(r"\n\s*\n", text):
        stripped = paragraph.strip()
        if stripped.startswith(label):
            return " ".join(stripped[len(label) :].split())
    return ""


def _check_variables(runbook: Runbook) -> None:
    """Every variable a step reads is documented in "Before you start" or set by an earlier line."""
    known = set(runbook.variables) | SHELL_VARIABLES
    for step in runbook.steps:
        for block in step.blocks:
            if block.kind != RUN:
                continue
            for offset, text in enumerate(block.text.splitlines()):
                code = text.split(" #", 1)[0] if not text.lstrip().startswith("#") else ""
                known |= set(LOOP_VARIABLE.findall(code))
                for name in VARIABLE_USE.findall(_without_single_quotes(code)):
                    if name not in known and not name.isdigit():
                        raise RunbookError(
                            f"{runbook.name}:{block.line + 1 + offset}: ${name} is neither listed under "
                            f"'{BEFORE}' nor set by an earlier line"
                        )
                known |= set(ASSIGNMENT.findall(code))


def _without_single_quotes(code: str) -> str:
    """`code` without its '...' strings, where $ is not expanded (awk programs, sed scripts)."""
    return re.sub(r"'[^']*'", "''", code)


def runbooks(folder: Path) -> list[Runbook]:
    """Every runbook of `folder` (README.md is the index, not a runbook), by file name."""
    return [parse(path) for path in sorted(folder.glob("*.md")) if path.name != "README.md"]
