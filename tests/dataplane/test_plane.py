"""The data plane on its own: partition logs on disk in Kafka's layout, led and replicated, reopened."""

from __future__ import annotations

import asyncio
import os
import struct
from pathlib import Path

import pytest
from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.data.interface import Isolation, LogError, Marker
from kcli.sandbox.emulator.data.plane import DataPlane
from kcli.sandbox.emulator.data.records import encode_batch, headers_in, read_header, records_of
from tests.dataplane.cluster_view import View

NOW = 1_700_000_000_000


def batch(
    count: int,
    *,
    start: int = 0,
    pid: int = -1,
    epoch: int = -1,
    seq: int = -1,
    txn: bool = False,
    ts: int | None = None,
    codec: int = 0,
) -> bytes:
    return encode_batch(
        [(f"k{start + i}".encode(), f"value-{start + i}".encode() * 4) for i in range(count)],
        timestamp_ms=ts if ts is not None else _now(),
        producer_id=pid,
        producer_epoch=epoch,
        base_sequence=seq,
        transactional=txn,
        compression=codec,
    )


def _now() -> int:
    import time

    return int(time.time() * 1000)


def append(plane: DataPlane, data: bytes, topic: str = "t", partition: int = 0, **options: object) -> object:
    return asyncio.run(plane.append(topic, partition, data, **options))  # type: ignore[arg-type]


def values(data: bytes) -> list[tuple[int, bytes | None]]:
    return [(r.offset, r.value) for h in headers_in(data) for r in records_of(data, h)]


@pytest.fixture
def view(tmp_path: Path) -> View:
    view = View(tmp_path)
    view.create("t")
    return view


def opened(view: View) -> DataPlane:
    plane = DataPlane(view)
    plane.open(view.brokers)
    return plane


def test_appends_are_numbered_by_the_leader_and_read_back_whole(view: View) -> None:
    plane = opened(view)
    first = append(plane, batch(3))
    second = append(plane, batch(2, start=3, codec=4))
    assert (first.base_offset, first.last_offset, second.base_offset, second.last_offset) == (0, 2, 3, 4)  # type: ignore[attr-defined]
    result = plane.read("t", 0, 0, 1 << 20)
    assert [o for o, _ in values(result.records)] == [0, 1, 2, 3, 4]
    assert values(result.records)[4] == (4, b"value-4" * 4)
    assert (
        result.offsets.log_end_offset,
        result.offsets.high_watermark,
        result.offsets.last_stable_offset,
    ) == (5, 5, 5)
    assert [h.leader_epoch for h in headers_in(result.records)] == [0, 0]
    # one batch at least, even past max_bytes; whole batches only
    assert [h.base_offset for h in headers_in(plane.read("t", 0, 1, 1).records)] == [0]
    assert plane.read("t", 0, 5, 1 << 20).records == b""


def test_the_layout_is_kafkas_and_followers_hold_the_same_bytes(view: View) -> None:
    plane = opened(view)
    append(plane, batch(10))
    plane.close()
    topic_id = view.ids["t"]
    for broker in (1, 2, 3):
        directory = view.root / str(broker) / "t-0"
        names = sorted(p.name for p in directory.iterdir())
        assert names == [
            "00000000000000000000.index",
            "00000000000000000000.log",
            "00000000000000000000.timeindex",
            "leader-epoch-checkpoint",
            "partition.metadata",
        ]
        from kcli.metadata.uuids import kafka_uuid

        assert (
            directory / "partition.metadata"
        ).read_text() == f"version: 0\ntopic_id: {kafka_uuid(topic_id)}"
        assert (directory / "leader-epoch-checkpoint").read_text() == "0\n1\n0 0\n"
        for name in (
            "recovery-point-offset-checkpoint",
            "replication-offset-checkpoint",
            "log-start-offset-checkpoint",
        ):
            assert (view.root / str(broker) / name).read_text().startswith("0\n1\nt 0 ")
    logs = {(view.root / str(b) / "t-0" / "00000000000000000000.log").read_bytes() for b in (1, 2, 3)}
    assert len(logs) == 1


