"""What the commands of `kcli sandbox` share, whatever the engine: --dir, a fault command's body, how a
sandbox is shown (its status, how to reach it, its live view)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from kcli.cli.common import env_of
from kcli.errors import UsageError
from kcli.render import OutputFormat, emit
from kcli.sandbox.engine import Running, SandboxStatus

DirOpt = Annotated[
    Path | None,
    typer.Option("--dir", help="Sandbox directory (default: $KCLI_SANDBOX_DIR or ./.kcli-sandbox)."),
]


def directory_of(given: Path | None) -> Path:
    """--dir, else $KCLI_SANDBOX_DIR, else ./.kcli-sandbox."""
    if given is not None:
        return given
    return Path(env_of().environ.get("KCLI_SANDBOX_DIR", ".kcli-sandbox"))


def resolved_directory(given: Path | None, *, what: str = "sandbox directory", option: str = "--dir") -> Path:
    """directory_of(given), absolute and with its links followed (a link that loops is a usage error)."""
    path = directory_of(given)
    try:
        return path.resolve()
    except (RuntimeError, OSError) as error:  # RuntimeError: pathlib's word for ELOOP
        raise UsageError(
            f"{what} {path} cannot be used: {_loop_words(error)}",
            hint=f"give {option} a directory",
        ) from None


def _loop_words(error: BaseException) -> str:
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return "it is a symbolic link that loops back on itself"


def run_fault(method: str, directory: Path | None, output: OutputFormat, **given: Any) -> None:
    """A fault command's body: open the engine of DIR, call one fault method of its interface, render."""
    from kcli.sandbox.engine import NotSupported
    from kcli.sandbox.opening import open_engine

    engine = open_engine(directory_of(directory), progress=env_of().err)
    result = getattr(engine, method)(**given)
    if isinstance(result, NotSupported):
        raise UsageError(result.line(), hint=result.hint)
    emit(env_of(), output, result, text=lambda r: [r.line()], json_value=lambda r: r.to_json())


def emit_status(status: SandboxStatus, output: OutputFormat) -> None:
    from kcli.sandbox.status import status_lines, status_panel

    emit(
        env_of(),
        output,
        status,
        text=lambda s: list(status_lines(s)),
        json_value=lambda s: s.to_json(),
        table=status_panel,
    )


def quoted(path: Path) -> str:
    import shlex

    return shlex.quote(str(path))


def announce(path: Path, running: Running, profile: str | None, *, detached: bool) -> None:
    """Tell the operator (on stderr) how to stop the sandbox and how plain kcli commands reach it."""
    env = env_of()
    if detached:
        env.err(f"Stop it with: kcli sandbox down --dir {quoted(path)}")
    else:
        process = f" (pid {running.pid})" if running.pid else ""
        env.err(
            f"Sandbox {running.cluster_id} is running in {path}{process}. "
            f"Stop it with Ctrl-C or: kcli sandbox down --dir {quoted(path)}"
        )
    settings = client_settings(path, running)
    env.err(f"export KCLI_BOOTSTRAP_SERVER={running.bootstrap_servers}")
    if settings:
        from kcli.sandbox.clientconfig import write_properties

        properties = write_properties(path / "client-admin.properties", settings)
        env.err(f"export KCLI_COMMAND_CONFIG={quoted(properties)}")
    if profile is not None:
        from kcli.workflows.profiles import add_profile, use_profile

        add_profile(
            env.config_file, profile, {"bootstrap.servers": running.bootstrap_servers, **settings}, replace=True
        )
        use_profile(env.config_file, profile)
        env.err(
            f"Profile {profile!r} in {env.config_file} now reaches this sandbox and is the default: "
            "plain `kcli cluster-id` works."
        )


def client_settings(path: Path, running: Running) -> dict[str, str]:
    from kcli.sandbox.clientconfig import client_settings
    from kcli.sandbox.settings import Security

    settings = client_settings(path, Security(running.security), dict(running.users))
    if settings == {"security.protocol": "PLAINTEXT"}:
        return {}
    return settings


class ForegroundView:
    """What a foreground `up` shows: how to reach the sandbox once it is ready, then its status, live
    on a terminal (a panel redrawn at each tick) or once as lines."""

    def __init__(self, path: Path, profile: str | None, output: OutputFormat, *, live: bool) -> None:
        self.path = path
        self.profile = profile
        self.output = output
        self.live = live
        self.running: Running | None = None
        self._panel: Any = None

    def ready(self, running: Running) -> None:
        from kcli.render import console

        self.running = running
        announce(self.path, running, self.profile, detached=False)
        env = env_of()
        # The live panel redraws in place, which needs a terminal console: with NO_COLOR (a plain
        # console) rich would hold every frame back until exit, so print the status lines instead.
        if self.live and self.output is not OutputFormat.json and console(env).is_terminal:
            from rich.live import Live

            from kcli.sandbox.status import status_panel

            self._panel = Live(status_panel(running.status), console=console(env), refresh_per_second=2)
            self._panel.start()
        else:
            emit_status(running.status, self.output)

    def tick(self, status: SandboxStatus) -> None:
        if self._panel is not None:
            from kcli.sandbox.status import status_panel

            self._panel.update(status_panel(status))

    def close(self) -> None:
        if self._panel is not None:
            self._panel.stop()
            self._panel = None
