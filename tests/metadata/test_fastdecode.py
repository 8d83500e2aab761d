"""The compiled record readers and the inline image replay agree with kio's reader and the plain replay."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kio.static.primitive import i8, i16, i32

from kcli.metadata import records as r
from kcli.metadata.batch import Compression, encode_batch
from kcli.metadata.codec import encode_body, metadata_body_reader
from kcli.metadata.directory import find_log_directory, read_sources
from kcli.metadata.fastdecode import values_of, values_reader
from kcli.metadata.image import ImageBuilder, build_image
from kcli.metadata.image_model import MetadataImage, PartitionState
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.writer import MetadataLogWriter
from tests.conftest import KRAFT_FIXTURES

FIXTURES = KRAFT_FIXTURES
FLAT = [(key, cls) for key, cls in sorted(r.METADATA_RECORD_CLASSES.items()) if values_reader(*key)]
ALL_KEYS = frozenset(key for key, _version in r.METADATA_RECORD_CLASSES)


def test_only_classes_with_nested_structs_or_no_flexible_encoding_lack_a_compiled_reader() -> None:
    missing = {cls.__name__ for key, cls in r.METADATA_RECORD_CLASSES.items() if values_reader(*key) is None}
    assert missing == {
        "RegisterBrokerRecordV0", "RegisterBrokerRecordV1", "RegisterBrokerRecordV2", "RegisterBrokerRecordV3",
        "RegisterBrokerRecordV4", "ClientQuotaRecordV0", "RegisterControllerRecordV0",
        "AccessControlRecordV0",  # its schema has no flexibleVersions
    }  # fmt: skip
    assert values_reader(99, 0) is None


@pytest.mark.parametrize(("key", "cls"), FLAT, ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_compiled_reader_equals_kio(key: tuple[int, int], cls: type, data: st.DataObject) -> None:
    record = data.draw(st.from_type(cls))
    body = encode_body(record)
    expected, expected_size = metadata_body_reader(*key)(body, 0)  # type: ignore[misc]
    reader = values_reader(*key)
    assert reader is not None
    values, size = reader(body + b"\xff", 0)  # trailing bytes belong to the next record
    assert size == expected_size == len(body)
    assert values == values_of(expected)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_compiled_reader_never_accepts_what_kio_rejects(data: st.DataObject) -> None:
    key, cls = data.draw(st.sampled_from(FLAT))
    body = bytearray(encode_body(data.draw(st.from_type(cls))))
    for _ in range(data.draw(st.integers(0, 3))):
        if body:
            body[data.draw(st.integers(0, len(body) - 1))] = data.draw(st.integers(0, 255))
    mutated = bytes(body[: data.draw(st.integers(0, len(body)))]) + data.draw(st.binary(max_size=6))
    reader = values_reader(*key)
    assert reader is not None
    try:
        values, size = reader(mutated, 0)
    except Exception:
        return  # kio decides (the reader falls back to it)
    if size != len(mutated):
        return  # the caller rejects a size that does not fill the record
    expected, expected_size = metadata_body_reader(*key)(mutated, 0)  # type: ignore[misc]
    assert expected_size == size
    assert values == values_of(expected)


def test_tags_out_of_order_fall_back_to_kio() -> None:
    record = r.PartitionChangeRecordV0(
        partition_id=i32(1), topic_id=uuid.UUID(int=7), leader=i32(3), isr=(i32(3),)
    )
    body = encode_body(record)
    isr_tag, leader_tag = body[21:28], body[28:]
    assert isr_tag[0] == 0 and leader_tag[0] == 1
    swapped = body[:21] + leader_tag + isr_tag
    reader = values_reader(5, 0)
    assert reader is not None
    with pytest.raises(ValueError, match="out of order"):
        reader(swapped, 0)
    data = encode_batch([(None, b"\x01\x05\x00" + swapped)], base_offset=0, epoch=1, timestamp_ms=1)
    plain = list(FileReader(path=Path("x.log"), stats=ReadStats()).entries(data))
    fast = list(FileReader(path=Path("x.log"), stats=ReadStats(), values=ALL_KEYS).entries(data))
    assert plain[0].record == record  # kio takes tags in any order
    assert fast[0].record == values_of(record)


def _data_files() -> list[Path]:
    return sorted(
        p for p in FIXTURES.rglob("*") if p.is_file() and (p.suffix == ".log" or ".checkpoint" in p.name)
    )


@pytest.mark.parametrize("path", _data_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_values_equal_kio_records(path: Path) -> None:
    plain = list(FileReader(path=path, stats=ReadStats(), skip_corrupt=True).entries())
    fast = list(FileReader(path=path, stats=ReadStats(), skip_corrupt=True, values=ALL_KEYS).entries())
    assert [e[:6] for e in fast] == [e[:6] for e in plain]
    for quick, slow in zip(fast, plain, strict=True):
        flat = not slow.control and values_reader(slow.key, slow.version) is not None
        if flat and type(slow.record) is r.METADATA_RECORD_CLASSES[(slow.key, slow.version)]:
            assert quick.record == values_of(slow.record)
        else:  # kio's dataclass, RawRecord or None
            assert quick.record == slow.record


# -- the inline replay (build_image) against the plain one (entries() -> ImageBuilder.apply) ----------


def _plain_image(path: Path, skip_corrupt: bool = False) -> MetadataImage:
    directory = find_log_directory(path)
    stats = ReadStats()
    builder = ImageBuilder(MetadataImage(stats=stats, directory=directory))
    for source, reader in read_sources(directory.sources, stats=stats, skip_corrupt=skip_corrupt):
        for entry in reader.entries():
            if source.kind == "segment":
                builder.apply(entry)
            else:
                builder.apply_snapshot_record(entry)
        if source.kind == "snapshot":
            builder.image.provenance.offset = source.offset - 1
            builder.image.provenance.epoch = source.epoch
            builder.image.provenance.timestamp = reader.last_timestamp
    return builder.finish()


def _partition(values: tuple[Any, ...]) -> dict[str, Any]:
    return PartitionState.of(values)._asdict()


def _summary(image: MetadataImage) -> dict[str, Any]:
    return {
        "topics": {
            topic.name: (topic.topic_id, {pid: _partition(p) for pid, p in topic.partitions.items()})
            for topic in image.topics.values()
        },
        "names": image.topic_names,
        "configs": image.configs,
        "features": image.features,
        "brokers": {
            bid: (b.record, b.fenced, b.in_controlled_shutdown, b.log_dirs)
            for bid, b in image.brokers.items()
        },
        "provenance": (image.provenance.offset, image.provenance.epoch, image.provenance.timestamp),
        "records": image.stats.records,
        "skipped": (image.stats.skipped_records, image.stats.skipped_batches, image.stats.skipped_bytes),
        "unapplied": image.unapplied_records,
        "quorum": image.quorum,
    }


def _log_dirs() -> list[Path]:
    return sorted({p.parent.parent for p in FIXTURES.rglob("__cluster_metadata-0/*.log")})


@pytest.mark.parametrize("root", _log_dirs(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_image_equals_plain_replay(root: Path) -> None:
    assert _summary(build_image(root, skip_corrupt=True)) == _summary(_plain_image(root, skip_corrupt=True))


def _changes(topic_id: uuid.UUID, count: int) -> list[Any]:
    out: list[Any] = []
    for step in range(count):
        leader = i32(step % 3 + 1)
        kind = step % 4
        if kind == 0:
            out.append(
                r.PartitionChangeRecordV0(
                    partition_id=i32(step % 2), topic_id=topic_id, leader=leader, isr=(leader,)
                )
            )
        elif kind == 1:
            out.append(r.PartitionChangeRecordV1(
                partition_id=i32(step % 2), topic_id=topic_id, replicas=(i32(1), i32(2), i32(3)),
                directories=(uuid.UUID(int=5), uuid.UUID(int=6), uuid.UUID(int=7)),
            ))  # fmt: skip
        elif kind == 2:
            out.append(r.PartitionChangeRecordV2(
                partition_id=i32(step % 2), topic_id=topic_id, eligible_leader_replicas=(i32(2),),
                last_known_elr=(), leader_recovery_state=i8(1),
            ))  # fmt: skip
        else:
            out.append(r.PartitionChangeRecordV0(partition_id=i32(9), topic_id=topic_id, isr=(leader,)))
    return out


@settings(
    max_examples=15,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    changes=st.integers(0, 120),
    compression=st.sampled_from(list(Compression)),
    transaction=st.booleans(),
    corrupt=st.booleans(),
    recreate=st.booleans(),
)
def test_generated_image_equals_plain_replay(
    tmp_path_factory: pytest.TempPathFactory,
    changes: int,
    compression: Compression,
    transaction: bool,
    corrupt: bool,
    recreate: bool,
) -> None:
    directory = tmp_path_factory.mktemp("log")
    orders = uuid.UUID(int=0xABC)
    with MetadataLogWriter(directory, node_id=1, cluster_id="c1", segment_bytes=8192) as log:
        log.append(
            [r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))], epoch=1, timestamp_ms=1
        )
        first = [r.TopicRecord(name="orders", topic_id=orders)] + [
            r.PartitionRecordV0(
                partition_id=i32(p), topic_id=orders, replicas=(i32(1), i32(2)), isr=(i32(1),),
                removing_replicas=(), adding_replicas=(), leader=i32(1), leader_epoch=i32(0), partition_epoch=i32(0),
            )
            for p in range(2)
        ]  # fmt: skip
        log.append(first, epoch=1, timestamp_ms=2, compression=compression)  # type: ignore[arg-type]
        body = _changes(orders, changes)
        if transaction:
            body = [r.BeginTransactionRecord(name="t"), *body[:5], r.EndTransactionRecord(), *body[5:]]
        for start in range(0, len(body), 7):
            log.append(body[start : start + 7], epoch=2, timestamp_ms=3 + start)
        if recreate:  # the same id again: partitions cached by the replay must start over
            again = [
                r.RemoveTopicRecord(topic_id=orders),
                r.TopicRecord(name="orders", topic_id=orders),
                first[2],
            ]
            log.append(again, epoch=2, timestamp_ms=300)  # type: ignore[arg-type]
            log.append(_changes(orders, 9), epoch=2, timestamp_ms=301)
        log.append([r.NoOpRecord()], epoch=2, timestamp_ms=500)
    if corrupt and changes > 3:
        # the newest segment holding a record of the topic (segments roll at 8 KiB: the last one
        # may hold only the NoOp)
        segment = next(
            path
            for path in sorted((directory / "__cluster_metadata-0").glob("*.log"), reverse=True)
            if orders.bytes in path.read_bytes()
        )
        data = bytearray(segment.read_bytes())
        # Break one PartitionChangeRecord body inside a batch, then fix the batch CRC.
        from crc32c import crc32c

        position = data.rfind(orders.bytes) - 4  # the partition id before the last topic id
        data[position + 20] = 0x7F  # an absurd tagged-field count
        batch_start = 0
        while True:
            length = int.from_bytes(data[batch_start + 8 : batch_start + 12], "big")
            if batch_start + 12 + length > position:
                break
            batch_start += 12 + length
        data[batch_start + 17 : batch_start + 21] = crc32c(
            bytes(data[batch_start + 21 : batch_start + 12 + length])
        ).to_bytes(4, "big")
        segment.write_bytes(bytes(data))
    assert _summary(build_image(directory, skip_corrupt=True)) == _summary(
        _plain_image(directory, skip_corrupt=True)
    )
    if corrupt and changes > 3:
        from kcli.metadata.read_model import DecodeError

        with pytest.raises(DecodeError) as fast_error:
            build_image(directory)
        with pytest.raises(DecodeError) as plain_error:
            _plain_image(directory)
        assert fast_error.value.message == plain_error.value.message
        assert "PartitionChangeRecord" in fast_error.value.message


# -- the JSON dump's fast path against entry_json ------------------------------------------------------


@pytest.mark.parametrize(("key", "cls"), FLAT, ids=lambda v: v.__name__ if isinstance(v, type) else str(v))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_json_formatter_equals_the_converter(key: tuple[int, int], cls: type, data: st.DataObject) -> None:
    from kcli.metadata.dump import _encode, converter, json_formatter

    body = encode_body(data.draw(st.from_type(cls)))
    record, _size = metadata_body_reader(*key)(body, 0)  # type: ignore[misc]
    render = json_formatter(*key)
    assert render is not None
    assert render(values_of(record)) == _encode(converter(cls)(record))


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
@pytest.mark.parametrize("root", _log_dirs(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_fixture_dump_equals_entry_rendering(root: Path, as_json: bool) -> None:
    from kcli.metadata.directory import full_log_sources
    from kcli.metadata.dump import DumpSink, entry_json, entry_text

    render = entry_json if as_json else entry_text
    directory = find_log_directory(root)
    plain: list[str] = []
    for _source, reader in read_sources(full_log_sources(directory), stats=ReadStats(), skip_corrupt=True):
        plain += [render(entry) for entry in reader.entries()]
    fast: list[str] = []
    flushed: list[str] = []

    def flush() -> None:
        flushed.extend(fast)
        fast.clear()

    stats = ReadStats()
    for _source, reader in read_sources(full_log_sources(directory), stats=stats, skip_corrupt=True):
        reader.scan(DumpSink(fast, flush, json=as_json))
    assert flushed + fast == plain
    assert stats.records == len(plain)


def test_noop_batches_read_the_same_on_the_fast_and_the_general_path() -> None:
    from crc32c import crc32c

    from kcli.metadata.codec import encode_metadata_record

    def noop_batch(offset: int, producer_id: bytes) -> bytes:
        data = bytearray(
            encode_batch(
                [(None, encode_metadata_record(r.NoOpRecord()))],
                base_offset=offset,
                epoch=3,
                timestamp_ms=7 + offset,
            )
        )
        data[43:51] = producer_id  # -1 is KRaft's layout (fast path); anything else takes the general path
        data[17:21] = crc32c(bytes(data[21:])).to_bytes(4, "big")
        return bytes(data)

    for skip_noop in (False, True):
        results = []
        for producer_id in (b"\xff" * 8, (5).to_bytes(8, "big")):
            data = b"".join(noop_batch(offset, producer_id) for offset in range(4))
            stats = ReadStats()
            reader = FileReader(path=Path("x.log"), stats=stats, skip_noop=skip_noop, min_offset=1)
            entries = list(reader.entries(data))
            results.append(
                (entries, stats.records, stats.batches, reader.last_good_offset, reader.last_timestamp)
            )
        assert results[0] == results[1]
        assert results[0][1:] == (3, 4, 3, 10)
        assert [e.offset for e in results[0][0]] == ([] if skip_noop else [1, 2, 3])


@pytest.mark.parametrize("skip", [False, True])
def test_bad_crc_inside_a_run_of_noop_batches(skip: bool) -> None:
    from kcli.metadata.codec import encode_metadata_record
    from kcli.metadata.read_model import DecodeError

    batches = [
        encode_batch(
            [(None, encode_metadata_record(r.NoOpRecord()))], base_offset=offset, epoch=1, timestamp_ms=offset
        )
        for offset in range(10)
    ]
    data = bytearray(b"".join(batches))
    data[72 * 6 + 30] ^= 0x01  # the base timestamp of the batch at offset 6
    reader = FileReader(path=Path("x.log"), stats=ReadStats(), skip_corrupt=skip, min_offset=2)
    if not skip:
        with pytest.raises(DecodeError) as error:
            list(reader.entries(bytes(data)))
        assert error.value.position == 72 * 6 and error.value.last_good_offset == 5
        assert "CRC-32C mismatch" in error.value.message
        return
    offsets = [entry.offset for entry in reader.entries(bytes(data))]
    assert offsets == [2, 3, 4, 5, 7, 8, 9]
    assert (reader.stats.batches, reader.stats.skipped_batches, reader.stats.records) == (9, 1, 7)
    assert (reader.last_good_offset, reader.last_timestamp) == (9, 9)


def test_json_dump_leaves_out_tagged_fields_at_their_default() -> None:
    """Kafka's generated JsonConverter writes a tagged field only when it differs from its default
    (as the wire format leaves it out): a leader change alone prints no isr, replicas, ... keys."""
    from kcli.metadata.dump import _encode, converter, json_formatter

    cls: Any = r.METADATA_RECORD_CLASSES[(5, 0)]
    topic = uuid.UUID(int=7)
    alone = cls(partition_id=i32(3), topic_id=topic, leader=i32(2))
    spelled = '{"partitionId":3,"topicId":"AAAAAAAAAAAAAAAAAAAABw","leader":2}'
    every = cls(partition_id=i32(3), topic_id=topic, isr=(i32(1),), leader=i32(-2), replicas=(i32(1),),
                removing_replicas=(), adding_replicas=(), leader_recovery_state=i8(1))  # fmt: skip
    every_spelled = (
        '{"partitionId":3,"topicId":"AAAAAAAAAAAAAAAAAAAABw","isr":[1],"replicas":[1],'
        '"removingReplicas":[],"addingReplicas":[],"leaderRecoveryState":1}'
    )
    render = json_formatter(5, 0)
    assert render is not None
    for record, text in ((alone, spelled), (every, every_spelled)):
        assert _encode(converter(cls)(record)) == text
        body = encode_body(record)
        decoded, _size = metadata_body_reader(5, 0)(body, 0)  # type: ignore[misc]
        assert render(values_of(decoded)) == text
