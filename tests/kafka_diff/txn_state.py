"""Real transactional state on a differential-suite cluster, made the ways an operator meets it.

- `prepare`: topic txn-topic (3 partitions) with a committed, an aborted and an open transaction of
  confluent-kafka transactional producers (ids tx-committed, tx-aborted, tx-open); idempotent.
- `hang`: a hanging transaction: transactional records in a partition's log that no coordinator knows.
  Brokers refuse those (KIP-890 verification), so verification is switched off cluster-wide for the
  moment it takes (transaction.partition.verification.enable, a dynamic broker config), and a Produce
  v11 (below v12 the broker adds no partition to a transaction itself) writes one transactional batch
  for an idempotent producer id (InitProducerId without a transactional id). This is how hanging
  transactions arise in the field: markers that were never written.
- tokens and client-metrics subscriptions made and removed between the two tools' runs.
The corpus reaches these as `txn <action> ...` lines (tests/kafka_diff/corpus_txn.py).
"""

from __future__ import annotations

import asyncio
import datetime
import io
import re
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from tests.kafka_diff.conftest import Target

T = TypeVar("T")
TOPIC = "txn-topic"
# The open transaction's timeout: open while the corpus runs, aborted by its coordinator well before a
# doctor run on the same cluster would call it stuck (transaction.max.timeout.ms, 15 min).
OPEN_TIMEOUT_MS = 600_000
VERIFICATION = "transaction.partition.verification.enable"
DEADLINE_S = 60.0
_UUID = re.compile(r"^[A-Za-z0-9_-]{22}$")


def run_admin(target: Target, call: Callable[[Admin], Awaitable[T]]) -> T:
    """`call` with kcli's Admin on the target's brokers, as the admin user the tools use."""
    from kcli.client.admin import Admin
    from kcli.client.config import resolve_client_config

    config = resolve_client_config(
        bootstrap_server=target.kafka.bootstrap_servers,
        bootstrap_controller=None,
        command_config=target.config,
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=lambda _: None,
    )

    async def go() -> T:
        async with Admin(config) as admin:
            return await call(admin)

    return asyncio.run(go())


def librdkafka_settings(target: Target) -> dict[str, str]:
    """confluent-kafka settings for the target's admin user (SCRAM over TLS on 4.4.0, plaintext on 4.0.2)."""
    settings = {"bootstrap.servers": target.kafka.bootstrap_servers}
    properties = dict(
        line.split("=", 1)
        for line in target.config.read_text().splitlines()
        if "=" in line and not line.startswith("#")
    )
    protocol = properties.get("security.protocol", "PLAINTEXT")
    settings["security.protocol"] = protocol
    if "SASL" in protocol:
        jaas = properties["sasl.jaas.config"]
        settings["sasl.mechanism"] = properties["sasl.mechanism"]
        settings["sasl.username"] = re.search(r'username="([^"]*)"', jaas).group(1)  # type: ignore[union-attr]
        settings["sasl.password"] = re.search(r'password="([^"]*)"', jaas).group(1)  # type: ignore[union-attr]
    if "SSL" in protocol:
        settings["ssl.ca.location"] = properties["ssl.truststore.location"]
        settings["ssl.endpoint.identification.algorithm"] = "none"
    return settings


async def topic_leaders(admin: Admin, topic: str) -> dict[int, int] | None:
    """The topic's partitions and leaders, None while the cluster does not have it."""
    from kcli.client.api import producers

    places = (await producers.partition_places(admin, [topic]))[topic]
    return {p: place.leader for p, place in places.items()} if isinstance(places, dict) else None


async def ensure_topic(admin: Admin, target: Target, topic: str, partitions: int) -> None:
    """`topic` with partition i on broker i+1 (one replica each; all on broker 1 of a one-broker cluster),
    its leaders elected."""
    from kcli.client.protocol import make, request_class
    from kcli.kafka import ApiKey

    if await topic_leaders(admin, topic) is None:
        brokers = sorted(target.kafka.broker_ids)

        def build(version: int) -> Any:
            cls = request_class("create_topics", version)
            module = sys.modules[cls.__module__]
            assignments = tuple(
                module.CreatableReplicaAssignment(partition_index=i, broker_ids=(brokers[i % len(brokers)],))
                for i in range(partitions)
            )
            creatable = make(
                module.CreatableTopic, name=topic, num_partitions=-1, replication_factor=-1,
                assignments=assignments, configs=(),
            )  # fmt: skip
            return make(cls, topics=(creatable,), timeout=datetime.timedelta(seconds=30), validate_only=False)

        response = await admin.call(ApiKey.CREATE_TOPICS, build, versions=(2, 7), idempotent=False)
        code = int(response.topics[0].error_code)
        assert code in (0, 36), f"creating {topic}: {code} {response.topics[0].error_message}"  # 36: exists
    await _until(lambda: _led(admin, topic, partitions), f"topic {topic} has no leaders")


