"""Fill a real Kafka cluster with every kind of metadata record, through kcli and real clients.

What each step leaves in the metadata log (the controller's __cluster_metadata-0):
- topics (kcli's client, CreateTopics), some deleted, one grown: TopicRecord, PartitionRecord,
  RemoveTopicRecord, and BeginTransactionRecord/EndTransactionRecord around large creations;
- configs of topics, brokers, the broker default, client metrics and groups, set and deleted
  (`kcli configs`): ConfigRecord, with a null value for a deletion;
- SCRAM credentials added and deleted (`kcli configs --entity-type users`): UserScramCredentialRecord,
  RemoveUserScramCredentialRecord;
- client quotas of users, clients, ips and defaults (`kcli configs`): ClientQuotaRecord;
- ACLs of every resource type, added and removed (`kcli acls`): AccessControlEntryRecord,
  RemoveAccessControlEntryRecord;
- feature levels lowered and raised (`kcli features`): FeatureLevelRecord;
- reassignments (`kcli reassign-partitions --execute`): PartitionChangeRecord with adding and
  removing replicas;
- producer ids (an idempotent and a transactional producer, kafka-python): ProducerIdsRecord;
- delegation tokens created, renewed and expired (CreateDelegationToken and friends through kcli's
  client): DelegationTokenRecord, RemoveDelegationTokenRecord;
- a broker restarted, then stopped for good and unregistered: BrokerRegistrationChangeRecord,
  FenceBrokerRecord/UnfenceBrokerRecord, RegisterBrokerRecord, UnregisterBrokerRecord, leader and
  ISR (and ELR) moves in PartitionChangeRecord.
NoOpRecords, RegisterControllerRecords, the control records and the snapshots come by themselves.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

TOPIC_PREFIX = "md-"


def kcli(kafka: Any, *argv: str, controller: bool = False, check: bool = True) -> str:
    """Run `kcli ARGV` as a user runs it, against the cluster (as its admin user); its stdout."""
    bootstrap = (
        ["--bootstrap-controller", kafka.bootstrap_controllers]
        if controller
        else ["--bootstrap-server", kafka.bootstrap_servers]
    )
    done = subprocess.run(
        [sys.executable, "-m", "kcli", *argv, *bootstrap, "--command-config", str(kafka.command_config())],
        capture_output=True,
        text=True,
        timeout=120,
    )
    if check and done.returncode != 0:
        raise AssertionError(f"kcli {' '.join(argv)} exited {done.returncode}: {done.stderr.strip()}")
    return done.stdout


def _ask(kafka: Any, question: Any) -> Any:
    from kcli.sandbox.kafka import asking

    config = asking.client_config(
        kafka.client_settings(),
        bootstrap_key="bootstrap.servers",
        bootstrap=kafka.bootstrap_servers,
        timeout_ms=60000,
    )
    return asking.ask(config, question)


def create_topics(kafka: Any, count: int, partitions: int, replication_factor: int, prefix: str) -> list[str]:
    from kcli.sandbox.kafka import asking

    names = [f"{prefix}{index:05d}" for index in range(count)]
    config = asking.client_config(
        kafka.client_settings(),
        bootstrap_key="bootstrap.servers",
        bootstrap=kafka.bootstrap_servers,
        timeout_ms=120000,
    )
    asking.create_topics(config, names, partitions=partitions, replication_factor=replication_factor)
    return names


def _peer_admin(kafka: Any) -> Any:
    from kafka.admin import KafkaAdminClient

    return KafkaAdminClient(**_peer_settings(kafka), request_timeout_ms=60000)


def _peer_settings(kafka: Any) -> dict[str, Any]:
    return {
        "bootstrap_servers": kafka.bootstrap_servers.split(","),
        "security_protocol": "SASL_PLAINTEXT",
        "sasl_mechanism": "PLAIN",
        "sasl_plain_username": "admin",
        "sasl_plain_password": "admin-secret",
    }


def configs(kafka: Any, topics: list[str]) -> None:
    alter = ("configs", "--alter")
    # A few topics are enough for ConfigRecords of every shape; each is one kcli process (0.3-0.5 s).
    for name in topics[:8]:
        kcli(kafka, *alter, "--entity-type", "topics", "--entity-name", name,
             "--add-config", "retention.ms=3600000,cleanup.policy=[compact,delete],max.message.bytes=2000000")  # fmt: skip
    _once_known(kafka, *alter, "--entity-type", "topics", "--entity-name", topics[0],
                "--delete-config", "max.message.bytes")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "topics", "--entity-name", topics[1],
         "--add-config", "min.insync.replicas=2,message.timestamp.type=LogAppendTime")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "brokers", "--entity-name", str(kafka.broker_ids[0]),
         "--add-config", "log.cleaner.threads=2,message.max.bytes=2000000")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "brokers", "--entity-default",
         "--add-config", "log.retention.ms=604800001,num.io.threads=9")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "client-metrics", "--entity-name", "every-producer",
         "--add-config", "metrics=org.apache.kafka.producer.,interval.ms=60000,match=[client_software_name=kafka.*]")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "groups", "--entity-name", "md-group",
         "--add-config", "consumer.session.timeout.ms=50000")  # fmt: skip


def _once_known(kafka: Any, *argv: str) -> None:
    """Run a --delete-config once the broker it asks knows the config. A broker applies a metadata
    change after the ones before it (the logs of 1,500 new topics): under load, seconds behind the
    controller; like Kafka's ConfigCommand, kcli refuses to delete a key the broker does not list."""
    deadline = time.monotonic() + 60
    while "not set dynamically" in (failure := _failure(kafka, *argv)) and time.monotonic() < deadline:
        time.sleep(0.5)
    if failure:
        raise AssertionError(f"kcli {' '.join(argv)} failed: {failure}")


