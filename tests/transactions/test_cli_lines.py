"""The new tools' command lines that kcli answers before (or without) a cluster: usage errors, the
connection each tool takes, and the HMAC that never reaches stderr. Nothing listens on 127.0.0.1:1."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import invoke

NOWHERE = "127.0.0.1:1"
HMAC = "bsIcQ3uIJZYiadEN7ZD+1MFqDf8P3GXqh7LAAX5+MPWTcCl+mz5Ro0/Z4hFd10AgT3fx/ZmgNgvVg4iTRu9Z8A=="


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("transactions", "list"), "argument --bootstrap-server is required"),
        (("transactions", "-C", NOWHERE, "list"), "use --bootstrap-server, not --bootstrap-controller"),
        (
            ("transactions", "-b", NOWHERE, "abort", "--topic", "t", "--partition", "0"),
            "must be identified either",
        ),
        (
            (
                "transactions",
                "-b",
                NOWHERE,
                "abort",
                "--topic",
                "t",
                "--partition",
                "0",
                "--producer-id",
                "5",
            ),
            "Missing required argument --producer-epoch",
        ),
        (("transactions", "-b", NOWHERE, "find-hanging"), "requires either --topic or --broker-id"),
        (
            ("transactions", "-b", NOWHERE, "find-hanging", "--broker-id", "1", "--partition", "0"),
            "The --partition argument requires --topic to be provided",
        ),
        (("client-metrics", "--list", "--describe"), "Command must include exactly one action"),
        (("client-metrics", "--list"), "--bootstrap-server must be specified."),
        (("client-metrics", "-C", NOWHERE, "--list"), "use --bootstrap-server, not --bootstrap-controller"),
        (
            ("client-metrics", "-b", NOWHERE, "--alter", "--interval", "soon", "--name", "a"),
            "Invalid interval value",
        ),
        (("delegation-tokens", "--create", "--describe"), "Command must include exactly one action"),
        (("delegation-tokens", "--describe"), 'Missing required argument "[bootstrap-server]"'),
        (("delegation-tokens", "-b", NOWHERE, "--describe"), 'Missing required argument "[command-config]"'),
        (("delegation-tokens", "-C", NOWHERE, "--describe"), "not --bootstrap-controller"),
        (("broker-api-versions", "-C", NOWHERE), "kcli cluster api-versions --bootstrap-controller"),
    ],
)
def test_refused_before_connecting(args: tuple[str, ...], message: str) -> None:
    result = invoke(*args)
    assert result.code == 2, result.stderr
    assert message in result.stderr and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1


def test_transactions_takes_the_connection_before_or_after_the_subcommand() -> None:
    before = invoke("transactions", "-b", NOWHERE, "find-hanging")
    after = invoke("transactions", "find-hanging", "-b", NOWHERE)
    assert before.code == after.code == 2 and before.stderr == after.stderr


def _sasl_properties(tmp_path: Path) -> Path:
    path = tmp_path / "client.properties"
    path.write_text(
        "security.protocol=SASL_PLAINTEXT\nsasl.mechanism=SCRAM-SHA-256\n"
        'sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="a" password="b";\n'
    )
    return path


@pytest.mark.parametrize(
    "action", [("--renew", "--renew-time-period", "-1"), ("--expire", "--expiry-time-period", "-1")]
)
def test_the_hmac_given_is_never_echoed_nor_in_an_error(tmp_path: Path, action: tuple[str, ...]) -> None:
    config = _sasl_properties(tmp_path)
    result = invoke("delegation-tokens", "-b", NOWHERE, "-c", str(config), *action, "--hmac", HMAC)
    assert result.code == 1  # nothing listens: the request was never sent
    assert "with hmac :<hidden>" in result.stdout
    assert HMAC not in result.stdout + result.stderr and HMAC[:20] not in result.stdout + result.stderr
    bad = invoke(
        "delegation-tokens", "-b", NOWHERE, "-c", str(config), *action, "--hmac", "not-base64-secret!"
    )
    assert bad.code == 2 and "not-base64-secret" not in bad.stdout + bad.stderr


def test_help_of_every_new_command() -> None:
    for path in (
        ("transactions",), ("transactions", "list"), ("transactions", "forceTerminateTransaction"),
        ("client-metrics",), ("delegation-tokens",), ("broker-api-versions",),
    ):  # fmt: skip
        result = invoke(*path, "--help")
        assert result.code == 0 and "Usage: kcli" in result.stdout, path
