"""The suite against a real cluster: the one the environment names, else real Kafka started for the session.

    KCLI_TEST_BOOTSTRAP_SERVER=k1:9092          brokers (naming a cluster of your own)
    KCLI_TEST_BOOTSTRAP_CONTROLLER=c1:9093      controllers (optional: the KIP-919 tests need it)
    KCLI_TEST_COMMAND_CONFIG=client.properties  security settings for both (optional)

Without KCLI_TEST_BOOTSTRAP_SERVER the suite runs against `real_kafka` (tests/fixtures_kafka.py): Apache
Kafka 4.4.0 from Maven Central, 3 controllers + 3 brokers, SASL_SSL, SCRAM users and the StandardAuthorizer.

The suite only reads, except on a topic it creates for itself (kcli-realcluster-<random>) and
deletes afterwards, and the ACLs and configs it sets on that topic.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from kcli.properties import read_properties_file

NAMED_CLUSTER_ENV = "KCLI_TEST_BOOTSTRAP_SERVER"


@dataclass(frozen=True)
class RealCluster:
    bootstrap_server: str
    bootstrap_controller: str | None
    command_config: str | None

    def broker_args(self) -> list[str]:
        return ["--bootstrap-server", self.bootstrap_server, *self._config_args()]

    def controller_args(self) -> list[str]:
        assert self.bootstrap_controller is not None
        return ["--bootstrap-controller", self.bootstrap_controller, *self._config_args()]

    def _config_args(self) -> list[str]:
        return ["--command-config", self.command_config] if self.command_config else []

    def peer_admin(self) -> Any:
        """kafka-python's admin client, as an independent check of what kcli did."""
        from kafka.admin import KafkaAdminClient

        props = read_properties_file(Path(self.command_config)) if self.command_config else {}
        options: dict[str, Any] = {"bootstrap_servers": self.bootstrap_server, "request_timeout_ms": 15000}
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
        return KafkaAdminClient(**options)


@pytest.fixture(scope="session")
def real_cluster(request: pytest.FixtureRequest) -> RealCluster:
    if os.environ.get(NAMED_CLUSTER_ENV):
        return RealCluster(
            bootstrap_server=os.environ[NAMED_CLUSTER_ENV],
            bootstrap_controller=os.environ.get("KCLI_TEST_BOOTSTRAP_CONTROLLER") or None,
            command_config=os.environ.get("KCLI_TEST_COMMAND_CONFIG") or None,
        )
    kafka = request.getfixturevalue("real_kafka")
    return RealCluster(
        bootstrap_server=kafka.bootstrap_servers,
        bootstrap_controller=kafka.bootstrap_controllers,
        command_config=str(kafka.command_config()),
    )


@pytest.fixture(scope="session")
def scratch_topic(real_cluster: RealCluster) -> Iterator[str]:
    """A topic of the suite's own (3 partitions, replication factor 1), deleted afterwards."""
    from kafka.admin import NewTopic

    name = f"kcli-realcluster-{uuid.uuid4().hex[:10]}"
    admin = real_cluster.peer_admin()
    try:
        admin.create_topics([NewTopic(name, 3, 1)])
        yield name
    finally:
        admin.delete_topics([name])
        admin.close()
