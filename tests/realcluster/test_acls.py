"""`kcli acls` on real Kafka with the StandardAuthorizer: add, list, remove, export, import and prune
through both bootstrap kinds, each read back by kafka-python, and the authorizer enforcing what was set."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.polling import wait_for
from tests.realcluster.conftest import cluster_of

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow]


def _peer_bindings(admin: Any, principal: str | None) -> set[tuple[str, str, str, str, str, str]]:
    """Every ACL of `principal` (of everyone when None), read by kafka-python: (type, name, pattern, host, operation, permission)."""
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        ResourcePatternFilter,
        ResourceType,
    )

    acl_filter = ACLFilter(
        principal=principal,
        host=None,
        operation=ACLOperation.ANY,
        permission_type=ACLPermissionType.ANY,
        resource_pattern=ResourcePatternFilter(ResourceType.ANY, None, ACLResourcePatternType.ANY),
    )
    acls, error = admin.describe_acls(acl_filter)
    assert error.errno == 0, error
    return {
        (
            acl.resource_pattern.resource_type.name,
            acl.resource_pattern.resource_name,
            acl.resource_pattern.pattern_type.name,
            acl.host,
            acl.operation.name,
            acl.permission_type.name,
        )
        for acl in acls
    }


def _wait_for_bindings(admin: Any, principal: str, wanted: set[tuple[str, str, str, str, str, str]]) -> None:
    """A broker answers DescribeAcls from its authorizer, which follows the metadata log a moment behind."""
    wait_for(lambda: _peer_bindings(admin, principal) == wanted, timeout=30, interval=0.3, what=f"the ACLs of {principal}")


def _json_bindings(document: dict[str, Any]) -> set[tuple[str, str, str, str, str, str]]:
    return {
        (a["resourceType"], a["name"], a["patternType"], a["host"], a["operation"], a["permissionType"])
        for a in document["acls"]
    }


def test_add_list_remove_export_import_prune_through_both_kinds(
    real_kafka: Any, kafka_admin: Any, tmp_path: Path
) -> None:
    cluster = cluster_of(real_kafka)
    principal = f"User:kcli-acl-{uuid.uuid4().hex[:8]}"
    topic, group = f"kcli-acl-{uuid.uuid4().hex[:8]}", f"kcli-acl-group-{uuid.uuid4().hex[:8]}"
    brokers, controllers = cluster.broker_args(), cluster.controller_args()

    added = invoke(
        "acls", *controllers, "--add", "--consumer", "--allow-principal", principal, "--topic", topic, "--group", group
    )  # fmt: skip
    assert added.code == 0, added.stderr
    produced = invoke(
        "acls", *brokers, "--add", "--deny-principal", principal, "--operation", "Write", "--topic", topic,
        "--resource-pattern-type", "prefixed",
    )  # fmt: skip
    assert produced.code == 0, produced.stderr
    expected = {
        ("TOPIC", topic, "LITERAL", "*", "READ", "ALLOW"),
        ("TOPIC", topic, "LITERAL", "*", "DESCRIBE", "ALLOW"),
        ("GROUP", group, "LITERAL", "*", "READ", "ALLOW"),
        ("TOPIC", topic, "PREFIXED", "*", "WRITE", "DENY"),
    }
    _wait_for_bindings(kafka_admin, principal, expected)

    for args in (brokers, controllers):
        listed = invoke("acls", *args, "--list", "--principal", principal, "-o", "json")
        assert listed.code == 0, listed.stderr
        assert _json_bindings(listed.json) == expected
    text = invoke("acls", *brokers, "--list", "--topic", topic)
    assert (
        f"Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name={topic}, patternType=LITERAL)`:"
        in text.lines
    )
    assert f"\t(principal={principal}, host=*, operation=READ, permissionType=ALLOW)" in text.lines

    exported = tmp_path / "acls.json"
    written = invoke(
        "acls", *controllers, "--export", str(exported), "--topic", topic, "--group", group,
        "--resource-pattern-type", "any",
    )  # fmt: skip
    assert written.code == 0, written.stderr
    document = json.loads(exported.read_text())
    assert _json_bindings(document) == expected

    removed = invoke("acls", *brokers, "--remove", "--force", "--topic", topic, "--resource-pattern-type", "any")
    assert removed.code == 0, removed.stderr
    _wait_for_bindings(kafka_admin, principal, {("GROUP", group, "LITERAL", "*", "READ", "ALLOW")})

    imported = invoke("acls", *controllers, "--import", str(exported))
    assert imported.code == 0, imported.stderr
    _wait_for_bindings(kafka_admin, principal, expected)
    again = invoke("acls", *brokers, "--import", str(exported), "-o", "json")
    assert again.code == 0 and again.json["create"] == [], again.stdout

    # a file without the DENY entry, pruned to this topic: only the DENY goes
    kept = {**document, "acls": [a for a in document["acls"] if a["permissionType"] == "ALLOW"]}
    smaller = tmp_path / "smaller.json"
    smaller.write_text(json.dumps(kept))
    dry = invoke("acls", *brokers, "--import", str(smaller), "--prune", "--dry-run", "--topic", topic,
                 "--resource-pattern-type", "any")  # fmt: skip
    assert dry.code == 0, dry.stderr
    assert _peer_bindings(kafka_admin, principal) == expected
    pruned = invoke("acls", *brokers, "--import", str(smaller), "--prune", "--force", "--topic", topic,
                    "--resource-pattern-type", "any")  # fmt: skip
    assert pruned.code == 0, pruned.stderr
    _wait_for_bindings(kafka_admin, principal, expected - {("TOPIC", topic, "PREFIXED", "*", "WRITE", "DENY")})

    cleared = invoke("acls", *controllers, "--remove", "--force", "--topic", topic, "--group", group)
    assert cleared.code == 0, cleared.stderr
    _wait_for_bindings(kafka_admin, principal, set())


def test_the_authorizer_enforces_an_acl_and_its_removal(real_kafka: Any, new_topic: Any) -> None:
    admin, bob = cluster_of(real_kafka), cluster_of(real_kafka, "bob", "SCRAM-SHA-256")
    topic = new_topic("enforced")

    def bob_describes() -> Any:
        return invoke("configs", *bob.broker_args(), "--describe", "--all", "--topic", topic)

    assert bob_describes().code == 1
    granted = invoke(
        "acls", *admin.broker_args(), "--add", "--allow-principal", "User:bob", "--operation", "DescribeConfigs",
        "--topic", topic,
    )  # fmt: skip
    assert granted.code == 0, granted.stderr
    wait_for(lambda: bob_describes().code == 0, timeout=30, interval=0.5, what="bob allowed by the new ACL")
    denied = invoke(
        "acls", *admin.controller_args(), "--add", "--deny-principal", "User:bob", "--operation", "DescribeConfigs",
        "--topic", topic,
    )  # fmt: skip
    assert denied.code == 0, denied.stderr
    # DENY wins over ALLOW in Kafka's authorizer
    refused = wait_for(
        lambda: (r := bob_describes()).code == 1 and r, timeout=30, interval=0.5, what="bob denied again"
    )
    assert "TOPIC_AUTHORIZATION_FAILED" in refused.stderr
    # without rights on the cluster, bob cannot list ACLs
    listing = invoke("acls", *bob.broker_args(), "--list")
    assert listing.code == 1 and "CLUSTER_AUTHORIZATION_FAILED" in listing.stderr
    cleared = invoke("acls", *admin.broker_args(), "--remove", "--force", "--topic", topic)
    assert cleared.code == 0, cleared.stderr
