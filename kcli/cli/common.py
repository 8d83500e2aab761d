"""What every command shares: the output option, the env, running at the edge, and the error edge.

Commands parse flags (connection flags: kcli.cli.connection_options), call one async operation
through `run` (or `run_admin`), and hand the result to kcli.render.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import sys
import traceback
from collections.abc import Awaitable, Callable, Coroutine, Iterator
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
        _LEFT.clear()
        try:
            return fn(*args, **kwargs)
        except KcliError as error:
            if env.debug:
                traceback.print_exc(file=env.stderr)
            env.err(f"Error: {error.line()}")
            raise typer.Exit(int(error.exit_code)) from None
        except Interruption as interrupted:
            env.err(_interrupted_line())
            raise typer.Exit(128 + interrupted.signum) from None
        except KeyboardInterrupt:
            env.err(_interrupted_line())
            raise typer.Exit(int(ExitCode.INTERRUPTED)) from None

    return wrapper


class Interruption(KeyboardInterrupt):
    """SIGTERM or SIGHUP while a `what_is_left` block runs: handled as Ctrl-C is (exit 128 + signal)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# What an interruption leaves behind, innermost last: said after "Interrupted:" (kcli.cli.common.guarded).
_LEFT: list[str] = []


def _interrupted_line() -> str:
    return f"Interrupted: {_LEFT[-1]}" if _LEFT else "Interrupted."


@contextlib.contextmanager
def what_is_left(note: str) -> Iterator[None]:
    """While inside, Ctrl-C, SIGTERM and SIGHUP end the command with `Interrupted: NOTE` on stderr
    (what the interruption leaves and what to do about it) instead of a bare "Interrupted."."""
    import signal

    def interrupt(signum: int, _frame: object) -> None:
        raise Interruption(signum)

    import threading

    # signal handlers belong to the main thread (a command run in another thread, as tests do, keeps
    # the process's own; the note is said all the same on Ctrl-C)
    main = threading.current_thread() is threading.main_thread()
    handled = (signal.SIGTERM, signal.SIGHUP) if main else ()
    previous = {signum: signal.signal(signum, interrupt) for signum in handled}
    _LEFT.append(note)
    try:
        yield
    except Exception:
        _LEFT.pop()
        raise
    except BaseException:
        # Ctrl-C: the note stays for the edge to say; asyncio.run delivers it as the cancellation of
        # the task, so this block sees CancelledError before KeyboardInterrupt reaches the edge
        raise
    else:
        _LEFT.pop()
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def exit_with(code: int | ExitCode) -> None:
    """End the command with `code` (0 returns normally)."""
    if int(code) != 0:
        raise typer.Exit(int(code))


# The errors of a write to standard output that kcli reports as such (a full disk, a pipe whose
# reader is gone, a device error), not as a bug.
_OUTPUT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO, errno.EPIPE, errno.ENXIO})


def fail_output(error: BaseException, env: Env) -> int | None:
    """Standard output could not be written (`> /dev/full`, a full disk, `| head` gone): one line,
    exit 1, and the rest of the output discarded; None when `error` is something else."""
    if not isinstance(error, OSError) or error.filename is not None:
        return None
    if error.errno not in _OUTPUT_ERRNOS and not _flush_fails(env.stdout):
        return None
    discard_output(env.stdout)
    if error.errno != errno.EPIPE:  # the reader left on purpose (`| head`): nothing to say
        reason = error.strerror or str(error)
        env.err(f"Error: cannot write to standard output: {reason} (the output is incomplete)")
    return int(ExitCode.ERROR)


def _flush_fails(stream: Any) -> bool:
    try:
        stream.flush()
    except OSError:
        return True
    except (AttributeError, ValueError):
        return False
    return False


def discard_output(stream: Any) -> None:
    """Point the stream's descriptor at /dev/null, so the buffered rest (flushed at exit) goes
    nowhere instead of failing again; a stream without a descriptor is left alone."""
    import os

    try:
        descriptor = stream.fileno()
    except (AttributeError, OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_RDONLY)  # /dev/null takes writes whatever the open mode
    try:
        os.dup2(null, descriptor)
    finally:
        os.close(null)


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


def java_int(value: int, flag: str) -> int:
    """`value` of an integer flag that Kafka's tool parses as a Java Integer (node and broker ids).

    typer takes any size of int; the Kafka tool refuses one past Integer's range at parse time, and
    so does kcli, in the tool's words, before the value reaches a 32-bit protocol field.
    """
    from kcli.errors import UsageError

    if not -(2**31) <= value < 2**31:
        raise UsageError(
            f"argument {flag}: could not convert '{value}' to Integer (For input string: \"{value}\")"
        )
    return value


def stdin_is_tty() -> bool:
    try:
        return sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False