def _failure(kafka: Any, *argv: str) -> str:
    try:
        kcli(kafka, *argv)
    except AssertionError as error:
        return str(error)
    return ""


def scram(kafka: Any) -> None:
    """Credentials of both mechanisms, some deleted (Kafka's controller takes one change per user and
    request: one mechanism a call)."""
    alter = ("configs", "--alter", "--entity-type", "users")
    for user in ("carol", "dave", "erin"):
        kcli(kafka, *alter, "--entity-name", user, "--add-config", f"SCRAM-SHA-256=[iterations=8192,password={user}-secret]")
        kcli(kafka, *alter, "--entity-name", user, "--add-config", f"SCRAM-SHA-512=[password={user}-secret]")
    kcli(kafka, *alter, "--entity-name", "dave", "--delete-config", "SCRAM-SHA-512")
    kcli(kafka, *alter, "--entity-name", "erin", "--delete-config", "SCRAM-SHA-256")


def quotas(kafka: Any) -> None:
    alter = ("configs", "--alter")
    kcli(kafka, *alter, "--entity-type", "users", "--entity-name", "carol",
         "--add-config", "producer_byte_rate=1024,consumer_byte_rate=2048")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "users", "--entity-name", "carol", "--entity-type", "clients",
         "--entity-name", "app(1)", "--add-config", "request_percentage=25.5")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "users", "--entity-default", "--add-config", "producer_byte_rate=4096")
    kcli(kafka, *alter, "--entity-type", "clients", "--entity-default", "--add-config", "consumer_byte_rate=8192")
    kcli(kafka, *alter, "--entity-type", "clients", "--entity-name", "reporting",
         "--add-config", "controller_mutation_rate=10")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "ips", "--entity-name", "127.0.0.2",
         "--add-config", "connection_creation_rate=15")  # fmt: skip
    kcli(kafka, *alter, "--entity-type", "ips", "--entity-default", "--add-config", "connection_creation_rate=100")
    kcli(kafka, *alter, "--entity-type", "users", "--entity-name", "carol", "--delete-config", "consumer_byte_rate")
    # Deleted well after configs() set it: kcli checks that a deleted key is set on the broker it asks.
    kcli(kafka, *alter, "--entity-type", "brokers", "--entity-default", "--delete-config", "num.io.threads")


