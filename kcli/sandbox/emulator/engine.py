"""The emulator behind the sandbox's interface (kcli.sandbox.engine): its process, reached by its control channel.

`EmulatorEngine` reads DIR/sandbox.json and sends each command to the emulator's process
(kcli.sandbox.emulator.control), which carries it out with kcli.sandbox.emulator.faults; the answer
comes back as the command's JSON document and is read into the interface's typed result. The one
fault the emulator cannot do (kill -9 of a node that shares a process with the others) is answered
with NotSupported.
"""

from __future__ import annotations

import shlex
import signal
import time
from pathlib import Path
from typing import Any

from kcli.processes import is_running, send
from kcli.sandbox.emulator import control
from kcli.sandbox.emulator.control import SandboxControlError, SandboxInfo, read_info, state_file
from kcli.sandbox.engine import (
    AddedNode,
    FailedOver,
    Misrouted,
    NodeChanged,
    NotSupported,
    ReplacedBrokers,
    SandboxStatus,
    Stopped,
)

DOWN_TIMEOUT_S = 20.0


class EmulatorEngine:
    """The emulator's process of one sandbox directory."""

    def __init__(self, directory: Path) -> None:
        self._directory = directory
        self._info: SandboxInfo | None = None

    @property
    def directory(self) -> Path:
        return self._directory

    @property
    def info(self) -> SandboxInfo:
        """sandbox.json of a running sandbox (SandboxControlError: none, or its process is gone)."""
        if self._info is None:
            self._info = read_info(self._directory)
        return self._info

    def _call(self, command: str, **args: Any) -> Any:
        return control.send(self.info, command, **args)

    def _changed(self, node_id: int, change: str, command: str, **args: Any) -> NodeChanged:
        status = SandboxStatus.from_json(self._call(command, node_id=node_id, **args))
        return NodeChanged(node_id=node_id, change=change, status=status, delay_ms=int(args.get("ms", 0)))

    def status(self) -> SandboxStatus:
        info = self.info
        return SandboxStatus.from_json(self._call("status")).placed(directory=info.directory, pid=info.pid)

    def stop_node(self, node_id: int) -> NodeChanged:
        return self._changed(node_id, "stopped", "stop-node")

    def kill_node(self, node_id: int) -> NotSupported:
        return NotSupported(
            command="kill-node",
            reason="kill-node needs real Kafka nodes (up --kafka-home): the emulator's nodes share one process",
            hint=f"stop the node with: kcli sandbox stop-node {node_id} --dir {shlex.quote(str(self._directory))}",
        )

    def start_node(self, node_id: int) -> NodeChanged:
        return self._changed(node_id, "started", "start-node")

    def failover(self) -> FailedOver:
        return FailedOver(active_controller_id=int(self._call("failover")["active_controller_id"]))

    def add_node(self, *, controller: bool, node_id: int | None) -> AddedNode:
        added = self._call("add-node", node_id=node_id, controller=controller)
        return AddedNode(
            node_id=int(added["node_id"]),
            role=str(added["role"]),
            host=str(added["host"]),
            port=int(added["port"]),
            config=added.get("config"),
            status=SandboxStatus.from_json(added["status"]),
        )

    def replace_brokers(self) -> ReplacedBrokers:
        replaced = self._call("replace-brokers")
        return ReplacedBrokers(
            replaced={int(old): int(new) for old, new in replaced["replaced"].items()},
            status=SandboxStatus.from_json(replaced["status"]),
        )

    def misroute(self, node_id: int, target: int | None) -> Misrouted:
        answer = self._call("misroute", node_id=node_id, target=target)
        return Misrouted(node_id=node_id, advertises=int(answer["advertises"]))

    def delay(self, node_id: int, ms: int) -> NodeChanged:
        return self._changed(node_id, "delayed", "delay", ms=ms)

    def down(self) -> Stopped:
        """Stop the emulator's process; a stale sandbox.json is removed, and no process but the
        sandbox's own is ever signalled (kcli.processes)."""
        path = state_file(self._directory)
        try:
            info = read_info(self._directory, check_alive=False)
        except SandboxControlError as error:
            if path.exists():  # unreadable, or naming no single process (pid 0, -1)
                path.unlink(missing_ok=True)
                raise SandboxControlError(f"{error} (removed the file; no process was signalled)") from None
            raise
        process = info.process
        if not is_running(process):
            path.unlink(missing_ok=True)
            raise SandboxControlError(
                f"stale {path}: sandbox process {info.pid} was not running "
                "(removed the file; no process was signalled)"
            )
        try:
            control.send(info, "down")  # the sandbox learns who stopped it (a foreground `up` says so)
        except SandboxControlError:
            send(process, signal.SIGTERM)  # only while it is still the sandbox's process
        deadline = time.monotonic() + DOWN_TIMEOUT_S
        while is_running(process) and time.monotonic() < deadline:
            time.sleep(0.05)
        if is_running(process):
            raise SandboxControlError(f"sandbox process {info.pid} did not stop within {DOWN_TIMEOUT_S:.0f} s")
        path.unlink(missing_ok=True)
        return Stopped(cluster_id=info.cluster_id, directory=self._directory, what=f"pid {info.pid}")