async def _led(admin: Admin, topic: str, partitions: int) -> bool:
    leaders = await topic_leaders(admin, topic)
    return leaders is not None and len(leaders) == partitions and all(b >= 0 for b in leaders.values())


async def _until(check: Callable[[], Awaitable[bool]], failure: str) -> None:
    deadline = time.monotonic() + DEADLINE_S
    while not await check():
        assert time.monotonic() < deadline, f"{failure} after {DEADLINE_S:.0f} s"
        await asyncio.sleep(0.2)


async def drop_topic_now(admin: Admin, topic: str) -> None:
    """Delete `topic` (and with it any transaction it holds open), waiting until it is gone."""
    from kcli.client.protocol import make, request_class
    from kcli.kafka import ApiKey

    if await topic_leaders(admin, topic) is None:
        return

    def build(version: int) -> Any:
        cls = request_class("delete_topics", version)
        state = make(sys.modules[cls.__module__].DeleteTopicState, name=topic, topic_id=None)
        return make(cls, topics=(state,), topic_names=(topic,), timeout=datetime.timedelta(seconds=30))

    await admin.call(ApiKey.DELETE_TOPICS, build, versions=(1, 6), idempotent=False)

    async def gone() -> bool:
        return await topic_leaders(admin, topic) is None

    await _until(gone, f"topic {topic} was not deleted")


def prepare(target: Target, files: Path) -> None:
    """txn-topic with a committed, an aborted and an open transaction (once per cluster)."""
    from kcli.client.api import transactions

    async def go(admin: Admin) -> bool:
        await ensure_topic(admin, target, TOPIC, 3)
        listed = await transactions.list_transactions(admin)
        return {"tx-committed", "tx-aborted", "tx-open"} <= {t.transactional_id for t in listed}

    if run_admin(target, go):
        return
    from confluent_kafka import Producer

    settings = librdkafka_settings(target)
    for transactional_id, end in (("tx-committed", "commit"), ("tx-aborted", "abort"), ("tx-open", None)):
        producer = Producer(
            {**settings, "transactional.id": transactional_id, "transaction.timeout.ms": OPEN_TIMEOUT_MS}
        )
        producer.init_transactions(30)
        producer.begin_transaction()
        for index in range(6):
            producer.produce(TOPIC, value=b"v%d" % index, partition=index % 3)
        producer.flush(30)
        if end == "commit":
            producer.commit_transaction(30)
        elif end == "abort":
            producer.abort_transaction(30)
        # tx-open: the producer goes away with its transaction open; the coordinator keeps it Ongoing


def hang(target: Target, files: Path, topic: str, partition: int) -> int:
    """A hanging transaction on `topic`-`partition`; returns its start offset."""
    return run_admin(target, lambda admin: hang_now(admin, topic, partition))


async def hang_now(admin: Admin, topic: str, partition: int) -> int:
    await _verification(admin, enabled=False)
    try:
        deadline = time.monotonic() + DEADLINE_S
        while True:
            code, offset = await produce_transactional(admin, topic, partition)
            if code == 0:
                return offset
            assert time.monotonic() < deadline, f"the brokers kept verifying transactions (error {code})"
            await asyncio.sleep(0.2)  # the brokers have not applied the dynamic config yet
    finally:
        await _verification(admin, enabled=True)


async def _verification(admin: Admin, *, enabled: bool) -> None:
    """The cluster-wide default of transaction.partition.verification.enable: false, or back to the default."""
    from kcli.client.api.configs import incremental_alter_configs
    from kcli.kafka import ConfigOp
    from kcli.ops.config_spec import ConfigChange, ConfigChanges, Entity, EntityType

    change = (
        ConfigChange(key=VERIFICATION, op=ConfigOp.DELETE)
        if enabled
        else ConfigChange(key=VERIFICATION, op=ConfigOp.SET, value="false")
    )
    entity = Entity(type=EntityType.BROKERS, default=True)
    (error,) = await incremental_alter_configs(
        admin, [(entity, ConfigChanges(changes=(change,)))], validate_only=False
    )
    assert error is None, error


