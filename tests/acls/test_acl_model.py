"""Unit tests for ACL options, bindings, filters, matching, export/import diffing and text shapes."""

from __future__ import annotations

import json

import pytest

from kcli.errors import UsageError
from kcli.kafka import AclOperation, PatternType, PermissionType, ResourceType
from kcli.ops.acls import (
    CLUSTER_FILTER,
    AccessControlEntry,
    AclBinding,
    AclBindingFilter,
    AclOptions,
    ResourcePattern,
    ResourcePatternFilter,
    bindings_to_add,
    check_options,
    deletion_filters,
    export_document,
    list_filters,
    parse_document,
    parse_operation,
    plan_import,
)
from kcli.render.acls import AclListing, adding_lines, list_text, remove_prompt

ALICE_READ = AccessControlEntry(
    principal="User:alice", host="*", operation=AclOperation.READ, permission_type=PermissionType.ALLOW
)
ORDERS = ResourcePattern(resource_type=ResourceType.TOPIC, name="orders", pattern_type=PatternType.LITERAL)


def test_string_forms_are_kafkas() -> None:
    assert str(ORDERS) == "ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)"
    assert str(ALICE_READ) == "(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)"
    assert str(AclBinding(pattern=ORDERS, entry=ALICE_READ)) == (
        "(pattern=ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL), "
        "entry=(principal=User:alice, host=*, operation=READ, permissionType=ALLOW))"
    )
    assert str(ResourcePatternFilter()) == "ResourcePattern(resourceType=ANY, name=<any>, patternType=ANY)"


@pytest.mark.parametrize(
    ("text", "op"),
    [
        ("Read", AclOperation.READ),
        ("READ", AclOperation.READ),
        ("describeconfigs", AclOperation.DESCRIBE_CONFIGS),
        ("DescribeConfigs", AclOperation.DESCRIBE_CONFIGS),
        ("IDEMPOTENT_WRITE", AclOperation.IDEMPOTENT_WRITE),
        ("TwoPhaseCommit", AclOperation.TWO_PHASE_COMMIT),
        ("All", AclOperation.ALL),
    ],
)
def test_parse_operation(text: str, op: AclOperation) -> None:
    assert parse_operation(text) is op


def test_parse_operation_rejects() -> None:
    with pytest.raises(UsageError, match="Invalid operation 'Fly'"):
        parse_operation("Fly")


def test_add_cartesian_product_and_default_host() -> None:
    opts = AclOptions(
        add=True,
        topics=["orders"],
        allow_principals=["User:alice", "User:bob"],
        operations=["Read", "Write"],
        deny_principals=["User:eve"],
        deny_hosts=["10.0.0.1"],
    )
    check_options(opts)
    mapping = bindings_to_add(opts)
    entries = mapping[ORDERS]
    assert len(entries) == 2 * 2 + 2
    assert ALICE_READ in entries
    assert (
        AccessControlEntry(
            principal="User:eve",
            host="10.0.0.1",
            operation=AclOperation.WRITE,
            permission_type=PermissionType.DENY,
        )
        in entries
    )


def test_producer_consumer_idempotent_sets() -> None:
    opts = AclOptions(
        add=True,
        producer=True,
        consumer=True,
        idempotent=True,
        topics=["t"],
        groups=["g"],
        transactional_ids=["tx"],
        allow_principals=["User:app"],
    )
    check_options(opts)
    mapping = {
        (p.resource_type, p.name): {e.operation for e in es} for p, es in bindings_to_add(opts).items()
    }
    assert mapping == {
        (ResourceType.TOPIC, "t"): {
            AclOperation.WRITE,
            AclOperation.DESCRIBE,
            AclOperation.CREATE,
            AclOperation.READ,
        },
        (ResourceType.TRANSACTIONAL_ID, "tx"): {AclOperation.WRITE, AclOperation.DESCRIBE},
        (ResourceType.CLUSTER, "kafka-cluster"): {AclOperation.IDEMPOTENT_WRITE},
        (ResourceType.GROUP, "g"): {AclOperation.READ},
    }


