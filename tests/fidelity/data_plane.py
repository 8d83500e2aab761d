"""The emulator's data plane beside a real Kafka 4.4.0 cluster, answer by answer (Produce, Fetch and its
sessions, ListOffsets, OffsetForLeaderEpoch, DeleteRecords, InitProducerId), collected by
test_sandbox_vs_kafka.py so that they run on its real cluster.

Each scenario sends the same requests, in the same order, to the same broker of both sides and compares
every field of every answer, the record bytes included (the emulator keeps a batch as the client sent it,
and rebuilds one for a topic's compression.type as Kafka's Java code writes that codec). What is replaced
on both sides before comparing (and nothing else): topic ids, producer ids and fetch session ids (each
side draws its own), node addresses, the broker clock's bounds in an INVALID_TIMESTAMP message, and a
LogAppendTime stamp (the brokers' clocks).
"""

from __future__ import annotations

import datetime
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fidelity.calls import Endpoint, delete_topic
from tests.fidelity.data_calls import build_of, request

PRODUCE, FETCH, LIST_OFFSETS, DELETE_RECORDS, INIT_PRODUCER_ID, OFFSET_FOR_LEADER_EPOCH = 0, 1, 2, 21, 22, 23
CREATE_TOPICS = 19
LEADER, FOLLOWER = 1, 2  # every scenario topic has replicas [1, 2, 3]: broker 1 leads
Step = tuple[str, Any]


NOW = [0]  # the scenario's clock: both sides are sent the same bytes


def now_ms() -> int:
    return NOW[0]


def batch(records: list[tuple[bytes | None, bytes | None]], **options: Any) -> bytes:
    from kcli.sandbox.emulator.data.records import encode_batch

    return encode_batch(records, timestamp_ms=options.pop("timestamp_ms", now_ms()), **options)


