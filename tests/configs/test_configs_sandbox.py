"""kcli configs end to end against the sandbox, through brokers and through controllers (KIP-919)."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox


def _create_topic(sb: Any, **config: str) -> str:
    """Create a topic with an independent client (kafka-python), so kcli only describes and alters."""
    from kafka.admin import KafkaAdminClient, NewTopic

    name = f"cfg-{uuid.uuid4().hex[:8]}"
    admin = KafkaAdminClient(bootstrap_servers=sb.bootstrap_servers, request_timeout_ms=10000)
    try:
        admin.create_topics([NewTopic(name, 1, 1, topic_configs=config)])
    finally:
        admin.close()
    return name


def _kcli(sb: Any, kind: str, *args: str) -> CliResult:
    flag = ("-b", sb.bootstrap_servers) if kind == "brokers" else ("-C", sb.bootstrap_controllers)
    return invoke("configs", *flag, *args)


def _dynamic(sb: Any, kind: str, topic: str) -> dict[str, Any]:
    result = _kcli(sb, kind, "--describe", "--topic", topic, "-o", "json")
    assert result.code == 0, result.stderr
    return {c["name"]: c for c in result.json["resources"][0]["configs"]}


@pytest.mark.parametrize(("writer", "reader"), [("brokers", "controllers"), ("controllers", "brokers")])
def test_alter_through_one_kind_read_through_the_other(sandbox: Any, writer: str, reader: str) -> None:
    topic = _create_topic(sandbox)
    result = _kcli(
        sandbox,
        writer,
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--add-config",
        "retention.ms=86400000,cleanup.policy=[compact,delete]",
    )
    assert result.code == 0, result.stderr
    assert result.lines == [f"Completed updating config for topic {topic}."]
    dynamic = _dynamic(sandbox, reader, topic)
    assert dynamic["retention.ms"]["value"] == "86400000"
    assert dynamic["retention.ms"]["source"] == "DYNAMIC_TOPIC_CONFIG"
    assert dynamic["cleanup.policy"]["value"] == "compact,delete"
    text = _kcli(sandbox, reader, "--describe", "--topic", topic)
    assert text.lines[0] == f"Dynamic configs for topic {topic} are:"
    assert any(
        line.startswith(
            "  retention.ms=86400000 sensitive=false synonyms={DYNAMIC_TOPIC_CONFIG:retention.ms=86400000"
        )
        for line in text.lines
    )
    removed = _kcli(sandbox, writer, "--alter", "--topic", topic, "--delete-config", "retention.ms")
    assert removed.code == 0, removed.stderr
    assert "retention.ms" not in _dynamic(sandbox, reader, topic)


def test_describe_all_has_defaults_and_synonyms(sandbox: Any) -> None:
    topic = _create_topic(sandbox, **{"retention.ms": "1000"})
    result = _kcli(sandbox, "brokers", "--describe", "--topic", topic, "--all", "-o", "json")
    assert result.code == 0, result.stderr
    configs = {c["name"]: c for c in result.json["resources"][0]["configs"]}
    assert len(configs) > 20
    retention = configs["retention.ms"]
    assert retention["value"] == "1000"
    assert retention["synonyms"][0] == {
        "name": "retention.ms",
        "value": "1000",
        "source": "DYNAMIC_TOPIC_CONFIG",
    }
    assert {"sensitive", "read_only", "source", "type"} <= set(retention)


def test_dry_run_validates_and_changes_nothing(sandbox: Any) -> None:
    topic = _create_topic(sandbox, **{"retention.ms": "1000"})
    result = _kcli(
        sandbox,
        "brokers",
        "--alter",
        "--topic",
        topic,
        "--add-config",
        "retention.ms=2000",
        "--delete-config",
        "retention.ms",
        "--dry-run",
    )
    # kafka-configs sends a key given to --add-config and --delete-config; the broker refuses it
    assert result.code == 1
    assert "INVALID_REQUEST: Error due to duplicate config keys" in result.stderr
    result = _kcli(
        sandbox, "brokers", "--alter", "--topic", topic, "--add-config", "retention.ms=2000", "--dry-run"
    )
    assert result.code == 0, result.stderr
    assert result.lines == [
        f"Dry run for topic {topic} (validated by the cluster), nothing was changed:",
        "  retention.ms: 1000 -> 2000",
    ]
    assert _dynamic(sandbox, "brokers", topic)["retention.ms"]["value"] == "1000"


def test_did_you_mean_from_the_brokers_own_list(sandbox: Any) -> None:
    topic = _create_topic(sandbox)
    result = _kcli(sandbox, "brokers", "--alter", "--topic", topic, "--add-config", "retention.mss=5")
    assert result.code == 2
    assert (
        result.stderr.strip()
        == f"Error: Unknown config 'retention.mss' for topic {topic} (did you mean 'retention.ms'?)"
    )


@pytest.mark.parametrize("kind", ["brokers", "controllers"])
def test_did_you_mean_for_the_broker_defaults_too(sandbox: Any, kind: str) -> None:
    """The default broker lists only the defaults that are set; the guess comes from a broker's full list."""
    for args in (["--broker-defaults"], ["--entity-type", "brokers", "--entity-default"]):
        result = _kcli(sandbox, kind, "--alter", *args, "--add-config", "log.cleaner.threadz=2", "--dry-run")
        assert result.code == 2
        assert (
            result.stderr.strip()
            == "Error: Unknown config 'log.cleaner.threadz' for default broker (did you mean 'log.cleaner.threads'?)"
        )


