"""Profiles carry the security settings of JKS/PKCS12, Kerberos and OAuth logins; every secret among them
is hidden by `profile show` (text and JSON), never printed by --debug or an error, and may be kept
out of the file as a ${env:...} or ${file:...} reference."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from kcli.client.config import resolve_client_config
from kcli.client.config_defs import DEFS, Kind
from kcli.client.config_keys import is_secret_key
from tests.conftest import invoke

OAUTH = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
# Each secret setting with a value holding a marker that must never be shown.
SECRETS = {
    "ssl.keystore.password": "Marker-KsPw-1",
    "ssl.key.password": "Marker-KeyPw-2",
    "ssl.truststore.password": "Marker-TsPw-3",
    "ssl.keystore.key": "-----BEGIN PRIVATE KEY-----Marker-Key-4",
    "ssl.keystore.certificate.chain": "-----BEGIN CERTIFICATE-----Marker-Chain-5",
    "ssl.truststore.certificates": "-----BEGIN CERTIFICATE-----Marker-Trust-6",
    "sasl.jaas.config": f'{OAUTH} required clientId="svc" clientSecret="Marker-Jaas-7";',
    "sasl.oauthbearer.client.credentials.client.secret": "Marker-Secret-8",
    "sasl.oauthbearer.assertion.private.key.passphrase": "Marker-Pass-9",
    "sasl.password": "Marker-Pw-10",
}


def test_every_password_typed_kafka_setting_is_secret() -> None:
    password_typed = {key for key, definition in DEFS.items() if definition.kind is Kind.PASSWORD}
    assert password_typed == set(SECRETS)
    assert all(is_secret_key(key) for key in password_typed)
    for shown in ("sasl.oauthbearer.token.endpoint.url", "sasl.oauthbearer.client.credentials.client.id",
                  "ssl.keystore.location", "sasl.kerberos.service.name"):  # fmt: skip
        assert not is_secret_key(shown)


def write_profile(path: Path, values: dict[str, str]) -> None:
    lines = ["[profiles.sec]", 'bootstrap.servers = "127.0.0.1:1"']
    lines += [f"{key!s} = {_toml(value)}" for key, value in values.items()]
    path.write_text("\n".join(lines) + "\n")
    os.chmod(path, 0o600)


def _toml(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def test_profile_show_hides_each_secret(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    write_profile(path, {**SECRETS, "sasl.oauthbearer.token.endpoint.url": "https://idp/token"})
    for output in ((), ("-o", "json")):
        shown = invoke("profile", "show", "sec", *output, environ={"KCLI_CONFIG": str(path)})
        assert shown.code == 0, shown.stderr
        for key, value in SECRETS.items():
            assert value not in shown.stdout + shown.stderr, key
        assert "https://idp/token" in shown.stdout
    text = invoke("profile", "show", "sec", environ={"KCLI_CONFIG": str(path)}).lines
    assert all(f"{key}=[hidden]" in text for key in SECRETS)


def test_debug_and_errors_never_print_them(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    props = {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "OAUTHBEARER",
        "sasl.login.callback.handler.class": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
        "sasl.oauthbearer.token.endpoint.url": "http://127.0.0.1:1/token",
        "sasl.jaas.config": SECRETS["sasl.jaas.config"],
        "sasl.oauthbearer.client.credentials.client.secret": SECRETS["sasl.oauthbearer.client.credentials.client.secret"],
        "ssl.truststore.type": "PEM",
        "ssl.truststore.certificates": SECRETS["ssl.truststore.certificates"],
        "default.api.timeout.ms": "1500",
        "sasl.login.retry.backoff.max.ms": "0",
    }
    write_profile(path, props)
    for debug in ((), ("--debug",)):
        result = invoke(*debug, "cluster-id", "--profile", "sec", environ={"KCLI_CONFIG": str(path)})
        assert result.code != 0
        everything = result.stdout + result.stderr + repr(result.exception)
        for value in SECRETS.values():
            assert value not in everything
    # a bad setting among them: the error names the setting, not the secret values
    write_profile(path, {**props, "ssl.keystore.key": SECRETS["ssl.keystore.key"]})
    result = invoke("cluster-id", "--profile", "sec", environ={"KCLI_CONFIG": str(path)})
    assert result.code == 2 and "ssl.keystore.certificate.chain and ssl.keystore.key" in result.stderr
    assert not any(value in result.stderr for value in SECRETS.values())


@pytest.mark.parametrize("kind", ["env", "file"])
def test_secrets_as_references_reach_the_login(tmp_path: Path, kind: str) -> None:
    secret_file = tmp_path / "client-secret"
    secret_file.write_text("from-a-reference\n")
    reference = "${env:KCLI_TEST_CLIENT_SECRET}" if kind == "env" else f"${{file:{secret_file}}}"
    path = tmp_path / "config.toml"
    write_profile(path, {
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "OAUTHBEARER",
        "sasl.login.callback.handler.class": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
        "sasl.oauthbearer.token.endpoint.url": "https://idp.example/token",
        "sasl.oauthbearer.client.credentials.client.id": "svc",
        "sasl.oauthbearer.client.credentials.client.secret": reference,
        "sasl.jaas.config": f"{OAUTH} required ;",
    })  # fmt: skip
    shown = invoke("profile", "show", "sec", environ={"KCLI_CONFIG": str(path)})
    assert f"sasl.oauthbearer.client.credentials.client.secret={reference}" in shown.lines
    config = resolve_client_config(
        bootstrap_server=None, bootstrap_controller=None, command_config=None, profile="sec",
        environ={"KCLI_TEST_CLIENT_SECRET": "from-a-reference"}, config_file=path, warn=lambda _: None,
    )  # fmt: skip
    assert config.sasl is not None and config.sasl.oauth is not None
    assert config.sasl.oauth.client_secret == "from-a-reference"
    assert "from-a-reference" not in repr(config) and "from-a-reference" not in str(config.redacted_properties())