class Client:
    """One side's requests at fixed versions, its answers normalized for the comparison."""

    def __init__(self, side: Any) -> None:
        self.side = side
        self.endpoint: Endpoint = side.brokers
        self.created: list[str] = []
        self.producer = -1

    def create(self, name: str, configs: dict[str, str] | None = None) -> None:
        def build(cls: type) -> Any:
            topic = build_of(
                cls,
                "CreatableTopic",
                name=name,
                num_partitions=-1,
                replication_factor=-1,
                assignments=(
                    build_of(cls, "CreatableReplicaAssignment", partition_index=0, broker_ids=(1, 2, 3)),
                ),
                configs=tuple(
                    build_of(cls, "CreatableTopicConfig", name=k, value=v) for k, v in (configs or {}).items()
                ),
            )
            return cls(topics=(topic,), timeout=datetime.timedelta(seconds=30), validate_only=False)

        (result,) = request(self.endpoint, "create_topics", CREATE_TOPICS, 7, build)["topics"]
        assert result["error_code"] == 0, result
        self.created.append(name)
        deadline = time.monotonic() + 30
        while self.fetch(name)["responses"][0]["partitions"][0]["error_code"] != 0:
            assert time.monotonic() < deadline, f"{self.side.name}: {name} has no leader after 30 s"
            time.sleep(0.2)

    def normalized(self, answer: Any) -> Any:
        return _scrub(answer, self.side.places)

    def produce(
        self, topic: str, data: bytes, *, version: int = 11, acks: int = -1, node: int = LEADER
    ) -> Any:
        def build(cls: type) -> Any:
            part = build_of(cls, "PartitionProduceData", index=0, records=data)
            data_of = build_of(cls, "TopicProduceData", name=topic, partition_data=(part,))
            return build_of(
                cls,
                "ProduceRequest",
                acks=acks,
                timeout=datetime.timedelta(seconds=10),
                topic_data=(data_of,),
            )

        return request(self.endpoint, "produce", PRODUCE, version, build, node=node)

    def fetch(
        self,
        topic: str,
        offset: int = 0,
        *,
        version: int = 12,
        node: int = LEADER,
        max_bytes: int = 1 << 20,
        isolation: int = 0,
        session: tuple[int, int] = (0, -1),
        epoch: int = -1,
        last_epoch: int = -1,
        forget: bool = False,
        partitions: bool = True,
    ) -> Any:
        def build(cls: type) -> Any:
            wanted = build_of(
                cls,
                "FetchPartition",
                partition=0,
                current_leader_epoch=epoch,
                fetch_offset=offset,
                last_fetched_epoch=last_epoch,
                log_start_offset=-1,
                partition_max_bytes=max_bytes,
            )
            topics = (build_of(cls, "FetchTopic", topic=topic, partitions=(wanted,)),) if partitions else ()
            forgotten = (build_of(cls, "ForgottenTopic", topic=topic, partitions=(0,)),) if forget else ()
            return build_of(
                cls,
                "FetchRequest",
                replica_id=-1,
                max_wait=datetime.timedelta(milliseconds=50),
                min_bytes=1,
                max_bytes=1 << 24,
                isolation_level=isolation,
                session_id=session[0],
                session_epoch=session[1],
                topics=topics,
                forgotten_topics_data=forgotten,
                rack_id="",
            )

        # a session error is retriable: kcli's client would retry it until its deadline
        timeout = 1500 if session[0] else None
        return request(self.endpoint, "fetch", FETCH, version, build, node=node, timeout_ms=timeout)

    def list_offsets(
        self,
        topic: str,
        timestamp: int,
        *,
        version: int = 11,
        isolation: int = 0,
        epoch: int = -1,
        node: int = LEADER,
    ) -> Any:
        def build(cls: type) -> Any:
            wanted = build_of(
                cls,
                "ListOffsetsPartition",
                partition_index=0,
                current_leader_epoch=epoch,
                timestamp=timestamp,
            )
            return build_of(
                cls,
                "ListOffsetsRequest",
                replica_id=-1,
                isolation_level=isolation,
                topics=(build_of(cls, "ListOffsetsTopic", name=topic, partitions=(wanted,)),),
                timeout=datetime.timedelta(seconds=5),
            )

        return request(self.endpoint, "list_offsets", LIST_OFFSETS, version, build, node=node)

    def epoch_end(self, topic: str, epoch: int, *, current: int = -1, node: int = LEADER) -> Any:
        def build(cls: type) -> Any:
            wanted = build_of(
                cls, "OffsetForLeaderPartition", partition=0, current_leader_epoch=current, leader_epoch=epoch
            )
            return build_of(
                cls,
                "OffsetForLeaderEpochRequest",
                replica_id=-1,
                topics=(build_of(cls, "OffsetForLeaderTopic", topic=topic, partitions=(wanted,)),),
            )

        return request(self.endpoint, "offset_for_leader_epoch", OFFSET_FOR_LEADER_EPOCH, 4, build, node=node)

    def delete_records(self, topic: str, offset: int, *, node: int = LEADER) -> Any:
        def build(cls: type) -> Any:
            wanted = build_of(cls, "DeleteRecordsPartition", partition_index=0, offset=offset)
            return build_of(
                cls,
                "DeleteRecordsRequest",
                topics=(build_of(cls, "DeleteRecordsTopic", name=topic, partitions=(wanted,)),),
                timeout=datetime.timedelta(seconds=5),
            )

        return request(self.endpoint, "delete_records", DELETE_RECORDS, 2, build, node=node)

    def producer_id(self) -> Any:
        answer = request(
            self.endpoint,
            "init_producer_id",
            INIT_PRODUCER_ID,
            5,
            lambda cls: build_of(
                cls,
                "InitProducerIdRequest",
                transactional_id=None,
                transaction_timeout=datetime.timedelta(seconds=60),
                producer_id=-1,
                producer_epoch=-1,
            ),
        )
        self.producer = int(answer["producer_id"])
        return answer


