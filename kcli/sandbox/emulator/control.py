"""A sandbox as a process: DIR/sandbox.json, the loopback control channel, and the fault commands.

Behavior:
- `run_cluster` runs a Cluster plus a control listener on 127.0.0.1 (JSON lines, each request
  carrying the token from sandbox.json) until it is told to stop; then sandbox.json is removed.
- sandbox.json records the pid, cluster id, endpoints per node, bootstrap lists, credentials, the
  CA file and the control port; it is written once every listener accepts connections and what `up`
  announces is done (its --profile written), so whoever waits for it can use both.
- Clients (`kcli sandbox status/stop-node/...`) read sandbox.json and call the control channel;
  a sandbox.json whose process is gone is reported as stale.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.processes import ProcessRecord, is_running
from kcli.sandbox.settings import BROKER_USER, SandboxSettings

if TYPE_CHECKING:  # the cluster is loaded only where it runs (start-up of `sandbox status` stays small)
    from kcli.sandbox.emulator.cluster import Cluster

STATE_FILE = "sandbox.json"
CONTROL_TIMEOUT_S = 30.0
CONTROL_REPLY_LIMIT = 16 << 20  # a status of hundreds of nodes is a few hundred KiB
# what the command line of a sandbox process holds (`kcli sandbox up ...`), checked when sandbox.json
# was written by a kcli that did not record the process's start time
PROCESS_WORDS = ("sandbox", "up")


class SandboxControlError(KcliError):
    """No sandbox in the directory, a stale sandbox.json, or a refused control command."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxInfo:
    """The contents of DIR/sandbox.json."""

    directory: Path
    pid: int
    cluster_id: str
    security: str
    control_port: int
    token: str
    bootstrap_servers: str
    bootstrap_controllers: str
    nodes: tuple[dict[str, Any], ...]
    users: dict[str, str]
    ca_file: str | None
    started: str | None = None  # the process's start time (kcli.processes), None in older files
    notes: tuple[str, ...] = ()  # what opening the directory repaired (metadata log recovery)

    @property
    def process(self) -> ProcessRecord:
        """The sandbox's process as recorded (only it is ever signalled)."""
        return ProcessRecord(
            pid=self.pid, started=self.started, argv_has=() if self.started else PROCESS_WORDS
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "directory": str(self.directory),
            "pid": self.pid,
            "pid_started": self.started,
            "cluster_id": self.cluster_id,
            "security": self.security,
            "control_port": self.control_port,
            "token": self.token,
            "bootstrap_servers": self.bootstrap_servers,
            "bootstrap_controllers": self.bootstrap_controllers,
            "nodes": list(self.nodes),
            "users": self.users,
            "ca_file": self.ca_file,
            "notes": list(self.notes),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SandboxInfo:
        record = ProcessRecord.from_json(data["pid"], data.get("pid_started"))
        if record.pid <= 0:
            raise ValueError(f"pid {record.pid} names no single process")
        return cls(
            directory=Path(data["directory"]),
            pid=record.pid,
            started=record.started,
            cluster_id=str(data["cluster_id"]),
            security=str(data["security"]),
            control_port=int(data["control_port"]),
            token=str(data["token"]),
            bootstrap_servers=str(data["bootstrap_servers"]),
            bootstrap_controllers=str(data["bootstrap_controllers"]),
            nodes=tuple(data["nodes"]),
            users=dict(data.get("users", {})),
            ca_file=data.get("ca_file"),
            notes=tuple(str(note) for note in data.get("notes") or ()),
        )


def state_file(directory: Path) -> Path:
    return directory / STATE_FILE


def read_info(directory: Path, *, check_alive: bool = True) -> SandboxInfo:
    """sandbox.json of `directory` (SandboxControlError when missing, unreadable or stale)."""
    path = state_file(directory)
    if not path.exists():
        raise SandboxControlError(
            f"no sandbox in {directory} (no {STATE_FILE})",
            hint=f"start one with: kcli sandbox up --dir {directory} --detach",
        )
    try:
        from kcli.files import read_text

        info = SandboxInfo.from_json(json.loads(read_text(path, what="sandbox state file")))
    except (ValueError, KeyError, TypeError, OSError) as error:
        raise SandboxControlError(f"{path} is not a sandbox state file: {error}") from None
    if check_alive and not is_running(info.process):
        raise SandboxControlError(
            f"stale {path}: sandbox process {info.pid} is not running",
            hint=f"remove it with: kcli sandbox down --dir {directory}",
        )
    return info


def send(info: SandboxInfo, command: str, **args: Any) -> Any:
    """Run one control command in the sandbox process; returns its result."""
    request = json.dumps({"token": info.token, "command": command, "args": args}) + "\n"
    # one deadline for the whole exchange and a bound on the answer: whatever listens on the port
    # (a stale sandbox.json may name another program's) cannot keep kcli waiting or fill its memory
    deadline = time.monotonic() + CONTROL_TIMEOUT_S
    data = bytearray()
    try:
        with socket.create_connection(("127.0.0.1", info.control_port), timeout=CONTROL_TIMEOUT_S) as conn:
            conn.sendall(request.encode())
            while not data.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError
                conn.settimeout(left)
                chunk = conn.recv(65536)
                if not chunk:
                    break
                data += chunk
                if len(data) > CONTROL_REPLY_LIMIT:
                    raise SandboxControlError(
                        f"the sandbox control port 127.0.0.1:{info.control_port} answered {command!r} with over "
                        f"{CONTROL_REPLY_LIMIT >> 20} MiB: not a kcli sandbox"
                    )
    except TimeoutError:
        raise SandboxControlError(
            f"the sandbox control port 127.0.0.1:{info.control_port} (pid {info.pid}) gave no whole answer "
            f"to {command!r} within {CONTROL_TIMEOUT_S:.0f} s",
            hint=f"kcli sandbox status --dir {info.directory} shows whether it runs",
        ) from None
    except OSError as error:
        raise SandboxControlError(
            f"cannot reach the sandbox control port 127.0.0.1:{info.control_port} (pid {info.pid}): {error}"
        ) from None
    try:
        reply = json.loads(data)
    except ValueError:
        raise SandboxControlError(f"the sandbox answered {command!r} with something unreadable") from None
    if not reply.get("ok"):
        raise SandboxControlError(f"sandbox refused {command}: {reply.get('error')}")
    return reply.get("result")


async def _dispatch(cluster: Cluster, command: str, args: dict[str, Any], stop: asyncio.Event) -> Any:
    """One command of the control channel: status, down, or a fault of the sandbox interface
    (kcli.sandbox.engine.FAULTS, by its command name), carried out by LocalFaults; its JSON document."""
    from kcli.sandbox.emulator.faults import LocalFaults
    from kcli.sandbox.engine import FAULTS

    if command == "status":
        return cluster.status()
    if command == "down":
        cluster.stopped_by = "kcli sandbox down"
        stop.set()
        return cluster.status()
    method = next((getattr(LocalFaults, f.method, None) for f in FAULTS if f.command == command), None)
    if method is None:
        raise ValueError(f"unknown command {command!r}")
    result = await method(LocalFaults(cluster), **args)
    return result.to_json()


async def serve_control(cluster: Cluster, token: str, stop: asyncio.Event) -> asyncio.Server:
    """The control listener on 127.0.0.1 (a free port)."""
    from kcli.sandbox.emulator.node import ClusterError

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            line = await asyncio.wait_for(reader.readline(), CONTROL_TIMEOUT_S)
            request = json.loads(line)
            if not secrets.compare_digest(str(request.get("token", "")), token):
                reply: dict[str, Any] = {"ok": False, "error": "bad token"}
            else:
                result = await _dispatch(
                    cluster, str(request.get("command")), dict(request.get("args") or {}), stop
                )
                reply = {"ok": True, "result": result}
        except (ClusterError, ValueError, KeyError, TypeError) as error:
            reply = {"ok": False, "error": str(error)}
        except (TimeoutError, ConnectionError):
            return
        writer.write((json.dumps(reply) + "\n").encode())
        with contextlib.suppress(ConnectionError):
            await writer.drain()
        writer.close()

    return await asyncio.start_server(handle, "127.0.0.1", 0)


def _info(cluster: Cluster, settings: SandboxSettings, control_port: int, token: str) -> SandboxInfo:
    status = cluster.status()
    users = {**settings.users, BROKER_USER[0]: BROKER_USER[1]} if settings.security.sasl else {}
    ca = cluster.security.ca_file if settings.security.tls else None
    me = ProcessRecord.own()
    return SandboxInfo(
        directory=settings.directory,
        pid=me.pid,
        started=me.started,
        cluster_id=cluster.cluster_id,
        security=settings.security.value,
        control_port=control_port,
        token=token,
        bootstrap_servers=cluster.bootstrap_servers,
        bootstrap_controllers=cluster.bootstrap_controllers,
        nodes=tuple(status["nodes"]),
        users=users,
        ca_file=str(ca) if ca else None,
        notes=tuple(cluster.metalog.recovered),
    )


def write_info(info: SandboxInfo) -> None:
    path = state_file(info.directory)
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(info.to_json(), indent=2) + "\n", encoding="utf-8")
    os.chmod(temporary, 0o600)  # holds credentials and the control token
    os.replace(temporary, path)


