"""Kafka's own replay of metadata files (MetadataReplayDriver.java) beside kcli's, as shell output.

The driver runs Kafka 4.4.0's MetadataBatchLoader / MetadataDelta (kafka-metadata 4.4.0) and the
shell commands of Kafka 4.0.2's kafka-shell (the newest on Maven Central) on the image, for many
inputs in one JVM. kcli reads the same inputs with `kcli metadata-shell` (`--snapshot FILE`, or
`--directory` of a log dir: its newest snapshot, then the log after it).

Normalizations (NORMALIZATIONS), each a difference of form, not of state:
1. SCRAM salts and keys: kcli shows [redacted] in ScramCredentialData(...) (docs/parity.md);
2. BrokerRegistration's `cordonedDirectories=...`: 4.4's toString has it, 4.0.2's shell (which kcli
   prints as) has not;
3. a default client-quota entity: Kafka names it "", kcli user(), clientId(), ip().
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.fixtures_kafka import NEWEST, OLDEST, kafka_home

HERE = Path(__file__).resolve().parent
END = "\u001e"  # the driver's end-of-output line
NORMALIZATIONS = (
    "SCRAM salts and keys: kcli shows [redacted] in ScramCredentialData(...)",
    "BrokerRegistration's cordonedDirectories: Kafka 4.4's toString prints it, 4.0.2's shell does not",
    'default client-quota entities: Kafka names them "", kcli user(), clientId(), ip()',
)
_SCRAM_SECRETS = re.compile(r"salt=[0-9a-f]*, storedKey=[0-9a-f]*, serverKey=[0-9a-f]*")
_CORDONED = re.compile(r", cordonedDirectories=(null|\[[^\]]*\])\)")
_DEFAULT_ENTITY = re.compile(r"^(\s*)(clientId|ip|user)\(\):$", re.MULTILINE)


def _classpath(classes: Path) -> str:
    newest, oldest = kafka_home(NEWEST), kafka_home(OLDEST)
    return f"{classes}:{newest / 'libs' / '*'}:{next((oldest / 'libs').glob('kafka-shell-*.jar'))}"


_COMPILED: list[Path] = []  # the test process's compiled driver: javac once, not once a test


def compile_driver(classes: Path) -> Path:
    """MetadataReplayDriver compiled into `classes` (a JDK 17 on PATH), or where this process
    already compiled it."""
    if _COMPILED and _COMPILED[0].is_dir():
        return _COMPILED[0]
    javac = shutil.which("javac")
    if javac is None:
        pytest.skip("javac is not on PATH (a JDK 17 compiles the replay driver)")
    done = subprocess.run(
        [javac, "-nowarn", "-encoding", "UTF-8", "-cp", _classpath(classes), "-d", str(classes),
         str(HERE / "MetadataReplayDriver.java")],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    _COMPILED[:] = [classes]
    return classes


def kafka_outputs(
    classes: Path, inputs: Sequence[Sequence[Path]], commands: Sequence[Sequence[str]], out: Path
) -> list[list[str]]:
    """Per input (its files: a snapshot and/or segments, in order), each command's output as Kafka's
    replay and shell give it, normalized."""
    out.mkdir(parents=True, exist_ok=True)
    home = kafka_home(NEWEST)
    done = subprocess.run(
        ["java", "-Xmx512m", "-cp", _classpath(classes),
         f"-Dlog4j2.configurationFile={home / 'config' / 'tools-log4j2.properties'}",
         "MetadataReplayDriver", str(out), *(",".join(map(str, files)) for files in inputs)],
        input="".join("\t".join(words) + "\n" for words in commands), capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    outputs = []
    for index in range(len(inputs)):
        text = (out / f"{index}.txt").read_text(encoding="utf-8")
        parts = text.split(END + "\n")
        if len(parts) != len(commands) + 1:  # the input could not be read: one EXCEPTION line
            outputs.append([text])
            continue
        outputs.append([_normal(part) for part in parts[:-1]])
    return outputs


def _normal(text: str) -> str:
    text = _SCRAM_SECRETS.sub("salt=[redacted], storedKey=[redacted], serverKey=[redacted]", text)
    return _CORDONED.sub(")", text)


def kcli_text(text: str) -> str:
    """kcli's output with a default quota entity named as Kafka names it (normalization 3)."""
    return _DEFAULT_ENTITY.sub(r"\1:", text)
