"""With the sandbox's StandardAuthorizer: every tool says "not authorized" per resource for a principal
without rights (alice), and works for a principal granted them (bob). admin is a super user."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox

TOPIC_0, TOPIC_1 = "sandbox-topic-00000", "sandbox-topic-00001"

# (tool arguments before the connection flags, arguments after them)
COMMANDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "configs describe broker": (
        ("configs",),
        ("--describe", "--entity-type", "brokers", "--entity-name", "1"),
    ),
    "configs describe topic": (
        ("configs",),
        ("--describe", "--entity-type", "topics", "--entity-name", TOPIC_1),
    ),
    "configs alter cluster default": (
        ("configs",),
        ("--alter", "--entity-type", "brokers", "--entity-default", "--add-config", "log.cleaner.threads=2"),
    ),
    "configs alter topic": (
        ("configs",),
        ("--alter", "--entity-type", "topics", "--entity-name", TOPIC_1, "--add-config", "retention.ms=1000"),
    ),
    "acls list": (("acls",), ("--list",)),
    "acls add": (
        ("acls",),
        ("--add", "--allow-principal", "User:carol", "--operation", "Read", "--topic", TOPIC_1, "--force"),
    ),
    "features upgrade": (("features",), ("upgrade", "--feature", "share.version=2", "--dry-run")),
    "metadata-quorum describe": (("metadata-quorum",), ("describe", "--status")),
    "reassign list": (("reassign-partitions",), ("--list",)),
}


def run(sb: Any, principal: str, name: str) -> CliResult:
    before, after = COMMANDS[name]
    config = str(sb.command_config(principal, mechanism="SCRAM-SHA-256"))
    return invoke(*before, "-b", sb.bootstrap_servers, "-c", config, *after)


def admin(sb: Any, *args: str) -> None:
    result = invoke(
        "acls", "-b", sb.bootstrap_servers, "-c", str(sb.command_config("admin")), *args, "--force"
    )
    assert result.code == 0, result.stderr


@pytest.mark.parametrize("name", list(COMMANDS))
def test_without_rights_each_tool_says_not_authorized(sasl_sandbox: Any, name: str) -> None:
    result = run(sasl_sandbox, "alice", name)
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    said = (result.stdout + result.stderr).lower()
    assert "authorization failed" in said or "authorization_failed" in said, (result.stdout, result.stderr)


def test_not_authorized_is_reported_per_resource(sasl_sandbox: Any) -> None:
    sb = sasl_sandbox
    admin(
        sb, "--add", "--allow-principal", "User:alice", "--operation", "DescribeConfigs", "--topic", TOPIC_0
    )
    result = invoke(
        "configs", "-b", sb.bootstrap_servers, "-c", str(sb.command_config("alice", mechanism="SCRAM-SHA-256")),
        "--describe", "--entity-type", "topics", "--entity-name", TOPIC_0, "--entity-name", TOPIC_1,
    )  # fmt: skip
    assert result.code == 1
    assert f"Dynamic configs for topic {TOPIC_0} are:" in result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and TOPIC_1 in errors[0] and "TOPIC_AUTHORIZATION_FAILED" in errors[0], (
        result.stderr
    )


def test_with_rights_every_tool_works(sasl_sandbox: Any) -> None:
    sb = sasl_sandbox
    admin(sb, "--add", "--allow-principal", "User:bob", "--operation", "All", "--cluster")
    admin(sb, "--add", "--allow-principal", "User:bob", "--operation", "All", "--topic", "*")
    for name in COMMANDS:
        result = run(sb, "bob", name)
        assert result.code == 0, (name, result.stdout, result.stderr)
        assert "authorization" not in (result.stdout + result.stderr).lower(), name