@pytest.mark.parametrize(
    ("opts", "fragment"),
    [
        (AclOptions(), "exactly one action"),
        (AclOptions(add=True, list=True), "exactly one action"),
        (
            AclOptions(list=True, producer=True, topics=["t"]),
            'Option "[list]" can\'t be used with option "[producer]"',
        ),
        (
            AclOptions(add=True, producer=True, topics=["t"], operations=["Read"]),
            'Option "[producer]" can\'t be used with option "[operation]"',
        ),
        (
            AclOptions(add=True, consumer=True, topics=["t"], deny_principals=["User:x"]),
            '"[consumer]" can\'t be used with option "[deny-principal]"',
        ),
        (AclOptions(add=True, principals=["User:x"]), "only available if --list"),
        (AclOptions(add=True, producer=True), "With --producer you must specify a --topic"),
        (AclOptions(add=True, idempotent=True), "only available if --producer"),
        (
            AclOptions(add=True, consumer=True, topics=["t"]),
            "With --consumer you must specify a --topic and a --group",
        ),
        (AclOptions(add=True, consumer=True, topics=["t"], groups=["g"], cluster=True), "no --cluster"),
        (
            AclOptions(add=True, allow_principals=["alice"]),
            "format principalType:principalName but got alice",
        ),
        (AclOptions(list=True, pattern_type="fuzzy"), "Invalid --resource-pattern-type 'fuzzy'"),
    ],
)
def test_option_rules(opts: AclOptions, fragment: str) -> None:
    with pytest.raises(UsageError) as info:
        check_options(opts)
    assert fragment in info.value.message


def test_add_rules() -> None:
    with pytest.raises(UsageError, match="You must provide at least one resource"):
        bindings_to_add(AclOptions(add=True, allow_principals=["User:a"]))
    with pytest.raises(UsageError, match="You must specify one of: --allow-principal, --deny-principal"):
        bindings_to_add(AclOptions(add=True, topics=["t"]))
    with pytest.raises(UsageError, match="'MATCH' is not valid when adding acls"):
        bindings_to_add(AclOptions(add=True, topics=["t"], pattern_type="match", allow_principals=["User:a"]))
    with pytest.raises(
        UsageError, match="ResourceType GROUP only supports operations Read, Describe, Delete"
    ):
        bindings_to_add(AclOptions(add=True, groups=["g"], operations=["Write"], allow_principals=["User:a"]))


def test_cluster_only_with_literal() -> None:
    assert CLUSTER_FILTER in list_filters_patterns(AclOptions(list=True, cluster=True))
    assert CLUSTER_FILTER not in list_filters_patterns(
        AclOptions(list=True, cluster=True, pattern_type="prefixed", topics=["x"])
    )
    assert list_filters(AclOptions(list=True)) == (AclBindingFilter(),)


def list_filters_patterns(opts: AclOptions) -> list[ResourcePatternFilter]:
    return [f.pattern for f in list_filters(opts)]


def test_deletion_filters() -> None:
    every = deletion_filters(AclOptions(remove=True, topics=["t"]))
    topic_filter = ResourcePatternFilter(
        resource_type=ResourceType.TOPIC, name="t", pattern_type=PatternType.LITERAL
    )
    assert every == {topic_filter: (AclBindingFilter(pattern=topic_filter),)}
    one = deletion_filters(
        AclOptions(remove=True, topics=["t"], allow_principals=["User:alice"], operations=["Read"])
    )
    assert one[topic_filter][0].entry.principal == "User:alice"
    assert one[topic_filter][0].entry.operation is AclOperation.READ
    assert remove_prompt(topic_filter, every[topic_filter]) == (
        "Are you sure you want to delete all ACLs for resource filter "
        "`ResourcePattern(resourceType=TOPIC, name=t, patternType=LITERAL)`? (y/n)"
    )
    assert remove_prompt(topic_filter, one[topic_filter]).startswith(
        "Are you sure you want to remove ACLs: \n \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)\n from resource filter `"
    )


def _binding(name: str, pattern: PatternType, resource: ResourceType = ResourceType.TOPIC) -> AclBinding:
    return AclBinding(
        pattern=ResourcePattern(resource_type=resource, name=name, pattern_type=pattern), entry=ALICE_READ
    )


