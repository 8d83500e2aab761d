"""`KafkaSandbox`: a sandbox of real Kafka nodes for tests and scripts, beside the emulator's `Sandbox`.

    with KafkaSandbox(kafka_home, tmp_path, controllers=3, brokers=3, security="sasl_ssl") as kafka:
        kafka.bootstrap_servers      # "127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3"
        kafka.kill_node(2)           # kill -9 of broker 2

The same directory layout, settings and node ids as `kcli sandbox up --kafka-home`; the CLI and this class
share KafkaCluster, so a directory made by one is opened by the other.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path
from types import TracebackType
from typing import Any

from kcli.sandbox.kafka import faults
from kcli.sandbox.kafka.cluster import KafkaCluster, Progress, _quiet
from kcli.sandbox.kafka.distribution import open_distribution
from kcli.sandbox.settings import SandboxSettings, Security


class KafkaSandbox:
    """Real Kafka controllers and brokers (separate JVMs) on loopback."""

    def __init__(
        self,
        kafka_home: Path | str,
        directory: Path | str | None = None,
        *,
        controllers: int = 3,
        brokers: int = 3,
        combined: bool = False,
        security: str = "plaintext",
        authorizer: bool = False,
        topics: int = 0,
        partitions: int = 1,
        cluster_id: str | None = None,
        base_port: int = 0,
        release_version: str | None = None,
        racks: tuple[str, ...] | list[str] = (),
        log_dirs: int = 1,
        server_config: dict[str, str] | None = None,
        progress: Progress = _quiet,
    ) -> None:
        self._temporary = directory is None
        self.directory = (
            Path(directory) if directory is not None else Path(tempfile.mkdtemp(prefix="kcli-kafka-"))
        )
        self.settings = SandboxSettings(
            directory=self.directory,
            controllers=controllers,
            brokers=brokers,
            base_port=base_port,
            cluster_id=cluster_id,
            security=Security(security.lower()),
            authorizer=authorizer,
            topics=topics,
            partitions=partitions,
            release_version=release_version,
            racks=tuple(racks),
            log_dirs=log_dirs,
            kafka_home=Path(kafka_home),
            combined=combined,
            server_config=tuple((server_config or {}).items()),
        )
        self._progress = progress
        self.cluster: KafkaCluster | None = None

    def __enter__(self) -> KafkaSandbox:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def start(self) -> None:
        assert self.settings.kafka_home is not None
        distribution = open_distribution(self.settings.kafka_home)
        self.cluster = KafkaCluster.open(self.settings, distribution, progress=self._progress)
        try:
            self.cluster.start()
        except BaseException:
            self.cluster.stop()
            raise

    def stop(self) -> None:
        if self.cluster is not None:
            self.cluster.refresh()  # the nodes a `kcli sandbox` command restarted are stopped too
            self.cluster.stop()
        if self._temporary:
            shutil.rmtree(self.directory, ignore_errors=True)

    @property
    def _cluster(self) -> KafkaCluster:
        if self.cluster is None:
            raise RuntimeError("the sandbox is not started")
        self.cluster.refresh()  # `kcli sandbox` commands on its directory may have restarted nodes
        return self.cluster

    # ---------------------------------------------------------------- what clients need

    @property
    def cluster_id(self) -> str:
        return self._cluster.cluster_id

    @property
    def kafka_version(self) -> str:
        return self._cluster.distribution.version_text

    @property
    def bootstrap_servers(self) -> str:
        return self._cluster.bootstrap_servers

    @property
    def bootstrap_controllers(self) -> str:
        return self._cluster.bootstrap_controllers

    @property
    def broker_ids(self) -> tuple[int, ...]:
        return tuple(spec.node_id for spec in self._cluster.layout.brokers())

    @property
    def controller_ids(self) -> tuple[int, ...]:
        return tuple(spec.node_id for spec in self._cluster.layout.controllers())

    @property
    def active_controller_id(self) -> int:
        from kcli.sandbox.kafka import asking

        return asking.quorum(self._cluster.admin_config(controllers=True)).leader_id

    @property
    def ca_file(self) -> Path | None:
        tls = self._cluster.tls_dir
        return tls / "ca.pem" if tls else None

    def port_of(self, node_id: int) -> int:
        return self._cluster.layout.node(node_id).client_port

    def metadata_log_dir(self, node_id: int) -> Path:
        """DIR/<node>/__cluster_metadata-0, as in the emulator."""
        return self.directory / str(node_id) / "__cluster_metadata-0"

    def log_file(self, node_id: int) -> Path:
        return self._cluster.log_file(node_id)

    def client_settings(self, principal: str = "admin", mechanism: str = "PLAIN") -> dict[str, str]:
        return self._cluster.client_settings(principal, mechanism)

    def command_config(self, principal: str = "admin", mechanism: str = "PLAIN") -> Path:
        """A client .properties file for --command-config (kcli's and Kafka's tools alike)."""
        from kcli.sandbox.clientconfig import write_properties

        path = self.directory / f"client-{principal}-{mechanism.lower()}.properties"
        return write_properties(path, self.client_settings(principal, mechanism))

    def status(self) -> dict[str, Any]:
        return faults.status(self._cluster).to_json()

    # ---------------------------------------------------------------- faults and changes

    def stop_node(self, node_id: int) -> None:
        faults.stop_node(self._cluster, node_id)

    def kill_node(self, node_id: int) -> None:
        faults.stop_node(self._cluster, node_id, kill=True)

    def start_node(self, node_id: int) -> None:
        faults.start_node(self._cluster, node_id)

    def running(self, node_id: int) -> bool:
        return self._cluster.running(node_id)

    def failover(self) -> int:
        return faults.failover(self._cluster)

    def replace_brokers(self, *, fresh_ports: bool = False) -> dict[int, int]:
        return faults.replace_brokers(self._cluster, fresh_ports=fresh_ports)

    def add_broker(self, node_id: int | None = None) -> int:
        return faults.add_broker(self._cluster, node_id)

    def prepare_controller(self, node_id: int) -> Path:
        return faults.prepare_controller(self._cluster, node_id)

    def set_node_config(self, node_id: int, settings: dict[str, str | None]) -> None:
        """Change node `node_id`'s overrides.properties (None removes a key); a restart applies it."""
        from kcli.sandbox.kafka.server_properties import OVERRIDES_FILE, node_overrides

        current = {**node_overrides(self.directory, node_id), **settings}
        lines = [f"{key}={value}\n" for key, value in current.items() if value is not None]
        (self.directory / str(node_id) / OVERRIDES_FILE).write_text("".join(lines), encoding="utf-8")