def test_per_resource_errors_do_not_hide_the_others(sandbox: Any) -> None:
    topic = _create_topic(sandbox, **{"retention.ms": "1000"})
    missing = f"missing-{uuid.uuid4().hex[:6]}"
    result = _kcli(
        sandbox,
        "brokers",
        "--describe",
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--entity-name",
        missing,
        "--all",
    )
    assert result.code == 1
    assert result.lines[0] == f"All configs for topic {topic} are:"
    assert f"topic {missing}: UNKNOWN_TOPIC_OR_PARTITION" in result.stderr
    quiet = _kcli(sandbox, "brokers", "--describe", "--topic", missing)
    assert quiet.code == 0, quiet.stderr
    assert quiet.lines == [f"The topic '{missing}' doesn't exist and doesn't have dynamic config."]


def test_broker_defaults_and_per_broker(sandbox: Any) -> None:
    for kind in ("brokers", "controllers"):
        key = "log.cleaner.threads" if kind == "brokers" else "log.flush.interval.messages"
        value = "2" if kind == "brokers" else "5000"
        result = _kcli(
            sandbox,
            kind,
            "--alter",
            "--entity-type",
            "brokers",
            "--entity-default",
            "--add-config",
            f"{key}={value}",
        )
        assert result.code == 0, result.stderr
        assert result.lines == ["Completed updating default config for brokers in the cluster."]
        shown = _kcli(sandbox, kind, "--describe", "--broker-defaults")
        assert shown.lines[0] == "Default configs for brokers in the cluster are:"
        assert any(line.startswith(f"  {key}={value} sensitive=false") for line in shown.lines), shown.stdout
    per_broker = _kcli(
        sandbox,
        "brokers",
        "--alter",
        "--broker",
        str(sandbox.broker_ids[0]),
        "--add-config",
        "log.cleaner.threads=3",
    )
    assert per_broker.code == 0, per_broker.stderr
    described = _kcli(sandbox, "brokers", "--describe", "--broker", str(sandbox.broker_ids[0]))
    assert (
        "  log.cleaner.threads=3 sensitive=false synonyms={DYNAMIC_BROKER_CONFIG:log.cleaner.threads=3, DYNAMIC_DEFAULT_BROKER_CONFIG:log.cleaner.threads=2"
        in described.stdout
    )


def test_diff_two_topics(sandbox: Any) -> None:
    a = _create_topic(sandbox, **{"retention.ms": "1000", "cleanup.policy": "compact"})
    b = _create_topic(sandbox, **{"retention.ms": "2000", "cleanup.policy": "compact"})
    result = _kcli(
        sandbox, "brokers", "--diff", "--entity-type", "topics", "--entity-name", a, "--entity-name", b
    )
    assert result.code == 0, result.stderr
    assert result.lines == [
        f"1 dynamic configs differ between topic {a} and topic {b}:",
        f"  retention.ms: [topic {a}] 1000  [topic {b}] 2000",
    ]


def test_controllers_refuse_quota_entities_clearly(sandbox: Any) -> None:
    result = _kcli(sandbox, "controllers", "--describe", "--user", "alice")
    assert result.code == 2
    assert "use --bootstrap-server" in result.stderr
    listing = _kcli(sandbox, "controllers", "--describe", "--entity-type", "topics")
    assert listing.code == 2
    assert "name the entity with --entity-name" in listing.stderr


