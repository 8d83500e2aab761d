"""Unit tests for kafka-configs.sh line shapes, dry-run previews, diffs and did-you-mean."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.kafka import ConfigOp, ConfigSource, ScramMechanism
from kcli.ops.config_model import (
    AlterOutcome,
    ConfigEntry,
    ConfigSynonym,
    DescribeResult,
    QuotaEntity,
    QuotaEntry,
    ResourceConfigs,
    ResourceError,
    ScramInfo,
    check_deletes,
    diff_configs,
    preview,
    unknown_keys,
)
from kcli.ops.config_spec import Entity, EntityType, build_changes
from kcli.render.configs import (
    alter_text,
    describe_json,
    describe_text,
    diff_text,
    java_double,
)

TOPIC = Entity(type=EntityType.TOPICS, name="orders")


def _entry(
    name: str, value: str | None, source: ConfigSource, *synonyms: ConfigSynonym, sensitive: bool = False
) -> ConfigEntry:
    return ConfigEntry(name=name, value=value, source=source, sensitive=sensitive, synonyms=synonyms)


RETENTION = _entry(
    "retention.ms",
    "1000",
    ConfigSource.DYNAMIC_TOPIC_CONFIG,
    ConfigSynonym(name="retention.ms", value="1000", source=ConfigSource.DYNAMIC_TOPIC_CONFIG),
    ConfigSynonym(name="log.retention.ms", value="604800000", source=ConfigSource.DEFAULT_CONFIG),
)
CLEANUP = _entry("cleanup.policy", "delete", ConfigSource.DEFAULT_CONFIG)
SECRET = _entry("sasl.jaas.config", "hunter2", ConfigSource.DYNAMIC_TOPIC_CONFIG, sensitive=True)
ORDERS = ResourceConfigs(entity=TOPIC, entries=(RETENTION, CLEANUP, SECRET))


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1024.0, "1024.0"),
        (0.5, "0.5"),
        (1e7, "1.0E7"),
        (12345678.0, "1.2345678E7"),
        (0.0001, "1.0E-4"),
        (100.25, "100.25"),
        (0.0, "0.0"),
    ],
)
def test_java_double(value: float, text: str) -> None:
    assert java_double(value) == text


def test_describe_dynamic_lines_exact() -> None:
    result = DescribeResult(resources=(ORDERS,))
    assert list(describe_text(result)) == [
        "Dynamic configs for topic orders are:",
        "  retention.ms=1000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=1000, DEFAULT_CONFIG:log.retention.ms=604800000}",
        "  sasl.jaas.config=null sensitive=true synonyms={}",
    ]


def test_describe_all_and_defaults_and_missing() -> None:
    result = DescribeResult(
        resources=(ORDERS,), describe_all=True, missing=(Entity(type=EntityType.TOPICS, name="gone"),)
    )
    lines = list(describe_text(result))
    assert lines[0] == "The topic 'gone' doesn't exist and doesn't have dynamic config."
    assert lines[1] == "All configs for topic orders are:"
    assert lines[2].startswith("  cleanup.policy=delete sensitive=false")
    broker_default = ResourceConfigs(
        entity=Entity(type=EntityType.BROKERS, default=True),
        entries=(
            _entry("log.retention.ms", "5", ConfigSource.DYNAMIC_DEFAULT_BROKER_CONFIG),
            _entry("x", "1", ConfigSource.STATIC_BROKER_CONFIG),
        ),
    )
    assert list(describe_text(DescribeResult(resources=(broker_default,)))) == [
        "Default configs for brokers in the cluster are:",
        "  log.retention.ms=5 sensitive=false synonyms={}",
    ]


def test_describe_quota_and_scram_lines() -> None:
    quota = QuotaEntry(
        entity=QuotaEntity(components=(("user", "alice"), ("client-id", None))),
        values={"producer_byte_rate": 1024.0, "consumer_byte_rate": 2e7},
    )
    scram = ScramInfo(
        user="alice", credentials=((ScramMechanism.SCRAM_SHA_256, 4096), (ScramMechanism.SCRAM_SHA_512, 8192))
    )
    missing = ScramInfo(
        user="bob", error=ResourceError(code=91, name="RESOURCE_NOT_FOUND", message="no credentials")
    )
    failed = ScramInfo(
        user="carol", error=ResourceError(code=-1, name="UNKNOWN_SERVER_ERROR", message="boom")
    )
    # a user without credentials prints nothing, as kafka-configs (the Admin result drops it); other errors do
    assert list(describe_text(DescribeResult(quotas=(quota,), scram=(scram, missing, failed)))) == [
        "Quota configs for user-principal 'alice', the default client-id are consumer_byte_rate=2.0E7, producer_byte_rate=1024.0",
        "SCRAM credential configs for user-principal 'alice' are SCRAM-SHA-256=iterations=4096, SCRAM-SHA-512=iterations=8192",
        "Error retrieving SCRAM credential configs for user-principal 'carol': UnknownServerErrorException: boom",
    ]


def test_describe_json_never_holds_sensitive_values() -> None:
    doc = describe_json(DescribeResult(resources=(ORDERS,), describe_all=True))
    configs = {c["name"]: c for c in doc["resources"][0]["configs"]}
    assert configs["sasl.jaas.config"]["value"] is None
    assert configs["sasl.jaas.config"]["sensitive"] is True
    assert configs["retention.ms"]["synonyms"][1] == {
        "name": "log.retention.ms",
        "value": "604800000",
        "source": "DEFAULT_CONFIG",
    }
    assert "hunter2" not in str(doc)


def test_check_deletes() -> None:
    check_deletes(
        ORDERS, build_changes(add_config=None, add_config_file=None, delete_config=["retention.ms"])
    )
    filler = tuple(_entry(f"k{i}", "1", ConfigSource.DEFAULT_CONFIG) for i in range(25))
    full = ResourceConfigs(entity=TOPIC, entries=(*filler, RETENTION, CLEANUP))
    with pytest.raises(KcliError, match=r"Invalid config\(s\): cleanup.policy"):
        check_deletes(
            full, build_changes(add_config=None, add_config_file=None, delete_config=["cleanup.policy"])
        )
    # a sparse list (only set keys, all marked DEFAULT_CONFIG, as tansu answers): presence counts
    check_deletes(
        ORDERS, build_changes(add_config=None, add_config_file=None, delete_config=["cleanup.policy"])
    )
    with pytest.raises(KcliError, match=r"Invalid config\(s\): nope"):
        check_deletes(ORDERS, build_changes(add_config=None, add_config_file=None, delete_config=["nope"]))
    loggers = ResourceConfigs(
        entity=Entity(type=EntityType.BROKER_LOGGERS, name="1"),
        entries=(_entry("kafka.server", "INFO", ConfigSource.DYNAMIC_BROKER_LOGGER_CONFIG),),
    )
    with pytest.raises(KcliError, match=r"Invalid broker logger\(s\): nope"):
        check_deletes(loggers, build_changes(add_config="nope=DEBUG", add_config_file=None, delete_config=[]))


def test_dry_run_preview_before_after() -> None:
    changes = build_changes(
        add_config="cleanup.policy=compact",
        add_config_file=None,
        delete_config=["retention.ms"],
        append_config=["cleanup.policy2=x"],
    )
    previews = preview(ORDERS, changes)
    assert [(p.key, p.op, p.before, p.after, p.after_is_default) for p in previews] == [
        ("retention.ms", ConfigOp.DELETE, "1000", "604800000", True),
        ("cleanup.policy", ConfigOp.SET, "delete", "compact", False),
        ("cleanup.policy2", ConfigOp.APPEND, None, "x", False),
    ]
    lines = list(alter_text((AlterOutcome(entity=TOPIC, previews=previews, dry_run=True),)))
    assert lines == [
        "Dry run for topic orders (validated by the cluster), nothing was changed:",
        "  delete retention.ms: 1000 -> (default) 604800000",
        "  cleanup.policy: delete -> compact",
        "  append cleanup.policy2: (unset) -> x",
    ]
    assert list(alter_text((AlterOutcome(entity=TOPIC),))) == ["Completed updating config for topic orders."]
    assert list(alter_text((AlterOutcome(entity=Entity(type=EntityType.BROKERS, default=True)),))) == [
        "Completed updating default config for brokers in the cluster."
    ]


def test_subtract_and_sensitive_preview() -> None:
    listy = ResourceConfigs(
        entity=TOPIC, entries=(_entry("policy", "a,b,c", ConfigSource.DYNAMIC_TOPIC_CONFIG), SECRET)
    )
    changes = build_changes(
        add_config="sasl.jaas.config=new",
        add_config_file=None,
        delete_config=[],
        subtract_config=["policy=[b,c]"],
    )
    by_key = {p.key: p for p in preview(listy, changes)}
    assert by_key["policy"].after == "a"
    assert by_key["sasl.jaas.config"].before is None and by_key["sasl.jaas.config"].after is None


def test_did_you_mean_needs_a_full_list() -> None:
    full = ResourceConfigs(
        entity=TOPIC,
        entries=(
            *tuple(_entry(f"k{i}.setting", "1", ConfigSource.DEFAULT_CONFIG) for i in range(25)),
            RETENTION,
        ),
    )
    changes = build_changes(add_config="retention.mss=5,brand.new=1", add_config_file=None, delete_config=[])
    assert unknown_keys(full, changes) == [("retention.mss", "retention.ms")]
    assert unknown_keys(ORDERS, changes) == []  # sparse list (tansu-like): never judged


def test_diff() -> None:
    other = ResourceConfigs(entity=Entity(type=EntityType.TOPICS, name="b"), entries=(CLEANUP,))
    diff = diff_configs([ORDERS, other], describe_all=False)
    assert [(r.key, r.values) for r in diff.rows] == [
        ("retention.ms", ("1000", None)),
        ("sasl.jaas.config", ("(sensitive)", None)),
    ]
    assert list(diff_text(diff)) == [
        "2 dynamic configs differ between topic orders and topic b:",
        "  retention.ms: [topic orders] 1000  [topic b] (unset)",
        "  sasl.jaas.config: [topic orders] (sensitive)  [topic b] (unset)",
    ]
    same = diff_configs([other, other], describe_all=True)
    assert list(diff_text(same)) == ["No differences in configs between topic b and topic b."]
    with pytest.raises(UsageError):
        diff_configs([ORDERS], describe_all=False)