def test_reading_a_new_partition_touches_no_disk_and_its_first_write_lays_it_out(view: View) -> None:
    plane = opened(view)
    view.elect("t", 2)  # epoch 1, before any write
    offsets = plane.offsets("t", 0)
    assert (offsets.log_start_offset, offsets.log_end_offset, offsets.high_watermark) == (0, 0, 0)
    assert plane.end_offset_for_epoch("t", 0, 1) == (1, 0)
    assert plane.read("t", 0, 0, 1 << 20).records == b""
    plane.checkpoint()
    assert sorted(p.name for p in view.root.rglob("*")) == []
    append(plane, batch(2))
    leader = view.root / "2" / "t-0"
    assert (leader / "leader-epoch-checkpoint").read_text() == "0\n1\n1 0\n"
    assert (leader / "00000000000000000000.log").stat().st_size > 0
    plane.close()
    reopened = opened(view)
    assert reopened.offsets("t", 0).log_end_offset == 2
    assert reopened.end_offset_for_epoch("t", 0, 1) == (1, 2)


def test_small_segments_roll_and_every_offset_is_found(view: View) -> None:
    view.configs[("t", "segment.bytes")] = "2000"
    plane = opened(view)
    for start in range(0, 300, 10):
        append(plane, batch(10, start=start))
    segments = sorted((view.root / "1" / "t-0").glob("*.log"))
    assert len(segments) > 5
    assert all(os.path.getsize(s) <= 2000 for s in segments)
    index = (view.root / "1" / "t-0" / segments[1].name.replace(".log", ".index")).read_bytes()
    assert len(index) % 8 == 0
    for offset in range(300):
        (header,) = headers_in(plane.read("t", 0, offset, 1).records)
        assert header.base_offset <= offset <= header.last_offset


def test_reopening_keeps_everything_and_a_torn_tail_is_cut(view: View) -> None:
    plane = opened(view)
    append(plane, batch(5))
    append(plane, batch(5, start=5))
    plane.close()
    segment = view.root / "1" / "t-0" / "00000000000000000000.log"
    good = segment.read_bytes()
    segment.write_bytes(good + batch(3)[:40])  # a batch torn by kill -9
    again = opened(view)
    assert again.offsets("t", 0).log_end_offset == 10
    assert segment.read_bytes() == good
    assert any("bytes cut off" in line for line in again.replicas.recovered)
    append(again, batch(1, start=10))
    assert [o for o, _ in values(again.read("t", 0, 0, 1 << 20).records)] == list(range(11))


def test_a_damaged_batch_past_the_recovery_point_is_cut_with_what_follows(view: View) -> None:
    plane = opened(view)
    append(plane, batch(5))
    append(plane, batch(5, start=5))
    plane.close()
    (view.root / "1" / "recovery-point-offset-checkpoint").unlink()  # as after a crash: check everything
    segment = view.root / "1" / "t-0" / "00000000000000000000.log"
    data = bytearray(segment.read_bytes())
    second = read_header(data).size
    data[second + 70] ^= 0xFF
    segment.write_bytes(bytes(data))
    view.up = {1}
    view.part("t").isr = [1]
    again = opened(view)
    assert again.offsets("t", 0).log_end_offset == 5


def test_a_stopped_follower_catches_up_and_an_unclean_leader_wins(view: View) -> None:
    plane = opened(view)
    append(plane, batch(3))
    view.up.discard(3)
    view.part("t").isr = [1, 2]
    append(plane, batch(3, start=3))
    view.up.add(3)
    view.part("t").isr = [1, 2, 3]
    assert plane.offsets("t", 0).high_watermark == 6
    assert plane.replicas.get(view.ids["t"], 0, 3).end_offset == 6  # type: ignore[union-attr]
    # broker 3 stops again; 1 and 2 take two more batches, then only 3 is left and is elected uncleanly
    view.up.discard(3)
    view.part("t").isr = [1, 2]
    append(plane, batch(2, start=6))
    view.up = {3}
    view.elect("t", 3, isr=[3])
    append(plane, batch(1, start=100))
    assert [o for o, _ in values(plane.read("t", 0, 0, 1 << 20).records)] == [0, 1, 2, 3, 4, 5, 6]
    view.up = {1, 2, 3}
    view.part("t").isr = [3, 1, 2]
    plane.offsets("t", 0)  # the old leaders fetch and truncate the offsets the new leader never had
    old = plane.replicas.get(view.ids["t"], 0, 1)
    assert old is not None
    assert [v for _, v in values(old.read(0, 1 << 20, old.end_offset))][-1] == b"value-100" * 4
    assert old.end_offset == 7
    assert old.epochs == [(0, 0), (1, 6)]