def test_kafka_python_reads_back_what_kcli_wrote(sandbox: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

    topic = _create_topic(sandbox)
    result = _kcli(
        sandbox,
        "brokers",
        "--alter",
        "--topic",
        topic,
        "--add-config",
        "retention.ms=123456,max.message.bytes=2048",
    )
    assert result.code == 0, result.stderr
    admin = KafkaAdminClient(bootstrap_servers=sandbox.bootstrap_servers, request_timeout_ms=10000)
    try:
        response = admin.describe_configs([ConfigResource(ConfigResourceType.TOPIC, topic)])
    finally:
        admin.close()
    # kafka-python 3 answers {"topic": {name: {key: {"value": ..., "config_source": ...}}}}
    values = response["topic"][topic]
    assert values["retention.ms"]["value"] == "123456"
    assert values["retention.ms"]["config_source"] == "DYNAMIC_TOPIC_CONFIG"
    assert values["max.message.bytes"]["value"] == "2048"


def test_a_node_id_not_in_the_cluster_is_named_plainly(sandbox: Any) -> None:
    """With --bootstrap-controller, --broker names a controller id to describe; a wrong id is one
    plain line. Without --all, Kafka >= 4.1 says a named broker does not exist and exits 0
    (ConfigCommandTest)."""
    absent = _kcli(sandbox, "brokers", "--describe", "--broker", "77")
    assert absent.code == 0 and absent.lines == [
        "The broker '77' doesn't exist and doesn't have dynamic config."
    ]
    for kind, args in (
        ("brokers", ("--describe", "--all", "--broker", "77")),
        ("controllers", ("--describe", "--all", "--broker", "1")),
    ):
        result = _kcli(sandbox, kind, *args)
        assert result.code == 1 and len(result.stderr.splitlines()) == 1, result.stderr
        assert "is not in the cluster (known " in result.stderr
        assert "KcliError" not in result.stderr, result.stderr
    shown = _kcli(sandbox, "brokers", "--describe", "--all", "--broker", "77", "-o", "json")
    error = shown.json["resources"][0]["error"]
    assert error["name"] == "" and "77 is not in the cluster" in error["message"]


def test_a_brokers_config_changed_through_the_controllers(sandbox: Any) -> None:
    """As Kafka's admin client does, a change to a broker's config through --bootstrap-controller goes
    to the active controller, which keeps every broker's dynamic config (kafka-configs.sh does the same)."""
    from kafka.admin import ConfigResource, ConfigResourceType, KafkaAdminClient

    broker = str(sandbox.broker_ids[-1])
    changed = _kcli(sandbox, "controllers", "--alter", "--broker", broker, "--add-config", "log.cleaner.threads=3")
    assert changed.code == 0, changed.stderr
    assert changed.stdout == f"Completed updating config for broker {broker}.\n"
    admin = KafkaAdminClient(bootstrap_servers=sandbox.bootstrap_servers, request_timeout_ms=10000)
    try:
        response = admin.describe_configs([ConfigResource(ConfigResourceType.BROKER, broker)])
    finally:
        admin.close()
    assert response["broker"][broker]["log.cleaner.threads"]["value"] == "3"
    dry = _kcli(sandbox, "controllers", "--alter", "--broker", broker, "--add-config", "log.cleaner.threads=2", "--dry-run")
    assert dry.code == 0, dry.stderr
    assert dry.lines[1] == "  log.cleaner.threads: (not read) -> 2"
    reset = _kcli(sandbox, "controllers", "--alter", "--broker", broker, "--delete-config", "log.cleaner.threads")
    assert reset.code == 0, reset.stderr


def test_diff_profile_labels_name_the_profile_or_address_actually_used(sandbox: Any, tmp_path: Any) -> None:
    """The first side is the default profile's cluster (here 'lab'), or the address given with -b."""
    topic = _create_topic(sandbox, **{"retention.ms": "1000"})
    config = tmp_path / "config.toml"
    config.write_text(
        f'default_profile = "lab"\n[profiles.lab]\nbootstrap.servers = "{sandbox.bootstrap_servers}"\n'
    )
    environ = {"KCLI_CONFIG": str(config)}
    by_profile = invoke("configs", "--diff", "--topic", topic, "--diff-profile", "lab", environ=environ)
    assert by_profile.lines == [
        f"No differences in dynamic configs between topic {topic} @lab and topic {topic} @lab."
    ], by_profile.stderr
    by_address = invoke(
        "configs",
        "-b",
        sandbox.bootstrap_servers,
        "--diff",
        "--topic",
        topic,
        "--diff-profile",
        "lab",
        environ=environ,
    )
    assert f"topic {topic} @{sandbox.bootstrap_servers} and topic {topic} @lab" in by_address.stdout
