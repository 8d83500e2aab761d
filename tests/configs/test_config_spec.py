"""Unit tests for --add-config grammar, entity resolution and quota/SCRAM planning."""

from __future__ import annotations

import pytest

from kcli.errors import UsageError
from kcli.kafka import ConfigOp, ScramMechanism
from kcli.ops.config_spec import (
    ConfigChange,
    Entity,
    EntityFlags,
    EntityType,
    Selection,
    build_changes,
    parse_add_config,
    parse_delete_config,
    resolve_selection,
)
from kcli.ops.quota_plan import QuotaChange, plan_quota_alter


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a=1", {"a": "1"}),
        ("a=1,b=2", {"a": "1", "b": "2"}),
        ("k2=[v1,v2],k3=v3", {"k2": "v1,v2", "k3": "v3"}),
        ("ssl.endpoint.identification.algorithm=", {"ssl.endpoint.identification.algorithm": ""}),
        (" a = 1 , b=[x=y]", {"a": "1", "b": "x=y"}),
        (
            "leader.replication.throttled.replicas=[0:1,1:2]",
            {"leader.replication.throttled.replicas": "0:1,1:2"},
        ),
    ],
)
def test_add_config_grammar(text: str, expected: dict[str, str]) -> None:
    assert parse_add_config(text) == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("a=[1,2", "an unbalanced '[' in the value of 'a' in --add-config, not shown as it may be a secret"),
        (
            "x=0,a=1]",
            "an unbalanced ']' in the value of 'a' in --add-config, not shown as it may be a secret",
        ),
        ("x=0,a]", "an unbalanced ']' in item 2 in --add-config, not shown as it may be a secret"),
        ("=1", "Invalid entity config in --add-config: item 1 has an empty config key"),
        ("a", "--add-config item 1 has no '='"),
        ("x=0,a=b=c", "--add-config item 2 ('a') has more than one '=' outside brackets"),
        ("bad key=1", "Invalid character found for config key: bad key"),
    ],
)
def test_add_config_errors_name_the_item_and_key_never_the_value(text: str, fragment: str) -> None:
    with pytest.raises(UsageError) as info:
        parse_add_config(text)
    assert fragment in info.value.line()


@pytest.mark.parametrize(
    "text",
    [
        "listener.name.sasl_ssl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule "
        'required username="admin" password="s3cr[et";',
        "SCRAM-SHA-256=[password=s3cr[et]",
        "SCRAM-SHA-256=[password=s3cr]et]",
        "a=1,=s3cr[et",
        "a=1,s3cr[et",
        "a=1,ssl.key.password=s3cr=et=x",
    ],
)
def test_a_secret_in_add_config_is_never_in_the_error(text: str) -> None:
    """A listener's sasl.jaas.config or a password holding '[' was echoed whole in the error line
    (stderr, CI logs) before any cluster was contacted."""
    with pytest.raises(UsageError) as info:
        parse_add_config(text)
    assert "s3cr" not in info.value.line()


def test_add_config_format_error_is_kafkas_message() -> None:
    with pytest.raises(UsageError) as info:
        parse_add_config("a,=b")
    assert info.value.message == (
        'Invalid entity config: all configs to be added must be in the format "key=val" or  "key=[val1,val2]" '
        "to group values which contain commas."
    )


def test_dollar_is_a_key_character() -> None:
    assert parse_add_config("a._-c=b,a$b=c") == {"a._-c": "b", "a$b": "c"}


def test_delete_config_splits_and_dedupes() -> None:
    assert parse_delete_config(["a,b", "b", " c "]) == ["a", "b", "c"]
    with pytest.raises(UsageError, match="empty config key"):
        parse_delete_config(["a,,b"])


def test_changes_are_deletes_then_sets_then_list_ops() -> None:
    changes = build_changes(
        add_config="x=1",
        add_config_file=None,
        delete_config=["y"],
        append_config=["l=[a,b]"],
        subtract_config=["m=c"],
    )
    assert changes.changes == (
        ConfigChange(key="y", op=ConfigOp.DELETE),
        ConfigChange(key="x", op=ConfigOp.SET, value="1"),
        ConfigChange(key="l", op=ConfigOp.APPEND, value="a,b"),
        ConfigChange(key="m", op=ConfigOp.SUBTRACT, value="c"),
    )