async def produce_transactional(admin: Admin, topic: str, partition: int) -> tuple[int, int]:
    from kio.records.schema import NewRecordBatch, Record
    from kio.records.writers import write_new_batch
    from kio.static.primitive import i8, i16, i32, i64

    from kcli.client.admin import Target as To
    from kcli.client.api import producers
    from kcli.client.api.reassign import timeout_value
    from kcli.client.protocol import request_class
    from kcli.kafka import ApiKey

    pid = await admin.call(
        ApiKey.INIT_PRODUCER_ID,
        lambda v: request_class("init_producer_id", v)(
            transactional_id=None, transaction_timeout=timeout_value(60000)
        ),
        versions=(0, 5),
    )
    record = Record(
        attributes=i8(0),
        timestamp=datetime.datetime.now(datetime.UTC),
        offset=i64(0),
        key=None,
        value=b"hanging",
        headers=(),
    )
    batch = io.BytesIO()
    write_new_batch(
        batch,
        NewRecordBatch(
            producer_id=pid.producer_id,
            producer_epoch=pid.producer_epoch,
            base_sequence=i32(0),
            records=(record,),
            attributes=i16(0x10),  # transactional
        ),
    )
    places = (await producers.partition_places(admin, [topic]))[topic]
    assert isinstance(places, dict)

    def build(version: int) -> Any:
        cls = request_class("produce", version)
        module = sys.modules[cls.__module__]
        data = module.PartitionProduceData(index=i32(partition), records=batch.getvalue())
        return cls(
            transactional_id="kcli-test-hanging",
            acks=i16(-1),
            timeout=timeout_value(10000),
            topic_data=(module.TopicProduceData(name=topic, partition_data=(data,)),),
        )

    response = await admin.call(
        ApiKey.PRODUCE, build, versions=(3, 11), target=To.node(places[partition].leader)
    )
    answer = response.responses[0].partition_responses[0]
    return int(answer.error_code), int(answer.base_offset)


def drop_topic(target: Target, files: Path, topic: str) -> None:
    run_admin(target, lambda admin: drop_topic_now(admin, topic))


def fresh_hang(target: Target, files: Path, topic: str) -> None:
    """`topic` made afresh (one partition) with a hanging transaction at offset 0."""

    async def go(admin: Admin) -> int:
        await drop_topic_now(admin, topic)
        await ensure_topic(admin, target, topic, 1)
        return await hang_now(admin, topic, 0)

    offset = run_admin(target, go)
    assert offset == 0, offset


def new_token(target: Target, files: Path) -> None:
    """A token renewable by User:user1; its HMAC fills the corpus word {hmac}."""
    from kcli.client.api import delegation_tokens
    from kcli.client.errors import KafkaError
    from kcli.ops.delegation_tokens import Principal

    try:
        token = run_admin(
            target,
            lambda admin: delegation_tokens.create(
                admin, renewers=[Principal("User", "user1")], owner=None, max_lifetime_ms=-1
            ),
        )
    except KafkaError as refused:  # a cluster without tokens (4.0.2's plaintext one): both tools are refused
        assert refused.name.startswith("DELEGATION_TOKEN_"), refused
        target.placeholders["{hmac}"] = "ABCDEFGHIJK"
        return
    target.placeholders["{hmac}"] = token.hmac_base64


def expire_tokens(target: Target, files: Path) -> None:
    """Expire every token the admin user owns or renews (the ones the cases made for it; a token it made
    for another owner, `--owner-principal User:owner1` of the docs, only that owner or its renewers may
    expire, so it stays until its max lifetime)."""
    from kcli.client.api import delegation_tokens
    from kcli.client.errors import KafkaError

    async def go(admin: Admin) -> None:
        try:
            tokens = await delegation_tokens.describe(admin, None)
        except KafkaError as refused:  # a cluster without tokens
            assert refused.name.startswith("DELEGATION_TOKEN_"), refused
            return
        for token in tokens:
            if token.owner.name == "admin" or any(r.name == "admin" for r in token.renewers):
                await delegation_tokens.expire(admin, token.hmac, expiry_period_ms=-1)

    run_admin(target, go)


def clean_generated_metrics(target: Target, files: Path) -> None:
    """Delete the client-metrics subscriptions with a generated (Uuid) name."""
    from kcli.workflows import client_metrics

    for name in run_admin(target, client_metrics.names):
        if _UUID.match(name):
            run_admin(target, lambda admin, n=name: client_metrics.delete(admin, n))  # type: ignore[misc]


def act(target: Target, words: list[str], files: Path) -> None:
    """One `txn ...` line of the corpus."""
    action, *args = words
    import os

    started = time.monotonic()
    try:
        _act(target, action, args, files)
    finally:
        if os.environ.get("TXN_TIMING"):
            print(f"TIMING txn {' '.join(words)}: {time.monotonic() - started:.1f} s", file=sys.stderr)


def _act(target: Target, action: str, args: list[str], files: Path) -> None:
    if action == "prepare":
        prepare(target, files)
    elif action == "hang":
        hang(target, files, args[0], int(args[1]))
    elif action == "fresh-hang":
        fresh_hang(target, files, args[0])
    elif action == "drop-topic":
        drop_topic(target, files, args[0])
    elif action == "new-token":
        new_token(target, files)
    elif action == "expire-tokens":
        expire_tokens(target, files)
    elif action == "clean-generated-metrics":
        clean_generated_metrics(target, files)
    else:
        raise ValueError(f"unknown txn action in the corpus: {action} {' '.join(args)}")
