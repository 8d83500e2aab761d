"""`sandbox up` of the emulator: its process in the background (--detach) or in the foreground.

The emulator runs as one Python process holding every node (kcli.sandbox.emulator.control.run_cluster).
`up --detach` starts that process (`kcli sandbox up --daemon`, with the flags it was resolved to) and
waits for its sandbox.json; the foreground `up` runs it in this process until Ctrl-C, SIGTERM or
`sandbox down`, telling the caller when it is ready and, every half second, how it is.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from kcli.errors import UsageError
from kcli.sandbox.emulator.control import (
    SandboxControlError,
    SandboxInfo,
    read_info,
    state_file,
    wait_for_info,
)
from kcli.sandbox.engine import Running, SandboxStatus
from kcli.sandbox.settings import SandboxSettings

READY_TIMEOUT_S = 60.0
TICK_S = 0.5
log = logging.getLogger("kcli.sandbox")


class EmulatorLauncher:
    """Starts the emulator's sandbox in a directory."""

    ticks = True  # the live panel of a foreground `up` follows the cluster every half second

    def check_flags(
        self, *, combined: bool, server_config: bool, release_version: str | None, records: bool
    ) -> None:
        if combined:
            raise UsageError("--combined needs --kafka-home: the emulator runs its controllers and brokers apart")
        if server_config:
            raise UsageError("--server-config needs --kafka-home: the emulator has no server.properties")
        from kcli.sandbox.emulator.features import release_level

        try:
            release_level(release_version)  # real Kafka's StorageTool judges its own release versions
        except ValueError as error:
            raise UsageError(f"--release-version: {error}") from None

    def refuse_running(self, directory: Path, *, hint: str) -> None:
        """SandboxControlError when DIR's emulator runs; a stale sandbox.json is removed."""
        if not state_file(directory).exists():
            return
        try:
            info = read_info(directory)
        except SandboxControlError:
            state_file(directory).unlink()  # stale: its process is gone
            return
        raise SandboxControlError(f"a sandbox is already running in {directory} (pid {info.pid})", hint=hint)

    def up_detached(self, settings: SandboxSettings, *, created: bool, progress: Callable[[str], None]) -> Running:
        """Start the emulator's process and return once its sandbox.json says it is ready."""
        path = settings.directory
        path.mkdir(parents=True, exist_ok=True)
        from kcli.sandbox.dirlock import held_descriptor

        lock = held_descriptor(path)  # the emulator's process holds DIR's lock as long as it serves
        with open(path / "sandbox.log", "ab") as out:
            process = subprocess.Popen(
                [sys.executable, "-m", "kcli", "sandbox", "up", "--dir", str(path), "--daemon", *_flags(settings)],
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=out,
                start_new_session=True,
                close_fds=True,
                pass_fds=() if lock is None else (lock,),
            )
        try:
            info = wait_for_info(path, process.pid, timeout=READY_TIMEOUT_S, alive=lambda: process.poll() is None)
        except BaseException:  # it died, was not ready in time, or Ctrl-C: nothing is left running unseen
            _stop_starting(process)
            if created:
                shutil.rmtree(path, ignore_errors=True)  # the failed start leaves nothing behind
            raise
        from kcli.sandbox.emulator.engine import EmulatorEngine

        return _running(info, EmulatorEngine(path).status())

    def up_foreground(
        self,
        settings: SandboxSettings,
        *,
        created: bool,
        log_stream: TextIO,
        on_ready: Callable[[Running], None] | None,
        on_tick: Callable[[SandboxStatus], None] | None = None,
        progress: Callable[[str], None] = lambda _line: None,
    ) -> str | None:
        """Run the emulator here until Ctrl-C, SIGTERM or `sandbox down`; who stopped it (None: not said).

        `on_ready` is told once every listener accepts (None: the daemon, which logs a ready line),
        `on_tick` every half second afterwards.
        """
        from kcli.sandbox.emulator.control import run_cluster

        path = settings.directory
        path.mkdir(parents=True, exist_ok=True)
        logging.basicConfig(
            level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s", stream=log_stream
        )
        started: list[Any] = []  # the cluster, once it is ready
        tasks: set[asyncio.Task[None]] = set()

        async def main() -> None:
            stop = asyncio.Event()
            loop = asyncio.get_running_loop()
            for signum, name in ((signal.SIGTERM, "SIGTERM"), (signal.SIGINT, "Ctrl-C")):
                loop.add_signal_handler(signum, _stopper(stop, started, name))

            async def ready(cluster: Any, info: SandboxInfo) -> None:
                started.append(cluster)
                if on_ready is None:
                    log.info("sandbox %s ready (pid %d)", cluster.cluster_id, info.pid)
                    return
                on_ready(_running(info, _status(cluster).placed(directory=path, pid=info.pid)))
                if on_tick is not None:
                    task = loop.create_task(_ticks(cluster, stop, on_tick))
                    tasks.add(task)
                    task.add_done_callback(tasks.discard)

            await run_cluster(settings, stop=stop, on_ready=ready)

        try:
            asyncio.run(main())
        except BaseException:
            if created and not started:
                shutil.rmtree(path, ignore_errors=True)  # a failed start (a port in use, ...) leaves nothing
            raise
        return started[0].stopped_by if started else None


def _status(cluster: Any) -> SandboxStatus:
    return SandboxStatus.from_json(cluster.status())


def _running(info: SandboxInfo, status: SandboxStatus) -> Running:
    return Running(
        directory=info.directory,
        cluster_id=info.cluster_id,
        pid=info.pid,
        bootstrap_servers=info.bootstrap_servers,
        security=info.security,
        users=dict(info.users),
        notes=info.notes,
        status=status,
    )


def _flags(settings: SandboxSettings) -> list[str]:
    """The `up` flags of `settings` for the emulator's own process (it gets what its parent resolved)."""
    flags = [
        f"--controllers={settings.controllers}",
        f"--brokers={settings.brokers}",
        f"--base-port={settings.base_port}",
        f"--security={settings.security.value}",
        "--authorizer" if settings.authorizer else "--no-authorizer",
        f"--topics={settings.topics}",
        f"--partitions={settings.partitions}",
        f"--log-dirs={settings.log_dirs}",
        f"--records-per-partition={settings.records_per_partition}",
        f"--compression={settings.compression}",
    ]
    if settings.cluster_id is not None:
        flags.append(f"--cluster-id={settings.cluster_id}")
    if settings.racks:
        flags.append(f"--racks={','.join(settings.racks)}")
    if settings.release_version is not None:
        flags.append(f"--release-version={settings.release_version}")
    return flags


def _stopper(stop: asyncio.Event, started: list[Any], name: str) -> Callable[[], None]:
    def handler() -> None:
        if started and started[0].stopped_by is None:
            started[0].stopped_by = name
        stop.set()

    return handler


async def _ticks(cluster: Any, stop: asyncio.Event, on_tick: Callable[[SandboxStatus], None]) -> None:
    while not stop.is_set():
        await asyncio.sleep(TICK_S)
        on_tick(_status(cluster))


def _stop_starting(process: subprocess.Popen[bytes]) -> None:
    """Stop the emulator's process this `up` started and has not seen ready (SIGTERM, then SIGKILL)."""
    from kcli.processes import kill_child, signal_child

    if not signal_child(process, signal.SIGTERM):
        return
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        kill_child(process)
        process.wait(timeout=10)
