"""kcli acls against tansu: its CreateAcls reply is malformed and DescribeAcls always empty.

Other clients hang 30 s (kafka-python) or abort (confluent-kafka); kcli must report one clear line
within the deadline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.fixtures_tansu import TansuBroker

pytestmark = pytest.mark.tansu


@pytest.mark.timeout(60)
def test_add_reports_the_malformed_create_acls_reply(tansu: TansuBroker) -> None:
    result = invoke(
        "acls",
        "-b",
        tansu.bootstrap,
        "--add",
        "--allow-principal",
        "User:alice",
        "--topic",
        "orders",
        "--operation",
        "Read",
    )
    assert result.code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert "CreateAcls" in lines[0]
    assert "malformed" in lines[0]


def test_list_of_an_empty_describe_is_empty_not_an_error(tansu: TansuBroker) -> None:
    result = invoke("acls", "-b", tansu.bootstrap, "--list", "--topic", "orders")
    assert result.code == 0, result.stderr
    assert result.stdout == ""
    as_json = invoke("acls", "-b", tansu.bootstrap, "--list", "-o", "json")
    assert as_json.json == {"acls": []}


@pytest.mark.timeout(60)
def test_import_fails_clearly_on_the_malformed_reply(tansu: TansuBroker, tmp_path: Path) -> None:
    doc = {
        "version": 1,
        "acls": [
            {
                "resourceType": "TOPIC",
                "name": "orders",
                "patternType": "LITERAL",
                "principal": "User:alice",
                "host": "*",
                "operation": "READ",
                "permissionType": "ALLOW",
            }
        ],
    }
    path = tmp_path / "acls.json"
    path.write_text(json.dumps(doc))
    result = invoke("acls", "-b", tansu.bootstrap, "--import", str(path))
    assert result.code == 1
    assert "CreateAcls" in result.stderr and "malformed" in result.stderr
    dry = invoke("acls", "-b", tansu.bootstrap, "--import", str(path), "--dry-run")
    assert dry.code == 0, dry.stderr
    assert dry.lines[0] == "0 ACL binding(s) already present, 1 to create, 0 not in the file."


def test_remove_with_nothing_matching_sends_no_delete(tansu: TansuBroker) -> None:
    # tansu does not offer DeleteAcls at all; with nothing matching kcli must not need it
    result = invoke("acls", "-b", tansu.bootstrap, "--remove", "--topic", "orders", "--force")
    assert result.code == 0, result.stderr
    assert result.lines[0].startswith(
        "No ACLs match resource filter `ResourcePattern(resourceType=TOPIC, name=orders"
    )
