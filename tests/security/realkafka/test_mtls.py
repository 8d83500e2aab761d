"""mTLS against a real Kafka broker (ssl.client.auth=required) with JKS and PKCS12 stores made by keytool.

The same client.properties goes to Kafka's own kafka-cluster.sh and to kcli: both succeed and agree
on the cluster id; both fail for a wrong keystore password, kcli with one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.security.keytool_pki import STORE_PASSWORD, TRUST_PASSWORD, KeytoolPki
from tests.security.realkafka.conftest import one_error_line
from tests.security.realkafka.kafka_node import KafkaNode, running_node, write_properties
from tests.security.test_tls_stores import jks_props, pkcs12_props

pytest.importorskip("jks", reason="kcli-kafka[keystores] is not installed")


@pytest.fixture(scope="module")
def broker(kafka_dist: Path, pki: KeytoolPki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaNode]:
    settings = {
        "ssl.keystore.type": "PKCS12",
        "ssl.keystore.location": str(pki.keystore("server", "p12")),
        "ssl.keystore.password": STORE_PASSWORD,
        "ssl.truststore.type": "JKS",
        "ssl.truststore.location": str(pki.truststore("jks")),
        "ssl.truststore.password": TRUST_PASSWORD,
        "ssl.client.auth": "required",
    }
    with running_node(tmp_path_factory.mktemp("kafka-mtls"), client_protocol="SSL", settings=settings) as node:
        yield node


def kafka_cluster_id(broker: KafkaNode, config: Path) -> tuple[int, str]:
    result = broker.tool("kafka-cluster.sh", "cluster-id", "--bootstrap-server", broker.bootstrap, "--command-config", str(config))
    return result.returncode, result.stdout + result.stderr


@pytest.mark.parametrize("stores", ["jks", "pkcs12"])
def test_kafka_tool_and_kcli_agree_with_the_same_file(broker: KafkaNode, pki: KeytoolPki, tmp_path: Path, stores: str) -> None:
    props = jks_props(pki) if stores == "jks" else pkcs12_props(pki)
    config = write_properties(tmp_path / "client.properties", props)
    code, output = kafka_cluster_id(broker, config)
    assert code == 0, output
    assert f"Cluster ID: {broker.cluster_id}" in output
    result = invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config))
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {broker.cluster_id}"
    features = invoke("features", "-b", broker.bootstrap, "-c", str(config), "describe")
    assert features.code == 0, features.stderr
    assert "metadata.version" in features.stdout


def test_both_fail_for_a_wrong_keystore_password(broker: KafkaNode, pki: KeytoolPki, tmp_path: Path) -> None:
    config = write_properties(
        tmp_path / "client.properties", {**pkcs12_props(pki), "ssl.keystore.password": "wrong-pw-7781"}
    )
    code, output = kafka_cluster_id(broker, config)
    assert code != 0 and "keystore" in output.lower(), output
    line = one_error_line(invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config)), code=2)
    assert "ssl.keystore.password is wrong" in line and "wrong-pw-7781" not in line


def test_both_fail_without_a_client_certificate(broker: KafkaNode, pki: KeytoolPki, tmp_path: Path) -> None:
    props = {k: v for k, v in jks_props(pki).items() if not k.startswith(("ssl.keystore", "ssl.key."))}
    config = write_properties(tmp_path / "client.properties", {**props, "default.api.timeout.ms": "8000",
                                                                "request.timeout.ms": "4000"})  # fmt: skip
    code, output = kafka_cluster_id(broker, config)
    assert code != 0, output
    line = one_error_line(invoke("cluster-id", "-b", broker.bootstrap, "-c", str(config)), code=1)
    assert "client certificate" in line
