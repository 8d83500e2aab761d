"""Drive Apache Kafka's Java AdminClient (AdminPeer.java) from Python: one JVM, JSON lines both ways.

The jars come from the installed wheel `shigawire-apache-flink-libraries` (pyflink/lib/kafka-clients.jar
and slf4j-api.jar); the programs in this folder are compiled once per test session. Every read has a
deadline: a JVM that stops answering fails the test instead of hanging it.
"""

from __future__ import annotations

import itertools
import json
import queue
import shutil
import subprocess
import threading
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import IO, Any

from kcli.processes import kill_child

DISTRIBUTION = "shigawire-apache-flink-libraries"
JARS = ("kafka-clients.jar", "slf4j-api.jar")
SOURCES = Path(__file__).resolve().parent
CALL_DEADLINE_S = 60.0  # above the peer's own future deadline, so the JVM reports its timeouts itself
PEER_WAIT_MS = 40_000  # how long the JVM waits on one Admin future
# C1 only and the serial collector: short-lived JVMs on a small, busy machine (javac's CPU time halves).
JIT_OPTIONS = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
JIT_OPTIONS_JAVAC = tuple(f"-J{option}" for option in JIT_OPTIONS)


class PeerSetupError(Exception):
    """The Java peer cannot run here: a jar, java or javac is missing, or the compile failed."""


class JavaError(Exception):
    """An exception the Java AdminClient raised: its simple class name, Kafka error name and message."""

    def __init__(self, raw: Mapping[str, Any]) -> None:
        self.type = str(raw["type"])
        self.code = str(raw["code"])
        self.message: str | None = raw.get("message")
        self.cause: str | None = raw.get("cause")
        self.java_class = str(raw["class"])
        super().__init__(
            f"{self.type} ({self.code}): {self.message}" + (f" [{self.cause}]" if self.cause else "")
        )


def find_jars() -> tuple[Path, ...]:
    """kafka-clients.jar and slf4j-api.jar, located through the installed distribution's file list."""
    try:
        dist = metadata.distribution(DISTRIBUTION)
    except metadata.PackageNotFoundError as error:
        raise PeerSetupError(
            f"{DISTRIBUTION} is not installed; install the test extra: pip install -e '.[test]'"
        ) from error
    found: dict[str, Path] = {}
    for file in dist.files or ():
        if file.parent.as_posix() == "pyflink/lib" and file.name in JARS:
            found[file.name] = Path(str(dist.locate_file(file)))
    missing = [name for name in JARS if name not in found or not found[name].is_file()]
    if missing:
        raise PeerSetupError(f"{DISTRIBUTION} {dist.version} has no pyflink/lib/{', '.join(missing)}")
    return tuple(found[name] for name in JARS)