def test_idempotent_producers_as_kafka(view: View) -> None:
    plane = opened(view)
    first = append(plane, batch(3, pid=7, epoch=0, seq=0))
    retry = append(plane, batch(3, pid=7, epoch=0, seq=0))
    assert retry.duplicate and retry.base_offset == first.base_offset == 0  # type: ignore[attr-defined]
    assert plane.offsets("t", 0).log_end_offset == 3
    with pytest.raises(LogError) as gap:
        append(plane, batch(1, pid=7, epoch=0, seq=5))
    assert gap.value.code == ErrorCode.out_of_order_sequence_number
    append(plane, batch(1, pid=7, epoch=0, seq=3))
    with pytest.raises(LogError) as new_epoch:
        append(plane, batch(1, pid=7, epoch=1, seq=4))
    assert new_epoch.value.code == ErrorCode.out_of_order_sequence_number
    append(plane, batch(1, pid=7, epoch=1, seq=0))
    with pytest.raises(LogError) as fenced:
        append(plane, batch(1, pid=7, epoch=0, seq=4))
    assert fenced.value.code == ErrorCode.invalid_producer_epoch
    # a producer the partition does not know may start anywhere (KIP-360)
    append(plane, batch(1, pid=8, epoch=3, seq=42))
    (seven, eight) = plane.producers("t", 0)
    assert (seven.producer_id, seven.producer_epoch, seven.last_sequence) == (7, 1, 0)
    assert (eight.producer_id, eight.last_sequence) == (8, 42)


def test_transactions_hold_the_last_stable_offset_and_aborts_are_listed(view: View) -> None:
    plane = opened(view)
    append(plane, batch(2))
    append(plane, batch(3, start=2, pid=9, epoch=0, seq=0, txn=True))
    append(plane, batch(1, start=5))
    offsets = plane.offsets("t", 0)
    assert (offsets.high_watermark, offsets.last_stable_offset) == (6, 2)
    committed = plane.read("t", 0, 0, 1 << 20, Isolation.READ_COMMITTED)
    assert [o for o, _ in values(committed.records)] == [0, 1]
    marker = asyncio.run(
        plane.write_marker("t", 0, producer_id=9, producer_epoch=1, marker=Marker.ABORT, coordinator_epoch=0)
    )
    assert marker == 6
    offsets = plane.offsets("t", 0)
    assert (offsets.high_watermark, offsets.last_stable_offset) == (7, 7)
    result = plane.read("t", 0, 2, 1 << 20, Isolation.READ_COMMITTED)
    assert [(a.producer_id, a.first_offset) for a in result.aborted] == [(9, 2)]
    txnindex = view.root / "1" / "t-0" / "00000000000000000000.txnindex"
    assert struct.unpack(">hqqqq", txnindex.read_bytes()) == (0, 9, 2, 6, 7)
    with pytest.raises(LogError) as stale:
        asyncio.run(
            plane.write_marker(
                "t", 0, producer_id=9, producer_epoch=0, marker=Marker.COMMIT, coordinator_epoch=0
            )
        )
    assert stale.value.code == ErrorCode.invalid_producer_epoch
    # the producer state and the aborted transaction are rebuilt on reopening
    plane.close()
    again = opened(view)
    assert [
        (a.producer_id, a.first_offset)
        for a in again.read("t", 0, 0, 1 << 20, Isolation.READ_COMMITTED).aborted
    ] == [(9, 2)]
    assert again.producers("t", 0)[0].producer_epoch == 1


