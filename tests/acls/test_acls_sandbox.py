"""kcli acls end to end against the sandbox with its authorizer, through brokers and controllers."""

from __future__ import annotations

import io
import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox


@pytest.fixture(scope="module")
def acl_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A sandbox with the StandardAuthorizer on (plaintext: ANONYMOUS is a super user there)."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("acl-sandbox"), controllers=3, brokers=3, authorizer=True
    ) as sb:
        yield sb


def _acls(sb: Any, kind: str, *args: str, input: str | None = None) -> CliResult:
    flag = ("-b", sb.bootstrap_servers) if kind == "brokers" else ("-C", sb.bootstrap_controllers)
    return invoke("acls", *flag, *args, input=input)


def _unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def _pattern(kind: str, name: str, pattern: str = "LITERAL") -> str:
    return f"ResourcePattern(resourceType={kind}, name={name}, patternType={pattern})"


@pytest.mark.parametrize(("writer", "reader"), [("brokers", "controllers"), ("controllers", "brokers")])
def test_add_then_list_in_kafka_acls_form(acl_sandbox: Any, writer: str, reader: str) -> None:
    topic = _unique("orders")
    added = _acls(
        acl_sandbox,
        writer,
        "--add",
        "--allow-principal",
        "User:alice",
        "--operation",
        "Read",
        "--operation",
        "Write",
        "--topic",
        topic,
    )
    assert added.code == 0, added.stderr
    entries = [
        "\t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)",
        "\t(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)",
    ]
    assert added.lines[:4] == [
        f"Adding ACLs for resource `{_pattern('TOPIC', topic)}`: ",
        " " + entries[0],
        entries[1],
        "",
    ]
    assert added.lines[4:] == []  # Kafka 4.x lists nothing after adding (3.x listed the resource's ACLs)
    listed = _acls(acl_sandbox, reader, "--list", "--topic", topic)
    assert listed.code == 0, listed.stderr
    assert listed.lines == [f"Current ACLs for resource `{_pattern('TOPIC', topic)}`:", *entries, ""]
    again = _acls(
        acl_sandbox,
        writer,
        "--add",
        "--allow-principal",
        "User:alice",
        "--operation",
        "Read",
        "--topic",
        topic,
    )
    assert again.code == 0, again.stderr
    assert again.lines[0] == (
        f"Acl (pattern={_pattern('TOPIC', topic)}, entry=(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)) already exists."
    )


def test_producer_consumer_sets_and_match_filter(acl_sandbox: Any) -> None:
    prefix = _unique("app")
    result = _acls(
        acl_sandbox,
        "brokers",
        "--add",
        "--producer",
        "--consumer",
        "--idempotent",
        "--allow-principal",
        "User:app",
        "--topic",
        prefix,
        "--group",
        prefix,
        "--resource-pattern-type",
        "prefixed",
    )
    assert result.code == 0, result.stderr
    listed = _acls(
        acl_sandbox,
        "brokers",
        "--list",
        "--topic",
        f"{prefix}-orders",
        "--resource-pattern-type",
        "match",
        "-o",
        "json",
    )
    ops = sorted(a["operation"] for a in listed.json["acls"] if a["principal"] == "User:app")
    assert ops == ["CREATE", "DESCRIBE", "READ", "WRITE"]
    assert {a["patternType"] for a in listed.json["acls"]} <= {"PREFIXED", "LITERAL"}
    group = _acls(
        acl_sandbox,
        "brokers",
        "--list",
        "--group",
        prefix,
        "--resource-pattern-type",
        "prefixed",
        "-o",
        "json",
    )
    assert [a["operation"] for a in group.json["acls"]] == ["READ"]