async def run_cluster(
    settings: SandboxSettings,
    *,
    stop: asyncio.Event,
    on_ready: Callable[[Cluster, SandboxInfo], Awaitable[None] | None] | None = None,
) -> None:
    """Run a sandbox until `stop` is set (or the control channel says down)."""
    from kcli.sandbox.emulator.cluster import Cluster

    cluster = Cluster(settings)
    await cluster.start()
    token = secrets.token_hex(16)
    server = await serve_control(cluster, token, stop)
    port = server.sockets[0].getsockname()[1]
    info = _info(cluster, settings, port, token)
    try:
        if on_ready is not None:
            ready = on_ready(cluster, info)
            if ready is not None:
                await ready
        # published last: whoever waits for sandbox.json finds what `up` announced (its --profile) done
        write_info(info)
        await stop.wait()
    finally:
        server.close()
        await cluster.stop()
        with contextlib.suppress(FileNotFoundError):
            state_file(settings.directory).unlink()


def wait_for_info(directory: Path, pid: int, timeout: float, alive: Callable[[], bool]) -> SandboxInfo:
    """Wait until the process `pid` has written sandbox.json (SandboxControlError if it dies first)."""
    deadline = time.monotonic() + timeout
    path = state_file(directory)
    while time.monotonic() < deadline:
        if path.exists():
            with contextlib.suppress(SandboxControlError):
                info = read_info(directory, check_alive=False)
                if info.pid == pid:
                    return info
        if not alive():
            log = directory / "sandbox.log"
            tail = log.read_text(errors="replace").strip().splitlines()[-1:] if log.exists() else []
            if tail and tail[0].startswith("Error: "):
                # the process already said what went wrong in one line: pass it on as it is
                raise SandboxControlError(tail[0].removeprefix("Error: "))
            detail = f": {tail[0]}" if tail else ""
            raise SandboxControlError(f"the sandbox process exited before it was ready{detail}")
        time.sleep(0.05)
    raise SandboxControlError(
        f"the sandbox did not become ready within {timeout:.0f} s (see {directory / 'sandbox.log'})"
    )
