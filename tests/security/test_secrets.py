"""Secrets never leave kcli: not on stdout, stderr, --debug output, JSON, logs or exception text.

The test runs many commands against a SASL sandbox, text and JSON, with and without --debug, using a
PLAIN password, SCRAM passwords (from a profile through ${env:...} and set with --add-config), a
sensitive broker config and a wrong password, then searches everything captured for each secret.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import pytest

from kcli.client.config import resolve_client_config
from tests.conftest import CliResult, invoke

pytestmark = [pytest.mark.sandbox, pytest.mark.slow]

SCRAM_UPSERT = "Scram-Upsert-Pw-8841"
SENSITIVE_VALUE = "Ks-Password-Zq71"
WRONG_PASSWORD = "Wrong-Pw-5521"
ENV_TOKEN_NAME = "KCLI_TEST_ALICE_PW"


def test_no_secret_in_any_output(sasl_sandbox: Any, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    sb = sasl_sandbox
    b = sb.bootstrap_servers
    plain_admin = str(sb.command_config("admin"))
    admin_password = "admin-secret"
    alice_password = "alice-secret"
    secrets = [admin_password, alice_password, SCRAM_UPSERT, SENSITIVE_VALUE, WRONG_PASSWORD]

    profile = tmp_path / "kcli.toml"
    profile.write_text(
        "[profiles.default]\n"
        f'bootstrap.servers = "{b}"\n'
        'security.protocol = "SASL_PLAINTEXT"\n'
        'sasl.mechanism = "SCRAM-SHA-512"\n'
        'sasl.username = "alice"\n'
        f'sasl.password = "${{env:{ENV_TOKEN_NAME}}}"\n'
    )
    profile_env = {"KCLI_CONFIG": str(profile), ENV_TOKEN_NAME: alice_password}
    wrong = tmp_path / "wrong.properties"
    wrong.write_text(Path(plain_admin).read_text().replace(admin_password, WRONG_PASSWORD))

    runs: list[tuple[tuple[str, ...], dict[str, str]]] = [
        (("cluster-id", "-b", b, "-c", plain_admin), {}),
        # a key store password is set per listener (Kafka 4.4 refuses it without the listener prefix)
        (("configs", "-b", b, "-c", plain_admin, "--alter", "--entity-type", "brokers", "--entity-name", "1",
          "--add-config", f"listener.name.sasl_plaintext.ssl.keystore.password={SENSITIVE_VALUE}"), {}),
        (("configs", "-b", b, "-c", plain_admin, "--describe", "--entity-type", "brokers", "--entity-default"), {}),
        (("configs", "-b", b, "-c", plain_admin, "--describe", "--entity-type", "brokers", "--entity-name", "1",
          "--all"), {}),
        (("configs", "-b", b, "-c", plain_admin, "--alter", "--entity-type", "users", "--entity-name", "carol",
          "--add-config", f"SCRAM-SHA-256=[iterations=4096,password={SCRAM_UPSERT}]"), {}),
        (("configs", "-b", b, "-c", plain_admin, "--describe", "--entity-type", "users", "--entity-name", "carol"), {}),
        (("acls", "-b", b, "-c", plain_admin, "--list"), {}),
        (("features", "-b", b, "-c", plain_admin, "describe"), {}),
        (("metadata-quorum", "-b", b, "-c", plain_admin, "describe", "--status"), {}),
        (("cluster", "-b", b, "-c", plain_admin, "list-endpoints"), {}),
        (("reassign-partitions", "-b", b, "-c", plain_admin, "--list"), {}),
        (("cluster-id",), profile_env),  # SCRAM, password from the environment through the profile
        (("features", "describe"), profile_env),
        (("cluster-id", "-b", b, "-c", str(wrong)), {}),  # wrong password
        (("cluster-id", "-b", "127.0.0.1:1", "-c", plain_admin), {"KCLI_DEFAULT_API_TIMEOUT_MS": "300"}),  # nothing listening (refusals are retried until the deadline)
    ]  # fmt: skip

    captured: list[str] = []
    codes: list[int] = []
    caplog.set_level(logging.DEBUG)
    for args, environ in runs:
        for debug in ((), ("--debug",)):
            for output in ((), ("-o", "json")):
                if output and args[0] in ("reassign-partitions",):
                    output = ()
                result: CliResult = invoke(*debug, *args, *output, environ=environ)
                codes.append(result.code)
                captured += [result.stdout, result.stderr, repr(result.exception), str(result.exception)]
    captured.append(caplog.text)
    everything = "\n".join(captured)

    assert codes.count(0) == len(codes) - 8, codes  # every command ran; only the last two fail
    assert "SaslAuthenticate" in everything  # --debug really printed protocol detail
    assert "SCRAM authentication failed" in everything or "authentication" in everything.lower()
    for secret in secrets:
        assert secret not in everything, f"secret {secret!r} leaked"


def test_client_config_repr_hides_secrets(sasl_sandbox: Any) -> None:
    config = resolve_client_config(
        bootstrap_server=sasl_sandbox.bootstrap_servers,
        bootstrap_controller=None,
        command_config=sasl_sandbox.command_config("admin"),
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=lambda message: None,
    )
    assert config.sasl is not None and config.sasl.password == "admin-secret"
    assert "admin-secret" not in repr(config) and "admin-secret" not in str(config)
    assert "admin-secret" not in repr(config.sasl)