def find_tool(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise PeerSetupError(f"`{name}` is not on PATH; the Java peer needs a JDK 17 or later")
    return path


def compile_peer(jars: tuple[Path, ...], into: Path) -> Path:
    """javac the peer's sources into `into` (once per session); returns the class directory."""
    javac = find_tool("javac")
    sources = sorted(str(p) for p in SOURCES.glob("*.java"))
    done = subprocess.run(
        [
            javac,
            *JIT_OPTIONS_JAVAC,
            "-nowarn",
            "-encoding",
            "UTF-8",
            "-d",
            str(into),
            "-cp",
            ":".join(map(str, jars)),
            *sources,
        ],
        capture_output=True,
        text=True,
        timeout=180,
    )
    if done.returncode != 0:
        raise PeerSetupError(f"javac failed:\n{done.stderr}")
    return into


class JavaPeer:
    """One JVM running AdminPeer; holds any number of named Admin clients."""

    def __init__(self, classes: Path, jars: tuple[Path, ...], log: Path) -> None:
        java = find_tool("java")
        classpath = ":".join([str(classes), *map(str, jars)])
        self._log = log.open("w", encoding="utf-8")
        self._process = subprocess.Popen(
            [java, *JIT_OPTIONS, "-Xmx256m", "-cp", classpath, "AdminPeer", str(PEER_WAIT_MS)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            text=True,
            encoding="utf-8",
        )  # fmt: skip
        self._lines: queue.Queue[str | None] = queue.Queue()
        assert self._process.stdout is not None
        threading.Thread(target=self._pump, args=(self._process.stdout,), daemon=True).start()
        self._names = itertools.count(1)
        self.log_path = log
        self._expect("ready", self._read(CALL_DEADLINE_S))

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self._lines.put(line)
        self._lines.put(None)

    def _read(self, deadline_s: float) -> Any:
        try:
            line = self._lines.get(timeout=deadline_s)
        except queue.Empty:
            raise TimeoutError(f"the Java peer gave no answer within {deadline_s:.0f} s") from None
        if line is None:
            raise RuntimeError(f"the Java peer exited; its log:\n{self.stderr_tail()}")
        return json.loads(line)

    @staticmethod
    def _expect(value: str, answer: Any) -> None:
        if answer.get("ok") != value:
            raise RuntimeError(f"unexpected answer from the Java peer: {answer}")

    def stderr_tail(self, lines: int = 40) -> str:
        self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace").splitlines()
        return "\n".join([line for line in text if "SLF4J" not in line][-lines:])

    def request(self, command: Mapping[str, Any], deadline_s: float = CALL_DEADLINE_S) -> Any:
        """Send one command; return its raw answer ({"ok": ...} or {"error": ...})."""
        assert self._process.stdin is not None
        self._process.stdin.write(json.dumps(command) + "\n")
        self._process.stdin.flush()
        return self._read(deadline_s)

    def version(self) -> str:
        return str(self.request({"op": "version"})["ok"])

    def client(self, props: Mapping[str, str], name: str | None = None) -> JavaAdmin:
        """A new Admin client in this JVM, created from client properties."""
        name = name or f"admin-{next(self._names)}"
        answer = self.request({"op": "open", "name": name, "props": dict(props)})
        if "error" in answer:
            raise _error(answer["error"])
        return JavaAdmin(self, name)

    def close(self) -> None:
        if self._process.poll() is None:
            assert self._process.stdin is not None
            try:
                self._process.stdin.close()
                self._process.wait(timeout=15)
            except (OSError, subprocess.TimeoutExpired):
                kill_child(self._process)
                self._process.wait(timeout=5)
        self._log.close()


def _error(raw: Mapping[str, Any]) -> JavaError:
    return JavaError(raw)


def unwrap(outcome: Mapping[str, Any]) -> Any:
    """The value of a per-item {"ok": ...}; a per-item {"error": ...} is raised as JavaError."""
    if "error" in outcome:
        raise _error(outcome["error"])
    return outcome["ok"]


def error_of(outcome: Mapping[str, Any]) -> JavaError | None:
    return _error(outcome["error"]) if "error" in outcome else None


class JavaAdmin:
    """One org.apache.kafka.clients.admin.Admin in the peer JVM: `admin.call("describeCluster")`."""

    def __init__(self, peer: JavaPeer, name: str) -> None:
        self.peer = peer
        self.name = name

    def call(self, op: str, **args: Any) -> Any:
        """Run one Admin call; a whole-call failure is raised as JavaError."""
        answer = self.peer.request({"op": op, "client": self.name, **args})
        if "error" in answer:
            raise _error(answer["error"])
        return answer["ok"]

    def close(self) -> None:
        self.peer.request({"op": "close", "name": self.name})


def run_group_peer(
    build: tuple[Path, tuple[Path, ...]], settings: Mapping[str, Any], timeout_s: float = 150
) -> Any:
    """One run of GroupPeer (Kafka's Java producer and consumers, see GroupPeer.java) in its own JVM: its
    JSON answer."""
    classes, jars = build
    classpath = ":".join([str(classes), *map(str, jars)])
    done = subprocess.run(
        [
            find_tool("java"),
            *JIT_OPTIONS,
            "-Xmx256m",
            "-cp",
            classpath,
            "GroupPeer",
            json.dumps(dict(settings)),
        ],
        capture_output=True,
        text=True,
        timeout=timeout_s,
    )
    if done.returncode != 0 or not done.stdout.strip():
        tail = "\n".join(line for line in done.stderr.splitlines() if "SLF4J" not in line)[-3000:]
        raise RuntimeError(f"GroupPeer failed ({done.returncode}):\n{tail}")
    return json.loads(done.stdout.strip().splitlines()[-1])
