"""The connection options: declared once (kcli/cli/connection_options.py), the same on every command,
completed by a group's flags given before the subcommand, and resolved in the mirrored tool's words."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import pytest
import typer

from kcli.cli.common import tool_group
from kcli.cli.connection_options import (
    BootstrapControllerOpt,
    BootstrapServerOpt,
    CommandConfigOpt,
    ConnectionArgs,
    ProfileOpt,
    client_config,
    connection_args,
)
from kcli.cli.docgen import root_command, walk
from kcli.env import Env
from kcli.errors import UsageError
from tests.conftest import invoke

SEEN: list[ConnectionArgs] = []
CONNECTION = ("bootstrap_server", "bootstrap_controller", "command_config", "profile")


def _group() -> typer.Typer:
    group = tool_group("grp", "A group taking connection flags before its subcommand.", connection=True)

    @group.command()
    def sub(
        ctx: typer.Context,
        before: Annotated[bool, typer.Option("--before")] = False,
        bootstrap_server: BootstrapServerOpt = None,
        bootstrap_controller: BootstrapControllerOpt = None,
        command_config: CommandConfigOpt = None,
        profile: ProfileOpt = None,
        after: Annotated[bool, typer.Option("--after")] = False,
    ) -> None:
        SEEN.append(connection_args(bootstrap_server, bootstrap_controller, command_config, profile, ctx=ctx))

    @group.command()
    def other() -> None:
        pass

    return group


def _run(*argv: str) -> ConnectionArgs:
    SEEN.clear()
    done = invoke(*argv, command=typer.main.get_command(_group()))
    assert done.code == 0, done.stderr
    (connection,) = SEEN
    return connection


def _spec(param: Any) -> tuple[Any, ...]:
    return (param.name, tuple(param.opts), param.help, param.default, param.rich_help_panel)


# Where the mirrored Kafka tool spells an option otherwise: the command, the option, and why.
DIFFERING = {
    (("kcli", "topics"), "command_config"): "kafka-topics' --config is a topic config: the file is --command-config only",
}


def test_every_networked_command_takes_the_same_connection_options_side_by_side() -> None:
    reference = {p.name: _spec(p) for p in typer.main.get_command(_group()).commands["sub"].params}  # type: ignore[attr-defined]
    networked = 0
    for doc in walk(root_command()):
        taken = [p for p in doc.command.params if getattr(p, "rich_help_panel", None) == "Connection"]
        if not taken or doc.path[:2] == ("kcli", "spark"):  # spark: a repeated --bootstrap-server per cluster
            continue
        networked += 1
        names = [p.name for p in doc.command.params]
        start = names.index(taken[0].name)
        assert names[start : start + len(taken)] == [p.name for p in taken], doc.path  # side by side
        for param in taken:
            if (doc.path, param.name) in DIFFERING:  # fewer spellings, else the same option
                spec, shared = _spec(param), reference[param.name]
                assert set(spec[1]) < set(shared[1]) and spec[3:] == shared[3:], doc.path
            else:
                assert _spec(param) == reference[param.name], doc.path
    assert networked >= 20  # cluster-id, configs, acls, reassign-partitions, cluster *, features *, ...


def test_the_command_gets_the_flags_as_one_value() -> None:
    assert _run("sub", "-b", "h:1", "-c", "client.properties", "--profile", "p", "--after") == ConnectionArgs(
        bootstrap_server="h:1", command_config=Path("client.properties"), profile="p"
    )


def test_flags_before_the_subcommand_complete_those_after_it_and_after_wins() -> None:
    assert _run("-b", "h:1", "--profile", "p", "sub", "-C", "c:2") == ConnectionArgs(
        bootstrap_server="h:1", bootstrap_controller="c:2", profile="p"
    )
    assert _run("-b", "h:1", "sub", "-b", "h:2").bootstrap_server == "h:2"


def test_a_kcli_group_s_flags_reach_its_subcommand_without_the_context_handed_over() -> None:
    # `kcli features -c FILE describe`: the subcommand finds its group's flags through kcli's root
    result = invoke("features", "-b", "127.0.0.1:1", "-c", "/nonexistent/client.properties", "describe")
    assert (result.code, result.stderr) == (
        2,
        "Error: Properties file /nonexistent/client.properties does not exist\n",
    )


def test_both_bootstrap_kinds_are_refused_in_the_tool_s_words() -> None:
    both = ConnectionArgs(bootstrap_server="h:1", bootstrap_controller="c:2")
    with pytest.raises(UsageError, match=r"^Only one, please$"):
        client_config(both, Env(), both_bootstraps="Only one, please")