def acls(kafka: Any, topics: list[str]) -> None:
    add = ("acls", "--add", "--force")
    kcli(kafka, *add, "--allow-principal", "User:alice", "--operation", "Read", "--operation", "Describe",
         "--topic", topics[0], "--group", "md-group")  # fmt: skip
    kcli(kafka, *add, "--allow-principal", "User:bob", "--producer", "--idempotent", "--topic", topics[1],
         "--transactional-id", "md-tx")  # fmt: skip
    kcli(kafka, *add, "--deny-principal", "User:mallory", "--deny-host", "10.0.0.1", "--operation", "All",
         "--topic", TOPIC_PREFIX, "--resource-pattern-type", "prefixed")  # fmt: skip
    kcli(kafka, *add, "--allow-principal", "User:alice", "--operation", "DescribeConfigs", "--cluster")
    kcli(kafka, *add, "--allow-principal", "User:bob", "--operation", "Describe", "--delegation-token", "md-token")
    kcli(kafka, *add, "--allow-principal", "User:alice", "--operation", "CreateTokens", "--user-principal", "User:bob")
    kcli(kafka, *add, "--allow-principal", "User:bob", "--operation", "Alter", "--topic", topics[2])
    kcli(kafka, "acls", "--remove", "--force", "--allow-principal", "User:bob", "--operation", "Alter",
         "--topic", topics[2])  # fmt: skip


def features(kafka: Any) -> None:
    """Lower a feature and raise it again: two FeatureLevelRecords."""
    described = json.loads(kcli(kafka, "features", "describe", "-o", "json"))
    finalized = next(f for f in described["features"] if f["name"] == "group.version")["finalized_version_level"]
    kcli(kafka, "features", "downgrade", "--feature", "group.version=0")
    kcli(kafka, "features", "upgrade", "--feature", f"group.version={finalized}")


def reassign(kafka: Any, single: list[str], pairs: list[str], directory: Path) -> None:
    """Move single-replica topics to the other broker (adding and removing replicas) and reverse the
    replica order of a few two-replica ones (a preferred-leader change)."""
    from kcli.client.api.topics import describe_assignments

    first, second = kafka.broker_ids[:2]
    current = _ask(kafka, lambda admin: describe_assignments(admin, [*single[:20], *pairs[:10]])).replicas
    partitions = []
    for tp, replicas in sorted(current.items(), key=lambda item: (item[0].topic, item[0].partition)):
        target = [second if b == first else first for b in replicas] if len(replicas) == 1 else list(replicas)[::-1]
        partitions.append({"topic": tp.topic, "partition": tp.partition, "replicas": target})
    plan = directory / "reassignment.json"
    plan.write_text(json.dumps({"version": 1, "partitions": partitions}))
    kcli(kafka, "reassign-partitions", "--execute", "--reassignment-json-file", str(plan),
         "--throttle", "100000000")  # fmt: skip
    deadline = time.monotonic() + 60
    while "is complete" not in kcli(kafka, "reassign-partitions", "--verify", "--reassignment-json-file", str(plan)) or (
        "still in progress" in kcli(kafka, "reassign-partitions", "--verify", "--reassignment-json-file", str(plan))
    ):
        if time.monotonic() > deadline:
            raise AssertionError("the reassignment did not finish in 60 s")
        time.sleep(1)


def producers(kafka: Any, topic: str) -> None:
    """An idempotent producer and a transactional one: producer id blocks (ProducerIdsRecord) and the
    transaction state topic."""
    from kafka import KafkaProducer

    idempotent = KafkaProducer(**_peer_settings(kafka), enable_idempotence=True, acks="all")
    idempotent.send(topic, b"one", key=b"k").get(timeout=60)
    idempotent.close()
    transactional = KafkaProducer(**_peer_settings(kafka), transactional_id="md-tx", acks="all")
    transactional.init_transactions()
    transactional.begin_transaction()
    transactional.send(topic, b"two", key=b"k")
    transactional.commit_transaction()
    transactional.close()


