"""Signals to processes: the one path every signal kcli sends goes through.

A pid read back from a file may be stale: the process kcli started is gone and the number now
belongs to another program. So a recorded pid is signalled only while it is still the process kcli
started: the start time read when it was launched (with the boot it belongs to) matches, and its
command line holds the words it was started with. A pid of 0 or below is refused outright: kill(0)
signals one's own process group and kill(-1) every process the caller may signal.

- `ProcessRecord.of(pid)` reads a running process's start time (right after launching it);
  `ProcessRecord.to_json`/`from_json` keep it in a state file.
- `is_running(record)`: alive, not a zombie (a zombie child is reaped), the same start time.
- `send(record, signum)`: the signal, only to that process; False when it is gone.
- `signal_child(process, signum)`: a child of this process (a Popen), or its process group, only
  while it has not been reaped (until then its pid cannot be reused).
"""

from __future__ import annotations

import contextlib
import os
import signal as _signal
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

_PROC = Path("/proc")


class Child(Protocol):
    """A child process of this one: subprocess.Popen or asyncio.subprocess.Process."""

    @property
    def pid(self) -> int: ...

    @property
    def returncode(self) -> int | None: ...

    def send_signal(self, sig: int, /) -> None: ...


@dataclass(frozen=True, slots=True)
class _Facts:
    zombie: bool
    started: str  # boot id and start time: the same text only for the same process
    argv: tuple[str, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class ProcessRecord:
    """A process kcli started: its pid, its start time as read at launch, and words its command line holds."""

    pid: int
    started: str | None = None  # None: recorded by a kcli that did not keep it (only argv_has is checked)
    argv_has: tuple[str, ...] = ()

    @classmethod
    def of(cls, pid: int, *, argv_has: Sequence[str] = ()) -> ProcessRecord:
        """The record of the running process `pid` (read now: call it right after starting the process)."""
        facts = _facts(pid) if pid > 0 else None
        return cls(pid=pid, started=facts.started if facts else None, argv_has=tuple(argv_has))

    @classmethod
    def own(cls, *, argv_has: Sequence[str] = ()) -> ProcessRecord:
        return cls.of(os.getpid(), argv_has=argv_has)

    def to_json(self) -> dict[str, object]:
        return {"pid": self.pid, "started": self.started}

    @classmethod
    def from_json(cls, pid: object, started: object, *, argv_has: Sequence[str] = ()) -> ProcessRecord:
        """A record read back from a state file (ValueError for a pid that is no whole number)."""
        if isinstance(pid, bool) or not isinstance(pid, int | str):
            raise ValueError(f"pid {pid!r} is not a process id")
        return cls(pid=int(pid), started=str(started) if started else None, argv_has=tuple(argv_has))


def _boot_id() -> str:
    try:
        return (_PROC / "sys" / "kernel" / "random" / "boot_id").read_text().strip()
    except OSError:
        return ""


def _facts(pid: int) -> _Facts | None:
    """What the system says of `pid` now (None: no such process)."""
    if _PROC.joinpath("self", "stat").exists():
        try:
            stat = (_PROC / str(pid) / "stat").read_text()
            cmdline = (_PROC / str(pid) / "cmdline").read_bytes()
        except OSError:
            return None
        fields = stat.rpartition(")")[2].split()  # the command name in (...) may hold spaces
        # fields[0] is field 3 (state); field 22 (starttime, clock ticks since boot) is fields[19]
        argv = tuple(part.decode("utf-8", "replace") for part in cmdline.split(b"\0") if part)
        return _Facts(zombie=fields[0] == "Z", started=f"{_boot_id()}/{fields[19]}", argv=argv)
    return _ps_facts(pid)


def _ps_facts(pid: int) -> _Facts | None:
    """Without /proc (macOS, the BSDs): ps(1) gives the state, the start time and the command line."""
    try:
        out = subprocess.run(
            ["ps", "-p", str(pid), "-o", "stat=", "-o", "lstart=", "-o", "args="],
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.TimeoutExpired):
        return None
    if not out:
        return None
    parts = out.split(None, 6)  # stat, then lstart's five words (Mon Jan  1 00:00:00 2024), then args
    if len(parts) < 6:
        return None
    return _Facts(
        zombie=parts[0].startswith("Z"),
        started=" ".join(parts[1:6]),
        argv=tuple(parts[6].split()) if len(parts) > 6 else (),
    )


def _reap(pid: int) -> None:
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, os.WNOHANG)


def is_running(record: ProcessRecord) -> bool:
    """Whether the process of `record` is still running: the same start time, the words in its command line."""
    if record.pid <= 0:
        return False
    facts = _facts(record.pid)
    if facts is None:
        return False
    if facts.zombie:
        _reap(record.pid)  # our own child, gone: reaped so the pid is free again
        return False
    if record.started is not None and facts.started != record.started:
        return False
    return all(word in facts.argv for word in record.argv_has)


@dataclass(slots=True)
class Forked:
    """A child made by os.fork (kcli.shell.halves), signalled (signal_child) and reaped as a Popen is."""

    pid: int
    returncode: int | None = None

    def send_signal(self, sig: int, /) -> None:
        if self.returncode is None:
            os.kill(self.pid, sig)

    def wait(self) -> int:
        if self.returncode is None:
            _, status = os.waitpid(self.pid, 0)
            self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode


def send(record: ProcessRecord, signum: int) -> bool:
    """Send `signum` to the process of `record` if it is still that process; False when it is not.

    ValueError for a pid <= 0, which names no single process.
    """
    if record.pid <= 0:
        raise ValueError(f"refusing to signal pid {record.pid}: it names no single process")
    if not is_running(record):
        return False
    try:
        os.kill(record.pid, signum)
    except ProcessLookupError:
        return False
    return True


def signal_child(child: Child, signum: int, *, group: bool = False) -> bool:
    """Signal a child of this process (with `group`, its whole process group); False once it has exited.

    A child that has not been reaped keeps its pid, so it cannot be another program's; with `group`
    the child must lead its own group (start_new_session), or the signal would reach kcli's own.
    """
    poll = getattr(child, "poll", None)  # Popen learns of its exit only when asked
    if poll is not None:
        poll()
    if child.returncode is not None or child.pid <= 0:
        return False
    try:
        if group:
            if os.getpgid(child.pid) != child.pid:
                raise ValueError(f"process {child.pid} does not lead its own process group")
            os.killpg(child.pid, signum)
        else:
            child.send_signal(signum)
    except ProcessLookupError:
        return False
    return True


def kill_child(child: Child, *, group: bool = False) -> bool:
    """SIGKILL to a child (or its group): no orderly shutdown."""
    return signal_child(child, _signal.SIGKILL, group=group)
