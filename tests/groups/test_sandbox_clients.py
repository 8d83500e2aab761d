"""Third-party clients in groups against the emulator: kafka-python (classic protocol), librdkafka
through confluent-kafka (the KIP-848 consumer protocol, transactions), and the offsets kept across a
restart. Kafka's Java client is in tests/peers/java/test_groups.py."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.sandbox.peers import admin

pytestmark = pytest.mark.sandbox


def unique(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def make_topic(bootstrap: str, partitions: int, replicas: int = 3) -> str:
    from kafka.admin import NewTopic

    name = unique("t")
    with admin(bootstrap) as client:
        client.create_topics([NewTopic(name, partitions, replicas)])
    return name


def test_kafka_python_consumes_and_commits_in_a_classic_group(sandbox: Any) -> None:
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    bootstrap = sandbox.bootstrap_servers
    topic, group = make_topic(bootstrap, 3), unique("kp")
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    for i in range(30):
        producer.send(topic, f"v{i}".encode(), partition=i % 3)
    producer.flush()
    producer.close()
    consumer = KafkaConsumer(
        topic,
        bootstrap_servers=bootstrap,
        group_id=group,
        auto_offset_reset="earliest",
        enable_auto_commit=False,
        consumer_timeout_ms=20_000,
    )
    seen = []
    for message in consumer:
        seen.append(message.value.decode())
        if len(seen) == 30:
            break
    consumer.commit()
    assert sorted(seen) == sorted(f"v{i}" for i in range(30))
    assert {tp.partition for tp in consumer.assignment()} == {0, 1, 2}
    with admin(bootstrap) as client:
        described = client.describe_groups([group])[group]
        assert (described["group_state"], described["protocol_type"], described["protocol_data"]) == (
            "Stable",
            "consumer",
            "range",
        )
        assert len(described["members"]) == 1
        consumer.close()
        offsets = client.list_group_offsets(group)[group]
        assert {tp: o.offset for tp, o in offsets.items()} == {TopicPartition(topic, p): 10 for p in range(3)}
        listed = {g["group_id"]: g for g in client.list_groups()}
        assert (listed[group]["group_state"], listed[group]["protocol_type"]) == ("Empty", "consumer")
        assert client.delete_groups([group]) == {group: "OK"}
        assert group not in {g["group_id"] for g in client.list_groups()}


def _consume(consumers: list[Any], wanted: int, deadline_s: float = 40) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + deadline_s
    while len(seen) < wanted:
        assert time.monotonic() < deadline, f"consumed {len(seen)} of {wanted}"
        for consumer in consumers:
            message = consumer.poll(0.1)
            if message is not None and message.error() is None:
                seen.append(message.value().decode())
    return seen


def _at_end(consumer: Any, partitions: int, end: int) -> bool:
    owned = consumer.assignment()
    return len(owned) == partitions and all(tp.offset == end for tp in consumer.position(owned))


def test_confluent_consumers_share_a_group_of_the_consumer_protocol(sandbox: Any) -> None:
    from confluent_kafka import Consumer, Producer, TopicPartition
    from confluent_kafka.admin import AdminClient

    bootstrap = sandbox.bootstrap_servers
    topic, group = make_topic(bootstrap, 4), unique("ck")
    producer = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True})
    for i in range(40):
        producer.produce(topic, f"v{i}".encode(), partition=i % 4)
    assert producer.flush(15) == 0
    config = {
        "bootstrap.servers": bootstrap,
        "group.id": group,
        "group.protocol": "consumer",
        "auto.offset.reset": "earliest",
        "enable.auto.commit": False,
    }
    consumers = [Consumer(config) for _ in range(2)]
    try:
        for consumer in consumers:
            consumer.subscribe([topic])
        seen = _consume(consumers, 40)
        # the group settles with two partitions each, every member read to the end of its own
        deadline = time.monotonic() + 30
        while not all(_at_end(c, 2, 10) for c in consumers):
            assert time.monotonic() < deadline, [c.assignment() for c in consumers]
            for consumer in consumers:
                consumer.poll(0.1)
        for consumer in consumers:
            consumer.commit(offsets=consumer.position(consumer.assignment()), asynchronous=False)
        assert sorted(set(seen)) == sorted(f"v{i}" for i in range(40))
        owned = [{tp.partition for tp in c.assignment()} for c in consumers]
        assert owned[0] | owned[1] == {0, 1, 2, 3} and not owned[0] & owned[1]
        client = AdminClient({"bootstrap.servers": bootstrap})
        group_info = client.describe_consumer_groups([group])[group].result(timeout=15)
        assert (group_info.type.name, group_info.state.name, len(group_info.members)) == (
            "CONSUMER",
            "STABLE",
            2,
        )
        committed = consumers[0].committed([TopicPartition(topic, p) for p in range(4)], timeout=15)
        assert [tp.offset for tp in committed] == [10, 10, 10, 10]
    finally:
        for consumer in consumers:
            consumer.close()


def test_a_transactional_producer_commits_and_aborts_with_the_consumed_offsets(sandbox: Any) -> None:
    from confluent_kafka import Consumer, Producer, TopicPartition

    bootstrap = sandbox.bootstrap_servers
    source, sink, group = make_topic(bootstrap, 1), make_topic(bootstrap, 1), unique("tx")
    plain = Producer({"bootstrap.servers": bootstrap})
    for i in range(5):
        plain.produce(source, f"in{i}".encode())
    assert plain.flush(15) == 0
    reader = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": group,
            "group.protocol": "consumer",
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
        }
    )
    producer = Producer({"bootstrap.servers": bootstrap, "transactional.id": unique("txn")})
    try:
        reader.subscribe([source])
        consumed = _consume([reader], 5)
        producer.init_transactions(30)
        producer.begin_transaction()
        for value in consumed:
            producer.produce(sink, f"out-{value}".encode())
        producer.send_offsets_to_transaction(
            reader.position(reader.assignment()), reader.consumer_group_metadata()
        )
        producer.commit_transaction(30)
        producer.begin_transaction()
        producer.produce(sink, b"aborted")
        producer.flush(15)
        producer.abort_transaction(30)
        committed = reader.committed([TopicPartition(source, 0)], timeout=15)
        assert committed[0].offset == 5
    finally:
        reader.close()
    check = Consumer(
        {
            "bootstrap.servers": bootstrap,
            "group.id": unique("check"),
            "auto.offset.reset": "earliest",
            "isolation.level": "read_committed",
            "enable.partition.eof": True,
        }
    )
    try:
        check.assign([TopicPartition(sink, 0, 0)])
        values, deadline = [], time.monotonic() + 30
        while True:
            assert time.monotonic() < deadline, values
            message = check.poll(0.2)
            if message is None:
                continue
            if message.error() is not None:
                break  # the end of the partition: the last stable offset
            values.append(message.value().decode())
        assert values == [f"out-in{i}" for i in range(5)]
        low, high = check.get_watermark_offsets(TopicPartition(sink, 0), timeout=15)
        assert (low, high) == (0, 8)  # 5 records, their commit marker, the aborted record, its marker
    finally:
        check.close()


def test_offsets_and_groups_survive_a_restart(tmp_path: Path, make_sandbox: Callable[..., Any]) -> None:
    from kafka import KafkaConsumer, TopicPartition
    from kafka.structs import OffsetAndMetadata

    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path / "restarted"
    with Sandbox(directory=directory, controllers=1, brokers=1) as first:
        topic = make_topic(first.bootstrap_servers, 2, replicas=1)
        consumer = KafkaConsumer(
            bootstrap_servers=first.bootstrap_servers, group_id="kept", enable_auto_commit=False
        )
        consumer.assign([TopicPartition(topic, 0), TopicPartition(topic, 1)])
        consumer.commit({TopicPartition(topic, 0): OffsetAndMetadata(7, "meta", -1)})
        consumer.commit({TopicPartition(topic, 1): OffsetAndMetadata(3, "", -1)})
        consumer.close()
    with (
        Sandbox(directory=directory, controllers=1, brokers=1) as again,
        admin(again.bootstrap_servers) as client,
    ):
        offsets = client.list_group_offsets("kept")["kept"]
        assert {tp.partition: (o.offset, o.metadata) for tp, o in offsets.items()} == {
            0: (7, "meta"),
            1: (3, ""),
        }
        assert [(g["group_id"], g["group_state"]) for g in client.list_groups()] == [("kept", "Empty")]


@pytest.mark.parametrize("protocol", ["classic", "consumer"])
def test_kcli_shows_the_lag_a_librdkafka_member_s_own_offsets_give(
    sandbox: Any, kcli: Any, protocol: str
) -> None:
    from confluent_kafka import Consumer, Producer, TopicPartition

    bootstrap = sandbox.bootstrap_servers
    topic, group = make_topic(bootstrap, 3), unique(f"lag-{protocol}")
    producer = Producer({"bootstrap.servers": bootstrap})
    for i, partition in enumerate([0] * 30 + [1] * 20 + [2] * 10):
        producer.produce(topic, f"v{i}".encode(), partition=partition)
    assert producer.flush(15) == 0
    consumer = Consumer({
        "bootstrap.servers": bootstrap, "group.id": group, "group.protocol": protocol,
        "auto.offset.reset": "earliest", "enable.auto.commit": False,
    })  # fmt: skip
    try:
        consumer.subscribe([topic])
        _consume([consumer], 60)
        # commit part of what was read: 7, 4 and 0 records a partition short of the end
        wanted = {0: 23, 1: 16, 2: 10}
        consumer.commit(offsets=[TopicPartition(topic, p, o) for p, o in wanted.items()], asynchronous=False)
        partitions = [TopicPartition(topic, p) for p in range(3)]
        committed = {tp.partition: tp.offset for tp in consumer.committed(partitions, timeout=15)}
        ends = {p: consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=15)[1] for p in range(3)}
        client_lag = {p: ends[p] - committed[p] for p in range(3)}
        assert committed == wanted and client_lag == {0: 7, 1: 4, 2: 0}

        described = kcli("consumer-groups", "-b", bootstrap, "--describe", "--group", group, "-o", "json")
        assert described.code == 0, described.stderr
        (shown,) = described.json["groups"]
        assert (shown["type"], shown["state"]) == ("Classic" if protocol == "classic" else "Consumer", "Stable")
        rows = {row["partition"]: row for row in shown["partitions"]}
        assert {p: rows[p]["lag"] for p in rows} == client_lag
        assert {p: rows[p]["current_offset"] for p in rows} == committed
        assert {p: rows[p]["log_end_offset"] for p in rows} == ends
        assert shown["lag"] == 11 and shown["lag_by_topic"] == {topic: 11}
        assert all(row["consumer_id"] for row in rows.values())  # the member holds all three

        text = kcli("consumer-groups", "-b", bootstrap, "--describe", "--group", group)
        lags = {int(f[2]): int(f[5]) for f in (line.split() for line in text.stdout.splitlines()) if f[:2] == [group, topic]}
        assert lags == client_lag
        over = kcli("consumer-groups", "-b", bootstrap, "--describe", "--group", group, "--fail-on-lag", "6")
        assert over.code == 1 and f"{topic}-0 lag 7" in over.stderr, over.stderr
        assert kcli("consumer-groups", "-b", bootstrap, "--describe", "--group", group, "--fail-on-lag", "7").code == 0
    finally:
        consumer.close()
