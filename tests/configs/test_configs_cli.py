"""`kcli configs` flag handling through the CLI: every usage error exits 2 with one line, before any network."""

from __future__ import annotations

import base64
import hashlib
import hmac
from pathlib import Path

import pytest

from kcli.client.api.scram import random_salt, salted_password
from kcli.kafka import ScramMechanism
from tests.conftest import invoke

# A closed port: any test below that reached the network would fail with exit 1, not 2.
NOWHERE = ("-b", "127.0.0.1:9")


def test_help() -> None:
    result = invoke("configs", "--help")
    assert result.code == 0
    for flag in (
        "--describe",
        "--alter",
        "--add-config",
        "--delete-config",
        "--entity-default",
        "--dry-run",
        "--diff",
    ):
        assert flag in result.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--topic", "t"), "Command must include exactly one action: --describe, --alter (or kcli's --diff)"),
        (("--describe", "--alter", "--topic", "t"), "exactly one action"),
        (
            ("--describe", "--topic", "t", "--delete-config", "a"),
            'Option "[describe]" can\'t be used with option "[delete-config]"',
        ),
        (("--describe", "--topic", "t", "--dry-run"), 'can\'t be used with option "[dry-run]"'),
        (("--describe", "--entity-type", "nope"), "Invalid entity type nope"),
        (("--describe", "--entity-type", "users", "--client", "c"), "should not be used in conjunction"),
        (("--describe", "--entity-type", "users", "--entity-type", "ips"), "Only 'users' and 'clients'"),
        (("--alter", "--topic", "t"), "At least one of --add-config, --add-config-file, or --delete-config"),
        (
            ("--alter", "--entity-type", "topics", "--add-config", "a=1"),
            "An entity name must be specified with --alter of topics",
        ),
        (("--alter", "--topic", "t", "--add-config", "a=[1"), "an unbalanced '[' in the value of 'a' in --add-config"),
        (("--alter", "--topic", "t", "--add-config", "=1"), "empty config key"),
        (
            ("--alter", "--topic", "t", "--add-config", "a=1", "--add-config-file", "x.properties"),
            "Only one of --add-config or --add-config-file",
        ),
        (("--alter", "--broker", "b1", "--add-config", "a=1"), "valid integer broker id, but it is: b1"),
        (
            ("--alter", "--user", "u", "--add-config", "producer_byte_rate=lots"),
            "Cannot parse quota configuration value for producer_byte_rate: lots",
        ),
        (
            ("--alter", "--client", "c", "--add-config", "SCRAM-SHA-256=[password=p]"),
            "Only quota configs can be added for 'clients'",
        ),
        (("--describe", "--topic", "a", "--diff-profile", "p"), '"--diff-profile" needs "--diff"'),
        (("--diff", "--entity-type", "topics", "--entity-name", "a"), "--diff needs at least two entities"),
    ],
)
def test_usage_errors_exit_2_with_one_line(args: tuple[str, ...], fragment: str) -> None:
    result = invoke("configs", *NOWHERE, *args)
    assert result.code == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert fragment in lines[0]


@pytest.mark.parametrize(
    ("typed", "meant"), [("topic", "topics"), ("broker", "brokers"), ("client-metric", "client-metrics")]
)
def test_a_mistyped_entity_type_gets_a_did_you_mean(typed: str, meant: str) -> None:
    result = invoke("configs", *NOWHERE, "--describe", "--entity-type", typed)
    assert result.code == 2
    assert result.stderr.strip().endswith(f"argument (did you mean '{meant}'?)")
    assert result.stderr.startswith(f"Error: Invalid entity type {typed}, the entity type must be one of ")


def test_add_config_file_is_read_and_validated(tmp_path: Path) -> None:
    bad = tmp_path / "bad.properties"
    bad.write_text("good.key=1\nbad/key = 2\n")
    result = invoke("configs", *NOWHERE, "--alter", "--topic", "t", "--add-config-file", str(bad))
    assert result.code == 2
    assert "Invalid character found for config key: bad/key" in result.stderr
    missing = invoke(
        "configs", *NOWHERE, "--alter", "--topic", "t", "--add-config-file", str(tmp_path / "none.properties")
    )
    assert missing.code == 2
    assert "--add-config-file" in missing.stderr


def test_controllers_change_quota_entities_but_do_not_describe_them() -> None:
    described = invoke("configs", "-C", "127.0.0.1:9", "--describe", "--user", "alice")
    assert described.code == 2
    assert "cannot be read through --bootstrap-controller" in described.stderr
    assert "use --bootstrap-server" in described.stderr
    # a Kafka 4 controller serves AlterClientQuotas: kcli goes on to reach it
    altered = invoke(
        "configs", "-C", "127.0.0.1:9", "--alter", "--user", "alice", "--add-config", "producer_byte_rate=10",
        environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "300"},
    )  # fmt: skip
    assert altered.code == 1
    assert "cannot connect to 127.0.0.1:9" in altered.stderr


def test_unreachable_cluster_is_one_line_exit_1() -> None:
    result = invoke(
        "configs",
        "-b",
        "127.0.0.1:9",
        "--describe",
        "--topic",
        "t",
        environ={"KCLI_DEFAULT_API_TIMEOUT_MS": "300"},  # a dead port is retried until this runs out
    )
    assert result.code == 1
    assert len(result.stderr.strip().splitlines()) == 1


def test_salt_is_kafkas_base36_form() -> None:
    salt = random_salt()
    assert salt.isascii() and salt.decode().isalnum() and salt == salt.lower()
    assert 20 <= len(salt) <= 26  # a 130-bit number in base 36
    assert random_salt() != salt


def test_salted_password_matches_rfc7677_vector() -> None:
    """RFC 7677's SCRAM-SHA-256 exchange: our SaltedPassword must produce its ClientProof."""
    salt = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
    salted = salted_password(ScramMechanism.SCRAM_SHA_256, "pencil", salt, 4096)
    client_key = hmac.new(salted, b"Client Key", hashlib.sha256).digest()
    stored_key = hashlib.sha256(client_key).digest()
    auth_message = (
        b"n=user,r=rOprNGfwEbeRWgbNEkqO,"
        b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,"
        b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
    )
    signature = hmac.new(stored_key, auth_message, hashlib.sha256).digest()
    proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
    assert base64.b64encode(proof) == b"dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    assert len(salted_password(ScramMechanism.SCRAM_SHA_512, "p", salt, 4096)) == 64
