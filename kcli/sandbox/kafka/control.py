"""Finding a real-Kafka sandbox again from its directory: its settings, nodes and running pids.

`sandbox up` creates or reopens one; the other `sandbox` commands load it from DIR (sandbox-settings.json,
kafka-cluster.json, and sandbox.json for the pids of the running nodes).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kcli.sandbox.kafka.cluster import KafkaCluster, KafkaSandboxError, Progress, _quiet, launched_processes
from kcli.sandbox.kafka.distribution import open_distribution
from kcli.sandbox.kafka.layout import LAYOUT_FILE, load_layout
from kcli.sandbox.settings import SandboxSettings, Security, load_settings


def is_kafka_sandbox(directory: Path) -> bool:
    """Whether `directory` holds a sandbox of real Kafka nodes (rather than the emulator's, or none)."""
    return (directory / LAYOUT_FILE).exists()


def settings_of(directory: Path, saved: dict[str, Any]) -> SandboxSettings:
    """The SandboxSettings a real sandbox was created (or last reopened) with."""
    racks = saved.get("racks")
    return SandboxSettings(
        directory=directory,
        controllers=int(saved["controllers"]),
        brokers=int(saved["brokers"]),
        base_port=int(saved.get("base_port") or 0),
        cluster_id=saved.get("cluster_id"),
        security=Security(saved["security"]),
        authorizer=bool(saved["authorizer"]),
        topics=int(saved.get("topics") or 0),
        partitions=int(saved.get("partitions") or 1),
        racks=tuple(str(racks).split(",")) if racks else (),
        log_dirs=int(saved.get("log_dirs") or 1),
        release_version=saved.get("release_version"),
        kafka_home=Path(saved["kafka_home"]),
        combined=bool(saved.get("combined")),
        server_config=tuple((str(k), str(v)) for k, v in (saved.get("server_config") or {}).items()),
    )


def load(directory: Path, *, progress: Progress = _quiet) -> KafkaCluster:
    """The real-Kafka sandbox in `directory`, with the pids of its running nodes."""
    directory = directory.resolve()  # the nodes' command lines name their files by absolute path
    if not is_kafka_sandbox(directory):
        raise KafkaSandboxError(
            f"no sandbox of real Kafka nodes in {directory} (no {LAYOUT_FILE})",
            hint=f"start one with: kcli sandbox up --kafka-home KAFKA_DIR --dir {directory} --detach",
        )
    try:
        saved = load_settings(directory)
        layout = load_layout(directory)
    except (ValueError, OSError) as error:
        raise KafkaSandboxError(str(error)) from None
    if saved is None or layout is None or not saved.get("kafka_home"):
        raise KafkaSandboxError(f"{directory} is missing the settings of its sandbox (sandbox-settings.json)")
    settings = settings_of(directory, saved)
    assert settings.kafka_home is not None
    cluster = KafkaCluster(settings, open_distribution(settings.kafka_home), layout, progress=progress)
    cluster.launched = launched_processes(directory)
    return cluster


def any_running(directory: Path) -> bool:
    """Whether any node of the real sandbox in `directory` is still running."""
    cluster = load(directory)
    return any(cluster.running(spec.node_id) for spec in cluster.layout.nodes)
