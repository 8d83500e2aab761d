"""SASL/GSSAPI against a real Kafka broker and a real MIT KDC started on loopback for the test.

The broker has a SASL_PLAINTEXT and a SASL_SSL listener with GSSAPI, logged in from its own keytab
(kafka/localhost@KCLI.TEST). The same client.properties goes to Kafka's kafka-cluster.sh (krb5.conf
through -Djava.security.krb5.conf in KAFKA_OPTS) and to kcli (KRB5_CONFIG): both succeed with a
keytab and with a ticket cache, and both fail for a missing keytab, a principal the keytab does not
hold and a missing service name, kcli with one line.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.security.kdc import REALM, Kdc, kdc_available, running_kdc
from tests.security.keytool_pki import STORE_PASSWORD, TRUST_PASSWORD, KeytoolPki
from tests.security.realkafka.conftest import one_error_line
from tests.security.realkafka.kafka_node import KafkaNode, running_node, write_properties

pytest.importorskip("gssapi", reason="kcli-kafka[kerberos] (gssapi) is not installed")
KRB5_MODULE = "com.sun.security.auth.module.Krb5LoginModule"


@pytest.fixture(scope="module")
def kdc(kafka_dist: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Kdc]:
    missing = kdc_available()
    if missing:
        pytest.skip(missing)
    with running_kdc(tmp_path_factory.mktemp("kdc")) as server:
        yield server


@pytest.fixture(scope="module")
def krb5_env(kdc: Kdc) -> Iterator[None]:
    """kcli runs in this process: MIT Kerberos finds the test's krb5.conf through KRB5_CONFIG."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("KRB5_CONFIG", str(kdc.krb5_conf))
        patch.setenv("KRB5CCNAME", f"FILE:{kdc.directory}/no-default-cache")
        yield


@pytest.fixture(scope="module")
def broker(kdc: Kdc, pki: KeytoolPki, tmp_path_factory: pytest.TempPathFactory) -> Iterator[KafkaNode]:
    directory = tmp_path_factory.mktemp("kafka-gssapi")
    keytab = directory / "kafka.keytab"
    principal = kdc.add_principal("kafka/localhost", keytab)
    jaas = f'{KRB5_MODULE} required useKeyTab=true storeKey=true keyTab="{keytab}" principal="{principal}";'
    settings = {
        "sasl.enabled.mechanisms": "GSSAPI",
        "sasl.kerberos.service.name": "kafka",
        "listener.name.client.gssapi.sasl.jaas.config": jaas,
        "listener.name.secure.gssapi.sasl.jaas.config": jaas,
        "ssl.keystore.type": "PKCS12",
        "ssl.keystore.location": str(pki.keystore("server", "p12")),
        "ssl.keystore.password": STORE_PASSWORD,
    }
    with running_node(
        directory,
        client_protocol="SASL_PLAINTEXT",
        settings=settings,
        extra_listeners={"SECURE": "SASL_SSL"},
        kafka_opts=f"-Djava.security.krb5.conf={kdc.krb5_conf}",
    ) as node:
        yield node


@pytest.fixture(scope="module")
def client_keytab(kdc: Kdc, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, Path]:
    keytab = tmp_path_factory.mktemp("client") / "client.keytab"
    return kdc.add_principal("kcli-client", keytab), keytab


def gssapi_props(jaas_options: str, *, protocol: str = "SASL_PLAINTEXT", service: str | None = "kafka") -> dict[str, str]:
    props = {
        "security.protocol": protocol,
        "sasl.mechanism": "GSSAPI",
        "sasl.jaas.config": f"{KRB5_MODULE} required {jaas_options};",
    }
    if service:
        props["sasl.kerberos.service.name"] = service
    return props


def both(broker: KafkaNode, kdc: Kdc, config: Path, bootstrap: str) -> tuple[tuple[int, str], object]:
    tool = broker.tool("kafka-cluster.sh", "cluster-id", "--bootstrap-server", bootstrap, "--command-config",
                       str(config), kafka_opts=f"-Djava.security.krb5.conf={kdc.krb5_conf}")  # fmt: skip
    return (tool.returncode, tool.stdout + tool.stderr), invoke("cluster-id", "-b", bootstrap, "-c", str(config))


def test_keytab_login_over_sasl_plaintext_and_sasl_ssl(
    broker: KafkaNode, kdc: Kdc, krb5_env: None, client_keytab: tuple[str, Path], pki: KeytoolPki, tmp_path: Path
) -> None:
    principal, keytab = client_keytab
    options = f'useKeyTab=true storeKey=true keyTab="{keytab}" principal="{principal}"'
    plain = write_properties(tmp_path / "plain.properties", gssapi_props(options))
    (code, output), result = both(broker, kdc, plain, broker.bootstrap)
    assert code == 0 and f"Cluster ID: {broker.cluster_id}" in output, output
    assert result.code == 0, result.stderr  # type: ignore[attr-defined]
    assert result.stdout.strip() == f"Cluster ID: {broker.cluster_id}"  # type: ignore[attr-defined]
    features = invoke("features", "-b", broker.bootstrap, "-c", str(plain), "describe")
    assert features.code == 0 and "metadata.version" in features.stdout, features.stderr

    secure = write_properties(tmp_path / "secure.properties", {
        **gssapi_props(options, protocol="SASL_SSL"),
        "ssl.truststore.location": str(pki.truststore("jks")),
        "ssl.truststore.password": TRUST_PASSWORD,
    })  # fmt: skip
    (code, output), result = both(broker, kdc, secure, broker.bootstrap_of("SECURE"))
    assert code == 0 and f"Cluster ID: {broker.cluster_id}" in output, output
    assert result.code == 0, result.stderr  # type: ignore[attr-defined]


def test_ticket_cache_login(
    broker: KafkaNode, kdc: Kdc, krb5_env: None, client_keytab: tuple[str, Path], tmp_path: Path
) -> None:
    principal, keytab = client_keytab
    cache = tmp_path / "ccache"
    kdc.kinit(principal, keytab, cache)
    config = write_properties(
        tmp_path / "c.properties", gssapi_props(f'useTicketCache=true ticketCache="{cache}" principal="{principal}"')
    )
    (code, output), result = both(broker, kdc, config, broker.bootstrap)
    assert code == 0, output
    assert result.code == 0, result.stderr  # type: ignore[attr-defined]


def test_both_fail_alike(
    broker: KafkaNode, kdc: Kdc, krb5_env: None, client_keytab: tuple[str, Path], tmp_path: Path
) -> None:
    principal, keytab = client_keytab
    cases = [
        (f'useKeyTab=true keyTab="{tmp_path}/missing.keytab" principal="{principal}"', "kafka", 2, "does not exist"),
        (f'useKeyTab=true keyTab="{keytab}" principal="someone-else@{REALM}"', "kafka", 1, "Kerberos login as someone-else"),
        (f'useKeyTab=true keyTab="{keytab}" principal="{principal}"', None, 2, "sasl.kerberos.service.name is not set"),
    ]
    for options, service, code, expected in cases:
        props = {**gssapi_props(options, service=service), "default.api.timeout.ms": "15000"}
        config = write_properties(tmp_path / "c.properties", props)
        (tool_code, output), result = both(broker, kdc, config, broker.bootstrap)
        assert tool_code != 0, (options, output)
        line = one_error_line(result, code=code)  # type: ignore[arg-type]
        assert expected in line, line