def test_remove_refuses_off_a_tty_but_shows_what_it_would_remove(acl_sandbox: Any) -> None:
    topic = _unique("rm")
    assert (
        _acls(
            acl_sandbox,
            "brokers",
            "--add",
            "--allow-principal",
            "User:bob",
            "--operation",
            "Read",
            "--topic",
            topic,
        ).code
        == 0
    )
    refused = _acls(acl_sandbox, "brokers", "--remove", "--topic", topic)
    assert refused.code == 2
    assert "\t(principal=User:bob, host=*, operation=READ, permissionType=ALLOW)" in refused.lines
    assert "without --force" in refused.stderr
    assert len(_acls(acl_sandbox, "brokers", "--list", "--topic", topic, "-o", "json").json["acls"]) == 1
    forced = _acls(acl_sandbox, "controllers", "--remove", "--topic", topic, "--force")
    assert (forced.code, forced.stdout) == (0, ""), forced.stderr  # kafka-acls prints nothing once removed
    assert _acls(acl_sandbox, "brokers", "--list", "--topic", topic, "-o", "json").json == {"acls": []}


class _Terminal(io.StringIO):
    """A stdin that says it is a terminal, with the operator's answer already typed."""

    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize(("answer", "left"), [("n\n", 1), ("y\n", 0)])
def test_remove_asks_on_a_terminal(acl_sandbox: Any, answer: str, left: int) -> None:
    from typer.testing import CliRunner

    from kcli.cli.main import app
    from kcli.env import Env

    topic = _unique("ask")
    assert _acls(acl_sandbox, "brokers", "--add", "--allow-principal", "User:bob", "--topic", topic).code == 0
    out, err = io.StringIO(), io.StringIO()
    env = Env(stdout=out, stderr=err, stdin=_Terminal(answer), environ={"NO_COLOR": "1"})
    result = CliRunner().invoke(
        app, ["acls", "-b", acl_sandbox.bootstrap_servers, "--remove", "--topic", topic], obj=env
    )
    assert result.exit_code == 0, err.getvalue()
    assert (
        f"Are you sure you want to delete all ACLs for resource filter `{_pattern('TOPIC', topic)}`? (y/n)"
        in out.getvalue()
    )
    assert len(_acls(acl_sandbox, "brokers", "--list", "--topic", topic, "-o", "json").json["acls"]) == left


def test_export_import_prune_round_trip(acl_sandbox: Any, tmp_path: Path) -> None:
    group = _unique("vc")
    assert (
        _acls(
            acl_sandbox,
            "brokers",
            "--add",
            "--allow-principal",
            "User:a",
            "--allow-principal",
            "User:b",
            "--operation",
            "Read",
            "--group",
            group,
        ).code
        == 0
    )
    exported = tmp_path / "acls.json"
    done = _acls(acl_sandbox, "brokers", "--export", str(exported), "--group", group)
    assert done.code == 0, done.stderr
    doc = json.loads(exported.read_text())
    assert [(a["principal"], a["operation"]) for a in doc["acls"]] == [("User:a", "READ"), ("User:b", "READ")]
    # drift: b removed, c added by hand
    assert (
        _acls(
            acl_sandbox,
            "brokers",
            "--remove",
            "--group",
            group,
            "--allow-principal",
            "User:b",
            "--operation",
            "Read",
            "--force",
        ).code
        == 0
    )
    assert (
        _acls(
            acl_sandbox,
            "brokers",
            "--add",
            "--allow-principal",
            "User:c",
            "--operation",
            "Describe",
            "--group",
            group,
        ).code
        == 0
    )
    dry = _acls(acl_sandbox, "brokers", "--import", str(exported), "--group", group, "--prune", "--dry-run")
    assert dry.code == 0, dry.stderr
    assert dry.lines[0] == "1 ACL binding(s) already present, 1 to create, 1 not in the file."
    assert any(line.startswith("Would remove ") and "User:c" in line for line in dry.lines)
    kept = _acls(acl_sandbox, "brokers", "--import", str(exported), "--group", group)
    assert kept.code == 0, kept.stderr
    assert any("Not in the file (kept; --prune removes it)" in line for line in kept.lines)
    refused = _acls(acl_sandbox, "brokers", "--import", str(exported), "--group", group, "--prune")
    assert refused.code == 2 and "without --force" in refused.stderr
    pruned = _acls(
        acl_sandbox, "controllers", "--import", str(exported), "--group", group, "--prune", "--force"
    )
    assert pruned.code == 0, pruned.stderr
    again = _acls(acl_sandbox, "brokers", "--export", "-", "--group", group)
    assert json.loads(again.stdout) == doc


