"""The connection options of every networked command: declared once here, resolved once here.

A command puts a `connection: ConnectionArgs = CONNECTION` parameter where its connection options
stand in --help and is decorated with `@connection_options`: typer then sees --bootstrap-server,
--bootstrap-controller, --command-config and --profile in that place, and the command gets their
values as one ConnectionArgs, completed by those given before the subcommand (kafka-features style
groups). `client_config` turns it into the client's configuration.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from kcli.cli import completers
from kcli.errors import UsageError

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig
    from kcli.env import Env

T = TypeVar("T")

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


# The default of a command's `connection` parameter; @connection_options always replaces it.
CONNECTION = ConnectionArgs()

_OPTIONS: dict[str, Any] = {
    "bootstrap_server": BootstrapServerOpt,
    "bootstrap_controller": BootstrapControllerOpt,
    "command_config": CommandConfigOpt,
    "profile": ProfileOpt,
}
_GROUP_CONNECTION = "kcli.group_connection"


def _expanding(names: tuple[str, ...]) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """A decorator that puts the options `names` where the command has its `connection` parameter."""

    def decorate(fn: Callable[..., T]) -> Callable[..., T]:
        signature = inspect.signature(fn, eval_str=True)
        parameters = list(signature.parameters.values())
        at = [p.name for p in parameters].index("connection")
        options = [
            inspect.Parameter(name, parameters[at].kind, default=None, annotation=_OPTIONS[name])
            for name in names
        ]
        parameters[at : at + 1] = options

        @functools.wraps(fn)
        def wrapper(**kwargs: Any) -> T:  # typer passes every parameter by name
            given = ConnectionArgs(**{name: kwargs.pop(name) for name in names})
            return fn(**kwargs, connection=_completed(given))

        # typer reads the parameters from __signature__ and their types from __annotations__.
        wrapper.__signature__ = signature.replace(parameters=parameters)  # type: ignore[attr-defined]
        wrapper.__annotations__ = {p.name: p.annotation for p in parameters}
        return wrapper

    return decorate


def _completed(given: ConnectionArgs) -> ConnectionArgs:
    """A subcommand's connection flags, completed by those its group took before it (after wins)."""
    from typer._click.globals import get_current_context

    context = get_current_context(silent=True)
    group = context.meta.get(_GROUP_CONNECTION) if context is not None else None
    return given if group is None else given.merged(group)


connection_options = _expanding(tuple(_OPTIONS))
# kafka-metadata-shell reads live metadata from the controllers only.
controller_connection_options = _expanding(("bootstrap_controller", "command_config", "profile"))


@connection_options
def group_connection_options(ctx: typer.Context, connection: ConnectionArgs = CONNECTION) -> None:
    """Callback of the groups that take connection flags before the subcommand (kafka-features style).

    kcli.cli.common.tool_group(..., connection=True) registers it; the group's help stays its own.
    """
    ctx.meta[_GROUP_CONNECTION] = connection


CONFIG_DEPRECATED = "Option --config has been deprecated and will be removed in a future version. Use --command-config instead."


def client_config(
    args: ConnectionArgs,
    env: Env,
    *,
    missing_bootstrap: str | None = None,
    both_bootstraps: str | None = None,
) -> ClientConfig:
    """Resolve the connection flags with --command-config, the profile file and KCLI_* env (kcli.client.config).

    `missing_bootstrap` words the error when no source names a bootstrap address, and
    `both_bootstraps` the one when both kinds are given, as the mirrored Kafka tool does. --config
    (kafka-cluster's deprecated spelling of --command-config) warns once on stderr, and is refused
    together with --command-config, as kafka-cluster does.
    """
    from kcli.client.config import BOOTSTRAP_SOURCES, MissingBootstrap, resolve_client_config

    if both_bootstraps is not None and args.bootstrap_server and args.bootstrap_controller:
        raise UsageError(both_bootstraps)
    _check_config_spelling(env)
    try:
        # The flags' names are resolve_client_config's parameter names.
        return resolve_client_config(
            **asdict(args), environ=env.environ, config_file=env.config_file, warn=env.err
        )
    except MissingBootstrap:
        if missing_bootstrap is None:
            raise
        sentence = missing_bootstrap if missing_bootstrap.endswith(".") else f"{missing_bootstrap}."
        raise UsageError(f"{sentence} {BOOTSTRAP_SOURCES}") from None


_WARNED = "kcli.config_deprecation_warned"


def _check_config_spelling(env: Env) -> None:
    from typer._click.globals import get_current_context

    from kcli.cli.argv import parsed_line

    spelled = parsed_line().spelled
    if "--config" not in spelled:
        return
    if "--command-config" in spelled or "-c" in spelled:
        raise UsageError("--config and --command-config cannot be specified together.")
    context = get_current_context(silent=True)
    if context is not None and not context.meta.get(_WARNED):
        context.meta[_WARNED] = True
        env.err(CONFIG_DEPRECATED)
