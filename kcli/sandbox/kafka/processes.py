"""Kafka nodes as operating-system processes: start one JVM, wait until it is up, stop or kill it.

A node runs detached from kcli (its own session), so `sandbox up --detach` returns and later commands
find it by the pid in sandbox.json. A pid is only signalled through kcli.processes, while it is still
that node's JVM (the start time recorded at launch, a command line naming the node's server.properties):
a stale sandbox.json never kills a process that took the pid over.
"""

from __future__ import annotations

import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from kcli.errors import KcliError
from kcli.processes import ProcessRecord, is_running, send
from kcli.sandbox.kafka.distribution import SERVER_CLASS, KafkaDistribution

READY_LINE = "Kafka Server started"  # KafkaRaftServer, for brokers, controllers and combined nodes
STOP_TIMEOUT_S = 60.0  # a broker's controlled shutdown moves its leaderships first
POLL_S = 0.1


class NodeStartError(KcliError):
    """A node's JVM exited or did not come up in time; the message carries what its log said."""


@dataclass(frozen=True, slots=True)
class Started:
    process: subprocess.Popen[bytes]
    record: ProcessRecord
    log: Path
    offset: int  # where this run's output begins in the log

    @property
    def pid(self) -> int:
        return self.process.pid


def start(distribution: KafkaDistribution, properties: Path, log: Path, *, log4j: Path | None) -> Started:
    """Start `kafka.Kafka properties` with its output appended to `log`."""
    offset = log.stat().st_size if log.exists() else 0
    command = distribution.java_command(SERVER_CLASS, str(properties), log4j=log4j)
    with open(log, "ab") as out:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=properties.parent,
            start_new_session=True,
            close_fds=True,
        )
    return Started(
        process=process, record=node_record(process.pid, None, properties, now=True), log=log, offset=offset
    )


def node_record(pid: int, started: str | None, properties: Path, *, now: bool = False) -> ProcessRecord:
    """The record of node `properties`'s JVM: its start time (read `now`, at launch), its command line's words."""
    words = (SERVER_CLASS, str(properties))
    if now:
        return ProcessRecord.of(pid, argv_has=words)
    return ProcessRecord(pid=pid, started=started, argv_has=words)


def is_node(record: ProcessRecord) -> bool:
    """Whether the node's JVM of `record` is still running (a zombie counts as gone)."""
    return is_running(record)


def wait_ready(started: Started, *, deadline: float, what: str) -> None:
    """Return once the node logged READY_LINE after `started.offset`; NodeStartError if it exits or times out."""
    while True:
        text = _read_from(started.log, started.offset)
        if READY_LINE in text:
            return
        # our own child: poll() (its /proc entry names the launcher for a moment after the exec)
        if started.process.poll() is not None:
            raise NodeStartError(
                f"{what} exited while starting: {last_error(text)}",
                hint=f"its log is {started.log}",
            )
        if time.monotonic() > deadline:
            raise NodeStartError(
                f"{what} did not start in time: {last_error(text)}", hint=f"its log is {started.log}"
            )
        time.sleep(POLL_S)


def _read_from(log: Path, offset: int) -> str:
    with open(log, "rb") as handle:
        handle.seek(offset)
        return handle.read().decode("utf-8", errors="replace")


def last_error(text: str) -> str:
    """The most telling line of a failed start: the last ERROR/exception line, else the last line."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    for line in reversed(lines):
        if " ERROR " in line or "Exception" in line or line.startswith("Error"):
            return line
    return lines[-1] if lines else "it wrote nothing to its log"


def stop(record: ProcessRecord, *, timeout: float = STOP_TIMEOUT_S) -> bool:
    """SIGTERM (Kafka's orderly shutdown), SIGKILL after `timeout`; False when it was not running."""
    if not send(record, signal.SIGTERM):
        return False
    if not _gone(record, time.monotonic() + timeout):
        kill(record)
    return True


def kill(record: ProcessRecord) -> bool:
    """SIGKILL (kill -9: no shutdown, no flush); False when it was not running."""
    if not send(record, signal.SIGKILL):
        return False
    _gone(record, time.monotonic() + 10.0)
    return True


def _gone(record: ProcessRecord, deadline: float) -> bool:
    while time.monotonic() < deadline:
        if not is_node(record):
            return True
        time.sleep(POLL_S)
    return not is_node(record)