def _scrub(value: Any, places: dict[str, str]) -> Any:
    """What a broker's clock and a session's draw make differ (see the module's docstring)."""
    if isinstance(value, dict):
        out = {k: _scrub(v, places) for k, v in value.items()}
        for key, placeholder in (("session_id", "<session>"), ("producer_id", "<producer id>")):
            if out.get(key) not in (-1, None) and not (key == "session_id" and out[key] == 0):
                out[key] = placeholder
        if isinstance(out.get("topic_id"), uuid.UUID) and out["topic_id"].int != 0:
            out["topic_id"] = "<topic id>"
        if "host" in out and "port" in out:
            out["host"], out["port"] = places.get(f"{out['host']}:{out['port']}", "?"), "<port>"
        return out
    if isinstance(value, list):
        return [_scrub(v, places) for v in value]
    if isinstance(value, str):
        return re.sub(r"should be within \[-?\d+, \d+\]", "should be within [<clock>]", value)
    return value


Scenario = Callable[[Client, str], list[Step]]


def _produce_errors(client: Client, topic: str) -> list[Step]:
    good = batch([(b"k1", b"v1"), (None, b"v2")])
    damaged = bytearray(good)
    damaged[-1] ^= 1
    now = now_ms()
    return [
        ("acks -1", client.produce(topic, good)),
        ("acks 1", client.produce(topic, good, acks=1)),
        ("acks 2", client.produce(topic, good, acks=2)),
        ("to a follower", client.produce(topic, good, node=FOLLOWER, version=12)),
        ("unknown topic", client.produce("kcli-fidelity-no-such-topic", good)),
        ("damaged", client.produce(topic, bytes(damaged))),
        ("two batches", client.produce(topic, good + good)),
        ("no batch", client.produce(topic, b"")),
        ("an hour ahead", client.produce(topic, batch([(b"a", b"b")], timestamp_ms=now + 7_200_000))),
        (
            "producer id without sequence",
            client.produce(topic, batch([(b"a", b"b")], producer_id=1000, producer_epoch=0)),
        ),
        ("gzip", client.produce(topic, batch([(b"a", b"b" * 100)] * 10, compression=1))),
        ("fetched back", client.fetch(topic)),
    ]


def _idempotence(client: Client, topic: str) -> list[Step]:
    steps: list[Step] = [("producer id", client.producer_id())]
    pid = client.producer

    def sent(sequence: int, epoch: int = 0) -> Any:
        return client.produce(
            topic, batch([(b"a", b"b")], producer_id=pid, producer_epoch=epoch, base_sequence=sequence)
        )

    steps += [
        ("sequence 0", sent(0)),
        ("sequence 0 again", _without_time(sent(0))),
        ("sequence 1", sent(1)),
        ("a gap", sent(5)),
        ("a new epoch not at 0", sent(2, epoch=1)),
        ("a new epoch", sent(0, epoch=1)),
        ("the old epoch", sent(2, epoch=0)),
    ]
    return steps


def _without_time(answer: Any) -> Any:
    """An idempotent retry answers its batch's timestamp as the append time: there, but not comparable."""
    for topic in answer["responses"]:
        for partition in topic["partition_responses"]:
            partition["log_append_time"] = partition["log_append_time"] is not None
    return answer