def test_changes_rules() -> None:
    with pytest.raises(UsageError, match="Only one of --add-config or --add-config-file"):
        build_changes(add_config="a=1", add_config_file={"b": "2"}, delete_config=[])
    with pytest.raises(UsageError, match="At least one of --add-config"):
        build_changes(add_config=None, add_config_file=None, delete_config=[])
    # kafka-configs sends both (DELETE then SET) and lets the broker decide
    both = build_changes(add_config="a=1", add_config_file=None, delete_config=["a"])
    assert both.changes == (
        ConfigChange(key="a", op=ConfigOp.DELETE),
        ConfigChange(key="a", op=ConfigOp.SET, value="1"),
    )
    with pytest.raises(UsageError, match="both --add-config and --append-config"):
        build_changes(add_config="a=1", add_config_file=None, delete_config=[], append_config=["a=[x]"])
    file_changes = build_changes(add_config=None, add_config_file={"a": "1"}, delete_config=[])
    assert file_changes.sets == {"a": "1"}


def test_generic_entity_flags() -> None:
    sel = resolve_selection(EntityFlags(entity_types=["topics"], entity_names=["orders"]), alter=True)
    assert sel == Selection(
        types=(EntityType.TOPICS,), entities=(Entity(type=EntityType.TOPICS, name="orders"),)
    )
    many = resolve_selection(EntityFlags(entity_types=["topics"], entity_names=["a", "b"]), alter=False)
    assert [e.name for e in many.entities] == ["a", "b"]
    every = resolve_selection(EntityFlags(entity_types=["brokers"]), alter=False)
    assert every.entities == (Entity(type=EntityType.BROKERS),)


def test_shortcuts_and_user_client_pairs() -> None:
    sel = resolve_selection(EntityFlags(client="c1", user="u1"), alter=True)
    assert sel.is_quota
    assert sel.entities == (
        Entity(type=EntityType.USERS, name="u1"),
        Entity(type=EntityType.CLIENTS, name="c1"),
    )
    sel = resolve_selection(EntityFlags(user="u1", client_defaults=True), alter=True)
    assert sel.entities == (
        Entity(type=EntityType.USERS, name="u1"),
        Entity(type=EntityType.CLIENTS, default=True),
    )
    sel = resolve_selection(
        EntityFlags(entity_types=["users", "clients"], entity_names=["u"], entity_default=True), alter=True
    )
    assert sel.entities[1] == Entity(type=EntityType.CLIENTS, default=True)
    broker_default = resolve_selection(EntityFlags(broker_defaults=True), alter=True)
    assert broker_default.entities == (Entity(type=EntityType.BROKERS, default=True),)
    assert broker_default.entities[0].resource_name == ""


@pytest.mark.parametrize(
    ("flags", "alter", "fragment"),
    [
        (EntityFlags(entity_types=["topicz"]), False, "Invalid entity type topicz"),
        (EntityFlags(), False, "At least one entity type must be specified"),
        (EntityFlags(entity_types=["topics", "brokers"]), False, "Only 'users' and 'clients'"),
        (EntityFlags(entity_types=["topics", "topics"]), False, "Duplicate entity type(s) specified: topics"),
        (EntityFlags(entity_types=["users"], client="x"), False, "should not be used in conjunction"),
        (EntityFlags(broker="one"), False, "valid integer broker id, but it is: one"),
        (EntityFlags(topic="bad/name"), False, 'Topic name "bad/name" is illegal'),
        (EntityFlags(ip="not an ip!"), False, "valid IP or resolvable host, but it is: not an ip!"),
        (EntityFlags(entity_types=["broker-loggers"]), False, "An entity name must be specified"),
        (
            EntityFlags(entity_types=["topics"]),
            True,
            "An entity name must be specified with --alter of topics",
        ),
        (EntityFlags(entity_types=["users"]), True, "An entity-name or default entity must be specified"),
        (
            EntityFlags(entity_types=["topics"], entity_default=True),
            False,
            "--entity-default must not be specified with --describe of topics",
        ),
        (
            EntityFlags(entity_types=["topics"], entity_names=["a", "b"]),
            True,
            "An entity name must be specified for every entity type",
        ),
    ],
)
def test_entity_errors(flags: EntityFlags, alter: bool, fragment: str) -> None:
    with pytest.raises(UsageError) as info:
        resolve_selection(flags, alter=alter)
    assert fragment in info.value.message


