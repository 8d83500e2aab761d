"""The independent readers the real-cluster suite checks kcli against, and kcli run as a process.

- `peer_admin(bootstrap, command_config)`: kafka-python's KafkaAdminClient with the same client settings
  kcli is given (SASL PLAIN or SCRAM, TLS with a PEM CA), fast enough to read back after every change.
- `kafka_tool(home, "kafka-configs.sh", ...)`: one of Kafka's own tools from the distribution the cluster
  runs, for what kafka-python cannot read (quotas, controllers, the metadata log). Each run is a JVM
  (several seconds on a busy machine), so the suite calls them sparingly.
- `kcli_process(...)`: kcli in a child process, for tests that kill nodes while it runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kcli.properties import read_properties_file

KAFKA_TOOL_TIMEOUT_S = 180.0
PEER_TIMEOUT_MS = 20000


def client_options(command_config: str | Path | None) -> dict[str, Any]:
    """kafka-python's options for the settings of a client .properties file."""
    props: Mapping[str, str] = read_properties_file(Path(command_config)) if command_config else {}
    options: dict[str, Any] = {}
    if "security.protocol" in props:
        options["security_protocol"] = props["security.protocol"]
    if "sasl.mechanism" in props:
        options["sasl_mechanism"] = props["sasl.mechanism"]
        username, password = props.get("sasl.username"), props.get("sasl.password")
        if "sasl.jaas.config" in props:
            from kcli.client.jaas import parse_jaas

            jaas = parse_jaas(props["sasl.jaas.config"]).options
            username, password = jaas.get("username"), jaas.get("password")
        options["sasl_plain_username"] = username
        options["sasl_plain_password"] = password
    if props.get("ssl.truststore.type", "").upper() == "PEM" and "ssl.truststore.location" in props:
        options["ssl_cafile"] = props["ssl.truststore.location"]
        options["ssl_check_hostname"] = bool(props.get("ssl.endpoint.identification.algorithm", "https"))
    return options


def peer_admin(bootstrap_servers: str, command_config: str | Path | None) -> Any:
    """kafka-python's admin client on the brokers, as an independent check of what kcli did."""
    from kafka.admin import KafkaAdminClient

    return KafkaAdminClient(
        bootstrap_servers=bootstrap_servers,
        request_timeout_ms=PEER_TIMEOUT_MS,
        **client_options(command_config),
    )


def peer_consumer(bootstrap_servers: str, command_config: str | Path | None, **options: Any) -> Any:
    from kafka import KafkaConsumer

    return KafkaConsumer(
        bootstrap_servers=bootstrap_servers,
        request_timeout_ms=PEER_TIMEOUT_MS,
        **client_options(command_config),
        **options,
    )


def peer_producer(bootstrap_servers: str, command_config: str | Path | None) -> Any:
    from kafka import KafkaProducer

    return KafkaProducer(
        bootstrap_servers=bootstrap_servers,
        request_timeout_ms=PEER_TIMEOUT_MS,
        **client_options(command_config),
    )


def topic_configs(admin: Any, topic: str) -> dict[str, str]:
    """Every config of `topic` as kafka-python reads it (name -> value)."""
    from kafka.admin import ConfigResource, ConfigResourceType

    result = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)], config_filter="all")
    (entries,) = next(iter(result.values())).values()
    return {key: entry["value"] for key, entry in entries.items()}


def broker_configs(admin: Any, broker: str) -> dict[str, dict[str, Any]]:
    """Every config of broker `broker` ("" for the cluster default) as kafka-python reads it."""
    from kafka.admin import ConfigResource, ConfigResourceType

    result = admin.describe_configs([ConfigResource(ConfigResourceType.BROKER, broker)], config_filter="all")
    (entries,) = next(iter(result.values())).values()
    return dict(entries)


def kafka_tool(home: Path, tool: str, *args: str, timeout: float = KAFKA_TOOL_TIMEOUT_S) -> subprocess.CompletedProcess[str]:
    """Run Kafka's own `tool` (e.g. kafka-configs.sh) from distribution `home`."""
    return subprocess.run(
        [str(home / "bin" / tool), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def kcli_process(*args: str, env: Mapping[str, str] | None = None) -> subprocess.Popen[str]:
    """`kcli ARGS...` as a child process (stdout and stderr piped), for faults injected while it runs."""
    environment = {
        **{k: v for k, v in os.environ.items() if not k.startswith("KCLI_")},
        "NO_COLOR": "1",
        "KCLI_CONFIG": "/nonexistent/kcli.toml",
        **(env or {}),
    }
    return subprocess.Popen(
        [sys.executable, "-m", "kcli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        env=environment,
    )


def client_quotas(admin: Any, entity_type: str) -> dict[tuple[tuple[str, str | None], ...], dict[str, float]]:
    """Every client quota whose entity includes `entity_type` (user, client-id or ip), read with
    kafka-python's DescribeClientQuotas: {((type, name or None for the default), ...): {key: value}}."""
    from kafka.protocol.admin.client_quotas import DescribeClientQuotasRequest

    async def send(request: Any) -> Any:
        return await admin._manager.send(request)

    match_any = 2
    response = admin._manager.run(
        send, DescribeClientQuotasRequest(components=[(entity_type, match_any, None)], strict=False)
    )
    assert response.error_code == 0, response
    return {
        tuple(sorted((e.entity_type, e.entity_name) for e in entry.entity)): {
            v.key: v.value for v in entry.values
        }
        for entry in response.entries
    }


def scram_users(admin: Any) -> dict[str, dict[str, int]]:
    """Every user with SCRAM credentials: {user: {mechanism name: iterations}} (kafka-python)."""
    described = admin.describe_user_scram_credentials()
    return {
        user: {info["mechanism"].name.replace("_", "-"): info["iterations"] for info in data["credential_infos"]}
        for user, data in described.items()
        if data["error"] is None
    }
