"""The options of the Kafka tools kcli mirrors, per kcli command: one table, used twice.

- Parsing (kcli.cli.argv): an abbreviated long option that names one option of the Kafka tool
  resolves to it even where kcli's own extra options share its prefix.
- tests/test_compat_options.py: every option listed here parses with kcli, with the same arity.

The table is kcli/data/kafka_tool_options.tsv, which scripts/kafka-options.py writes from the --help
of Kafka's own tools (each release it reads: 4.0.2 and 4.4.0; a test re-reads them where Kafka can
run and fails when the file is stale): a runbook line that works with the original must parse with
kcli after replacing the program name. Removed ZooKeeper-era options (--zookeeper, ...) are in no
4.x --help, so not here.
"""

from __future__ import annotations

from enum import Enum
from functools import cache
from typing import NamedTuple

VALUE, FLAG = True, False
HELP = frozenset({"--help", "-h"})  # every kcli command has its own help


class KafkaOption(NamedTuple):
    """One option of a Kafka tool as its --help lists it (tool, subcommand or "-", spelling, arity)."""

    tool: str
    subcommand: str
    option: str
    takes_value: bool
    releases: tuple[str, ...]


@cache
def kafka_tool_options() -> tuple[KafkaOption, ...]:
    """kcli/data/kafka_tool_options.tsv, parsed."""
    from kcli.data import read_text

    rows = []
    for line in read_text("kafka_tool_options.tsv").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        tool, subcommand, option, value, releases = line.split("\t")
        rows.append(KafkaOption(tool, subcommand, option, value == "1", tuple(releases.split(","))))
    return tuple(rows)


def kcli_paths(tool: str, subcommand: str) -> tuple[tuple[str, ...], ...]:
    """The kcli command(s) a Kafka tool's (sub)command is: `kafka-cluster cluster-id` is `cluster
    cluster-id` and `cluster-id`; options given before a subcommand belong to the tool's group."""
    base = tool.removeprefix("kafka-")
    paths: tuple[tuple[str, ...], ...] = ((base,) if subcommand == "-" else (base, subcommand),)
    if (tool, subcommand) == ("kafka-cluster", "cluster-id"):
        paths += (("cluster-id",),)
    return paths


@cache
def original_options() -> tuple[tuple[tuple[str, ...], str, bool], ...]:
    """(kcli command path, option as the Kafka tool spells it, takes a value), help options left out."""
    out = {
        (path, row.option, row.takes_value)
        for row in kafka_tool_options()
        if row.option not in HELP
        for path in kcli_paths(row.tool, row.subcommand)
    }
    return tuple(sorted(out))


class Style(Enum):
    """How the Kafka tool parses its command line."""

    JOPT = "jopt-simple"  # kafka-configs, -acls, -reassign-partitions, -topics, the group tools
    ARGPARSE = "argparse4j"  # kafka-cluster, kafka-features, kafka-metadata-quorum, kafka-metadata-shell


_JOPT_TOOLS = frozenset(
    {
        "configs",
        "acls",
        "reassign-partitions",
        "topics",
        "consumer-groups",
        "share-groups",
        "streams-groups",
        "groups",
        "get-offsets",
    }
)
# jopt-simple options declared withOptionalArg: `--state` alone, or `--state stable,empty`.
_OPTIONAL_VALUE = frozenset(
    {
        ("consumer-groups", "--state"),
        ("consumer-groups", "--type"),
        ("share-groups", "--state"),
        ("streams-groups", "--state"),
    }
)


def optional_value(path: tuple[str, ...], option: str) -> bool:
    """Whether `option` of the kcli command at `path` takes an optional value (jopt-simple's withOptionalArg)."""
    return bool(path) and (path[0], option) in _OPTIONAL_VALUE


@cache
def _names_by_path() -> dict[tuple[str, ...], frozenset[str]]:
    names: dict[tuple[str, ...], set[str]] = {}
    for row in kafka_tool_options():
        for path in kcli_paths(row.tool, row.subcommand):
            found = names.setdefault(path, set())
            if row.option.startswith("--"):
                found.add(row.option[2:])
    return {path: frozenset(found | {"help"}) for path, found in names.items()}


def kafka_option_names(path: tuple[str, ...]) -> frozenset[str] | None:
    """The long option names (without dashes) the Kafka tool has at this kcli command, or None.

    None means the command mirrors no Kafka tool (kcli's own commands): no Kafka parsing rules apply.
    """
    return _names_by_path().get(path)


def style(path: tuple[str, ...]) -> Style | None:
    """The parsing style of the Kafka tool this command mirrors (None: a kcli-only command)."""
    if kafka_option_names(path) is None:
        return None
    return Style.JOPT if path[0] in _JOPT_TOOLS else Style.ARGPARSE
