#!/usr/bin/env python3
"""The options of Kafka's own admin tools, read from their --help, as kcli data.

    python scripts/kafka-options.py            # write kcli/data/kafka_tool_options.tsv
    python scripts/kafka-options.py --check    # exit 1 if the file differs from what the tools print

Runs each tool's --help, and each subcommand's, of every Kafka release in RELEASES (their
distributions come from scripts/kafka-dist.sh; Java 17 runs the tools, in one JVM per release
through tests/kafka_diff/ToolDriver.java) and records every option: its tool, subcommand, spelling
(long and short forms), whether it takes a value, and the releases that have it. kcli reads the file
(kcli.cli.kafka_options) to resolve abbreviated options as Kafka's parsers do, and
tests/test_compat_options.py checks that kcli accepts every option of it with the same arity.

Help texts come in two shapes: jopt-simple's table (kafka-configs, kafka-acls,
kafka-reassign-partitions, kafka-topics and the group and offset tools: `--name <Type>` in the left
column, which may continue on the next line)
and argparse4j's groups (kafka-cluster, kafka-features, kafka-metadata-quorum, kafka-metadata-shell:
`  --name METAVAR, -n METAVAR` entries).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "kcli" / "data" / "kafka_tool_options.tsv"
RELEASES = ("4.0.2", "4.4.0")
TOOLS = (
    "kafka-acls",
    "kafka-cluster",
    "kafka-configs",
    "kafka-features",
    "kafka-metadata-quorum",
    "kafka-metadata-shell",
    "kafka-reassign-partitions",
    "kafka-topics",
    "kafka-consumer-groups",
    "kafka-groups",
    "kafka-share-groups",
    "kafka-streams-groups",
    "kafka-get-offsets",
)
# kcli topics mirrors kafka-topics.sh's reads only (--list, --describe): the options those take
READ_ONLY = {
    "kafka-topics": frozenset(
        {
            "--list", "--describe", "--bootstrap-server", "--command-config", "--topic", "--exclude-internal",
            "--if-exists", "--under-replicated-partitions", "--unavailable-partitions",
            "--under-min-isr-partitions", "--at-min-isr-partitions", "--topics-with-overrides", "--help",
        }
    )
}  # fmt: skip
NONE = "-"  # the subcommand column of a tool without subcommands, or of options before the subcommand


@dataclass(frozen=True, slots=True, order=True)
class Option:
    tool: str
    subcommand: str
    option: str
    takes_value: bool


# ------------------------------------------------------------------------------------- parsing


def jopt_options(tool: str, text: str) -> list[Option]:
    """Options of a jopt-simple help table: entries start at column 0 with `--`; the left column's width
    is where `Description` starts in the header, and an entry's left column may continue below (a
required option's entry starts with `* `)."""
    lines = text.splitlines()
    # `Option (* = required)` heads the tables of tools with a required option, marked `* --name`
    header = next(
        (i for i, line in enumerate(lines) if re.match(r"^Option(?: \(\* = required\))?\s+Description", line)), None
    )
    if header is None:
        raise ValueError(f"{tool}: no `Option  Description` table in its help")
    width = lines[header].index("Description")
    entries: list[str] = []
    for line in lines[header + 2 :]:
        left = line[:width].rstrip().removeprefix("* ")
        if line.startswith(("--", "* --")):
            entries.append(left)
        elif entries and left.startswith("  ") and left.strip():
            entries[-1] += " " + left.strip()
    options = []
    for entry in entries:
        name, _, rest = entry.partition(" ")
        options.append(Option(tool, NONE, name, rest.strip().startswith(("<", "["))))
    return options


def argparse_options(tool: str, subcommand: str, text: str) -> list[Option]:
    """Options of an argparse4j help: entries are lines of two spaces then `-` inside its groups."""
    options = []
    in_groups = False
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.rstrip().endswith(":"):
            in_groups = not line.startswith("positional arguments")
            continue
        if not in_groups or not re.match(r"^  -", line):
            continue
        head = re.split(r"\s{2,}", line.strip(), maxsplit=1)[0]
        for form in head.split(", "):
            parts = form.split()
            options.append(Option(tool, subcommand, parts[0], len(parts) > 1))
    return options


