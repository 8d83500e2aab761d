"""`kcli configs` on a real cluster: every entity type, --all, defaults, quotas, SCRAM, loggers, --dry-run
and --diff, through both bootstrap kinds where Kafka serves them. Every change is read back by
kafka-python (or, for what it cannot read, by Kafka's own kafka-configs.sh), never by kcli."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from kcli.sandbox.clientconfig import SCRAM_MODULE, write_properties
from tests.conftest import invoke
from tests.polling import wait_for
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import (
    broker_configs,
    client_quotas,
    kafka_tool,
    peer_admin,
    scram_users,
    topic_configs,
)

pytestmark = pytest.mark.realcluster


def _unique(prefix: str) -> str:
    return f"kcli-{prefix}-{uuid.uuid4().hex[:8]}"


# ---------------------------------------------------------------- any cluster


def test_topic_config_round_trip_read_back_by_kafka_python(real_cluster: RealCluster, scratch_topic: str) -> None:
    for number, args in enumerate(real_cluster.bootstrap_kinds()):
        retention = str(7200000 + number)
        altered = invoke(
            "configs", *args, "--alter", "--topic", scratch_topic,
            "--add-config", f"retention.ms={retention},cleanup.policy=[compact,delete]",
        )  # fmt: skip
        assert altered.code == 0, altered.stderr
        admin = real_cluster.peer_admin()
        try:
            values = topic_configs(admin, scratch_topic)
        finally:
            admin.close()
        assert values["retention.ms"] == retention
        assert values["cleanup.policy"] == "compact,delete"
        described = invoke("configs", *args, "--describe", "--topic", scratch_topic)
        assert f"retention.ms={retention}" in described.stdout


# ---------------------------------------------------------------- real Kafka of the suite's own


def _wait_for_broker_config(admin: Any, broker: str, key: str, value_and_source: tuple[str, str]) -> None:
    def seen() -> bool:
        entry = broker_configs(admin, broker)[key]
        return (entry["value"], entry["config_source"]) == value_and_source

    wait_for(seen, timeout=30, interval=0.3, what=f"broker {broker} reporting {key} as {value_and_source}")



@pytest.mark.realkafka
@pytest.mark.slow
def test_describe_all_lists_what_kafka_python_reads(real_kafka: Any, new_topic: Any, kafka_admin: Any) -> None:
    cluster = cluster_of(real_kafka)
    topic = new_topic("all")
    for args in cluster.bootstrap_kinds():
        shown = invoke("configs", *args, "--describe", "--all", "--topic", topic, "-o", "json")
        assert shown.code == 0, shown.stderr
        (resource,) = shown.json["resources"]
        assert {c["name"]: c["value"] for c in resource["configs"]} == topic_configs(kafka_admin, topic)
    broker = str(real_kafka.broker_ids[0])
    shown = invoke("configs", *cluster.broker_args(), "--describe", "--all", "--broker", broker, "-o", "json")
    assert shown.code == 0, shown.stderr
    (resource,) = shown.json["resources"]
    peer = broker_configs(kafka_admin, broker)
    ours = {c["name"]: c for c in resource["configs"]}
    assert set(ours) == set(peer)
    for name, entry in peer.items():
        assert ours[name]["sensitive"] is entry["is_sensitive"], name
        assert ours[name]["read_only"] is entry["read_only"], name
        assert ours[name]["source"] == entry["config_source"], name
        if not entry["is_sensitive"]:
            assert ours[name]["value"] == entry["value"], name


@pytest.mark.realkafka
@pytest.mark.slow
def test_broker_configs_per_broker_per_controller_and_cluster_default(real_kafka: Any, kafka_admin: Any) -> None:
    cluster = cluster_of(real_kafka)
    broker = str(real_kafka.broker_ids[-1])
    key = "log.cleaner.backoff.ms"
    altered = invoke("configs", *cluster.broker_args(), "--alter", "--broker", broker, "--add-config", f"{key}=15001")
    assert altered.code == 0, altered.stderr
    assert altered.stdout == f"Completed updating config for broker {broker}.\n"
    # the controller applied it; each broker takes it from the metadata log a moment later
    _wait_for_broker_config(kafka_admin, broker, key, ("15001", "DYNAMIC_BROKER_CONFIG"))

    # the cluster-wide default, through the controllers (they own it)
    default = invoke("configs", *cluster.controller_args(), "--alter", "--broker-defaults", "--add-config", f"{key}=15002")
    assert default.code == 0, default.stderr
    assert default.stdout == "Completed updating default config for brokers in the cluster.\n"
    other = str(real_kafka.broker_ids[0])
    _wait_for_broker_config(kafka_admin, other, key, ("15002", "DYNAMIC_DEFAULT_BROKER_CONFIG"))
    listed = invoke("configs", *cluster.broker_args(), "--describe", "--entity-type", "brokers", "--entity-default")
    assert f"{key}=15002 sensitive=false synonyms={{DYNAMIC_DEFAULT_BROKER_CONFIG:{key}=15002" in listed.stdout

    # a controller's own dynamic config is reached through the controllers, by its id
    controller = str(real_kafka.controller_ids[0])
    mine = invoke("configs", *cluster.controller_args(), "--alter", "--broker", controller, "--add-config", f"{key}=15003")
    assert mine.code == 0, mine.stderr
    described = invoke("configs", *cluster.controller_args(), "--describe", "--broker", controller, "-o", "json")
    (resource,) = described.json["resources"]
    assert {c["name"]: c["value"] for c in resource["configs"]}[key] == "15003"
    theirs = kafka_tool(
        real_kafka.settings.kafka_home, "kafka-configs.sh", *cluster.controller_args(),
        "--describe", "--entity-type", "brokers", "--entity-name", controller,
    )  # fmt: skip
    assert theirs.returncode == 0, theirs.stderr
    assert f"{key}=15003" in theirs.stdout

    for args, target in (
        (cluster.broker_args(), ["--broker", broker]),
        (cluster.controller_args(), ["--broker-defaults"]),
        (cluster.controller_args(), ["--broker", controller]),
    ):
        deleted = invoke("configs", *args, "--alter", *target, "--delete-config", key)
        assert deleted.code == 0, deleted.stderr
    _wait_for_broker_config(kafka_admin, broker, key, ("15000", "DEFAULT_CONFIG"))


@pytest.mark.realkafka
@pytest.mark.slow
def test_broker_loggers_change_a_level_and_reset_it(real_kafka: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType

    cluster = cluster_of(real_kafka)
    broker = str(real_kafka.broker_ids[0])
    logger = "kafka.server.ReplicaManager"
    admin = cluster.peer_admin()

    def level() -> str:
        result = admin.describe_configs([ConfigResource(ConfigResourceType.BROKER_LOGGER, broker)])
        (entries,) = next(iter(result.values())).values()
        return str(entries[logger]["value"])

    try:
        before = level()
        altered = invoke("configs", *cluster.broker_args(), "--alter", "--broker-logger", broker, "--add-config", f"{logger}=TRACE")
        assert altered.code == 0, altered.stderr
        assert level() == "TRACE"
        described = invoke("configs", *cluster.broker_args(), "--describe", "--broker-logger", broker)
        assert f"  {logger}=TRACE sensitive=false synonyms={{}}" in described.lines
        reset = invoke("configs", *cluster.broker_args(), "--alter", "--broker-logger", broker, "--delete-config", logger)
        assert reset.code == 0, reset.stderr
        assert level() == before
    finally:
        admin.close()
    # a controller's loggers, through the controllers
    controller = str(real_kafka.controller_ids[0])
    loggers = invoke("configs", *cluster.controller_args(), "--describe", "--broker-logger", controller, "-o", "json")
    assert loggers.code == 0, loggers.stderr
    (resource,) = loggers.json["resources"]
    assert resource["error"] is None and any(c["name"] == "root" for c in resource["configs"])


@pytest.mark.realkafka
@pytest.mark.slow
def test_group_and_client_metrics_configs(real_kafka: Any, kafka_admin: Any) -> None:
    from kafka.admin import ConfigResource, ConfigResourceType

    cluster = cluster_of(real_kafka)
    group, metrics = _unique("group"), _unique("metrics")

    def peer(kind: Any, name: str) -> dict[str, str]:
        result = kafka_admin.describe_configs([ConfigResource(kind, name)])
        (entries,) = next(iter(result.values())).values()
        return {k: e["value"] for k, e in entries.items() if e["config_source"] != "DEFAULT_CONFIG"}

    for number, args in enumerate(cluster.bootstrap_kinds()):
        timeout = str(50000 + number)
        altered = invoke("configs", *args, "--alter", "--group", group, "--add-config", f"consumer.session.timeout.ms={timeout}")
        assert altered.code == 0, altered.stderr
        assert altered.stdout == f"Completed updating config for group {group}.\n"
        # the broker kafka-python asks applies the change once its metadata catches up
        wanted = {"consumer.session.timeout.ms": timeout}
        wait_for(lambda w=wanted: peer(ConfigResourceType.GROUP, group) == w, timeout=30, what="the group config")
        interval = str(60000 + number)
        altered = invoke(
            "configs", *args, "--alter", "--client-metrics", metrics,
            "--add-config", f"metrics=org.apache.kafka.producer.,interval.ms={interval}",
        )  # fmt: skip
        assert altered.code == 0, altered.stderr
        wanted = {"metrics": "org.apache.kafka.producer.", "interval.ms": interval}
        wait_for(lambda w=wanted: peer(ConfigResourceType.CLIENT_METRICS, metrics) == w, timeout=30, what="metrics")
    listed = invoke("configs", *cluster.broker_args(), "--describe", "--entity-type", "client-metrics", "-o", "json")
    assert metrics in {r["entity"]["name"] for r in listed.json["resources"]}
    for flag, name in (("--group", group), ("--client-metrics", metrics)):
        keys = "consumer.session.timeout.ms" if flag == "--group" else "metrics,interval.ms"
        deleted = invoke("configs", *cluster.broker_args(), "--alter", flag, name, "--delete-config", keys)
        assert deleted.code == 0, deleted.stderr


@pytest.mark.realkafka
@pytest.mark.slow
def test_quotas_of_users_clients_ips_and_their_defaults(real_kafka: Any, kafka_admin: Any) -> None:
    cluster = cluster_of(real_kafka)
    user, client = _unique("user"), _unique("client")
    changes = [
        (cluster.broker_args(), ["--user", user], "producer_byte_rate=1024", ("user", user)),
        (cluster.controller_args(), ["--client", client], "consumer_byte_rate=2048", ("client-id", client)),
        (cluster.broker_args(), ["--user", user, "--client", client], "request_percentage=50", None),
        (cluster.controller_args(), ["--entity-type", "users", "--entity-default"], "controller_mutation_rate=10", ("user", None)),
        (cluster.broker_args(), ["--client-defaults"], "producer_byte_rate=4096", ("client-id", None)),
        (cluster.controller_args(), ["--ip", "127.0.0.9"], "connection_creation_rate=7", ("ip", "127.0.0.9")),
        (cluster.broker_args(), ["--ip-defaults"], "connection_creation_rate=100", ("ip", None)),
    ]  # fmt: skip
    for args, entity, config, _ in changes:
        altered = invoke("configs", *args, "--alter", *entity, "--add-config", config)
        assert altered.code == 0, (entity, altered.stderr)
    users, ips = client_quotas(kafka_admin, "user"), client_quotas(kafka_admin, "ip")
    clients = client_quotas(kafka_admin, "client-id")
    assert users[(("user", user),)] == {"producer_byte_rate": 1024.0}
    assert users[(("client-id", client), ("user", user))] == {"request_percentage": 50.0}
    assert users[(("user", None),)] == {"controller_mutation_rate": 10.0}
    assert clients[(("client-id", client),)] == {"consumer_byte_rate": 2048.0}
    assert clients[(("client-id", None),)] == {"producer_byte_rate": 4096.0}
    assert ips[(("ip", "127.0.0.9"),)] == {"connection_creation_rate": 7.0}
    assert ips[(("ip", None),)] == {"connection_creation_rate": 100.0}

    shown = invoke("configs", *cluster.broker_args(), "--describe", "--user", user, "--client", client, "-o", "json")
    assert shown.json["quotas"] == [
        {"entity": [{"type": "user", "name": user}, {"type": "client-id", "name": client}],
         "values": {"request_percentage": 50.0}},
    ]  # fmt: skip
    text = invoke("configs", *cluster.broker_args(), "--describe", "--ip", "127.0.0.9")
    theirs = kafka_tool(
        real_kafka.settings.kafka_home, "kafka-configs.sh", *cluster.broker_args(), "--describe", "--entity-type", "ips",
        "--entity-name", "127.0.0.9",
    )  # fmt: skip
    assert theirs.returncode == 0, theirs.stderr
    assert text.stdout == theirs.stdout
    refused = invoke("configs", *cluster.controller_args(), "--describe", "--user", user)
    assert refused.code == 2 and "cannot be read through --bootstrap-controller" in refused.stderr

    for args, entity, config, _ in changes:
        deleted = invoke("configs", *args, "--alter", *entity, "--delete-config", config.split("=")[0])
        assert deleted.code == 0, (entity, deleted.stderr)
    remaining = {**client_quotas(kafka_admin, "user"), **client_quotas(kafka_admin, "client-id"), **client_quotas(kafka_admin, "ip")}
    for *_, key in changes:
        if key is not None:
            assert (key,) not in remaining


def _scram_login(kafka: Any, tmp_path: Path, user: str, password: str, mechanism: str) -> Path:
    settings = kafka.client_settings("alice", mechanism)
    settings["sasl.jaas.config"] = f'{SCRAM_MODULE} required username="{user}" password="{password}";'
    return write_properties(tmp_path / f"{user}-{mechanism}.properties", settings)


@pytest.mark.realkafka
@pytest.mark.slow
def test_scram_credentials_added_log_in_and_deleted_do_not(real_kafka: Any, kafka_admin: Any, tmp_path: Path) -> None:
    cluster = cluster_of(real_kafka)
    for number, args in enumerate(cluster.bootstrap_kinds()):
        user, password = _unique(f"scram{number}"), f"pw-{uuid.uuid4().hex}"
        added = invoke(
            "configs", *args, "--alter", "--user", user,
            "--add-config", f"SCRAM-SHA-512=[iterations=8192,password={password}],SCRAM-SHA-256=[password={password}]",
        )  # fmt: skip
        assert added.code == 0, added.stderr
        assert password not in added.stdout + added.stderr
        # one request per mechanism (Kafka's controller refuses two of one user in one): the brokers'
        # view (what kafka-python reads) follows the second a moment later
        wait_for(
            lambda user=user: scram_users(kafka_admin).get(user) == {"SCRAM-SHA-512": 8192, "SCRAM-SHA-256": 4096},
            timeout=30, interval=0.3, what="both SCRAM credentials on the brokers",
        )  # fmt: skip
        login = _scram_login(real_kafka, tmp_path, user, password, "SCRAM-SHA-512")
        # SCRAM over SASL_SSL with the new password, by kcli and by kafka-python
        who = invoke("cluster-id", "--bootstrap-server", real_kafka.bootstrap_servers, "--command-config", str(login))
        assert who.code == 0, who.stderr
        assert who.stdout == f"Cluster ID: {real_kafka.cluster_id}\n"
        peer = peer_admin(real_kafka.bootstrap_servers, login)
        try:
            assert peer.describe_cluster()["cluster_id"] == real_kafka.cluster_id
        finally:
            peer.close()
        described = invoke("configs", *cluster.broker_args(), "--describe", "--user", user)
        head, _, credentials = described.stdout.strip().partition(" are ")
        assert head == f"SCRAM credential configs for user-principal '{user}'"
        # in the order the broker lists them, as kafka-configs.sh prints them
        assert sorted(credentials.split(", ")) == ["SCRAM-SHA-256=iterations=4096", "SCRAM-SHA-512=iterations=8192"]
        deleted = invoke("configs", *args, "--alter", "--user", user, "--delete-config", "SCRAM-SHA-512,SCRAM-SHA-256")
        assert deleted.code == 0, deleted.stderr
        # again one request per mechanism: the brokers' view follows the second deletion a moment later
        wait_for(
            lambda user=user: user not in scram_users(kafka_admin), timeout=30, interval=0.3,
            what="both SCRAM credentials gone from the brokers",
        )  # fmt: skip
        refused = invoke(
            "cluster-id", "--bootstrap-server", real_kafka.bootstrap_servers, "--command-config", str(login)
        )
        assert refused.code == 1
        assert "SASL authentication" in refused.stderr and "failed" in refused.stderr
        assert password not in refused.stderr


@pytest.mark.realkafka
@pytest.mark.slow
def test_dry_run_validates_on_the_cluster_and_changes_nothing(real_kafka: Any, new_topic: Any, kafka_admin: Any) -> None:
    cluster = cluster_of(real_kafka)
    topic = new_topic("dryrun")
    for args in cluster.bootstrap_kinds():
        dry = invoke("configs", *args, "--alter", "--topic", topic, "--add-config", "retention.ms=1234", "--dry-run")
        assert dry.code == 0, dry.stderr
        assert dry.lines == [
            f"Dry run for topic {topic} (validated by the cluster), nothing was changed:",
            "  retention.ms: 604800000 -> 1234",
        ]
        assert topic_configs(kafka_admin, topic)["retention.ms"] == "604800000"
        # the cluster's own validation answers: a value Kafka refuses fails the dry run
        bad = invoke("configs", *args, "--alter", "--topic", topic, "--add-config", "cleanup.policy=sideways", "--dry-run")
        assert bad.code == 1
        assert "INVALID_CONFIG" in bad.stderr and "sideways" in bad.stderr
    quota = invoke("configs", *cluster.broker_args(), "--alter", "--user", _unique("dry"), "--add-config", "producer_byte_rate=5", "--dry-run")
    assert quota.code == 0, quota.stderr
    assert not [k for k in client_quotas(kafka_admin, "user") if k and k[0][1] and k[0][1].startswith("kcli-dry-")]


@pytest.mark.realkafka
@pytest.mark.slow
def test_diff_names_the_configs_that_differ(real_kafka: Any, new_topic: Any) -> None:
    cluster = cluster_of(real_kafka)
    first, second = new_topic("diff"), new_topic("diff")
    set_first = invoke("configs", *cluster.broker_args(), "--alter", "--topic", first, "--add-config", "retention.ms=3600000")
    assert set_first.code == 0, set_first.stderr
    diff = invoke(
        "configs", *cluster.broker_args(), "--diff", "--entity-type", "topics", "--entity-name", first,
        "--entity-name", second,
    )  # fmt: skip
    assert diff.code == 0, diff.stderr
    assert diff.lines == [
        f"1 dynamic configs differ between topic {first} and topic {second}:",
        f"  retention.ms: [topic {first}] 3600000  [topic {second}] (unset)",
    ]
    every = invoke(
        "configs", *cluster.controller_args(), "--diff", "--all", "--entity-type", "topics", "--entity-name", first,
        "--entity-name", second, "-o", "json",
    )  # fmt: skip
    assert every.code == 0, every.stderr
    assert [d["name"] for d in every.json["differences"]] == ["retention.ms"]


@pytest.mark.realkafka
@pytest.mark.slow
def test_alice_reads_a_topic_config_only_once_an_acl_allows_it(real_kafka: Any, new_topic: Any) -> None:
    admin, alice = cluster_of(real_kafka), cluster_of(real_kafka, "alice")
    topic = new_topic("alice")
    denied = invoke("configs", *alice.broker_args(), "--describe", "--topic", topic)
    assert denied.code == 1
    assert f"describing configs for topic {topic}: TOPIC_AUTHORIZATION_FAILED" in denied.stderr
    granted = invoke(
        "acls", *admin.controller_args(), "--add", "--allow-principal", "User:alice", "--operation", "DescribeConfigs",
        "--topic", topic,
    )  # fmt: skip
    assert granted.code == 0, granted.stderr
    # every broker applies the ACL once its metadata catches up
    def described() -> Any:
        result = invoke("configs", *alice.broker_args(), "--describe", "--all", "--topic", topic)
        return result if result.code == 0 else None

    allowed = wait_for(described, timeout=30, interval=0.5, what="alice allowed to describe the topic's configs")
    assert "retention.ms=604800000" in allowed.stdout
    altering = invoke("configs", *alice.broker_args(), "--alter", "--topic", topic, "--add-config", "retention.ms=1")
    assert altering.code == 1 and "TOPIC_AUTHORIZATION_FAILED" in altering.stderr


@pytest.mark.realkafka
@pytest.mark.slow
def test_groups_and_client_metrics_on_the_oldest_release_read_as_its_own_tool(real_kafka_oldest: Any) -> None:
    """Kafka 4.0 has no ListConfigResources v1 (4.1): whether a group or client-metrics resource exists
    is found another way there, and kcli's answers must be the ones Kafka 4.0's kafka-configs.sh gives."""
    from tests.fixtures_kafka import OLDEST, kafka_home

    cluster = cluster_of(real_kafka_oldest)
    group, metrics = _unique("group"), _unique("metrics")
    altered = invoke(
        "configs", *cluster.broker_args(), "--alter", "--client-metrics", metrics, "--add-config", "interval.ms=60000"
    )
    assert altered.code == 0, altered.stderr
    for words in (
        ["--entity-type", "groups", "--entity-name", group],
        ["--entity-type", "client-metrics", "--entity-name", metrics],
    ):
        ours = invoke("configs", *cluster.broker_args(), "--describe", *words)
        theirs = kafka_tool(kafka_home(OLDEST), "kafka-configs.sh", *cluster.broker_args(), "--describe", *words)
        assert (ours.code, ours.stdout) == (theirs.returncode, theirs.stdout), (words, theirs.stderr)