def test_offsets_by_time_and_the_largest_timestamp(view: View) -> None:
    plane = opened(view)
    now = _now()
    for index, ts in enumerate((now - 5000, now - 3000, now - 4000, now - 1000)):
        append(plane, batch(2, start=2 * index, ts=ts))
    found = plane.offset_for_timestamp("t", 0, now - 3500)
    assert found is not None and (found.offset, found.timestamp_ms) == (2, now - 3000)
    assert plane.offset_for_timestamp("t", 0, now) is None
    top = plane.max_timestamp("t", 0)
    assert top is not None and (top.offset, top.timestamp_ms) == (6, now - 1000)


def test_delete_records_and_retention_move_the_log_start(view: View) -> None:
    view.configs[("t", "segment.bytes")] = "1000"
    plane = opened(view)
    old = _now() - 10 * 86_400_000
    for start in range(0, 100, 10):
        append(plane, batch(10, start=start, ts=old if start < 50 else None), **{"timeout_ms": 1000})
    low = asyncio.run(plane.delete_records("t", 0, 25))
    assert low == 25 == plane.offsets("t", 0).log_start_offset
    with pytest.raises(LogError) as outside:
        plane.read("t", 0, 10, 100)
    assert outside.value.code == ErrorCode.offset_out_of_range
    with pytest.raises(LogError) as beyond:
        asyncio.run(plane.delete_records("t", 0, 101))
    assert beyond.value.code == ErrorCode.offset_out_of_range
    assert plane.replicas.get(view.ids["t"], 0, 2).log_start_offset == 25  # type: ignore[union-attr]
    replica = plane.replicas.get(view.ids["t"], 0, 1)
    assert replica is not None
    deleted = replica.retain(now_ms=_now(), retention_ms=86_400_000, retention_bytes=-1, high_watermark=100)
    assert deleted > 0 and 40 <= replica.log_start_offset <= 50
    assert min(int(p.name[:20]) for p in replica.directory.glob("*.log")) == replica.segments[0].base


def test_client_batches_are_validated(view: View) -> None:
    view.configs[("t", "max.message.bytes")] = "300"
    plane = opened(view)
    damaged = bytearray(batch(1))
    damaged[-2] ^= 1
    cases = [
        (bytes(damaged), ErrorCode.corrupt_message),
        (batch(20), ErrorCode.message_too_large),
        (batch(1, pid=3, epoch=0, seq=-1), ErrorCode.invalid_record),
        (batch(1, ts=_now() + 7_200_000), ErrorCode.invalid_timestamp),
    ]
    for data, code in cases:
        with pytest.raises(LogError) as refused:
            append(plane, data)
        assert refused.value.code == code
    assert plane.offsets("t", 0).log_end_offset == 0


def test_the_topics_compression_rebuilds_a_batch(view: View) -> None:
    view.configs[("t", "compression.type")] = "zstd"
    plane = opened(view)
    append(plane, batch(3, codec=1))
    (header,) = headers_in(plane.read("t", 0, 0, 1 << 20).records)
    assert header.compression == 4


def test_acks_all_needs_min_insync_replicas(view: View) -> None:
    view.configs[("t", "min.insync.replicas")] = "2"
    plane = opened(view)
    view.up = {1}
    view.part("t").isr = [1]
    with pytest.raises(LogError) as refused:
        append(plane, batch(1), acks=-1)
    assert refused.value.code == ErrorCode.not_enough_replicas
    append(plane, batch(1), acks=1)
    assert plane.offsets("t", 0).high_watermark == 1


def test_a_follower_is_not_the_leader(view: View) -> None:
    plane = opened(view)
    with pytest.raises(LogError) as refused:
        plane.read("t", 0, 0, 100, node=2)
    assert refused.value.code == ErrorCode.not_leader_or_follower
    with pytest.raises(LogError) as unknown:
        plane.offsets("nope", 0)
    assert unknown.value.code == ErrorCode.unknown_topic_or_partition