def subcommands(text: str) -> list[str]:
    """The `{a,b,c}` choice of an argparse4j usage (the first one: the tool's subcommands)."""
    found = re.search(r"\{([a-z,-]+)\}", text)
    return found.group(1).split(",") if found else []


# ------------------------------------------------------------------------------------- running


def _help(tools: object, tool: str, args: list[str]) -> str:
    from tests.kafka_diff.tools import KafkaTools

    assert isinstance(tools, KafkaTools)
    short = tool.removeprefix("kafka-")
    if tool in ARGPARSE and not tools.system_exit_trapped:
        # argparse4j's parseArgsOrFail calls System.exit, which this JVM cannot trap: one process
        script = tools.kafka_home / "bin" / f"{tool}.sh"
        done = subprocess.run([str(script), *args], capture_output=True, text=True, timeout=300)
        return done.stdout + done.stderr
    ran = tools.run(short, args)
    return ran.stdout + ran.stderr


ARGPARSE = frozenset({"kafka-cluster", "kafka-features", "kafka-metadata-quorum", "kafka-metadata-shell"})


def read_release(kafka_home: Path, classes: Path, log: Path) -> list[Option]:
    """Every option of every tool (and subcommand) the release's bin/ holds."""
    from tests.kafka_diff.tools import KafkaTools

    tools = KafkaTools(kafka_home, classes, log)
    options: list[Option] = []
    try:
        tools.run("configs", ["--version"])  # starts the JVM; tells whether System.exit is trapped
        for tool in TOOLS:
            if not (kafka_home / "bin" / f"{tool}.sh").exists():
                continue
            text = _help(tools, tool, ["--help"])
            if tool not in ARGPARSE:
                kept = READ_ONLY.get(tool)
                options += [o for o in jopt_options(tool, text) if kept is None or o.option in kept]
                continue
            options += argparse_options(tool, NONE, text)
            for sub in subcommands(text):
                options += argparse_options(tool, sub, _help(tools, tool, [sub, "--help"]))
    finally:
        tools.close()
    return options


def kafka_home(release: str) -> Path:
    done = subprocess.run(
        ["bash", str(REPO / "scripts" / "kafka-dist.sh"), release],
        capture_output=True,
        text=True,
        timeout=900,
    )
    if done.returncode != 0:
        raise SystemExit(f"kafka-options: scripts/kafka-dist.sh {release} failed:\n{done.stderr}")
    return Path(done.stdout.strip().splitlines()[-1])


def render(by_release: dict[str, list[Option]]) -> str:
    releases: dict[Option, list[str]] = defaultdict(list)
    for release, options in by_release.items():
        for option in sorted(set(options)):
            releases[option].append(release)
    lines = [
        f"# Generated by scripts/kafka-options.py from the --help of Kafka {', '.join(by_release)}; do not edit.",
        "# tool\tsubcommand (- none, or options before it)\toption\ttakes a value (1) or not (0)\treleases",
    ]
    for option in sorted(releases):
        lines.append(
            "\t".join(
                (
                    option.tool,
                    option.subcommand,
                    option.option,
                    "1" if option.takes_value else "0",
                    ",".join(releases[option]),
                )
            )
        )
    return "\n".join(lines) + "\n"


def generate(homes: dict[str, Path]) -> str:
    from tests.kafka_diff.tools import compile_driver

    with tempfile.TemporaryDirectory(prefix="kafka-options-") as scratch:
        classes = compile_driver(Path(scratch))
        by_release = {
            release: read_release(home, classes, Path(scratch) / f"{release}.log")
            for release, home in homes.items()
        }
    return render(by_release)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file is stale")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    text = generate({release: kafka_home(release) for release in RELEASES})
    if options.check:
        if TARGET.read_text(encoding="utf-8") != text:
            print(
                f"kafka-options: {TARGET.relative_to(REPO)} is stale; run scripts/kafka-options.py",
                file=sys.stderr,
            )
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"kafka-options: wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
