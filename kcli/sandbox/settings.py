"""What a sandbox is asked to be: sizes, ports, security, and the users it knows."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

BROKER_ID_BASE = 1
CONTROLLER_ID_BASE = 101
CONTROLLER_ID_FLOOR = 100  # node ids below are brokers (how `up` tells the kinds apart on replay)
HOST = "127.0.0.1"


class Security(enum.StrEnum):
    """The security protocol of every listener (brokers and controllers alike)."""

    PLAINTEXT = "plaintext"
    SASL_PLAINTEXT = "sasl_plaintext"
    SSL = "ssl"
    SASL_SSL = "sasl_ssl"

    @property
    def protocol_name(self) -> str:
        return self.value.upper()

    @property
    def protocol_id(self) -> int:
        """SecurityProtocol id as written in RegisterBrokerRecord endpoints."""
        return {"plaintext": 0, "ssl": 1, "sasl_plaintext": 2, "sasl_ssl": 3}[self.value]

    @property
    def sasl(self) -> bool:
        return self in (Security.SASL_PLAINTEXT, Security.SASL_SSL)

    @property
    def tls(self) -> bool:
        return self in (Security.SSL, Security.SASL_SSL)


# The users every sandbox knows (PLAIN passwords and SCRAM credentials); admin is a super user.
DEFAULT_USERS: dict[str, str] = {"admin": "admin-secret", "alice": "alice-secret", "bob": "bob-secret"}
BROKER_USER = ("broker", "broker-secret")
# The internal topics' replication factors (Kafka's default 3) and minimum ISRs (default 2): what the
# nodes of a sandbox with fewer than 3 brokers set to its broker count, in both engines.
INTERNAL_TOPIC_FACTORS = (
    "offsets.topic.replication.factor",
    "transaction.state.log.replication.factor",
    "share.coordinator.state.topic.replication.factor",
)
INTERNAL_TOPIC_MIN_ISR = ("transaction.state.log.min.isr", "share.coordinator.state.topic.min.isr")
# AWS IAM access keys whose MSK IAM signatures the sandbox accepts (test values, not real AWS keys).
DEFAULT_IAM_USERS: dict[str, str] = {"AKIAKCLISANDBOX00001": "kcli-sandbox-iam-secret-key"}


@dataclass(frozen=True, slots=True, kw_only=True)
class SandboxSettings:
    """The shape of one sandbox cluster."""

    directory: Path
    controllers: int = 3
    brokers: int = 3
    base_port: int = 0  # 0: every listener takes a free port
    cluster_id: str | None = None
    security: Security = Security.PLAINTEXT
    authorizer: bool = False
    topics: int = 0
    partitions: int = 1
    records_per_partition: int = 0  # emulator: records written to each --topics partition at creation
    compression: str = "none"  # the codec of those records' batches (none, gzip, snappy, lz4, zstd)
    replication_factor: int | None = None  # default: min(3, brokers)
    release_version: str | None = None  # metadata.version of a new sandbox (default: latest production)
    racks: tuple[str, ...] = ()  # broker.rack of each broker, round-robin by broker id (empty: no racks)
    log_dirs: int = 1  # simulated log directories per broker (JBOD, KIP-858)
    kafka_home: Path | None = None  # real Kafka nodes from this distribution; None: the emulator
    combined: bool = (
        False  # real Kafka only: the controllers are brokers too (process.roles=broker,controller)
    )
    server_config: tuple[tuple[str, str], ...] = ()  # real Kafka only: server.properties of every node
    host: str = HOST
    users: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_USERS))
    iam_users: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_IAM_USERS))
    snapshot_every_bytes: int = 20 * 1024 * 1024  # metadata.log.max.record.bytes.between.snapshots

    @property
    def super_users(self) -> tuple[str, ...]:
        users = ["User:admin", f"User:{BROKER_USER[0]}", "User:CN=broker"]
        if self.security is Security.PLAINTEXT:
            # Without SASL or TLS the brokers' forwarding connections are ANONYMOUS; a Kafka
            # operator has to make that principal a super user too.
            users.append("User:ANONYMOUS")
        return tuple(users)

    def broker_ids(self) -> tuple[int, ...]:
        return tuple(range(BROKER_ID_BASE, BROKER_ID_BASE + self.brokers))

    def rack_of(self, broker_id: int) -> str | None:
        """The rack of a broker: racks round-robin by id (replacement brokers continue the rotation)."""
        if not self.racks:
            return None
        return self.racks[(broker_id - BROKER_ID_BASE) % len(self.racks)]

    def controller_ids(self) -> tuple[int, ...]:
        return tuple(range(CONTROLLER_ID_BASE, CONTROLLER_ID_BASE + self.controllers))


# ---------------------------------------------------------------- what a sandbox was created with

SAVED_SETTINGS = "sandbox-settings.json"
SAVED_VERSION = 1
# Taken again by `up` on an existing directory unless a flag overrides them for that run.
REOPENED = ("base_port", "security", "authorizer", "racks", "kafka_home", "server_config")
# Fixed when the sandbox is created: the metadata log decides them afterwards.
CREATION_ONLY = (
    "controllers",
    "brokers",
    "topics",
    "partitions",
    "records_per_partition",
    "compression",
    "cluster_id",
    "release_version",
    "log_dirs",
    "combined",
)


def saved_fields(settings: SandboxSettings, cluster_id: str) -> dict[str, object]:
    """The settings a sandbox is reopened with, as JSON values (racks as a comma-separated string)."""
    return {
        "version": SAVED_VERSION,
        "controllers": settings.controllers,
        "brokers": settings.brokers,
        "base_port": settings.base_port,
        "cluster_id": cluster_id,
        "security": settings.security.value,
        "authorizer": settings.authorizer,
        "topics": settings.topics,
        "partitions": settings.partitions,
        "records_per_partition": settings.records_per_partition,
        "compression": settings.compression,
        "racks": ",".join(settings.racks) or None,
        "log_dirs": settings.log_dirs,
        "release_version": settings.release_version,
        "kafka_home": str(settings.kafka_home) if settings.kafka_home else None,
        "combined": settings.combined,
        "server_config": dict(settings.server_config) or None,
    }


def save_settings(settings: SandboxSettings, cluster_id: str) -> None:
    """Write DIR/sandbox-settings.json (atomically) when a sandbox is created."""
    import json
    import os

    path = settings.directory / SAVED_SETTINGS
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(saved_fields(settings, cluster_id), indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)


def load_settings(directory: Path) -> dict[str, object] | None:
    """The saved settings of the sandbox in `directory` (None when it has none; ValueError when unreadable)."""
    import json

    from kcli.files import read_text

    path = directory / SAVED_SETTINGS
    if not path.exists():
        return None
    try:
        data = json.loads(read_text(path, what="sandbox settings file"))
    except RecursionError:
        raise ValueError("it nests deeper than any settings file kcli writes") from None
    if not isinstance(data, dict) or data.get("version") != SAVED_VERSION:
        raise ValueError(f"{path} is not a sandbox settings file of version {SAVED_VERSION}")
    return data


def flag_text(name: str, value: object) -> str:
    """How a setting is written as a flag of `kcli sandbox up`."""
    flag = "--" + name.replace("_", "-")
    if isinstance(value, bool):
        return flag if value else f"--no-{name.replace('_', '-')}"
    return f"{flag} {value if value is not None else '(none)'}"


def reopen(
    saved: dict[str, object], given: dict[str, object], explicit: set[str]
) -> tuple[dict[str, object], list[str]]:
    """Options for reopening a sandbox: the saved ones, with explicit flags overriding REOPENED ones.

    Returns the options and one note per explicit flag that overrides a saved value or is ignored
    (CREATION_ONLY settings belong to the existing metadata log).
    """
    options = dict(given)
    notes: list[str] = []
    for name in (*REOPENED, *CREATION_ONLY):
        if name not in saved:
            continue
        before = saved[name]
        if name not in explicit:
            options[name] = before
        elif given.get(name) != before:
            if name in REOPENED:
                notes.append(
                    f"{flag_text(name, given.get(name))} overrides {flag_text(name, before)} "
                    "that the sandbox was created with (for this run)"
                )
            else:
                notes.append(
                    f"{flag_text(name, given.get(name))} ignored: the sandbox was created with "
                    f"{flag_text(name, before)} and its metadata log decides"
                )
                options[name] = before
    return options, notes