def _changes(add: str | None = None, delete: list[str] | None = None):  # type: ignore[no-untyped-def]
    return build_changes(add_config=add, add_config_file=None, delete_config=delete or [])


def test_quota_plan() -> None:
    users = resolve_selection(EntityFlags(user="alice"), alter=True)
    plan = plan_quota_alter(users, _changes("producer_byte_rate=1024", ["consumer_byte_rate"]))
    assert plan.quota == (
        QuotaChange(key="producer_byte_rate", value=1024.0),
        QuotaChange(key="consumer_byte_rate", value=None),
    )
    with pytest.raises(
        UsageError, match="Cannot parse quota configuration value for producer_byte_rate: fast"
    ):
        plan_quota_alter(users, _changes("producer_byte_rate=fast"))
    clients = resolve_selection(EntityFlags(client="c"), alter=True)
    with pytest.raises(UsageError, match=r"Only quota configs can be added for 'clients'.*SCRAM-SHA-256"):
        plan_quota_alter(clients, _changes("SCRAM-SHA-256=[password=x]"))
    ips = resolve_selection(EntityFlags(ip="10.0.0.1"), alter=True)
    assert plan_quota_alter(ips, _changes("connection_creation_rate=10")).quota[0].value == 10.0
    with pytest.raises(UsageError, match="producer_byte_rate"):
        plan_quota_alter(ips, _changes("producer_byte_rate=10"))


def test_scram_plan() -> None:
    users = resolve_selection(EntityFlags(user="alice"), alter=True)
    plan = plan_quota_alter(
        users, _changes("SCRAM-SHA-512=[iterations=8192,password=s3cret],SCRAM-SHA-256=[password=p]")
    )
    assert plan.is_scram
    assert [(u.mechanism, u.iterations, u.password) for u in plan.scram_upserts] == [
        (ScramMechanism.SCRAM_SHA_512, 8192, "s3cret"),
        (ScramMechanism.SCRAM_SHA_256, 4096, "p"),
    ]
    assert "s3cret" not in repr(plan)
    deletes = plan_quota_alter(users, _changes(delete=["SCRAM-SHA-256"]))
    assert deletes.scram_deletes == (ScramMechanism.SCRAM_SHA_256,)
    with pytest.raises(
        UsageError, match="Iterations 10 is less than the minimum 4096 required for SCRAM-SHA-256"
    ):
        plan_quota_alter(users, _changes("SCRAM-SHA-256=[iterations=10,password=p]"))
    with pytest.raises(UsageError, match="Cannot alter both quota and SCRAM"):
        plan_quota_alter(users, _changes("SCRAM-SHA-256=[password=p],producer_byte_rate=1"))
    default_user = resolve_selection(EntityFlags(user_defaults=True), alter=True)
    with pytest.raises(UsageError, match="not allowed with User SCRAM"):
        plan_quota_alter(default_user, _changes("SCRAM-SHA-256=[password=p]"))
    with pytest.raises(UsageError, match="a password is required"):
        plan_quota_alter(users, _changes("SCRAM-SHA-256=[iterations=5000]"))


def test_every_shortcut_flag_is_in_the_table_and_completion_follows_it() -> None:
    """A new `--<type> NAME` or `--<type>-defaults` flag is one row of SHORTCUT_FLAGS/DEFAULT_FLAGS:
    EntityFlags' shortcut fields are exactly the rows, and completion of --add-config keys takes the
    entity type from the same rows."""
    import dataclasses
    from types import SimpleNamespace

    from kcli.cli.completers import _entity_type_of
    from kcli.ops.config_spec import DEFAULT_FLAGS, SHORTCUT_FLAGS

    generic = {"entity_types", "entity_names", "entity_default"}
    fields = {field.name for field in dataclasses.fields(EntityFlags)} - generic
    rows = [name for name, _kind in (*SHORTCUT_FLAGS, *DEFAULT_FLAGS)]
    assert sorted(rows) == sorted(fields) and len(set(rows)) == len(rows)
    for name, kind in (*SHORTCUT_FLAGS, *DEFAULT_FLAGS):
        value = True if name.endswith("_defaults") else "x"
        assert EntityFlags(**{name: value}).type_texts == [kind.value]
        assert _entity_type_of(SimpleNamespace(params={name: value})) == kind.value
    assert _entity_type_of(SimpleNamespace(params={"entity_type": ["groups"], "topic": "t"})) == "groups"
