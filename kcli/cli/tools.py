"""The registry of kcli's tools: each tool's command word, module and one-line summary.

The root knows every tool from this table without importing its module: a tool module pulls its
typer option declarations and helpers, so `kcli configs ...` imports kcli.cli.configs alone and
`kcli --help` imports none. A tool's click command is built when first looked up (invoking it, its
--help, or the help and completion that list every command), exactly as it would have been with
every tool registered up front. tests/test_cli_tools.py keeps each summary equal to the tool's help.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any, NamedTuple

from kcli.cli.summaries import WholeSummaryGroup, summary


class Tool(NamedTuple):  # a NamedTuple: a dataclass would add ~0.7 ms to every start
    name: str  # the command word after `kcli`
    module: str  # the module whose register(app) declares the command
    summary: str  # its summary as `kcli --help` lists it (kcli/cli/summaries.py)


# In the order of `kcli --help`.
TOOLS: tuple[Tool, ...] = (
    Tool(
        "cluster-id",
        "kcli.cli.cluster_id",
        "Print the cluster id (like kafka-cluster.sh cluster-id), from brokers or controllers.",
    ),
    Tool(
        "configs",
        "kcli.cli.configs",
        "Describe, alter or compare configs of topics, brokers, loggers, users, clients, ips, groups "
        "(kafka-configs.sh).",
    ),
    Tool("acls", "kcli.cli.acls", "Add, remove, list, export or import ACLs (kafka-acls.sh)."),
    Tool(
        "metadata-shell",
        "kcli.cli.metadata_shell",
        "Browse KRaft metadata as kafka-metadata-shell does: interactively, one command, or a script "
        "on stdin.",
    ),
    Tool(
        "topics",
        "kcli.cli.topics",
        "List and describe topics (like kafka-topics.sh --list / --describe; read only).",
    ),
    Tool(
        "consumer-groups",
        "kcli.cli.consumer_groups",
        "List, describe, delete consumer groups and reset their offsets (kafka-consumer-groups.sh).",
    ),
    Tool(
        "share-groups",
        "kcli.cli.share_groups",
        "List, describe, delete share groups and reset their offsets (kafka-share-groups.sh).",
    ),
    Tool(
        "streams-groups",
        "kcli.cli.streams_groups",
        "List, describe, delete streams groups and reset their offsets (kafka-streams-groups.sh).",
    ),
    Tool(
        "groups",
        "kcli.cli.groups",
        "List the groups of every type: consumer, classic, share, streams (kafka-groups.sh).",
    ),
    Tool(
        "get-offsets",
        "kcli.cli.get_offsets",
        "Print the offsets of partitions at a time: latest, earliest, ... (kafka-get-offsets.sh).",
    ),
    Tool(
        "reassign-partitions",
        "kcli.cli.reassign",
        "Move partition replicas between brokers (like kafka-reassign-partitions.sh).",
    ),
    Tool("cluster", "kcli.cli.cluster", "Cluster-wide operations (kafka-cluster.sh) and the cluster doctor."),
    Tool("features", "kcli.cli.features", "Describe and change cluster feature levels (kafka-features.sh)."),
    Tool(
        "metadata-quorum",
        "kcli.cli.metadata_quorum",
        "Describe and change the KRaft metadata quorum (kafka-metadata-quorum.sh).",
    ),
    Tool(
        "sandbox",
        "kcli.cli.sandbox",
        "A KRaft cluster on loopback for rehearsing runbooks and tests: the emulator (not Kafka; real wire "
        "protocol, real metadata log, fault injection) or real Kafka nodes (--kafka-home).",
    ),
    Tool(
        "spark",
        "kcli.cli.spark",
        "Fleet audits as PySpark jobs: collect cluster snapshots, audit them against rules.",
    ),
    Tool(
        "profile",
        "kcli.cli.profile",
        "Manage connection profiles in ~/.config/kcli/config.toml (or $KCLI_CONFIG).",
    ),
    Tool(
        "completion",
        "kcli.cli.completion",
        "Shell completion for bash, zsh and fish: print the script, or install it for your shell.",
    ),
)


def tool_command(tool: Tool) -> Any:
    """The click command of `tool`: its module registered on an app of its own (typer converts each
    command on its own), with the examples the root gives every command."""
    import typer

    from kcli.cli.examples import attach_examples

    holder = typer.Typer(add_completion=False)
    holder.callback()(_holding)  # with a callback, typer makes the holder a group of the tool's command
    importlib.import_module(tool.module).register(holder)
    command = typer.main.get_command(holder).commands[tool.name]  # type: ignore[attr-defined]
    attach_examples(command, (tool.name,))
    return command


def _holding() -> None:
    """The holder's callback: never invoked (only the tool's command is taken from it)."""


class LazyCommands(MutableMapping[str, Any]):
    """A group's commands by name: the tools of TOOLS first, each built on its first lookup, then any
    command added directly. Iterating and `in` never build one."""

    def __init__(self, commands: MutableMapping[str, Any]) -> None:
        self._tools = {tool.name: tool for tool in TOOLS}
        self._built: dict[str, Any] = dict(commands)

    def __getitem__(self, name: str) -> Any:
        if name not in self._built:
            self._built[name] = tool_command(self._tools[name])
        return self._built[name]

    def __setitem__(self, name: str, command: Any) -> None:
        self._built[name] = command

    def __delitem__(self, name: str) -> None:
        if name not in self:
            raise KeyError(name)
        self._tools.pop(name, None)
        self._built.pop(name, None)

    def __contains__(self, name: object) -> bool:
        return name in self._tools or name in self._built

    def __iter__(self) -> Iterator[str]:
        yield from self._tools
        yield from (name for name in self._built if name not in self._tools)

    def __len__(self) -> int:
        return len(self._tools) + sum(1 for name in self._built if name not in self._tools)

    def summary_of(self, name: str) -> str | None:
        """The summary of a command from the table while it is not built, else from its help; None
        when the command is hidden."""
        if name in self._tools and name not in self._built:
            return self._tools[name].summary
        command = self[name]
        return None if command.hidden else summary(command)


class ToolGroup(WholeSummaryGroup):
    """A group whose commands are the tools of TOOLS, each imported when first needed."""

    commands: LazyCommands

    def __init__(self, **attrs: Any) -> None:
        super().__init__(**attrs)
        self.commands = LazyCommands(self.commands)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.commands)  # TyperGroup's reads every value, which would build every tool

    def summary_rows(self, ctx: Any) -> list[tuple[str, str]]:
        rows = ((name, self.commands.summary_of(name)) for name in self.list_commands(ctx))
        return [(name, text) for name, text in rows if text is not None]
