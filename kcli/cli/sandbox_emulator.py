"""`kcli sandbox` on the emulator: its process in the background (--detach) or in the foreground.

The emulator runs as one Python process holding every node (kcli.sandbox.emulator.control.run_cluster); `up
--detach` starts that process with --daemon and waits for its sandbox.json, the foreground `up` runs it
here with a live status panel until Ctrl-C or `sandbox down`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kcli.cli.common import env_of
from kcli.cli.sandbox_common import announce, emit_status
from kcli.render import OutputFormat


def spawn(path: Path, options: dict[str, Any], *, created: bool) -> Any:
    """Start the emulator's process for `options` (the resolved `up` flags) and wait for its sandbox.json."""
    import subprocess
    import sys

    from kcli.sandbox.emulator.control import SandboxControlError, wait_for_info

    path.mkdir(parents=True, exist_ok=True)
    argv = [sys.executable, "-m", "kcli", "sandbox", "up", "--dir", str(path), "--daemon"]
    for key, value in options.items():
        if key in ("kafka_home", "combined"):
            continue  # real Kafka's options: the emulator's process never gets them
        flag = "--" + key.replace("_", "-")
        if isinstance(value, bool):
            argv.append(flag if value else "--no-" + key.replace("_", "-"))
        elif value is not None:
            argv += [flag, str(value)]
    with open(path / "sandbox.log", "ab") as log:
        process = subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True, close_fds=True
        )
    try:
        return wait_for_info(path, process.pid, timeout=60.0, alive=lambda: process.poll() is None)
    except SandboxControlError:
        if created and process.poll() is not None:
            _remove_new(path)  # the failed start leaves nothing behind
        raise


def _remove_new(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


def status_of(info: Any) -> dict[str, Any]:
    from kcli.sandbox.emulator.control import send

    status: dict[str, Any] = send(info, "status")
    return {**status, "pid": info.pid, "directory": str(info.directory)}


def foreground(
    path: Path,
    settings: Any,
    *,
    daemon: bool,
    output: OutputFormat,
    profile: str | None = None,
    created: bool = False,
) -> None:
    import asyncio
    import logging
    import signal

    from kcli.render import console
    from kcli.sandbox.emulator.control import run_cluster

    env = env_of()
    path.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=env.stderr,
    )
    started: list[Any] = []  # the cluster, once it is ready

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for signum, name in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")):
            loop.add_signal_handler(signum, _stopper(stop, started, name))

        async def ready(cluster: Any, info: Any) -> None:
            started.append(cluster)
            if daemon:
                logging.getLogger("kcli.sandbox").info(
                    "sandbox %s ready (pid %d)", cluster.cluster_id, info.pid
                )
                return
            announce(path, info, profile, detached=False)
            # The live panel redraws in place, which needs a terminal console: with NO_COLOR (a plain
            # console) rich would hold every frame back until exit, so print the status lines instead.
            if output is not OutputFormat.json and console(env).is_terminal:
                asyncio.get_running_loop().create_task(_live_panel(cluster, stop))
            else:
                emit_status({**cluster.status(), "pid": info.pid, "directory": str(path)}, output)

        await run_cluster(settings, stop=stop, on_ready=ready)

    try:
        asyncio.run(main())
    except BaseException:
        if created and not started:
            _remove_new(path)  # a start that failed (a port in use, ...) leaves no new directory behind
        raise
    if started and not daemon:
        cluster = started[0]
        by = f" by {cluster.stopped_by}" if cluster.stopped_by else ""
        env.err(f"Sandbox {cluster.cluster_id} in {path} stopped{by}.")


def _stopper(stop: Any, started: list[Any], name: str) -> Any:
    def handler() -> None:
        if started and started[0].stopped_by is None:
            started[0].stopped_by = name
        stop.set()

    return handler


async def _live_panel(cluster: Any, stop: Any) -> None:
    import asyncio

    from rich.live import Live

    from kcli.render import console
    from kcli.sandbox.status import status_panel

    with Live(status_panel(cluster.status()), console=console(env_of()), refresh_per_second=2) as live:
        while not stop.is_set():
            await asyncio.sleep(0.5)
            live.update(status_panel(cluster.status()))