def test_filter_matching_kafka_semantics() -> None:
    literal, wildcard, prefixed = (
        _binding("orders", PatternType.LITERAL),
        _binding("*", PatternType.LITERAL),
        _binding("ord", PatternType.PREFIXED),
    )
    other_type = _binding("orders", PatternType.LITERAL, ResourceType.GROUP)
    match = AclBindingFilter(
        pattern=ResourcePatternFilter(
            resource_type=ResourceType.TOPIC, name="orders", pattern_type=PatternType.MATCH
        )
    )
    assert [match.matches(b) for b in (literal, wildcard, prefixed, other_type)] == [True, True, True, False]
    exact = AclBindingFilter(
        pattern=ResourcePatternFilter(
            resource_type=ResourceType.TOPIC, name="orders", pattern_type=PatternType.LITERAL
        )
    )
    assert [exact.matches(b) for b in (literal, wildcard, prefixed)] == [True, False, False]
    any_name = AclBindingFilter(
        pattern=ResourcePatternFilter(
            resource_type=ResourceType.ANY, name="orders", pattern_type=PatternType.ANY
        )
    )
    assert [any_name.matches(b) for b in (literal, wildcard, prefixed, other_type)] == [
        True,
        False,
        False,
        True,
    ]
    assert AclBindingFilter().matches(prefixed)
    deny_only = AclBindingFilter(entry=ALICE_READ.to_filter().__class__(permission_type=PermissionType.DENY))
    assert not deny_only.matches(literal)


def test_export_import_round_trip_and_plan() -> None:
    a, b, c = (
        _binding("a", PatternType.LITERAL),
        _binding("b", PatternType.PREFIXED),
        _binding("c", PatternType.LITERAL),
    )
    doc = export_document([b, a, a])
    assert [x["name"] for x in doc["acls"]] == ["a", "b"]
    parsed = parse_document(json.dumps(doc), source="acls.json")
    assert set(parsed) == {a, b}
    plan = plan_import(parsed, [b, c])
    assert plan.create == (a,) and plan.present == (b,) and plan.extra == (c,)
    scoped = plan_import(parsed, [b, c], scope=(AclBindingFilter(pattern=ResourcePatternFilter(name="zzz")),))
    assert scoped.extra == ()


@pytest.mark.parametrize(
    ("doc", "fragment"),
    [
        ("{", "not valid JSON"),
        ('{"acls": 3}', "expected an object"),
        ('{"version": 2, "acls": []}', "unsupported version 2"),
        (
            '{"acls": [{"resourceType": "TOPIC", "name": "x", "patternType": "MATCH", "principal": "User:a", "operation": "READ", "permissionType": "ALLOW"}]}',
            "acls[0]: resourceType and patternType must be specific",
        ),
        (
            '{"acls": [{"resourceType": "GROUP", "name": "x", "patternType": "LITERAL", "principal": "User:a", "operation": "WRITE", "permissionType": "ALLOW"}]}',
            "does not support operation Write",
        ),
        (
            '{"acls": [{"resourceType": "TOPIC", "name": "x", "patternType": "LITERAL", "principal": "a", "operation": "READ", "permissionType": "ALLOW"}]}',
            "principalType:principalName",
        ),
    ],
)
def test_import_errors(doc: str, fragment: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_document(doc, source="f.json")
    assert fragment in info.value.message


def test_text_shapes_exact() -> None:
    write = AccessControlEntry(
        principal="User:alice", host="*", operation=AclOperation.WRITE, permission_type=PermissionType.ALLOW
    )
    assert adding_lines(ORDERS, (ALICE_READ, write)) == [
        "Adding ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`: ",
        " \t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)",
        "\t(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)",
        "",
    ]
    bob = AclBinding(
        pattern=ORDERS,
        entry=AccessControlEntry(
            principal="User:bob", host="*", operation=AclOperation.READ, permission_type=PermissionType.DENY
        ),
    )
    listing = AclListing(
        bindings=(AclBinding(pattern=ORDERS, entry=write), AclBinding(pattern=ORDERS, entry=ALICE_READ), bob)
    )
    assert list(list_text(listing)) == [
        "Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`:",
        "\t(principal=User:alice, host=*, operation=READ, permissionType=ALLOW)",
        "\t(principal=User:alice, host=*, operation=WRITE, permissionType=ALLOW)",
        "\t(principal=User:bob, host=*, operation=READ, permissionType=DENY)",
        "",
    ]
    by_principal = list(list_text(AclListing(bindings=listing.bindings, principals=("User:bob",))))
    assert by_principal == [
        "ACLs for principal `User:bob`",
        "Current ACLs for resource `ResourcePattern(resourceType=TOPIC, name=orders, patternType=LITERAL)`:",
        "\t(principal=User:bob, host=*, operation=READ, permissionType=DENY)",
        "",
    ]
