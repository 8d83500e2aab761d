"""What a sandbox is asked to be: sizes, ports, security, and the users it knows."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from pathlib import Path

BROKER_ID_BASE = 1
CONTROLLER_ID_BASE = 101
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
    replication_factor: int | None = None  # default: min(3, brokers)
    release_version: str | None = None  # metadata.version of a new sandbox (default: latest production)
    racks: tuple[str, ...] = ()  # broker.rack of each broker, round-robin by broker id (empty: no racks)
    log_dirs: int = 1  # simulated log directories per broker (JBOD, KIP-858)
    host: str = HOST
    users: dict[str, str] = field(default_factory=lambda: dict(DEFAULT_USERS))
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
