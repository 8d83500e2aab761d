"""What every command shares: the output option, the env, running at the edge, and the error edge.

Commands parse flags (connection flags: kcli.cli.connection_options), call one async operation
through `run` (or `run_admin`), and hand the result to kcli.render.
"""

from __future__ import annotations

import functools
import sys
import traceback
from collections.abc import Awaitable, Callable, Coroutine
from typing import TYPE_CHECKING, Annotated, Any, ParamSpec, TypeVar

import typer

from kcli.cli.argv import env_of as env_of  # the invocation's Env: every command asks for it here
from kcli.env import Env
from kcli.errors import ExitCode, KcliError
from kcli.render import OutputFormat

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig

P = ParamSpec("P")
T = TypeVar("T")

OutputOpt = Annotated[
    OutputFormat,
    typer.Option("--output", "-o", help="Output format: text (Kafka tool lines), table or json."),
]


def tool_group(name: str, help: str, *, connection: bool = False) -> typer.Typer:
    """The typer group of a tool with subcommands (no arguments shows its help).

    `connection`: the group also takes the connection options before the subcommand, as
    kafka-features.sh does; connection_args completes each subcommand's flags with them.
    """
    from kcli.cli.summaries import WholeSummaryGroup

    group = typer.Typer(name=name, help=help, no_args_is_help=True, cls=WholeSummaryGroup)
    if connection:
        from kcli.cli.connection_options import group_connection_options

        group.callback()(group_connection_options)
    return group


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


def run_admin(config: ClientConfig, call: Callable[[Admin], Awaitable[T]]) -> T:
    """Run `call` with an Admin client connected with `config`, closing it after: most commands' body."""
    from kcli.client.admin import Admin

    async def go() -> T:
        async with Admin(config) as admin:
            return await call(admin)

    return run(go())


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
