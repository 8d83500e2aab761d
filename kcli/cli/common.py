"""What every command shares: connection and output options, the env, and the error edge.

Commands parse flags, call one async operation through `run`, and hand the result to kcli.render.
"""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from kcli.cli import completers
from kcli.env import Env
from kcli.errors import ExitCode, KcliError, UsageError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.config import ClientConfig

P = ParamSpec("P")
T = TypeVar("T")

# Connection options, the same on every networked command (KIP-919: exactly one bootstrap kind).
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
OutputOpt = Annotated[
    OutputFormat,
    typer.Option("--output", "-o", help="Output format: text (Kafka tool lines), table or json."),
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


CONFIG_DEPRECATED = "Option --config has been deprecated and will be removed in a future version. Use --command-config instead."


def client_config(args: ConnectionArgs, env: Env, *, missing_bootstrap: str | None = None) -> ClientConfig:
    """Resolve the connection flags with --command-config, the profile file and KCLI_* env (kcli.client.config).

    `missing_bootstrap` words the error when no source names a bootstrap address, as the mirrored
    Kafka tool does. --config (kafka-cluster's deprecated spelling of --command-config) warns once
    on stderr, and is refused together with --command-config, as kafka-cluster does.
    """
    from kcli.client.config import BOOTSTRAP_SOURCES, MissingBootstrap, resolve_client_config

    _check_config_spelling(env)
    try:
        return resolve_client_config(
            bootstrap_server=args.bootstrap_server,
            bootstrap_controller=args.bootstrap_controller,
            command_config=args.command_config,
            profile=args.profile,
            environ=env.environ,
            config_file=env.config_file,
            warn=env.err,
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


_GROUP_CONNECTION = "kcli.group_connection"


def group_connection_options(
    ctx: typer.Context,
    bootstrap_server: BootstrapServerOpt = None,
    bootstrap_controller: BootstrapControllerOpt = None,
    command_config: CommandConfigOpt = None,
    profile: ProfileOpt = None,
) -> None:
    """Callback of the groups that take connection flags before the subcommand (kafka-features style).

    Register with `app.callback()(group_connection_options)`; the group's Typer(help=...) stays its help.
    """
    ctx.meta[_GROUP_CONNECTION] = ConnectionArgs(
        bootstrap_server=bootstrap_server,
        bootstrap_controller=bootstrap_controller,
        command_config=command_config,
        profile=profile,
    )


def connection_args(
    ctx: typer.Context,
    bootstrap_server: str | None,
    bootstrap_controller: str | None,
    command_config: Path | None,
    profile: str | None,
) -> ConnectionArgs:
    """The subcommand's connection flags, completed by those given before it (after wins)."""
    local = ConnectionArgs(
        bootstrap_server=bootstrap_server,
        bootstrap_controller=bootstrap_controller,
        command_config=command_config,
        profile=profile,
    )
    return local.merged(ctx.meta.get(_GROUP_CONNECTION, ConnectionArgs()))


def env_of(ctx: typer.Context | None = None) -> Env:
    """The Env of this invocation: the root context's obj (tests pass their own), else the process."""
    from typer._click.globals import get_current_context

    context = ctx or get_current_context(silent=True)
    root = context.find_root() if context is not None else None
    if root is not None and isinstance(root.obj, Env):
        return root.obj
    env = Env()
    if root is not None:
        root.obj = env
    return env


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run one async operation to completion at the CLI edge."""
    import asyncio  # lazily: commands that never touch the network skip its import cost

    # The result is handed over outside the main task: asyncio.run's clean-up reprs that task
    # (Python 3.11 signal handling), and the repr of a task includes its result, which for a
    # large describe costs seconds.
    box: list[T] = []

    async def main() -> None:
        box.append(await coro)

    asyncio.run(main())
    return box[0]


def guarded(fn: Callable[P, T]) -> Callable[P, T]:
    """The error edge of a command: a KcliError becomes one stderr line and its exit code.

    Ctrl-C exits 130. Tracebacks only with --debug (or KCLI_DEBUG=1).
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> T:
        env = env_of()
        try:
            return fn(*args, **kwargs)
        except KcliError as error:
            if env.debug:
                traceback.print_exc(file=env.stderr)
            env.err(f"Error: {error.line()}")
            raise typer.Exit(int(error.exit_code)) from None
        except KeyboardInterrupt:
            env.err("Interrupted.")
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

    return wrapper


def exit_with(code: int | ExitCode) -> None:
    """End the command with `code` (0 returns normally)."""
    if int(code) != 0:
        raise typer.Exit(int(code))


def fail_internal(error: BaseException, env: Env) -> int:
    """Last resort at the console edge: an unexpected exception is still one line (bug report hint)."""
    if env.debug:
        traceback.print_exception(error, file=env.stderr)
    else:
        env.err(
            f"Error: unexpected {type(error).__name__}: {error} "
            "(this is a bug in kcli; run with --debug for the traceback)"
        )
    return int(ExitCode.ERROR)


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
