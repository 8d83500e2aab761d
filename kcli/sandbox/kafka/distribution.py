"""A Kafka distribution on disk: where its jars are, which release it is, how to run its classes.

A distribution is what the Kafka tarball unpacks to (or what scripts/kafka-dist.sh assembles):
`libs/*.jar` and `config/` with log4j2 files. Its release is read from the kafka-clients jar's name.
Classes run as the distribution's bin/kafka-run-class.sh runs them: every jar of libs/ on the class path,
the quick-start JVM flags below, the heap from KAFKA_HEAP_OPTS when set.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from kcli.errors import UsageError

SERVER_CLASS = "kafka.Kafka"
STORAGE_TOOL = "kafka.tools.StorageTool"
# A sandbox node needs far less than a production broker's 1 GiB; KAFKA_HEAP_OPTS overrides it.
SANDBOX_HEAP = ("-Xms128M", "-Xmx512M")
# Start-up over throughput: the C1 compiler alone and the serial collector halve the CPU a node or a
# StorageTool run takes to start (a sandbox starts six JVMs on a small machine); they change no
# behaviour of Kafka's. KAFKA_JVM_PERFORMANCE_OPTS overrides them, as in Kafka's scripts.
QUICK_START = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
JVM_FLAGS = ("-Djava.awt.headless=true", "-XX:+ExitOnOutOfMemoryError")
_CLIENTS_JAR = re.compile(
    r"^kafka-clients-(\d{1,6})\.(\d{1,6})\.(\d{1,6})(?:[-.].*)?\.jar$"
)  # no 5000-digit int()
OLDEST_SUPPORTED = (4, 0)


class DistributionError(UsageError):
    """--kafka-home is not a usable Kafka distribution, or Java is missing."""


@dataclass(frozen=True, slots=True)
class KafkaDistribution:
    """A Kafka release unpacked at `home`."""

    home: Path
    version: tuple[int, int, int]
    java: str

    @property
    def version_text(self) -> str:
        return ".".join(str(part) for part in self.version)

    @property
    def class_path(self) -> str:
        return str(self.home / "libs" / "*")

    def log4j_config(self, *, tools: bool) -> Path | None:
        """The distribution's log4j2 file for servers or tools (the tarball's yaml, else a properties file)."""
        stem = "tools-log4j2" if tools else "log4j2"
        for suffix in (".yaml", ".properties"):
            path = self.home / "config" / f"{stem}{suffix}"
            if path.is_file():
                return path
        return None

    def java_command(
        self, main_class: str, *args: str, heap: tuple[str, ...] = SANDBOX_HEAP, log4j: Path | None
    ) -> list[str]:
        """The command line that runs `main_class` of this distribution."""
        heap_opts = os.environ.get("KAFKA_HEAP_OPTS")
        performance = os.environ.get("KAFKA_JVM_PERFORMANCE_OPTS")
        command = [
            self.java,
            *(heap_opts.split() if heap_opts else heap),
            *(performance.split() if performance else QUICK_START),
            *JVM_FLAGS,
        ]
        if log4j is not None:
            command.append(f"-Dlog4j2.configurationFile={log4j}")
        command += os.environ.get("KAFKA_OPTS", "").split()
        return [*command, "-cp", self.class_path, main_class, *args]


def find_java() -> str:
    """$JAVA_HOME/bin/java, else java on PATH."""
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").is_file():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise DistributionError(
            "java is not installed (Kafka's nodes are JVMs)",
            hint="install Java 17 (Debian: apt-get install openjdk-17-jre-headless) or set JAVA_HOME",
        )
    return found


def open_distribution(home: Path) -> KafkaDistribution:
    """The distribution at `home`, or one clear error saying what is missing."""
    libs = home / "libs"
    if not libs.is_dir():
        raise DistributionError(
            f"--kafka-home {home} is not a Kafka distribution: it has no libs/ directory",
            hint="give the directory a Kafka tarball unpacks to, or make one with scripts/kafka-dist.sh 4.4.0",
        )
    versions = sorted(
        (int(m[1]), int(m[2]), int(m[3])) for m in (_CLIENTS_JAR.match(p.name) for p in libs.iterdir()) if m
    )
    if not versions:
        raise DistributionError(
            f"--kafka-home {home}: no kafka-clients jar in {libs}, so its release is unknown"
        )
    version = versions[-1]
    if version[:2] < OLDEST_SUPPORTED:
        raise DistributionError(
            f"--kafka-home {home} is Kafka {'.'.join(map(str, version))}: the sandbox runs Kafka 4.0 and later "
            "(KRaft only, the storage tool's --initial-controllers)"
        )
    return KafkaDistribution(home=home.resolve(), version=version, java=find_java())
