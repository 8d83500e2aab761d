"""kcli configs against the sandbox: unit synonyms, group and client-metrics configs, broker loggers."""

from __future__ import annotations

import uuid
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = pytest.mark.sandbox


def _b(sb: Any, *args: str) -> CliResult:
    return invoke("configs", "-b", sb.bootstrap_servers, *args)


def _name(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def test_broker_time_settings_keep_their_own_unit(sandbox: Any) -> None:
    """Kafka lists a unit setting's synonyms from the first one of its own name (ConfigHelper drops the
    leading others), so log.retention.ms at its default lists none: only log.retention.hours has one."""
    broker = str(sandbox.broker_ids[0])
    result = _b(sandbox, "--describe", "--broker", broker, "--all")
    assert result.code == 0, result.stderr
    hours = "DEFAULT_CONFIG:log.retention.hours=168"
    roll = "DEFAULT_CONFIG:log.roll.hours=168"
    for line in (
        f"  log.retention.hours=168 sensitive=false synonyms={{{hours}}}",
        "  log.retention.minutes=null sensitive=false synonyms={}",
        "  log.retention.ms=null sensitive=false synonyms={}",
        f"  log.roll.hours=168 sensitive=false synonyms={{{roll}}}",
        "  log.roll.ms=null sensitive=false synonyms={}",
        "  log.roll.jitter.hours=0 sensitive=false synonyms={DEFAULT_CONFIG:log.roll.jitter.hours=0}",
        "  log.segment.bytes=1073741824 sensitive=false synonyms={DEFAULT_CONFIG:log.segment.bytes=1073741824}",
    ):
        assert line in result.lines


def test_topic_retention_is_milliseconds_from_the_hours_default(sandbox: Any) -> None:
    topic = _name("sem")
    from kafka.admin import KafkaAdminClient, NewTopic

    admin = KafkaAdminClient(bootstrap_servers=sandbox.bootstrap_servers, request_timeout_ms=10000)
    try:
        admin.create_topics([NewTopic(topic, 1, 1)])
    finally:
        admin.close()
    result = _b(sandbox, "--describe", "--topic", topic, "--all")
    assert result.code == 0, result.stderr
    # the value comes from log.retention.hours; the synonyms start at log.retention.ms, which is unset
    assert "  retention.ms=604800000 sensitive=false synonyms={}" in result.lines
    assert "  segment.ms=604800000 sensitive=false synonyms={}" in result.lines


def test_group_configs_alter_describe_and_bounds(sandbox: Any) -> None:
    group = _name("grp")
    altered = _b(
        sandbox,
        "--alter",
        "--entity-type",
        "groups",
        "--entity-name",
        group,
        "--add-config",
        "consumer.session.timeout.ms=50000,share.auto.offset.reset=earliest",
    )
    assert altered.code == 0, altered.stderr
    assert altered.lines == [f"Completed updating config for group {group}."]
    dynamic = _b(sandbox, "--describe", "--group", group)
    assert dynamic.code == 0, dynamic.stderr
    # Kafka 4.4 lists the broker setting a group config falls back to as its DEFAULT_CONFIG synonym
    assert dynamic.lines == [
        f"Dynamic configs for group {group} are:",
        "  consumer.session.timeout.ms=50000 sensitive=false "
        "synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, "
        "DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}",
        "  share.auto.offset.reset=earliest sensitive=false "
        "synonyms={DYNAMIC_GROUP_CONFIG:share.auto.offset.reset=earliest, DEFAULT_CONFIG:share.auto.offset.reset=latest}",
    ]
    every = _b(sandbox, "--describe", "--group", group, "--all", "-o", "json")
    assert every.code == 0, every.stderr
    configs = {c["name"]: c for c in every.json["resources"][0]["configs"]}
    assert configs["consumer.heartbeat.interval.ms"]["value"] == "5000"
    assert configs["consumer.heartbeat.interval.ms"]["source"] == "DEFAULT_CONFIG"
    assert configs["streams.session.timeout.ms"]["value"] == "45000"
    assert sandbox.run(lambda c: c.image.configs.get((32, group))) == {
        "consumer.session.timeout.ms": "50000",
        "share.auto.offset.reset": "earliest",
    }
    too_short = _b(sandbox, "--alter", "--group", group, "--add-config", "consumer.session.timeout.ms=1000")
    assert too_short.code == 1
    assert "INVALID_CONFIG" in too_short.stderr
    assert "consumer.session.timeout.ms must be in the range 45000 to 60000 inclusive." in too_short.stderr
    unknown = _b(sandbox, "--alter", "--group", group, "--add-config", "no.such.key=50000")
    assert unknown.code == 1
    assert "Unknown group config name: no.such.key" in unknown.stderr
    typo = _b(sandbox, "--alter", "--group", group, "--add-config", "session.timeout.ms=50000")
    assert typo.code == 2  # kcli knows the group's keys from the describe it sends first
    assert "did you mean 'share.session.timeout.ms'?" in typo.stderr
    deleted = _b(sandbox, "--alter", "--group", group, "--delete-config", "share.auto.offset.reset")
    assert deleted.code == 0, deleted.stderr
    assert len(_b(sandbox, "--describe", "--group", group).lines) == 2
    listed = _b(sandbox, "--describe", "--entity-type", "groups")
    assert listed.code == 0, listed.stderr


def test_client_metrics_alter_and_describe_every_subscription(sandbox: Any) -> None:
    name = _name("cm")
    altered = _b(
        sandbox,
        "--alter",
        "--client-metrics",
        name,
        "--add-config",
        "metrics=[org.apache.kafka.producer.,org.apache.kafka.consumer.],interval.ms=60000,match=[client_id=app-.*]",
    )
    assert altered.code == 0, altered.stderr
    assert altered.lines == [f"Completed updating config for client-metric {name}."]
    listed = _b(sandbox, "--describe", "--entity-type", "client-metrics")
    assert listed.code == 0, listed.stderr
    start = listed.lines.index(f"Dynamic configs for client-metric {name} are:")
    assert listed.lines[start + 1 : start + 4] == [
        "  interval.ms=60000 sensitive=false synonyms={DYNAMIC_CLIENT_METRICS_CONFIG:interval.ms=60000}",
        "  match=client_id=app-.* sensitive=false synonyms={DYNAMIC_CLIENT_METRICS_CONFIG:match=client_id=app-.*}",
        "  metrics=org.apache.kafka.producer.,org.apache.kafka.consumer. sensitive=false "
        "synonyms={DYNAMIC_CLIENT_METRICS_CONFIG:metrics=org.apache.kafka.producer.,org.apache.kafka.consumer.}",
    ]
    bad_match = _b(sandbox, "--alter", "--client-metrics", name, "--add-config", "match=[flavour=x]")
    assert bad_match.code == 1
    assert "Illegal client matching pattern: flavour=x" in bad_match.stderr
    too_fast = _b(sandbox, "--alter", "--client-metrics", name, "--add-config", "interval.ms=10")
    assert too_fast.code == 1
    assert "INVALID_REQUEST" in too_fast.stderr
    assert (
        "Invalid value 10 for interval.ms, interval must be between 100 and 3600000 (1 hour)"
        in too_fast.stderr
    )


def test_broker_loggers_describe_set_reset(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    broker = str(sb.broker_ids[-1])
    described = _b(sb, "--describe", "--broker-logger", broker)
    assert described.code == 0, described.stderr
    for line in (
        "  root=INFO sensitive=false synonyms={}",
        "  kafka.controller=INFO sensitive=false synonyms={}",
        "  kafka.request.logger=WARN sensitive=false synonyms={}",
        "  state.change.logger=INFO sensitive=false synonyms={}",
    ):
        assert line in described.lines
    records_before = sb.run(lambda c: c.image.records_applied)
    changed = _b(sb, "--alter", "--broker-logger", broker, "--add-config", "kafka.controller=DEBUG")
    assert changed.code == 0, changed.stderr
    reset = _b(sb, "--alter", "--broker-logger", broker, "--delete-config", "kafka.request.logger")
    assert reset.code == 0, reset.stderr
    after = _b(sb, "--describe", "--broker-logger", broker)
    assert "  kafka.controller=DEBUG sensitive=false synonyms={}" in after.lines
    assert "  kafka.request.logger=INFO sensitive=false synonyms={}" in after.lines  # the root level
    other = _b(sb, "--describe", "--broker-logger", str(sb.broker_ids[0]))
    assert "  kafka.controller=INFO sensitive=false synonyms={}" in other.lines
    assert sb.run(lambda c: c.image.records_applied) == records_before  # not metadata
    bad = _b(sb, "--alter", "--broker-logger", broker, "--add-config", "kafka.controller=LOUD")
    assert bad.code == 1
    assert "INVALID_CONFIG" in bad.stderr
    assert "not a supported log level" in bad.stderr


def test_describe_every_group_lists_groups_that_only_have_configs(sandbox: Any) -> None:
    # No member ever joins this group: ListGroups does not know it, ListConfigResources (GROUP) does.
    group = _name("cfg-only")
    altered = _b(sandbox, "--alter", "--group", group, "--add-config", "consumer.session.timeout.ms=50000")
    assert altered.code == 0, altered.stderr
    listed = _b(sandbox, "--describe", "--entity-type", "groups")
    assert listed.code == 0, listed.stderr
    start = listed.lines.index(f"Dynamic configs for group {group} are:")
    assert listed.lines[start + 1] == (
        "  consumer.session.timeout.ms=50000 sensitive=false "
        "synonyms={DYNAMIC_GROUP_CONFIG:consumer.session.timeout.ms=50000, "
        "DEFAULT_CONFIG:group.consumer.session.timeout.ms=45000}"
    )
    as_json = _b(sandbox, "--describe", "--entity-type", "groups", "-o", "json")
    assert as_json.code == 0, as_json.stderr
    assert [r["entity"]["name"] for r in as_json.json["resources"]].count(group) == 1
