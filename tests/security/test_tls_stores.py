"""JKS, PKCS12 and PEM stores made by Java's keytool, read as Kafka reads them, against a TLS server that
requires a client certificate; and every way a store can be wrong, each one clear line."""

from __future__ import annotations

import asyncio
import ssl
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.client.kafka_double import KafkaDouble, describe_cluster_handler, serving
from tests.conftest import CliResult, invoke
from tests.security.keytool_pki import (
    KEY_PASSWORD,
    STORE_PASSWORD,
    TRUST_PASSWORD,
    KeytoolPki,
    keytool_available,
)

pytestmark = pytest.mark.skipif(not keytool_available(), reason="Java's keytool is not on PATH")
jks = pytest.importorskip("jks", reason="kcli-kafka[keystores] (pyjks) is not installed")
pytest.importorskip("cryptography", reason="kcli-kafka[keystores] (cryptography) is not installed")


@pytest.fixture(scope="module")
def server_context(pki: KeytoolPki, tmp_path_factory: pytest.TempPathFactory) -> ssl.SSLContext:
    """The TLS server side: the keytool-made server key, client certificates required (ssl.client.auth=required)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    bundle = pkcs12.load_pkcs12(pki.keystore("server", "p12").read_bytes(), STORE_PASSWORD.encode())
    assert bundle.key is not None and bundle.cert is not None
    pem = tmp_path_factory.mktemp("server") / "server.pem"
    pem.write_bytes(
        bundle.key.private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        + bundle.cert.certificate.public_bytes(serialization.Encoding.PEM)
    )
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(pem))
    context.load_verify_locations(cafile=str(pki.ca_pem))
    context.verify_mode = ssl.CERT_REQUIRED
    return context


@pytest.fixture
def double(server_context: ssl.SSLContext) -> Iterator[KafkaDouble]:
    server = KafkaDouble(ssl_context=server_context)
    server.handlers[60] = describe_cluster_handler([(1, server)], controller=1)
    yield server


def run_cli(double: KafkaDouble, tmp_path: Path, props: dict[str, str], *args: str) -> CliResult:
    async def scenario() -> CliResult:
        async with serving(double):
            path = tmp_path / "client.properties"
            path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
            return await asyncio.to_thread(
                invoke, *args, "cluster-id", "-b", f"localhost:{double.port}", "-c", str(path)
            )

    return asyncio.run(scenario())


def one_error(result: CliResult, code: int = 2) -> str:
    assert result.code == code, (result.code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr
    for secret in (STORE_PASSWORD, KEY_PASSWORD, TRUST_PASSWORD, "wrong-pw-7781"):
        assert secret not in result.stderr + result.stdout
    return lines[0]


def jks_props(pki: KeytoolPki) -> dict[str, str]:
    return {
        "security.protocol": "SSL",
        "ssl.truststore.location": str(pki.truststore("jks")),
        "ssl.truststore.password": TRUST_PASSWORD,
        "ssl.keystore.location": str(pki.keystore("client", "jks")),
        "ssl.keystore.password": STORE_PASSWORD,
        "ssl.key.password": KEY_PASSWORD,
    }


def pkcs12_props(pki: KeytoolPki) -> dict[str, str]:
    return {
        "security.protocol": "SSL",
        "ssl.truststore.type": "PKCS12",
        "ssl.truststore.location": str(pki.truststore("p12")),
        "ssl.truststore.password": TRUST_PASSWORD,
        "ssl.keystore.type": "PKCS12",
        "ssl.keystore.location": str(pki.keystore("client", "p12")),
        "ssl.keystore.password": STORE_PASSWORD,
    }


def test_mutual_tls_with_jks_stores_of_kafkas_default_type(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    result = run_cli(double, tmp_path, jks_props(pki))  # no ssl.*.type: JKS, Kafka's default
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == "Cluster ID: double-cluster"


def test_mutual_tls_with_pkcs12_stores(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    result = run_cli(double, tmp_path, pkcs12_props(pki))
    assert result.code == 0, result.stderr


def test_a_jks_typed_store_may_hold_pkcs12_as_in_java(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = pkcs12_props(pki)
    del props["ssl.keystore.type"], props["ssl.truststore.type"]
    assert run_cli(double, tmp_path, props).code == 0


def test_without_the_client_key_the_server_refuses(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {k: v for k, v in jks_props(pki).items() if not k.startswith(("ssl.keystore", "ssl.key."))}
    line = one_error(run_cli(double, tmp_path, props), code=1)
    assert line.startswith("Error: ") and "client certificate" in line and "ssl.keystore.location" in line


@pytest.mark.parametrize("kind", ["jks", "p12"])
def test_wrong_keystore_password(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path, kind: str) -> None:
    props = jks_props(pki) if kind == "jks" else pkcs12_props(pki)
    props["ssl.keystore.password"] = "wrong-pw-7781"
    line = one_error(run_cli(double, tmp_path, props))
    assert "ssl.keystore.password is wrong" in line and str(pki.keystore("client", kind)) in line


def test_wrong_truststore_password(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {**jks_props(pki), "ssl.truststore.password": "wrong-pw-7781"}
    assert "ssl.truststore.password is wrong" in one_error(run_cli(double, tmp_path, props))


def test_wrong_key_password_of_a_jks_key_entry(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {**jks_props(pki), "ssl.key.password": "wrong-pw-7781"}
    assert "ssl.key.password is wrong" in one_error(run_cli(double, tmp_path, props))
    del props["ssl.key.password"]  # the key has its own password: the store password does not open it
    line = one_error(run_cli(double, tmp_path, props))
    assert "ssl.keystore.password is wrong" in line and "ssl.key.password" in line


@pytest.mark.parametrize("kind", ["jks", "p12"])
def test_damaged_store(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path, kind: str) -> None:
    damaged = tmp_path / f"damaged.{kind}"
    damaged.write_bytes(pki.keystore("client", kind).read_bytes()[:300])
    props = {**(jks_props(pki) if kind == "jks" else pkcs12_props(pki)), "ssl.keystore.location": str(damaged)}
    line = one_error(run_cli(double, tmp_path, props))
    assert "damaged" in line and str(damaged) in line


def test_keystore_without_a_key(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {
        **jks_props(pki),
        "ssl.keystore.location": str(pki.truststore("jks")),
        "ssl.keystore.password": TRUST_PASSWORD,
    }
    del props["ssl.key.password"]
    line = one_error(run_cli(double, tmp_path, props))
    assert "holds no private key entry" in line


def test_truststore_without_a_certificate(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    empty = tmp_path / "empty.jks"
    jks.KeyStore.new("jks", []).save(str(empty), TRUST_PASSWORD)
    props = {**jks_props(pki), "ssl.truststore.location": str(empty)}
    assert "holds no certificate" in one_error(run_cli(double, tmp_path, props))


def test_pem_file_under_the_default_type_says_to_set_pem(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {"security.protocol": "SSL", "ssl.truststore.location": str(pki.ca_pem)}
    line = one_error(run_cli(double, tmp_path, props))
    assert "holds PEM, but ssl.truststore.type is JKS" in line and "ssl.truststore.type=PEM" in line


def test_kafkas_store_rules(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    cases = [
        ({"ssl.keystore.location": str(pki.keystore("client", "jks"))}, "ssl.keystore.password is not"),
        ({"ssl.keystore.type": "PEM", "ssl.keystore.location": str(pki.ca_pem), "ssl.keystore.password": "x"},
         "cannot be used with a PEM keystore"),
        ({"ssl.keystore.key": "k", "ssl.keystore.certificate.chain": "c"}, "needs ssl.keystore.type=PEM"),
        ({"ssl.truststore.certificates": "c"}, "needs ssl.truststore.type=PEM"),
        ({"ssl.truststore.type": "PEM", "ssl.truststore.location": str(pki.ca_pem), "ssl.truststore.password": "x"},
         "cannot be used with a PEM truststore"),
        ({"ssl.keystore.type": "JCEKS"}, "is not a store type kcli reads"),
    ]  # fmt: skip
    for extra, expected in cases:
        line = one_error(run_cli(double, tmp_path, {"security.protocol": "SSL", **extra}))
        assert expected in line, (extra, line)


def test_missing_optional_package_names_the_extra(
    pki: KeytoolPki, double: KafkaDouble, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "jks", None)  # what an environment without pyjks looks like
    line = one_error(run_cli(double, tmp_path, jks_props(pki)))
    assert "needs the Python package pyjks" in line and "kcli-kafka[keystores]" in line


def test_cipher_suites_take_java_names(pki: KeytoolPki, double: KafkaDouble, tmp_path: Path) -> None:
    props = {
        **jks_props(pki),
        "ssl.enabled.protocols": "TLSv1.2",
        "ssl.cipher.suites": "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
    }
    assert run_cli(double, tmp_path, props).code == 0
    unknown = {**props, "ssl.cipher.suites": "TLS_KRB5_WITH_3DES_EDE_CBC_SHA"}
    assert "TLS_KRB5_WITH_3DES_EDE_CBC_SHA has no OpenSSL equivalent" in one_error(run_cli(double, tmp_path, unknown))
    partial13 = {**props, "ssl.enabled.protocols": "TLSv1.3", "ssl.cipher.suites": "TLS_AES_128_GCM_SHA256"}
    assert "only some TLS 1.3 suites" in one_error(run_cli(double, tmp_path, partial13))
    # RSA key exchange suites only: the server's EC key cannot use them, so the handshake fails
    rsa_only = {**props, "ssl.cipher.suites": "TLS_RSA_WITH_AES_128_GCM_SHA256"}
    assert "TLS handshake" in one_error(run_cli(double, tmp_path, rsa_only), code=1)


def test_tls_versions_from_enabled_protocols() -> None:
    from kcli.client.tls import build_ssl_context
    from kcli.client.tls_settings import ssl_settings
    from kcli.errors import UsageError

    only12 = build_ssl_context(ssl_settings({"ssl.enabled.protocols": "TLSv1.2"}))
    assert only12.minimum_version == only12.maximum_version == ssl.TLSVersion.TLSv1_2
    both: Any = build_ssl_context(ssl_settings({}))
    assert (both.minimum_version, both.maximum_version) == (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3)
    # TLS 1.2 suites only: as in Java, TLS 1.3 cannot be negotiated
    suites12 = build_ssl_context(ssl_settings({"ssl.cipher.suites": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"}))
    assert suites12.maximum_version == ssl.TLSVersion.TLSv1_2
    with pytest.raises(UsageError, match=r"kcli needs TLSv1\.2 or TLSv1\.3"):
        ssl_settings({"ssl.enabled.protocols": "TLSv1.1"})
    with pytest.raises(UsageError, match="is not a TLS version"):
        ssl_settings({"ssl.enabled.protocols": "TLSv9"})
    with pytest.raises(UsageError, match=r"ssl\.protocol 'SSLv3' is not supported"):
        ssl_settings({"ssl.protocol": "SSLv3"})
