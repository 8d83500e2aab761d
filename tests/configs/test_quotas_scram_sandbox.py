"""Client quotas and SCRAM credentials end to end on a SASL sandbox with an authorizer.

kcli writes a user's quota and SCRAM credential, reads them back (never the password), and the
credential is then proven by connecting AS that user with SCRAM-SHA-512. Client, ip, default and
user+client quotas are set, described and deleted. A principal without rights gets
CLUSTER_AUTHORIZATION_FAILED / TOPIC_AUTHORIZATION_FAILED per resource, exit 1, while the
resources it may see still succeed.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox

TOPIC_0, TOPIC_1 = "sandbox-topic-00000", "sandbox-topic-00001"


@pytest.fixture(scope="module")
def secure(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256/512) with a StandardAuthorizer; admin is a super user."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("quotas"),
        controllers=1,
        brokers=2,
        security="sasl_plaintext",
        authorizer=True,
        topics=2,
    ) as sb:
        yield sb


def configs(sb: Any, principal: str, *args: str) -> CliResult:
    config = str(sb.command_config(principal, mechanism="SCRAM-SHA-256"))
    return invoke("configs", "-b", sb.bootstrap_servers, "-c", config, *args)


def admin_ok(sb: Any, *args: str) -> CliResult:
    result = configs(sb, "admin", *args)
    assert result.code == 0, (result.stdout, result.stderr)
    return result


def scram_properties(path: Path, user: str, password: str, mechanism: str = "SCRAM-SHA-512") -> Path:
    path.write_text(
        "security.protocol=SASL_PLAINTEXT\n"
        f"sasl.mechanism={mechanism}\n"
        "sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{user}" password="{password}";\n',
        encoding="utf-8",
    )
    return path


def connect_as(sb: Any, properties: Path) -> CliResult:
    return invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(properties))


def test_quota_and_scram_in_one_alter_are_refused_as_kafka_does(secure: Any) -> None:
    result = configs(
        secure, "admin", "--alter", "--entity-type", "users", "--entity-name", "x",
        "--add-config", "producer_byte_rate=1024,SCRAM-SHA-512=[iterations=8192,password=pw]",
    )  # fmt: skip
    assert result.code == 2
    assert "Cannot alter both quota and SCRAM credential configs simultaneously" in result.stderr


def test_user_quota_and_scram_credential_end_to_end(secure: Any, tmp_path: Path) -> None:
    sb = secure
    user = f"u{uuid.uuid4().hex[:8]}"
    password = f"pw-{uuid.uuid4().hex}"
    target = ("--entity-type", "users", "--entity-name", user)
    done = admin_ok(sb, "--alter", *target, "--add-config", "producer_byte_rate=1024")
    assert f"Completed updating config for user {user}." in done.stdout
    admin_ok(sb, "--alter", *target, "--add-config", f"SCRAM-SHA-512=[iterations=8192,password={password}]")

    described = admin_ok(sb, "--describe", *target)
    assert f"Quota configs for user-principal '{user}' are producer_byte_rate=1024.0" in described.stdout
    assert f"SCRAM credential configs for user-principal '{user}' are SCRAM-SHA-512=iterations=8192" in (
        described.stdout
    )
    as_json = admin_ok(sb, "--describe", *target, "-o", "json").json
    assert as_json["quotas"] == [
        {"entity": [{"type": "user", "name": user}], "values": {"producer_byte_rate": 1024.0}}
    ]
    assert as_json["scram"] == [
        {"user": user, "error": None, "credentials": [{"mechanism": "SCRAM-SHA-512", "iterations": 8192}]}
    ]
    assert password not in described.stdout + described.stderr + str(as_json)

    # The credential really works: connect AS the user with SCRAM-SHA-512 ...
    good = connect_as(sb, scram_properties(tmp_path / "good.properties", user, password))
    assert good.code == 0 and good.stdout.startswith("Cluster ID: "), (good.stdout, good.stderr)
    # ... and only with that password and that mechanism.
    wrong = connect_as(sb, scram_properties(tmp_path / "wrong.properties", user, "not-it"))
    assert wrong.code == 1 and "SASL authentication" in wrong.stderr and "not-it" not in wrong.stderr
    other = connect_as(sb, scram_properties(tmp_path / "256.properties", user, password, "SCRAM-SHA-256"))
    assert other.code == 1, other.stdout

    # Delete both; the user can no longer log in and nothing is described.
    admin_ok(sb, "--alter", *target, "--delete-config", "SCRAM-SHA-512")
    admin_ok(sb, "--alter", *target, "--delete-config", "producer_byte_rate")
    gone = connect_as(sb, scram_properties(tmp_path / "gone.properties", user, password))
    assert gone.code == 1 and "SASL authentication" in gone.stderr
    after = admin_ok(sb, "--describe", *target, "-o", "json").json
    assert after["quotas"] == [] and all(not s["credentials"] for s in after["scram"]), after


def test_client_ip_default_and_user_client_quotas(secure: Any) -> None:
    sb = secure
    client = f"c{uuid.uuid4().hex[:8]}"
    user = f"u{uuid.uuid4().hex[:8]}"
    ip = "10.20.30.40"
    cases: list[tuple[tuple[str, ...], str, str]] = [
        (("--entity-type", "clients", "--entity-name", client), "consumer_byte_rate=2048", f"client-id '{client}'"),
        (("--entity-type", "ips", "--entity-name", ip), "connection_creation_rate=5", f"ip '{ip}'"),
        (("--entity-type", "users", "--entity-default"), "request_percentage=50", "the default user-principal"),
        (("--entity-type", "clients", "--entity-default"), "producer_byte_rate=4096", "the default client-id"),
        (
            ("--entity-type", "users", "--entity-name", user, "--entity-type", "clients", "--entity-name", client),
            "producer_byte_rate=100",
            f"user-principal '{user}', client-id '{client}'",
        ),
    ]  # fmt: skip
    for target, setting, label in cases:
        key, _, value = setting.partition("=")
        admin_ok(sb, "--alter", *target, "--add-config", setting)
        shown = admin_ok(sb, "--describe", *target).stdout
        assert f"Quota configs for {label} are {key}={float(value)}" in shown, (target, shown)
    for target, setting, label in cases:
        key = setting.partition("=")[0]
        admin_ok(sb, "--alter", *target, "--delete-config", key)
        shown = admin_ok(sb, "--describe", *target).stdout
        assert f"Quota configs for {label} are" not in shown, (target, shown)
    # deleting a quota that is not set is refused before anything is sent, as kafka-configs.sh does
    missing = configs(sb, "admin", "--alter", *cases[0][0], "--delete-config", "consumer_byte_rate")
    assert missing.code == 1 and "Invalid config(s): consumer_byte_rate" in missing.stderr


def test_without_cluster_rights_quota_and_scram_calls_fail_clearly(secure: Any) -> None:
    sb = secure
    for args in (
        ("--describe", "--entity-type", "users", "--entity-name", "alice"),
        ("--alter", "--entity-type", "users", "--entity-name", "alice", "--add-config", "producer_byte_rate=1"),
        ("--alter", "--entity-type", "users", "--entity-name", "alice",
         "--add-config", "SCRAM-SHA-512=[iterations=8192,password=mine-now]"),
        ("--describe", "--entity-type", "brokers", "--entity-name", "1"),
    ):  # fmt: skip
        result = configs(sb, "alice", *args)
        assert result.code == 1, (args, result.stdout, result.stderr)
        assert "CLUSTER_AUTHORIZATION_FAILED" in result.stderr, (args, result.stderr)
        assert "Traceback" not in result.stderr and "mine-now" not in result.stderr
    # alice's own credential is untouched
    still = invoke(
        "cluster-id", "-b", sb.bootstrap_servers, "-c", str(sb.command_config("alice", "SCRAM-SHA-512"))
    )
    assert still.code == 0, still.stderr


def test_per_resource_authorization_errors_and_the_rest_succeed(secure: Any) -> None:
    sb = secure
    admin = str(sb.command_config("admin", mechanism="SCRAM-SHA-256"))
    granted = invoke(
        "acls", "-b", sb.bootstrap_servers, "-c", admin, "--add", "--allow-principal", "User:bob",
        "--operation", "DescribeConfigs", "--topic", TOPIC_0, "--force",
    )  # fmt: skip
    assert granted.code == 0, granted.stderr
    result = configs(
        sb,
        "bob",
        "--describe",
        "--all",
        "--entity-type",
        "topics",
        "--entity-name",
        TOPIC_0,
        "--entity-name",
        TOPIC_1,
    )
    assert result.code == 1
    assert f"All configs for topic {TOPIC_0} are:" in result.stdout
    assert TOPIC_1 not in result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and TOPIC_1 in errors[0] and "TOPIC_AUTHORIZATION_FAILED" in errors[0], (
        result.stderr
    )
    as_json = configs(
        sb, "bob", "--describe", "--entity-type", "topics", "--entity-name", TOPIC_0, "--entity-name", TOPIC_1,
        "-o", "json",
    )  # fmt: skip
    assert as_json.code == 1
    by_name = {r["entity"]["name"]: r for r in as_json.json["resources"]}
    assert by_name[TOPIC_0]["error"] is None
    assert by_name[TOPIC_1]["error"]["name"] == "TOPIC_AUTHORIZATION_FAILED"


def test_user_and_client_alter_names_the_first_entity_type_given_as_kafka_does(secure: Any) -> None:
    """kafka-configs.sh names the head of its entity types: --client comes before --user among the
    shortcut flags, while --entity-type keeps the order typed."""
    sb = secure
    client, user = f"c{uuid.uuid4().hex[:8]}", f"u{uuid.uuid4().hex[:8]}"
    shortcut = admin_ok(
        sb, "--alter", "--user", user, "--client", client, "--add-config", "producer_byte_rate=10"
    )
    assert shortcut.stdout.splitlines() == [f"Completed updating config for client {client}."]
    typed = (
        "--entity-type",
        "users",
        "--entity-name",
        user,
        "--entity-type",
        "clients",
        "--entity-name",
        client,
    )
    by_type = admin_ok(sb, "--alter", *typed, "--delete-config", "producer_byte_rate")
    assert by_type.stdout.splitlines() == [f"Completed updating config for user {user}."]


def test_quotas_and_scram_altered_through_the_controllers(secure: Any, tmp_path: Path) -> None:
    """A Kafka controller serves AlterClientQuotas and AlterUserScramCredentials (not their describes):
    kcli alters through it, reads back through the brokers, and refuses a describe with a clear line."""
    config = str(secure.command_config("admin", mechanism="SCRAM-SHA-256"))

    def through_controllers(*args: str) -> CliResult:
        return invoke("configs", "-C", secure.bootstrap_controllers, "-c", config, *args)

    client, user = f"ctl-client-{uuid.uuid4().hex[:6]}", f"ctl-user-{uuid.uuid4().hex[:6]}"
    set_quota = through_controllers("--alter", "--client", client, "--add-config", "producer_byte_rate=2048")
    assert (set_quota.code, set_quota.stdout) == (0, f"Completed updating config for client {client}.\n")
    dry = through_controllers(
        "--alter", "--client", client, "--delete-config", "producer_byte_rate", "--dry-run"
    )
    assert dry.code == 0, dry.stderr
    # the controllers cannot say what is set: the value before is unknown, not "unset"
    assert dry.lines[1] == "  delete producer_byte_rate: (not read) -> (default)"
    add_user = through_controllers(
        "--alter",
        "--entity-type",
        "users",
        "--entity-name",
        user,
        "--add-config",
        "SCRAM-SHA-512=[password=pw-1234]",
    )
    assert add_user.code == 0, add_user.stderr
    described = admin_ok(secure, "--describe", "--client", client)
    assert described.stdout == f"Quota configs for client-id '{client}' are producer_byte_rate=2048.0\n"
    assert connect_as(secure, scram_properties(tmp_path / "u.properties", user, "pw-1234")).code == 0
    for kind in ("clients", "users", "ips"):
        refused = through_controllers("--describe", "--entity-type", kind)
        assert refused.code == 2
        assert refused.stderr.startswith(
            f"Error: configs of {kind} (client quotas and SCRAM credentials) cannot be read through "
            "--bootstrap-controller: the controllers can change them but do not describe them (KIP-919); "
            "use --bootstrap-server"
        ), refused.stderr
