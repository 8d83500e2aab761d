"""kcli configs end to end against a real tansu broker (topic DescribeConfigs / IncrementalAlterConfigs)."""

from __future__ import annotations

import uuid

import pytest

from tests.conftest import invoke
from tests.fixtures_tansu import TansuBroker

pytestmark = pytest.mark.tansu


def _topic(broker: TansuBroker, **config: str) -> str:
    """Create a topic with an independent client (confluent-kafka), so kcli only reads and alters."""
    from confluent_kafka.admin import AdminClient, NewTopic

    name = f"cfg-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": broker.bootstrap, "log_level": 0})
    for future in admin.create_topics([NewTopic(name, 1, 1, config=config)]).values():
        future.result(10)
    return name


def _configs(broker: TansuBroker, topic: str) -> dict[str, str | None]:
    result = invoke("configs", "-b", broker.bootstrap, "--describe", "--topic", topic, "--all", "-o", "json")
    assert result.code == 0, result.stderr
    (resource,) = result.json["resources"]
    return {c["name"]: c["value"] for c in resource["configs"]}


def test_describe_all_shows_what_tansu_holds(tansu: TansuBroker) -> None:
    topic = _topic(tansu, **{"cleanup.policy": "compact"})
    result = invoke(
        "configs",
        "-b",
        tansu.bootstrap,
        "--describe",
        "--entity-type",
        "topics",
        "--entity-name",
        topic,
        "--all",
    )
    assert result.code == 0, result.stderr
    assert result.lines == [
        f"All configs for topic {topic} are:",
        "  cleanup.policy=compact sensitive=false synonyms={}",
    ]


def test_alter_set_and_delete_round_trip(tansu: TansuBroker) -> None:
    topic = _topic(tansu, **{"cleanup.policy": "compact"})
    added = invoke(
        "configs",
        "-b",
        tansu.bootstrap,
        "--alter",
        "--topic",
        topic,
        "--add-config",
        "retention.ms=1000,segment.ms=[60000]",
    )
    assert added.code == 0, added.stderr
    assert added.lines == [f"Completed updating config for topic {topic}."]
    assert _configs(tansu, topic) == {
        "cleanup.policy": "compact",
        "retention.ms": "1000",
        "segment.ms": "60000",
    }
    deleted = invoke(
        "configs", "-b", tansu.bootstrap, "--alter", "--topic", topic, "--delete-config", "cleanup.policy"
    )
    assert deleted.code == 0, deleted.stderr
    assert "cleanup.policy" not in _configs(tansu, topic)


def test_delete_of_an_unset_key_is_refused_before_sending(tansu: TansuBroker) -> None:
    topic = _topic(tansu)
    result = invoke(
        "configs", "-b", tansu.bootstrap, "--alter", "--topic", topic, "--delete-config", "retention.ms"
    )
    assert result.code == 1  # the cluster's state refutes it: a runtime error, as kafka-configs exits 1
    assert "Invalid config(s): retention.ms" in result.stderr


def test_dry_run_exposes_a_server_that_ignores_validate_only(tansu: TansuBroker) -> None:
    """tansu persists validate-only alters; kcli must say so (exit 1), not claim nothing changed."""
    topic = _topic(tansu)
    result = invoke(
        "configs",
        "-b",
        tansu.bootstrap,
        "--alter",
        "--topic",
        topic,
        "--add-config",
        "min.insync.replicas=2",
        "--dry-run",
    )
    assert result.code == 1
    assert "VALIDATE_ONLY_IGNORED" in result.stderr
    assert "min.insync.replicas is now 2" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.timeout(60)
def test_quota_describe_fails_clearly_and_fast(tansu: TansuBroker) -> None:
    result = invoke("configs", "-b", tansu.bootstrap, "--describe", "--user", "alice")
    assert result.code == 1
    assert "DescribeClientQuotas is not supported by this server" in result.stderr


def test_scram_upsert_is_salted_client_side_and_accepted(tansu: TansuBroker) -> None:
    """tansu decodes AlterUserScramCredentials v0 and answers error 0 (it does not store it, a tansu gap)."""
    user = f"u{uuid.uuid4().hex[:6]}"
    result = invoke(
        "configs",
        "-b",
        tansu.bootstrap,
        "--alter",
        "--user",
        user,
        "--add-config",
        "SCRAM-SHA-256=[iterations=8192,password=alice-secret],SCRAM-SHA-512=[password=alice-secret]",
    )
    assert result.code == 0, result.stderr
    assert result.lines == [f"Completed updating config for user {user}."]
    assert "alice-secret" not in result.stdout + result.stderr
    dry = invoke(
        "configs",
        "-b",
        tansu.bootstrap,
        "--alter",
        "--user",
        user,
        "--add-config",
        "SCRAM-SHA-256=[password=x]",
        "--dry-run",
    )
    assert dry.code == 0, dry.stderr
    assert dry.lines == [
        f"Dry run for user {user} (not sent: no validate-only for this change), nothing was changed:",
        "  SCRAM-SHA-256: (sensitive) -> (sensitive)",
    ]
