"""@connection_options: the connection flags stand where a command puts its `connection` parameter."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import pytest
import typer
from typer.testing import CliRunner

from kcli.cli.common import tool_group
from kcli.cli.connection_options import CONNECTION, ConnectionArgs, client_config, connection_options
from kcli.env import Env
from kcli.errors import UsageError

SEEN: list[ConnectionArgs] = []


def _group() -> typer.Typer:
    group = tool_group("grp", "A group taking connection flags before its subcommand.", connection=True)

    @group.command()
    @connection_options
    def sub(
        before: Annotated[bool, typer.Option("--before")] = False,
        connection: ConnectionArgs = CONNECTION,
        after: Annotated[bool, typer.Option("--after")] = False,
    ) -> None:
        SEEN.append(connection)

    @group.command()
    def other() -> None:
        pass

    return group


def _run(*argv: str) -> ConnectionArgs:
    SEEN.clear()
    done = CliRunner().invoke(_group(), list(argv))
    assert done.exit_code == 0, done.output
    (connection,) = SEEN
    return connection


def test_the_options_stand_in_place_of_the_connection_parameter() -> None:
    command = typer.main.get_command(_group()).commands["sub"]  # type: ignore[attr-defined]
    assert [p.name for p in command.params] == [
        "before",
        "bootstrap_server",
        "bootstrap_controller",
        "command_config",
        "profile",
        "after",
    ]


def test_the_command_gets_the_flags_as_one_value() -> None:
    assert _run("sub", "-b", "h:1", "-c", "client.properties", "--profile", "p", "--after") == ConnectionArgs(
        bootstrap_server="h:1", command_config=Path("client.properties"), profile="p"
    )


def test_flags_before_the_subcommand_complete_those_after_it_and_after_wins() -> None:
    assert _run("-b", "h:1", "--profile", "p", "sub", "-C", "c:2") == ConnectionArgs(
        bootstrap_server="h:1", bootstrap_controller="c:2", profile="p"
    )
    assert _run("-b", "h:1", "sub", "-b", "h:2").bootstrap_server == "h:2"


def test_both_bootstrap_kinds_are_refused_in_the_tool_s_words() -> None:
    both = ConnectionArgs(bootstrap_server="h:1", bootstrap_controller="c:2")
    with pytest.raises(UsageError, match=r"^Only one, please$"):
        client_config(both, Env(), both_bootstraps="Only one, please")
