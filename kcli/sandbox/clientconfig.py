"""The client settings that reach a sandbox as one of its users: what its .properties files and profiles hold."""

from __future__ import annotations

from pathlib import Path

from kcli.sandbox.settings import BROKER_USER, Security

PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"
SCRAM_MODULE = "org.apache.kafka.common.security.scram.ScramLoginModule"


class UnknownUser(ValueError):
    """A principal the sandbox has no password for."""


def client_settings(
    directory: Path,
    security: Security,
    users: dict[str, str],
    *,
    principal: str = "admin",
    mechanism: str = "PLAIN",
) -> dict[str, str]:
    """Kafka client settings (no bootstrap) for `principal` on the sandbox in `directory`.

    With TLS and a client certificate for the principal, its PEM keystore (key and chain in one
    file, as Kafka's PEM keystore expects) is written next to the certificate.
    """
    settings = {"security.protocol": security.protocol_name}
    if security.sasl:
        password = {**users, BROKER_USER[0]: BROKER_USER[1]}.get(principal)
        if password is None:
            raise UnknownUser(f"unknown sandbox user {principal!r}")
        module = PLAIN_MODULE if mechanism == "PLAIN" else SCRAM_MODULE
        settings["sasl.mechanism"] = mechanism
        settings["sasl.jaas.config"] = f'{module} required username="{principal}" password="{password}";'
    if security.tls:
        tls = directory / "tls"
        settings["ssl.truststore.type"] = "PEM"
        settings["ssl.truststore.location"] = str(tls / "ca.pem")
        settings["ssl.endpoint.identification.algorithm"] = ""
        certificate = tls / f"client-{principal}.pem"
        if certificate.exists():
            keystore = tls / f"client-{principal}-keystore.pem"
            keystore.write_text((tls / f"client-{principal}.key").read_text() + certificate.read_text())
            keystore.chmod(0o600)
            settings["ssl.keystore.type"] = "PEM"
            settings["ssl.keystore.location"] = str(keystore)
    return settings


def write_properties(path: Path, settings: dict[str, str]) -> Path:
    """`settings` as a client .properties file (readable by its owner only: it may hold a password)."""
    path.write_text("".join(f"{key}={value}\n" for key, value in settings.items()), encoding="utf-8")
    path.chmod(0o600)
    return path