def test_strays_are_deleted_on_open_and_deleted_topics_go(view: View) -> None:
    plane = opened(view)
    append(plane, batch(1))
    plane.close()
    del view.parts[(view.ids["t"], 0)]
    del view.ids["t"]
    again = opened(view)
    assert not (view.root / "1" / "t-0").exists()
    assert any("not a replica" in line for line in again.replicas.recovered)
    view.create("u")
    append(again, batch(1), topic="u")

    class Removed:
        __record_name__ = "RemoveTopicRecord"

        def __init__(self, topic_id: object) -> None:
            self.topic_id = topic_id

    again.published([Removed(view.ids["u"])])
    assert not (view.root / "2" / "u-0").exists()


def test_a_topic_made_again_under_its_name_has_only_its_own_configs(view: View) -> None:
    view.configs[("t", "max.message.bytes")] = "300"
    view.configs[("t", "segment.bytes")] = "1000"
    plane = opened(view)
    with pytest.raises(LogError) as refused:
        append(plane, batch(20))
    assert refused.value.code == ErrorCode.message_too_large
    append(plane, batch(1))

    class Removed:
        __record_name__ = "RemoveTopicRecord"

        def __init__(self, topic_id: object) -> None:
            self.topic_id = topic_id

    plane.published([Removed(view.ids["t"])])
    del view.parts[(view.ids["t"], 0)]
    view.configs.clear()
    view.create("t")
    append(plane, batch(20))
    append(plane, batch(20, start=20))
    log = plane.replicas.get(view.ids["t"], 0, 1)
    assert log is not None
    assert len(log.segments) == 1  # the old topic's segment.bytes=1000 would have rolled


def test_a_reassignment_target_copies_real_batches_a_budget_at_a_time(view: View) -> None:
    plane = opened(view)
    for start in range(0, 50, 10):
        append(plane, batch(10, start=start))
    topic_id = view.ids["t"]
    part = view.part("t")
    part.replicas, part.adding_replicas = [1, 2, 3, 4], [4]
    view.brokers.append(4)
    view.up.add(4)
    append(plane, batch(10, start=50))  # the adding replica is not followed at once
    copies = plane.copies
    assert not copies.caught_up(topic_id, 0, 4)
    first = copies.copy_to(topic_id, 0, 4, 1)  # one batch at least
    assert 0 < first < plane.replicas.replica_size(topic_id, 0, 1)
    while not copies.caught_up(topic_id, 0, 4):
        copies.copy_to(topic_id, 0, 4, 1000)
    logs = {(view.root / str(b) / "t-0" / "00000000000000000000.log").read_bytes() for b in (1, 4)}
    assert len(logs) == 1
    assert copies.lag(topic_id, 0, 4) == 0


def test_a_future_replica_copies_then_replaces_the_current_one(view: View, tmp_path: Path) -> None:
    plane = opened(view)
    for start in range(0, 30, 10):
        append(plane, batch(10, start=start))
    topic_id = view.ids["t"]
    target = tmp_path / "other-dir"
    target.mkdir()
    copies = plane.copies
    copies.copy_future(topic_id, 0, 1, target, 1)
    (future,) = list(target.iterdir())
    assert future.name.startswith("t-0.") and future.name.endswith("-future")
    assert copies.future_size(topic_id, 0, 1) is not None
    while not copies.future_caught_up(topic_id, 0, 1):
        copies.copy_future(topic_id, 0, 1, target, 1000)
    size, lag = copies.future_size(topic_id, 0, 1)  # type: ignore[misc]
    assert lag == 0 and size == plane.replicas.replica_size(topic_id, 0, 2)
    assert copies.promote(topic_id, 0, 1) == target / "t-0"
    assert not (view.root / "1" / "t-0").exists()
    # the promoted replica serves at once, from its new dir
    assert [o for o, _ in values(plane.read("t", 0, 0, 1 << 20).records)] == list(range(30))
    append(plane, batch(1, start=30))
    assert (target / "t-0" / "00000000000000000000.log").stat().st_size == plane.replicas.replica_size(
        topic_id, 0, 2
    )