def delegation_tokens(kafka: Any) -> None:
    """Three tokens: one kept, one renewed, one expired at once."""
    import datetime
    from importlib import import_module

    from kio.static.primitive import i64Timedelta

    from kcli.kafka import ApiKey

    default = i64Timedelta.parse(datetime.timedelta(milliseconds=-1))

    def module(api: str, version: int) -> Any:
        return import_module(f"kio.schema.{api}.v{version}.request")

    async def question(admin: Any) -> None:
        hmacs = []
        for _ in range(3):

            def build(version: int) -> Any:
                m = module("create_delegation_token", version)
                renewable = m.CreatableRenewers(principal_type="User", principal_name="bob")
                fields: dict[str, Any] = {"renewers": (renewable,), "max_lifetime": default}
                if version >= 3:
                    fields.update(owner_principal_type=None, owner_principal_name=None)
                return m.CreateDelegationTokenRequest(**fields)

            response = await admin.call(ApiKey.CREATE_DELEGATION_TOKEN, build, versions=(1, 3), idempotent=False)
            assert response.error_code == 0, response
            hmacs.append(response.hmac)

        def renew(version: int) -> Any:
            m = module("renew_delegation_token", version)
            return m.RenewDelegationTokenRequest(hmac=hmacs[1], renew_period=default)

        def expire(version: int) -> Any:
            m = module("expire_delegation_token", version)
            return m.ExpireDelegationTokenRequest(hmac=hmacs[2], expiry_time_period=default)

        # Only an owner or renewer may renew; the admin owns them. The broker asked knows a token
        # once its metadata has caught up: until then it answers DELEGATION_TOKEN_NOT_FOUND.
        for api_key, build, versions in ((ApiKey.RENEW_DELEGATION_TOKEN, renew, (1, 2)),
                                         (ApiKey.EXPIRE_DELEGATION_TOKEN, expire, (1, 2))):  # fmt: skip
            for _attempt in range(60):
                response = await admin.call(api_key, build, versions=versions, idempotent=False)
                if response.error_code != 62:
                    break
                await asyncio.sleep(0.5)
            assert response.error_code == 0, response

    _ask(kafka, question)


def topic_changes(kafka: Any, topics: list[str]) -> None:
    from kafka.admin import NewPartitions

    admin = _peer_admin(kafka)
    try:
        admin.create_partitions({topics[3]: NewPartitions(total_count=6)})
        admin.delete_topics(topics[-50:], timeout_ms=60000)
    finally:
        admin.close()


def restart_broker(kafka: Any) -> None:
    node = kafka.broker_ids[-1]
    kafka.stop_node(node)
    kafka.start_node(node)


def populate(kafka: Any, work: Path, *, topics: int = 1500, progress: Any = None) -> None:
    """Every step above, in an order that leaves snapshots between them."""
    work.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    def done(step: str) -> None:
        if progress is not None:
            progress(f"{step} ({time.monotonic() - started:.1f} s)")

    many = create_topics(kafka, topics, partitions=2, replication_factor=2, prefix=TOPIC_PREFIX)
    single = create_topics(kafka, 40, partitions=1, replication_factor=1, prefix=f"{TOPIC_PREFIX}one-")
    done("topics")
    configs(kafka, many)
    done("configs")
    scram(kafka)
    done("scram")
    quotas(kafka)
    done("quotas")
    acls(kafka, many)
    done("acls")
    features(kafka)
    done("features")
    reassign(kafka, single, many, work)
    done("reassign")
    producers(kafka, many[5])
    done("producers")
    delegation_tokens(kafka)
    done("tokens")
    topic_changes(kafka, many)
    done("topic changes")
    restart_broker(kafka)
    done("restart")