def _fetching(client: Client, topic: str) -> list[Step]:
    now = now_ms()
    for index, stamp in enumerate((now - 5000, now - 3000, now - 4000, now - 1000)):
        client.produce(
            topic,
            batch(
                [(b"k", b"v%d" % index), (b"k", b"w%d" % index)],
                timestamps=[stamp, stamp - 10],
                timestamp_ms=stamp,
            ),
        )
    steps: list[Step] = []
    for version in (10, 12):
        for isolation in (0, 1):
            tag = f"v{version} isolation {isolation}"
            steps += [
                (f"all {tag}", client.fetch(topic, version=version, isolation=isolation)),
                (f"one byte {tag}", client.fetch(topic, version=version, isolation=isolation, max_bytes=1)),
                (f"past the end {tag}", client.fetch(topic, 100, version=version, isolation=isolation)),
                (
                    f"unknown topic {tag}",
                    client.fetch("kcli-fidelity-no-such-topic", version=version, isolation=isolation),
                ),
                (f"a newer epoch {tag}", client.fetch(topic, version=version, isolation=isolation, epoch=5)),
            ]
    steps += [
        ("a follower, v10", client.fetch(topic, version=10, node=FOLLOWER)),
        ("at the end", client.fetch(topic, 8)),
        ("diverging from an unknown epoch", client.fetch(topic, 5, last_epoch=3)),
        ("epoch 0 up to offset 5", client.fetch(topic, 5, last_epoch=0)),
    ]
    for stamp in (-1, -2, -3, -4, -5, -6, now - 6000, now - 3500, now - 3005, now - 2000, now, 0):
        label = stamp if stamp < 0 else f"now - {now - stamp}"
        steps.append((f"offsets at {label}", client.list_offsets(topic, stamp)))
    steps += [
        ("latest v6", client.list_offsets(topic, -1, version=6)),
        ("latest v3", client.list_offsets(topic, -1, version=3)),
        ("latest read_committed", client.list_offsets(topic, -1, isolation=1)),
        ("latest with a newer epoch", client.list_offsets(topic, -1, epoch=3)),
        ("latest at a follower", client.list_offsets(topic, -1, node=FOLLOWER)),
        ("latest of an unknown topic", client.list_offsets("kcli-fidelity-no-such-topic", -1)),
    ]
    for epoch in (0, 1, -1, 5):
        steps.append((f"epoch {epoch} ends", client.epoch_end(topic, epoch)))
    steps += [
        ("epoch end with a newer current epoch", client.epoch_end(topic, 0, current=2)),
        ("epoch end at a follower", client.epoch_end(topic, 0, node=FOLLOWER)),
        ("epoch end of an unknown topic", client.epoch_end("kcli-fidelity-no-such-topic", 0)),
    ]
    return steps


def _deleting(client: Client, topic: str) -> list[Step]:
    for index in range(4):
        client.produce(topic, batch([(b"k", b"v%d" % index)] * 2))
    return [
        ("beyond the high watermark", client.delete_records(topic, 100)),
        ("below zero", client.delete_records(topic, -5)),
        ("at a follower", client.delete_records(topic, 1, node=FOLLOWER)),
        ("unknown topic", client.delete_records("kcli-fidelity-no-such-topic", 1)),
        ("to 3", client.delete_records(topic, 3)),
        ("to 1, below the log start", client.delete_records(topic, 1)),
        ("earliest after", client.list_offsets(topic, -2)),
        ("earliest local after", client.list_offsets(topic, -4)),
        ("below the log start", client.fetch(topic, 1)),
        ("at the log start", client.fetch(topic, 3)),
        ("to the high watermark", client.delete_records(topic, -1)),
    ]


def _sessions(client: Client, topic: str) -> list[Step]:
    client.produce(topic, batch([(b"a", b"b")]))
    first = client.fetch(topic, session=(0, 0))
    session = first["session_id"]
    steps: list[Step] = [
        ("opened", first),
        ("nothing new", client.fetch(topic, session=(session, 1), partitions=False)),
    ]
    client.produce(topic, batch([(b"n", b"new")]))
    steps += [
        ("after a produce", client.fetch(topic, session=(session, 2), partitions=False)),
        ("a wrong epoch", client.fetch(topic, session=(session, 5), partitions=False)),
        ("a new offset", client.fetch(topic, 1, session=(session, 3))),
        ("forgotten", client.fetch(topic, session=(session, 4), partitions=False, forget=True)),
        ("an unknown session", client.fetch(topic, session=(123_456, 1), partitions=False)),
        ("closed", client.fetch(topic, session=(session, -1))),
        ("after closing", client.fetch(topic, session=(session, 5), partitions=False)),
    ]
    return steps