def test_one_principals_acls_are_copied_to_another_then_retired(acl_sandbox: Any, tmp_path: Path) -> None:
    """--export/--import --principal: a service account's ACLs move to its successor; others stay."""
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        KafkaAdminClient,
        ResourcePatternFilter,
        ResourceType,
    )

    topic, old, new, other = _unique("svc"), _unique("User:old"), _unique("User:new"), _unique("User:other")
    for principal in (old, other):
        added = _acls(acl_sandbox, "brokers", "--add", "--allow-principal", principal, "--operation", "Read",
                      "--operation", "Write", "--topic", topic)  # fmt: skip
        assert added.code == 0, added.stderr
    exported = tmp_path / "old.json"
    done = _acls(acl_sandbox, "brokers", "--export", str(exported), "--principal", old)
    assert done.code == 0, done.stderr
    assert {(a["principal"], a["operation"]) for a in json.loads(exported.read_text())["acls"]} == {
        (old, "READ"),
        (old, "WRITE"),
    }
    renamed = tmp_path / "new.json"
    renamed.write_text(exported.read_text().replace(f'"{old}"', f'"{new}"'))
    assert _acls(acl_sandbox, "brokers", "--import", str(renamed)).code == 0
    empty = tmp_path / "none.json"
    empty.write_text('{"version": 1, "acls": []}')
    retired = _acls(acl_sandbox, "brokers", "--import", str(empty), "--principal", old, "--prune", "--force")
    assert retired.code == 0, retired.stderr

    admin = KafkaAdminClient(bootstrap_servers=acl_sandbox.bootstrap_servers, request_timeout_ms=10000)
    try:
        acls, _error = admin.describe_acls(
            ACLFilter(
                principal=None,
                host=None,
                operation=ACLOperation.ANY,
                permission_type=ACLPermissionType.ANY,
                resource_pattern=ResourcePatternFilter(
                    ResourceType.TOPIC, topic, ACLResourcePatternType.LITERAL
                ),
            )
        )
    finally:
        admin.close()
    held = {(a.principal, a.operation) for a in acls}
    assert held == {
        (new, ACLOperation.READ),
        (new, ACLOperation.WRITE),
        (other, ACLOperation.READ),
        (other, ACLOperation.WRITE),
    }


def test_kafka_python_reads_back_what_kcli_wrote(acl_sandbox: Any) -> None:
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        KafkaAdminClient,
        ResourcePatternFilter,
        ResourceType,
    )

    topic = _unique("kp")
    result = _acls(
        acl_sandbox,
        "brokers",
        "--add",
        "--deny-principal",
        "User:mallory",
        "--deny-host",
        "10.0.0.9",
        "--operation",
        "Write",
        "--topic",
        topic,
        "--resource-pattern-type",
        "prefixed",
    )
    assert result.code == 0, result.stderr
    admin = KafkaAdminClient(bootstrap_servers=acl_sandbox.bootstrap_servers, request_timeout_ms=10000)
    try:
        acls, _error = admin.describe_acls(
            ACLFilter(
                principal=None,
                host=None,
                operation=ACLOperation.ANY,
                permission_type=ACLPermissionType.ANY,
                resource_pattern=ResourcePatternFilter(
                    ResourceType.TOPIC, topic, ACLResourcePatternType.PREFIXED
                ),
            )
        )
    finally:
        admin.close()
    assert [
        (
            a.principal,
            a.host,
            a.operation,
            a.permission_type,
            a.resource_pattern.resource_name,
            a.resource_pattern.pattern_type,
        )
        for a in acls
    ] == [
        (
            "User:mallory",
            "10.0.0.9",
            ACLOperation.WRITE,
            ACLPermissionType.DENY,
            topic,
            ACLResourcePatternType.PREFIXED,
        )
    ]


def test_no_authorizer_is_one_clear_line(sandbox: Any) -> None:
    result = invoke("acls", "-b", sandbox.bootstrap_servers, "--list")
    assert result.code == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "SECURITY_DISABLED" in result.stderr
