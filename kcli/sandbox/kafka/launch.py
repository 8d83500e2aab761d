"""`sandbox up` of real Kafka nodes (--kafka-home): format and start them, in the background or the foreground.

The nodes are JVMs of their own either way (kcli.sandbox.kafka.cluster): `up --detach` returns once
every node is up, the foreground `up` then waits for Ctrl-C, SIGTERM or every node gone (`sandbox
down` elsewhere) and stops them. A start that fails stops every JVM it started, and removes the
directory it created (with --debug the node logs stay for reading).
"""

from __future__ import annotations

import shutil
import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

from kcli.errors import UsageError
from kcli.sandbox.engine import Running, SandboxStatus
from kcli.sandbox.kafka.cluster import STATE_FILE, KafkaCluster, KafkaSandboxError
from kcli.sandbox.settings import BROKER_USER, SandboxSettings

POLL_S = 0.5


class KafkaLauncher:
    """Starts the real Kafka nodes of a sandbox in a directory."""

    ticks = False  # each status of real nodes asks the cluster: too slow to redraw twice a second

    def __init__(self, *, keep_failed: bool = False) -> None:
        self.keep_failed = keep_failed  # --debug: a failed start's directory stays for its node logs

    def check_flags(
        self, *, combined: bool, server_config: bool, release_version: str | None, records: bool
    ) -> None:
        if records:
            raise UsageError(
                "--records-per-partition fills the emulator's topics: real Kafka nodes are filled by a producer",
                hint="drop --kafka-home, or produce with kafka-producer-perf-test.sh once the nodes are up",
            )
        # Kafka's StorageTool judges its own release versions

    def refuse_running(self, directory: Path, *, hint: str) -> None:
        from kcli.sandbox.kafka.control import any_running, is_kafka_sandbox

        if not (directory / STATE_FILE).exists():
            return
        if is_kafka_sandbox(directory) and any_running(directory):
            raise KafkaSandboxError(
                f"a sandbox of real Kafka nodes is already running in {directory}", hint=hint
            )
        (directory / STATE_FILE).unlink()  # stale: its nodes are gone

    def _start(self, settings: SandboxSettings, *, created: bool, progress: Callable[[str], None]) -> KafkaCluster:
        from kcli.sandbox.kafka.distribution import open_distribution

        assert settings.kafka_home is not None
        distribution = open_distribution(settings.kafka_home)
        cluster = None
        try:
            cluster = KafkaCluster.open(settings, distribution, progress=progress)
            cluster.start()
        except BaseException:
            if cluster is not None:
                cluster.stop()  # no JVM is left behind by a start that failed
            if created and not self.keep_failed:
                shutil.rmtree(settings.directory, ignore_errors=True)
            raise
        return cluster

    def up_detached(self, settings: SandboxSettings, *, created: bool, progress: Callable[[str], None]) -> Running:
        return _running(self._start(settings, created=created, progress=progress))

    def up_foreground(
        self,
        settings: SandboxSettings,
        *,
        created: bool,
        log_stream: TextIO,
        on_ready: Callable[[Running], None] | None,
        on_tick: Callable[[SandboxStatus], None] | None = None,
        progress: Callable[[str], None] = lambda _line: None,
    ) -> str | None:
        """Start the nodes, tell `on_ready`, and wait for Ctrl-C, SIGTERM or every node gone; who stopped it.

        `on_tick` is not called: each status of real nodes asks the cluster, too slow to redraw.
        """
        if on_ready is None:
            raise UsageError("--daemon is the emulator's own process: real Kafka nodes run as JVMs of their own")
        cluster = self._start(settings, created=created, progress=progress)
        on_ready(_running(cluster))
        return _wait(cluster)


def _running(cluster: KafkaCluster) -> Running:
    from kcli.sandbox.kafka.engine import KafkaEngine

    users = {**cluster.settings.users, BROKER_USER[0]: BROKER_USER[1]} if cluster.settings.security.sasl else {}
    return Running(
        directory=cluster.settings.directory,
        cluster_id=cluster.cluster_id,
        pid=None,
        bootstrap_servers=cluster.bootstrap_servers,
        security=cluster.settings.security.value,
        users=users,
        status=KafkaEngine.of(cluster).status(),
    )


def _wait(cluster: KafkaCluster) -> str:
    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, terminate)
    by = "kcli sandbox down"
    try:
        while any(cluster.running(spec.node_id) for spec in cluster.layout.nodes):
            time.sleep(POLL_S)
    except KeyboardInterrupt:
        by = "Ctrl-C"
    finally:
        signal.signal(signal.SIGTERM, previous)
    cluster.stop()
    return by