def _topic_configs(client: Client, topic: str) -> list[Step]:
    records = [(b"key-%d" % i, (b"value %d " % i) * 20) for i in range(200)]
    steps: list[Step] = []
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        name = f"{topic}-{codec}"
        client.create(name, {"compression.type": codec})
        steps += [
            (f"{codec}: produce", client.produce(name, batch(records))),
            (f"{codec}: stored", client.fetch(name)),
        ]
    client.create(f"{topic}-lat", {"message.timestamp.type": "LogAppendTime", "max.message.bytes": "200"})
    stamped = client.produce(f"{topic}-lat", batch([(b"k", b"v")]))
    steps += [
        ("LogAppendTime", _without_time(stamped)),
        ("over max.message.bytes", client.produce(f"{topic}-lat", batch([(b"k", b"v" * 300)]))),
    ]
    client.create(f"{topic}-compact", {"cleanup.policy": "compact", "compression.type": "lz4"})
    steps += [
        (
            "compacted, records without keys",
            client.produce(f"{topic}-compact", batch([(None, b"v"), (b"k", b"v"), (None, b"x")])),
        ),
        (
            "compacted, gzip to lz4",
            client.produce(f"{topic}-compact", batch([(b"a", b"v"), (b"k", b"v")], compression=1)),
        ),
        ("compacted, stored", client.fetch(f"{topic}-compact")),
        ("compacted, delete records", client.delete_records(f"{topic}-compact", 1)),
    ]
    client.create(f"{topic}-isr", {"min.insync.replicas": "4"})
    steps += [
        ("fewer in sync than min.insync.replicas", client.produce(f"{topic}-isr", batch([(b"k", b"v")]))),
        ("the same with acks 1", client.produce(f"{topic}-isr", batch([(b"k", b"v")]), acks=1)),
    ]
    return steps


SCENARIOS: dict[str, Scenario] = {
    "produce errors": _produce_errors,
    "idempotent producer": _idempotence,
    "fetch, list offsets and epochs": _fetching,
    "delete records": _deleting,
    "fetch sessions": _sessions,
    "topic configs: compression, LogAppendTime, compaction, min.insync.replicas": _topic_configs,
}


@pytest.fixture(scope="module")
def clients(sides: tuple[Any, Any]) -> Iterator[tuple[Client, Client]]:
    yield Client(sides[0]), Client(sides[1])


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_data_plane_answers_as_kafka(clients: tuple[Client, Client], scenario: str) -> None:
    topic = f"kcli-fidelity-data-{uuid.uuid4().hex[:8]}"
    NOW[0] = int(time.time() * 1000)
    answers = []
    for client in clients:
        try:
            client.create(topic)
            answers.append([(step, client.normalized(a)) for step, a in SCENARIOS[scenario](client, topic)])
        finally:
            for name in client.created:
                delete_topic(client.endpoint, name)
            client.created.clear()
    real, emulated = answers
    differing = [step for (step, r), (_, e) in zip(real, emulated, strict=True) if r != e]
    assert differing == [], "\n".join(
        f"{step}:\n  real    {r}\n  sandbox {e}"
        for (step, r), (_, e) in zip(real, emulated, strict=True)
        if r != e
    )


def _closed(address: str, key: int, version: int) -> bool:
    """Whether a node closes the connection on a request (header v2, empty body) instead of answering."""
    import socket
    import struct

    host, port = address.rsplit(":", 1)
    header = struct.pack(">hhih", key, version, 7, 5) + b"kcli-" + b"\x00"
    with socket.create_connection((host, int(port)), timeout=10) as conn:
        conn.sendall(struct.pack(">i", len(header)) + header)
        try:
            return conn.recv(4) == b""
        except ConnectionResetError:
            return True


@pytest.mark.parametrize(
    ("key", "version"), [(999, 0), (1, 99), (0, 99), (52, 0), (0, 2)],
    ids=["unknown key", "Fetch v99", "Produce v99", "Vote on a broker", "Produce v2 (advertised, refused)"],
)  # fmt: skip
def test_an_unserved_request_closes_the_connection_as_kafka(
    sides: tuple[Any, Any], key: int, version: int
) -> None:
    assert [_closed(side.brokers.bootstrap.split(",")[0], key, version) for side in sides] == [True, True]
