"""A sandbox of real Kafka nodes: create (format), start, stop, and the state other commands find.

Creating writes DIR/kafka-cluster.json (the nodes and their ports), DIR/sandbox-settings.json (what
`up` on this DIR restores), TLS material under DIR/tls when asked for, each node's server.properties,
and formats every node with Kafka's StorageTool. Starting runs the controllers, then the brokers, each
as its own JVM, and returns once every node logged that it started and every broker is unfenced.
DIR/sandbox.json then holds the pids (the running state), as the emulator's holds its process.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

from kcli.errors import KcliError
from kcli.processes import ProcessRecord
from kcli.sandbox.kafka import asking, processes
from kcli.sandbox.kafka.distribution import KafkaDistribution
from kcli.sandbox.kafka.layout import ClusterLayout, NodeSpec, load_layout, new_layout, save_layout
from kcli.sandbox.kafka.processes import node_record
from kcli.sandbox.kafka.server_properties import write_server_properties
from kcli.sandbox.kafka.storage import format_arguments, format_nodes, supports_dynamic_quorum
from kcli.sandbox.nodes import new_cluster_id, node_dir
from kcli.sandbox.settings import BROKER_USER, SandboxSettings
from kcli.sandbox.tls import generate_tls

STATE_FILE = "sandbox.json"
ENGINE = "kafka"
START_TIMEOUT_S = 180.0  # six JVMs starting on two busy cores take a while
TOPIC_PREFIX = "sandbox-topic-"

Progress = Callable[[str], None]


class KafkaSandboxError(KcliError):
    """A real-Kafka sandbox could not do what was asked."""


def _quiet(_line: str) -> None:
    return None


class KafkaCluster:
    """The real nodes of one sandbox directory."""

    def __init__(
        self,
        settings: SandboxSettings,
        distribution: KafkaDistribution,
        layout: ClusterLayout,
        *,
        launched: dict[int, ProcessRecord] | None = None,
        progress: Progress = _quiet,
    ) -> None:
        self.settings = settings
        self.distribution = distribution
        self.layout = layout
        self.launched: dict[int, ProcessRecord] = dict(launched or {})  # node id -> its running JVM
        self.progress = progress
        self.created = False

    # ---------------------------------------------------------------- creation

    @classmethod
    def open(
        cls, settings: SandboxSettings, distribution: KafkaDistribution, *, progress: Progress = _quiet
    ) -> KafkaCluster:
        """The sandbox in settings.directory, created and formatted when it has none yet."""
        directory = settings.directory
        directory.mkdir(parents=True, exist_ok=True)
        layout = load_layout(directory)
        if layout is not None:
            return cls(settings, distribution, layout, progress=progress)
        layout = new_layout(
            settings,
            cluster_id=settings.cluster_id or new_cluster_id(),
            kafka_version=distribution.version_text,
            dynamic_quorum=supports_dynamic_quorum(settings.release_version),
            combined=settings.combined,
        )
        cluster = cls(settings, distribution, layout, progress=progress)
        cluster._format(layout.nodes)
        save_layout(directory, layout)
        from kcli.sandbox.settings import save_settings

        save_settings(settings, layout.cluster_id)
        cluster.created = True
        return cluster

    @property
    def tls_dir(self) -> Path | None:
        return self.settings.directory / "tls" if self.settings.security.tls else None

    def _prepare_tls(self, node_ids: list[int]) -> None:
        """Node and client certificates (kcli.sandbox.emulator.security), and each node's PEM keystore (key + chain)."""
        tls = self.tls_dir
        if tls is None:
            return
        generate_tls(tls, node_ids)
        for node_id in node_ids:
            keystore = tls / f"node-{node_id}-keystore.pem"
            if not keystore.exists():
                keystore.write_text(
                    (tls / f"node-{node_id}.key").read_text() + (tls / f"node-{node_id}.pem").read_text()
                )
                keystore.chmod(0o600)

    def _write_properties(self, specs: tuple[NodeSpec, ...]) -> None:
        self._prepare_tls([spec.node_id for spec in specs])
        for spec in specs:
            write_server_properties(self.settings, self.layout, spec, tls_dir=self.tls_dir)

    def _format(self, specs: tuple[NodeSpec, ...], *, joining: bool = False) -> None:
        started = time.monotonic()
        self._write_properties(specs)
        scram = {**self.settings.users, BROKER_USER[0]: BROKER_USER[1]} if self.settings.security.sasl else {}
        jobs = [
            (
                spec,
                format_arguments(
                    self.layout,
                    spec,
                    self.properties(spec.node_id),
                    release_version=None if joining else self.settings.release_version,
                    scram_users={} if joining else scram,
                    joining=joining,
                ),
            )
            for spec in specs
        ]
        format_nodes(self.distribution, jobs, log4j=self.distribution.log4j_config(tools=True))
        ids = ", ".join(str(spec.node_id) for spec in specs)
        self.progress(
            f"Formatted node{'s' if len(specs) > 1 else ''} {ids} with Kafka {self.distribution.version_text}'s StorageTool ({time.monotonic() - started:.1f} s)"
        )

    # ---------------------------------------------------------------- paths and settings

    def properties(self, node_id: int) -> Path:
        return node_dir(self.settings.directory, node_id) / "server.properties"

    def log_file(self, node_id: int) -> Path:
        return node_dir(self.settings.directory, node_id) / "server.log"

    def _log4j(self) -> Path:
        """The distribution's server log4j2 file, or one of the sandbox's own (INFO to the node's log)."""
        found = self.distribution.log4j_config(tools=False)
        if found is not None:
            return found
        path = self.settings.directory / "log4j2.properties"
        if not path.exists():
            path.write_text(
                "status = warn\nappender.out.type = Console\nappender.out.name = OUT\n"
                "appender.out.layout.type = PatternLayout\nappender.out.layout.pattern = [%d] %p %m (%c)%n\n"
                "rootLogger.level = INFO\nrootLogger.appenderRef.out.ref = OUT\n",
                encoding="utf-8",
            )
        return path

    def client_settings(self, principal: str = "admin", mechanism: str = "PLAIN") -> dict[str, str]:
        from kcli.sandbox.clientconfig import client_settings

        return client_settings(
            self.settings.directory,
            self.settings.security,
            self.settings.users,
            principal=principal,
            mechanism=mechanism,
        )

    def admin_config(self, *, controllers: bool = False, timeout_ms: int = asking.QUESTION_TIMEOUT_MS) -> Any:
        if controllers:
            key, bootstrap = "bootstrap.controllers", self.bootstrap_controllers
        else:
            key, bootstrap = "bootstrap.servers", self.bootstrap_servers
        return asking.client_config(
            self.client_settings(), bootstrap_key=key, bootstrap=bootstrap, timeout_ms=timeout_ms
        )

    @property
    def cluster_id(self) -> str:
        return self.layout.cluster_id

    @property
    def bootstrap_servers(self) -> str:
        return self.layout.bootstrap_servers()

    @property
    def bootstrap_controllers(self) -> str:
        return self.layout.bootstrap_controllers()

    # ---------------------------------------------------------------- running

    def refresh(self) -> None:
        """The running nodes as DIR/sandbox.json has them now: a `kcli sandbox` command beside this one
        may have stopped or restarted some."""
        if (self.settings.directory / STATE_FILE).exists():
            self.launched = launched_processes(self.settings.directory)

    def running(self, node_id: int) -> bool:
        record = self.launched.get(node_id)
        return record is not None and processes.is_node(record)

    def start(self, *, timeout: float = START_TIMEOUT_S) -> None:
        """Start every node that is not running (controllers first) and wait until the cluster serves."""
        deadline = time.monotonic() + timeout
        self._write_properties(self.layout.nodes)  # settings such as --authorizer may differ on reopen
        controllers = [s for s in self.layout.controllers() if not self.running(s.node_id)]
        brokers = [s for s in self.layout.brokers() if not s.is_controller and not self.running(s.node_id)]
        for group, kind in ((controllers, "controller"), (brokers, "broker")):
            if group:
                self._start_group(group, kind, deadline)
        self._wait_brokers_unfenced(deadline)
        self.write_state()
        if self.created and self.settings.topics:
            self._create_topics()

    def _start_group(self, specs: list[NodeSpec], kind: str, deadline: float) -> None:
        began = time.monotonic()
        ids = ", ".join(str(s.node_id) for s in specs)
        plural = "s" if len(specs) > 1 else ""
        self.progress(f"Starting Kafka {self.distribution.version_text} {kind}{plural} {ids} ...")
        log4j = self._log4j()
        runs = []
        for spec in specs:
            started = processes.start(
                self.distribution, self.properties(spec.node_id), self.log_file(spec.node_id), log4j=log4j
            )
            self.launched[spec.node_id] = started.record
            runs.append((spec, started))
        self.write_state()  # a failed start can still be stopped with `sandbox down`
        for spec, started in runs:
            processes.wait_ready(started, deadline=deadline, what=f"Kafka node {spec.node_id}")
        self.progress(f"  {kind}{plural} {ids} started ({time.monotonic() - began:.1f} s)")

    def _wait_brokers_unfenced(self, deadline: float) -> None:
        wanted = {s.node_id for s in self.layout.brokers() if self.running(s.node_id)}
        if not wanted:
            return
        config = self.admin_config()
        asking.wait_for(
            lambda: True if wanted <= asking.unfenced_brokers(config) else None,
            deadline=deadline,
            what=f"brokers {', '.join(map(str, sorted(wanted)))} registered and unfenced",
        )

    def _create_topics(self) -> None:
        brokers = len(self.layout.brokers())
        names = [f"{TOPIC_PREFIX}{index:05d}" for index in range(self.settings.topics)]
        asking.create_topics(
            self.admin_config(),
            names,
            partitions=self.settings.partitions,
            replication_factor=min(3, brokers),
        )
        self.progress(
            f"Created {len(names)} topic{'s' if len(names) > 1 else ''} with {self.settings.partitions} partition(s) each"
        )

    def stop(self) -> None:
        """Stop every node (brokers first, so their controlled shutdown finds the controllers) and forget the state."""
        for specs in (
            [s for s in self.layout.brokers() if not s.is_controller],
            list(self.layout.controllers()),
        ):
            for spec in specs:
                record = self.launched.get(spec.node_id)
                if record is not None:
                    processes.stop(record)
        self.launched.clear()
        (self.settings.directory / STATE_FILE).unlink(missing_ok=True)

    # ---------------------------------------------------------------- state

    def state(self) -> dict[str, Any]:
        """sandbox.json: the emulator's keys where they mean the same, plus the engine and each node's pid."""
        ca = self.tls_dir / "ca.pem" if self.tls_dir else None
        return {
            "engine": ENGINE,
            "directory": str(self.settings.directory),
            "kafka_home": str(self.distribution.home),
            "kafka_version": self.distribution.version_text,
            "cluster_id": self.cluster_id,
            "security": self.settings.security.value,
            "bootstrap_servers": self.bootstrap_servers,
            "bootstrap_controllers": self.bootstrap_controllers,
            "users": {**self.settings.users, BROKER_USER[0]: BROKER_USER[1]}
            if self.settings.security.sasl
            else {},
            "ca_file": str(ca) if ca else None,
            "nodes": [
                {
                    "id": spec.node_id,
                    "role": spec.role,
                    "host": self.layout.host,
                    "port": spec.client_port,
                    "controller_port": spec.controller_port,
                    "pid": self.pid_of(spec.node_id),
                    "pid_started": self.started_of(spec.node_id),
                }
                for spec in self.layout.nodes
            ],
        }

    def pid_of(self, node_id: int) -> int | None:
        record = self.launched.get(node_id)
        return record.pid if record is not None else None

    def started_of(self, node_id: int) -> str | None:
        record = self.launched.get(node_id)
        return record.started if record is not None else None

    def write_state(self) -> None:
        path = self.settings.directory / STATE_FILE
        temporary = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        temporary.write_text(json.dumps(self.state(), indent=2) + "\n", encoding="utf-8")
        temporary.chmod(0o600)  # holds the users' passwords
        os.replace(temporary, path)

    def save_layout(self, layout: ClusterLayout) -> None:
        self.layout = layout
        save_layout(self.settings.directory, layout)

    def with_settings(self, **changes: Any) -> KafkaCluster:
        return KafkaCluster(
            replace(self.settings, **changes),
            self.distribution,
            self.layout,
            launched=self.launched,
            progress=self.progress,
        )


def launched_processes(directory: Path) -> dict[int, ProcessRecord]:
    """The JVM sandbox.json recorded for each node (alive or not: KafkaCluster.running checks)."""
    from kcli.files import read_text

    path = directory / STATE_FILE
    if not path.exists():
        return {}
    try:
        data = json.loads(read_text(path, what="sandbox state file"))
        found: dict[int, ProcessRecord] = {}
        for node in data["nodes"]:
            if node.get("pid") is None:
                continue
            node_id = int(node["id"])
            pid = ProcessRecord.from_json(node["pid"], node.get("pid_started")).pid
            properties = node_dir(directory, node_id) / "server.properties"
            found[node_id] = node_record(pid, node.get("pid_started"), properties)
        return found
    except (ValueError, KeyError, TypeError) as error:
        raise KafkaSandboxError(f"{path} is not a sandbox state file: {error}") from None
