"""Kafka's Java producer and consumer (ClientPeer.java) against a cluster, from Python.

The jars are those of the test extra (kafka-clients 3.9 and its codecs' jars in
shigawire-apache-flink-libraries' pyflink/lib), as tests/peers/java finds them; the program is
compiled once per session. Every run has a deadline.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from tests.peers.java.peer import JIT_OPTIONS, JIT_OPTIONS_JAVAC, PeerSetupError, find_jars, find_tool

SOURCE = Path(__file__).resolve().parent / "ClientPeer.java"
CODEC_JARS = ("lz4-java.jar", "snappy-java.jar", "zstd-jni.jar")


def classpath() -> list[Path]:
    """kafka-clients.jar, slf4j-api.jar and the codecs' jars beside them."""
    jars = list(find_jars())
    lib = jars[0].parent
    missing = [name for name in CODEC_JARS if not (lib / name).is_file()]
    if missing:
        raise PeerSetupError(f"{lib} has no {', '.join(missing)}")
    return jars + [lib / name for name in CODEC_JARS]


def compile_client(into: Path) -> Path:
    """javac ClientPeer.java into `into`; the class directory."""
    done = subprocess.run(
        [find_tool("javac"), *JIT_OPTIONS_JAVAC, "-nowarn", "-d", str(into),
         "-cp", ":".join(map(str, classpath())), str(SOURCE)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        raise PeerSetupError(f"javac failed:\n{done.stderr}")
    return into


def run_client(
    classes: Path, bootstrap: str, topics: list[tuple[str, int, str]], *, records: int, value_bytes: int = 100
) -> list[dict[str, Any]]:
    """Produce and consume `records` records in each (topic, partitions, codec); one summary each."""
    done = subprocess.run(
        [find_tool("java"), *JIT_OPTIONS, "-Xmx256m", "-cp", ":".join(map(str, [classes, *classpath()])),
         "ClientPeer", bootstrap, str(records), str(value_bytes), *(f"{t}:{p}:{c}" for t, p, c in topics)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if done.returncode != 0:
        raise RuntimeError(f"ClientPeer failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
