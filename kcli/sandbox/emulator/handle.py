"""`Sandbox`: run an emulated KRaft cluster on a background thread with its own asyncio loop.

    with Sandbox(directory=tmp_path, controllers=3, brokers=3) as sb:
        sb.bootstrap_servers   # "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3"

Every method that changes the cluster runs on the sandbox's loop and waits (with a deadline) for it.
"""

from __future__ import annotations

import asyncio
import logging
import shutil
import tempfile
import threading
from collections.abc import Awaitable, Callable
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from kcli.sandbox.settings import SandboxSettings, Security

if TYPE_CHECKING:  # loaded when the sandbox starts, not when this module is imported
    from kcli.sandbox.emulator.cluster import Cluster

T = TypeVar("T")
START_TIMEOUT_S = 60.0
CALL_TIMEOUT_S = 30.0

log = logging.getLogger("kcli.sandbox")


class SandboxError(Exception):
    """The sandbox could not start, or a control call failed."""


class Sandbox:
    """An emulated KRaft cluster (controllers + brokers on loopback) for rehearsal and tests."""

    def __init__(
        self,
        directory: Path | str | None = None,
        *,
        controllers: int = 3,
        brokers: int = 3,
        security: str = "plaintext",
        authorizer: bool = False,
        topics: int = 0,
        partitions: int = 1,
        records_per_partition: int = 0,
        compression: str = "none",
        cluster_id: str | None = None,
        base_port: int = 0,
        release_version: str | None = None,
        racks: tuple[str, ...] | list[str] = (),
        log_dirs: int = 1,
    ) -> None:
        if controllers < 1 or brokers < 1:
            raise ValueError("a sandbox needs at least one controller and one broker")
        if not all(racks):
            raise ValueError("rack names must not be empty")
        if log_dirs < 1:
            raise ValueError("a broker needs at least one log dir")
        from kcli.sandbox.emulator.features import release_level

        release_level(release_version)  # ValueError for an unknown release, before anything starts
        self._temporary = directory is None
        self.directory = (
            Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="kcli-sandbox-"))
        )
        self.settings = SandboxSettings(
            directory=self.directory,
            controllers=controllers,
            brokers=brokers,
            base_port=base_port,
            cluster_id=cluster_id,
            security=Security(security.lower()),
            authorizer=authorizer,
            topics=topics,
            partitions=partitions,
            records_per_partition=records_per_partition,
            compression=compression,
            release_version=release_version,
            racks=tuple(racks),
            log_dirs=log_dirs,
        )
        self.cluster: Cluster | None = None  # touch it only through run()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopped: asyncio.Event | None = None
        self._error: BaseException | None = None

    # ---------------------------------------------------------------- lifecycle

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start the cluster and return once every listener accepts connections."""
        self._thread = threading.Thread(target=self._main, name="kcli-sandbox", daemon=True)
        self._thread.start()
        if not self._ready.wait(START_TIMEOUT_S):
            raise SandboxError(f"sandbox did not start within {START_TIMEOUT_S:.0f} s")
        if self._error is not None:
            self._thread.join(5)
            raise SandboxError(f"sandbox failed to start: {self._error}") from self._error

    def stop(self) -> None:
        """Stop every node, snapshot the log and end the thread."""
        if self._loop is not None and self._stopped is not None and self._thread and self._thread.is_alive():
            self._loop.call_soon_threadsafe(self._stopped.set)
            self._thread.join(CALL_TIMEOUT_S)
        if self._temporary:
            shutil.rmtree(self.directory, ignore_errors=True)

    def _main(self) -> None:
        try:
            asyncio.run(self._serve())
        except BaseException as error:  # reported to start(); the thread must not die silently
            self._error = self._error or error
            self._ready.set()

    async def _serve(self) -> None:
        from kcli.sandbox.emulator.cluster import Cluster

        self._loop = asyncio.get_running_loop()
        self._stopped = asyncio.Event()
        self.cluster = Cluster(self.settings)
        try:
            await self.cluster.start()
        except BaseException as error:
            self._error = error
            self._ready.set()
            await self.cluster.stop()
            return
        self._ready.set()
        await self._stopped.wait()
        await self.cluster.stop()

    # ---------------------------------------------------------------- calls onto the loop

    def run(self, fn: Callable[[Any], T | Awaitable[T]], timeout: float = CALL_TIMEOUT_S) -> T:
        """Run `fn(cluster)` on the sandbox loop (awaiting it if it returns an awaitable)."""
        if self._loop is None:
            raise SandboxError("sandbox is not running")

        async def call() -> T:
            result = fn(self.cluster)
            if asyncio.iscoroutine(result) or isinstance(result, asyncio.Future):
                return await result  # type: ignore[no-any-return]
            return result  # type: ignore[return-value]

        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(timeout)

    def change(self, fn: Callable[[Cluster], Awaitable[T]], timeout: float = CALL_TIMEOUT_S) -> T:
        """Run the coroutine `fn(cluster)` on the sandbox loop and wait for its result (a fault, a change)."""
        if self._loop is None or self.cluster is None:
            raise SandboxError("sandbox is not running")
        cluster = self.cluster

        async def call() -> T:
            return await fn(cluster)

        return asyncio.run_coroutine_threadsafe(call(), self._loop).result(timeout)

    # ---------------------------------------------------------------- facts

    @property
    def bootstrap_servers(self) -> str:
        return self.run(lambda c: c.bootstrap_servers)

    @property
    def bootstrap_controllers(self) -> str:
        return self.run(lambda c: c.bootstrap_controllers)

    @property
    def cluster_id(self) -> str:
        return self.run(lambda c: c.cluster_id)

    @property
    def broker_ids(self) -> tuple[int, ...]:
        return self.run(lambda c: tuple(sorted(n.node_id for n in c.brokers())))

    @property
    def controller_ids(self) -> tuple[int, ...]:
        return self.run(lambda c: tuple(sorted(n.node_id for n in c.controllers())))

    @property
    def active_controller_id(self) -> int:
        return self.run(lambda c: c.active_controller_id)

    def port_of(self, node_id: int) -> int:
        return self.run(lambda c: c.node(node_id).port)

    def metadata_log_dir(self, node_id: int) -> Path:
        """DIR/<node>/__cluster_metadata-0."""
        return self.directory / str(node_id) / "__cluster_metadata-0"

    def status(self) -> dict[str, Any]:
        return self.run(lambda c: c.status())

    @property
    def ca_file(self) -> Path | None:
        return self.directory / "tls" / "ca.pem" if self.settings.security.tls else None

    def command_config(self, principal: str = "admin", mechanism: str = "PLAIN") -> Path:
        """A client .properties file for kcli --command-config: security settings as `principal`."""
        from kcli.sandbox.clientconfig import UnknownUser, client_settings, write_properties

        try:
            settings = client_settings(
                self.directory,
                self.settings.security,
                self.settings.users,
                principal=principal,
                mechanism=mechanism,
            )
        except UnknownUser as error:
            raise SandboxError(str(error)) from None
        return write_properties(
            self.directory / f"client-{principal}-{mechanism.lower()}.properties", settings
        )

    def add_broker(self, node_id: int | None = None) -> int:
        """Start a new broker (the next free id unless given); it holds no replicas yet. Its id."""
        from kcli.sandbox.emulator import faults

        return self.change(lambda c: faults.add_broker(c, node_id))

    def prepare_controller(self, node_id: int) -> Path:
        """Start controller `node_id` as an observer (not a voter) and return its server.properties.

        The file is what `kcli metadata-quorum add-controller --command-config` reads: process.roles,
        node.id, controller.listener.names, listeners, advertised.listeners and metadata.log.dir
        (whose meta.properties holds the directory.id); with security on, the admin client settings
        follow, since the same file is the tool's client config.
        """
        extra: list[str] = []
        if self.settings.security is not Security.PLAINTEXT:
            extra = self.command_config().read_text(encoding="utf-8").splitlines()
        from kcli.sandbox.emulator import faults

        return self.change(lambda c: faults.prepare_controller(c, node_id, extra))

    # ---------------------------------------------------------------- faults

    def control(self, api_key: int, hook: Callable[[Any, Any], Awaitable[Any | None]] | None) -> None:
        """Let `hook(context, request)` see every request of `api_key` first (None removes it)."""
        self.run(lambda c: c.control(api_key, hook))

    def stop_node(self, node_id: int) -> None:
        from kcli.sandbox.emulator import faults

        self.change(lambda c: faults.stop_node(c, node_id))

    def start_node(self, node_id: int) -> None:
        from kcli.sandbox.emulator import faults

        self.change(lambda c: faults.start_node(c, node_id))

    def replace_brokers(self, *, fresh_ports: bool = False) -> dict[int, int]:
        from kcli.sandbox.emulator import faults

        return self.change(lambda c: faults.replace_brokers(c, fresh_ports=fresh_ports))

    def failover(self) -> int:
        return self.run(lambda c: c.failover())

    def misroute(self, node_id: int, target: int | None = None) -> int:
        from kcli.sandbox.emulator import faults

        return self.run(lambda c: faults.misroute(c, node_id, target))

    def delay(self, node_id: int, ms: int) -> None:
        from kcli.sandbox.emulator import faults

        self.run(lambda c: faults.delay(c, node_id, ms))
