"""Third-party clients produce and consume against the emulator: kafka-python, confluent-kafka (librdkafka)
and Kafka's Java client, each with acks=all, idempotence on and every codec it has, and what comes back
checked record by record (count, no duplicates, per-partition order, the bytes sent)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.sandbox
RECORDS = 1000
PARTITIONS = 3


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("clients") / "sb", controllers=1, brokers=3) as sb:
        yield sb


def _create(bootstrap: str, *names: str) -> None:
    from kafka.admin import KafkaAdminClient, NewTopic

    client = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=20_000)
    try:
        client.create_topics([NewTopic(name, PARTITIONS, 3) for name in names])
    finally:
        client.close()


def _check(received: list[tuple[int, int, bytes, bytes]], sent: dict[bytes, bytes]) -> None:
    """(partition, offset, key, value) of everything read back: each sent record once, in order."""
    keys = [key for _, _, key, _ in received]
    assert len(keys) == len(set(keys)) == len(sent)
    assert all(sent[key] == value for _, _, key, value in received)
    for partition in range(PARTITIONS):
        offsets = [o for p, o, _, _ in received if p == partition]
        assert offsets == list(range(len(offsets)))


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_kafka_python_produces_and_consumes(cluster: Any, codec: str) -> None:
    from kafka import KafkaConsumer, KafkaProducer, TopicPartition

    topic = f"kp-{codec}"
    _create(cluster.bootstrap_servers, topic)
    producer = KafkaProducer(
        bootstrap_servers=cluster.bootstrap_servers, acks="all", enable_idempotence=True, compression_type=codec,
        linger_ms=5, request_timeout_ms=20_000,
    )  # fmt: skip
    sent = {f"key-{i}".encode(): f"{codec} value {i} ".encode() * 5 for i in range(RECORDS)}
    futures = [
        producer.send(topic, key=k, value=v, partition=i % PARTITIONS)
        for i, (k, v) in enumerate(sent.items())
    ]
    producer.flush(30)
    assert all(f.get(timeout=30).offset >= 0 for f in futures)
    producer.close()
    consumer = KafkaConsumer(bootstrap_servers=cluster.bootstrap_servers, enable_auto_commit=False,
                             isolation_level="read_committed", consumer_timeout_ms=10_000)  # fmt: skip
    partitions = [TopicPartition(topic, p) for p in range(PARTITIONS)]
    consumer.assign(partitions)
    consumer.seek_to_beginning()
    received = []
    for message in consumer:
        received.append((message.partition, message.offset, message.key, message.value))
        if len(received) == RECORDS:
            break
    ends = consumer.end_offsets(partitions)
    first = consumer.offsets_for_times({partitions[0]: int(time.time() * 1000) - 600_000})[partitions[0]]
    consumer.close()
    _check(received, sent)
    assert sum(ends.values()) == RECORDS
    assert first is not None and first.offset == 0


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_confluent_kafka_produces_and_consumes(cluster: Any, codec: str) -> None:
    from confluent_kafka import Consumer, Producer, TopicPartition

    topic = f"ck-{codec}"
    _create(cluster.bootstrap_servers, topic)
    producer = Producer({"bootstrap.servers": cluster.bootstrap_servers, "acks": "all", "enable.idempotence": True,
                         "compression.type": codec, "linger.ms": 5})  # fmt: skip
    sent = {f"key-{i}".encode(): f"{codec} value {i} ".encode() * 5 for i in range(RECORDS)}
    errors: list[Any] = []
    for i, (key, value) in enumerate(sent.items()):
        producer.produce(topic, key=key, value=value, partition=i % PARTITIONS,
                         on_delivery=lambda error, _m: error and errors.append(error))  # fmt: skip
        producer.poll(0)
    assert producer.flush(30) == 0 and errors == []
    consumer = Consumer({"bootstrap.servers": cluster.bootstrap_servers, "group.id": f"kcli-{codec}",
                         "enable.auto.commit": False, "isolation.level": "read_committed"})  # fmt: skip
    consumer.assign([TopicPartition(topic, p, 0) for p in range(PARTITIONS)])
    received = []
    deadline = time.monotonic() + 30
    while len(received) < RECORDS and time.monotonic() < deadline:
        for message in consumer.consume(500, 0.5):
            assert message.error() is None, message.error()
            received.append((message.partition(), message.offset(), message.key(), message.value()))
    ends = [consumer.get_watermark_offsets(TopicPartition(topic, p), timeout=10) for p in range(PARTITIONS)]
    consumer.close()
    _check(received, sent)
    assert sum(high for _, high in ends) == RECORDS and all(low == 0 for low, _ in ends)


def test_the_java_client_produces_and_consumes(cluster: Any, tmp_path: Path) -> None:
    from tests.dataplane.java import compile_client, run_client

    codecs = ["gzip", "snappy", "lz4", "zstd"]
    topics = [(f"java-{codec}", PARTITIONS, codec) for codec in codecs]
    _create(cluster.bootstrap_servers, *(t for t, _, _ in topics))
    classes = compile_client(tmp_path)
    for summary in run_client(classes, cluster.bootstrap_servers, topics, records=RECORDS):
        assert (summary["acked"], summary["failed"]) == (RECORDS, 0), summary["first_error"]
        assert (summary["consumed"], summary["duplicates"]) == (RECORDS, 0)
        assert summary["ordered"] and summary["values_intact"]
        assert sum(summary["end_offsets"]) == RECORDS
        assert summary["offset_by_time"] == 0
