"""The connection options of every networked command: declared once here, resolved once here.

A command lists the options where they stand in its --help, as plain typer parameters of these
types (BootstrapServerOpt, BootstrapControllerOpt, CommandConfigOpt, ProfileOpt), and turns their
values into one ConnectionArgs with `connection_args`, which completes them with those given before
the subcommand (kafka-features style groups). `client_config` turns that into the client's
configuration.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from kcli.cli import completers
from kcli.errors import UsageError

if TYPE_CHECKING:
    from collections.abc import Callable

    from kcli.client.config import ClientConfig
    from kcli.env import Env

# KIP-919: a client bootstraps from brokers or from controllers, exactly one of the two.
BootstrapServerOpt = Annotated[
    str | None,
    typer.Option(
        "--bootstrap-server",
        "-b",
        help="Brokers to bootstrap from: HOST:PORT[,HOST:PORT...].",
        rich_help_panel="Connection",
    ),
]
BootstrapControllerOpt = Annotated[
    str | None,
    typer.Option(
        "--bootstrap-controller",
        "-C",
        help="KRaft controllers to bootstrap from (KIP-919): [ID@]HOST:PORT[,...].",
        rich_help_panel="Connection",
    ),
]
CommandConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--command-config",
        "--config",
        "-c",
        help="Client .properties file (security, timeouts, ...), as the Kafka tools take it.",
        rich_help_panel="Connection",
    ),
]
ProfileOpt = Annotated[
    str | None,
    typer.Option(
        "--profile",
        help="Profile from the kcli config file.",
        rich_help_panel="Connection",
        autocompletion=completers.profile_names,
    ),
]

# For the tools Kafka gives no --bootstrap-controller (kafka-topics, kafka-log-dirs, ...): taken only to be
# refused with a reason, hidden so never suggested; listed after the connection options.
NoControllerOpt = Annotated[str | None, typer.Option("--bootstrap-controller", "-C", hidden=True)]


@dataclass(frozen=True, slots=True, kw_only=True)
class ConnectionArgs:
    """The connection flags as given on the command line (resolved by kcli.client.config)."""

    bootstrap_server: str | None = None
    bootstrap_controller: str | None = None
    command_config: Path | None = None
    profile: str | None = None

    def merged(self, other: ConnectionArgs) -> ConnectionArgs:
        """Flags given after a subcommand win over those given before it."""
        return ConnectionArgs(
            bootstrap_server=self.bootstrap_server or other.bootstrap_server,
            bootstrap_controller=self.bootstrap_controller or other.bootstrap_controller,
            command_config=self.command_config or other.command_config,
            profile=self.profile or other.profile,
        )


_GROUP_CONNECTION = "kcli.group_connection"


def connection_args(
    bootstrap_server: str | None = None,
    bootstrap_controller: str | None = None,
    command_config: Path | None = None,
    profile: str | None = None,
    *,
    ctx: typer.Context | None = None,
) -> ConnectionArgs:
    """A command's connection flags, completed by those its group took before it (after wins)."""
    from kcli.cli.argv import invocation

    given = ConnectionArgs(
        bootstrap_server=bootstrap_server,
        bootstrap_controller=bootstrap_controller,
        command_config=command_config,
        profile=profile,
    )
    context = ctx or invocation()
    group = context.meta.get(_GROUP_CONNECTION) if context is not None else None
    return given if group is None else given.merged(group)


def group_connection_options(
    ctx: typer.Context,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Callback of the groups that take connection flags before the subcommand (kafka-features style).

    kcli.cli.common.tool_group(..., connection=True) registers it; the group's help stays its own.
    """
    ctx.meta[_GROUP_CONNECTION] = ConnectionArgs(
        bootstrap_server=bootstrap_server,
        bootstrap_controller=bootstrap_controller,
        command_config=command_config,
        profile=profile,
    )


CONFIG_DEPRECATED = "Option --config has been deprecated and will be removed in a future version. Use --command-config instead."


def client_config(
    args: ConnectionArgs,
    env: Env,
    *,
    missing_bootstrap: str | None = None,
    both_bootstraps: str | None = None,
    config_alias: bool = True,
) -> ClientConfig:
    """Resolve the connection flags with --command-config, the profile file and KCLI_* env (kcli.client.config).

    `missing_bootstrap` words the error when no source names a bootstrap address, and
    `both_bootstraps` the one when both kinds are given, as the mirrored Kafka tool does. --config
    (kafka-cluster's deprecated spelling of --command-config) warns once on stderr, and is refused
    together with --command-config, as kafka-cluster does; `config_alias=False` for a tool whose
    --config is an option of its own (kafka-topics: a topic config).
    """
    from kcli.client.config import BOOTSTRAP_SOURCES, MissingBootstrap, resolve_client_config

    if both_bootstraps is not None and args.bootstrap_server and args.bootstrap_controller:
        raise UsageError(both_bootstraps)
    if config_alias:
        _check_config_spelling(env)
    try:
        # The flags' names are resolve_client_config's parameter names.
        config = resolve_client_config(
            **asdict(args), environ=env.environ, config_file=env.config_file, warn=env.err
        )
    except MissingBootstrap:
        if missing_bootstrap is None:
            raise
        sentence = missing_bootstrap if missing_bootstrap.endswith(".") else f"{missing_bootstrap}."
        raise UsageError(f"{sentence} {BOOTSTRAP_SOURCES}") from None
    return replace(config, trace=_stamped(env.err)) if env.debug else config


def _stamped(err: Callable[[str], None]) -> Callable[[str], None]:
    """--debug's sink: each line after the milliseconds since kcli started (start-up shows as the first)."""
    import time

    from kcli.cli.clock import STARTED

    return lambda line: err(f"[{(time.monotonic() - STARTED) * 1000:7.1f} ms] {line}")


_WARNED = "kcli.config_deprecation_warned"


def _check_config_spelling(env: Env) -> None:
    from kcli.cli.argv import invocation, parsed_line

    spelled = parsed_line().spelled
    if "--config" not in spelled:
        return
    if "--command-config" in spelled or "-c" in spelled:
        raise UsageError("--config and --command-config cannot be specified together.")
    context = invocation()
    if context is not None and not context.meta.get(_WARNED):
        context.meta[_WARNED] = True
        env.err(CONFIG_DEPRECATED)
