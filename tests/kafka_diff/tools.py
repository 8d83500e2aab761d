"""Kafka's own command-line tools, run in one long-lived JVM per Kafka release (ToolDriver.java).

Each `kafka-<tool>.sh` of a distribution made by scripts/kafka-dist.sh names its main class on its
last line; the driver calls that class's `main` with Kafka's Exit procedures replaced and the
standard streams captured, so a corpus of command lines costs one JVM start, not one per line.
Speed comparisons must not use this: they run one process per invocation, as an operator does.

Every call has a deadline: a tool that hangs fails its case and the JVM is started afresh.
"""

from __future__ import annotations

import json
import queue
import re
import shutil
import subprocess
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from kcli.processes import kill_child

HERE = Path(__file__).resolve().parent
SOURCES = (HERE / "ToolDriver.java", HERE.parent / "peers" / "java" / "Json.java")
ANSWER_PREFIX = "@@answer "
CALL_DEADLINE_S = 90.0
_MAIN_CLASS = re.compile(r'-cp "\$home/libs/\*" (\S+) "\$@"')


class DriverError(Exception):
    """The tool JVM cannot run here (no javac, a failed compile) or stopped answering."""


@dataclass(frozen=True, slots=True)
class ToolRun:
    """What one command line did: its exit status and both output streams."""

    code: int
    stdout: str
    stderr: str


def main_class(kafka_home: Path, tool: str) -> str:
    """The main class bin/kafka-<tool>.sh runs (its `-cp "$home/libs/*" CLASS "$@"` line)."""
    script = kafka_home / "bin" / f"kafka-{tool}.sh"
    found = _MAIN_CLASS.search(script.read_text(encoding="utf-8"))
    if found is None:
        raise DriverError(f"{script} names no main class")
    return found.group(1)


def compile_driver(into: Path) -> Path:
    """javac the driver (it needs no Kafka jar: it reaches Kafka by reflection); returns the class dir."""
    javac = shutil.which("javac")
    if javac is None:
        raise DriverError("javac is not on PATH (a JDK 17 runs Kafka's tools)")
    done = subprocess.run(
        [javac, "-nowarn", "-encoding", "UTF-8", "-d", str(into), *map(str, SOURCES)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if done.returncode != 0:
        raise DriverError(f"javac failed:\n{done.stderr}")
    return into


class KafkaTools:
    """Kafka's tools of one distribution in one JVM: `tools.run("configs", [...]) -> ToolRun`."""

    def __init__(self, kafka_home: Path, classes: Path, log: Path) -> None:
        self.kafka_home = kafka_home
        self.classes = classes
        self._log_path = log
        self._process: subprocess.Popen[str] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self.system_exit_trapped = False

    def _start(self) -> subprocess.Popen[str]:
        java = shutil.which("java")
        if java is None:
            raise DriverError("java is not on PATH")
        log = self._log_path.open("a", encoding="utf-8")
        process = subprocess.Popen(
            [
                java,
                "-Djava.security.manager=allow",  # lets the driver trap argparse4j's System.exit
                "-Xmx512m",
                "-XX:TieredStopAtLevel=1",
                f"-Dlog4j2.configurationFile={self.kafka_home / 'config' / 'tools-log4j2.properties'}",
                "-cp",
                f"{self.classes}:{self.kafka_home / 'libs'}/*",
                "ToolDriver",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
            encoding="utf-8",
        )
        log.close()
        self._lines = queue.Queue()
        assert process.stdout is not None
        threading.Thread(target=self._pump, args=(process.stdout, self._lines), daemon=True).start()
        self._process = process
        ready = self._answer(CALL_DEADLINE_S)
        self.system_exit_trapped = bool(ready.get("system_exit_trapped"))
        return process

    @staticmethod
    def _pump(stream: IO[str], lines: queue.Queue[str | None]) -> None:
        for line in stream:
            if line.startswith(ANSWER_PREFIX):
                lines.put(line[len(ANSWER_PREFIX) :])
        lines.put(None)

    def _answer(self, deadline_s: float) -> dict[str, object]:
        try:
            line = self._lines.get(timeout=deadline_s)
        except queue.Empty:
            self.close()
            raise DriverError(f"Kafka's tool gave no answer within {deadline_s:.0f} s") from None
        if line is None:
            self._process = None
            raise DriverError(f"the tool JVM exited; its log:\n{self.log_tail()}")
        answer: dict[str, object] = json.loads(line)
        return answer

    def log_tail(self, lines: int = 30) -> str:
        text = self._log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def run(
        self, tool: str, args: list[str], *, stdin: str = "", deadline_s: float = CALL_DEADLINE_S
    ) -> ToolRun:
        """Run `kafka-<tool>.sh ARGS` in the JVM (started on first use, restarted after a failure)."""
        process = self._process if self._process is not None and self._process.poll() is None else None
        if process is None:
            process = self._start()
        assert process.stdin is not None
        request = {"class": main_class(self.kafka_home, tool), "args": list(args), "stdin": stdin}
        process.stdin.write(json.dumps(request) + "\n")
        process.stdin.flush()
        answer = self._answer(deadline_s)
        return ToolRun(code=int(answer["code"]), stdout=str(answer["stdout"]), stderr=str(answer["stderr"]))  # type: ignore[call-overload]

    def close(self) -> None:
        process, self._process = self._process, None
        if process is None or process.poll() is not None:
            return
        assert process.stdin is not None
        try:
            process.stdin.close()
            process.wait(timeout=15)
        except (OSError, subprocess.TimeoutExpired):
            kill_child(process)
            process.wait(timeout=5)
