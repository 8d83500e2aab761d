"""Which engine a sandbox directory holds, and opening it: the one place that knows both engines.

A directory of real Kafka nodes has kafka-cluster.json (kcli.sandbox.kafka.layout); any other is the
emulator's. The CLI calls `open_engine` for every command on an existing sandbox and `launcher` for
`up`, and imports neither engine itself.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from kcli.sandbox.engine import Launcher, SandboxEngine
from kcli.sandbox.nodes import KAFKA_LAYOUT_FILE


def holds_real_kafka(directory: Path) -> bool:
    """Whether `directory` holds a sandbox of real Kafka nodes (else the emulator's, or none)."""
    return (directory / KAFKA_LAYOUT_FILE).exists()


def open_engine(directory: Path, *, progress: Callable[[str], None] = lambda _line: None) -> SandboxEngine:
    """The engine of the sandbox in `directory` (nothing is read or asked until a command runs)."""
    if holds_real_kafka(directory):
        from kcli.sandbox.kafka.engine import KafkaEngine

        return KafkaEngine(directory, progress=progress)
    from kcli.sandbox.emulator.engine import EmulatorEngine

    return EmulatorEngine(directory)


def launcher(*, real: bool, keep_failed: bool = False) -> Launcher:
    """The launcher of real Kafka nodes (`real`) or of the emulator."""
    if real:
        from kcli.sandbox.kafka.launch import KafkaLauncher

        return KafkaLauncher(keep_failed=keep_failed)
    from kcli.sandbox.emulator.launch import EmulatorLauncher

    return EmulatorLauncher()
