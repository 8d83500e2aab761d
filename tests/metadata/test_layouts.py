"""The layout readers and the bulk runs agree with kio's reader and the general decoder, on every
version of PartitionRecord and PartitionChangeRecord, every batch size (offset deltas of 1, 2 and 3
bytes, past the cached headers), compressed or not; and they are as strict."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest
from crc32c import crc32c
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kio.static.primitive import i8, i32

from kcli.metadata import records as r
from kcli.metadata.batch import Compression, encode_batch
from kcli.metadata.codec import encode_body, encode_metadata_record
from kcli.metadata.dump import DumpSink, entry_json, entry_text
from kcli.metadata.fastdecode import values_reader
from kcli.metadata.image import ImageBuilder, build_image
from kcli.metadata.image_model import MetadataImage, PartitionState
from kcli.metadata.layouts import has_layouts, layout_reader
from kcli.metadata.read_model import DecodeError, ReadStats
from kcli.metadata.reader import FileReader

LAYOUT_TYPES = [(key, cls) for key, cls in sorted(r.METADATA_RECORD_CLASSES.items()) if has_layouts(*key)]


def test_partition_records_and_changes_of_every_version_have_layouts() -> None:
    names = {cls.__name__ for _key, cls in LAYOUT_TYPES}
    assert {f"PartitionRecordV{v}" for v in range(3)} | {
        f"PartitionChangeRecordV{v}" for v in range(3)
    } <= names


@pytest.mark.parametrize(
    ("key", "cls"), LAYOUT_TYPES, ids=lambda v: v.__name__ if isinstance(v, type) else str(v)
)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_layout_reader_equals_the_compiled_reader(
    key: tuple[int, int], cls: type, data: st.DataObject
) -> None:
    body = encode_body(data.draw(st.from_type(cls)))
    read = layout_reader(*key)
    assert read is not None
    values = read(body + b"\x07", 0, len(body))
    expected, _size = values_reader(*key)(body, 0)  # type: ignore[misc]
    if values is None:  # a form the layouts leave to the general readers (e.g. 127+ items)
        return
    raw_to_uuid = [
        (uuid.UUID(bytes=value) if value != bytes(16) else None) if field_is_uuid else value
        for value, field_is_uuid in zip(values, _uuid_fields(cls), strict=True)
    ]
    assert tuple(raw_to_uuid) == expected


def _uuid_fields(cls: type) -> list[bool]:
    from kcli.metadata.fastdecode import describe_fields

    return [f.kafka_type == "uuid" and not f.array for f in describe_fields(cls) or []]


# -- big batches: the runs against the general decoder -------------------------------------------------

TOPIC = uuid.UUID(int=0xC0FFEE)
DIRS = [uuid.UUID(int=0xD1 + n) for n in range(4)]


def _partition(version: int, partition: int) -> Any:
    replicas = tuple(i32(b) for b in (1 + partition % 4, 1 + (partition + 1) % 4, 1 + (partition + 2) % 4))
    isr = replicas[:2] if partition % 7 == 3 else replicas  # another layout now and then
    common = {
        "partition_id": i32(partition), "topic_id": TOPIC, "replicas": replicas, "isr": isr,
        "removing_replicas": (), "adding_replicas": (), "leader": replicas[0],
        "leader_epoch": i32(partition % 5), "partition_epoch": i32(partition % 9),
    }  # fmt: skip
    if version == 0:
        return r.PartitionRecordV0(**common)
    directories = tuple(DIRS[b - 1] for b in replicas)
    if version == 1:
        return r.PartitionRecordV1(**common, directories=directories)
    return r.PartitionRecordV2(**common, directories=directories)


def _change(version: int, partition: int) -> Any:
    leader = i32(1 + partition % 3) if partition % 2 else i32(-2)
    isr = (i32(1 + partition % 3), i32(1 + (partition + 1) % 3))
    if version == 0:
        return r.PartitionChangeRecordV0(partition_id=i32(partition), topic_id=TOPIC, leader=leader, isr=isr)
    if version == 1:
        return r.PartitionChangeRecordV1(partition_id=i32(partition), topic_id=TOPIC, leader=leader, isr=isr)
    return r.PartitionChangeRecordV2(
        partition_id=i32(partition),
        topic_id=TOPIC,
        leader=leader,
        isr=isr,
        leader_recovery_state=i8(partition % 2),
    )


def _log(directory: Path, version: int, partitions: int, compression: Compression = Compression.NONE) -> Path:
    """One topic of `partitions` partitions in one batch, then a batch of changes to all of them."""
    log_dir = directory / "__cluster_metadata-0"
    log_dir.mkdir(parents=True, exist_ok=True)
    creation = [encode_metadata_record(r.TopicRecord(name="big", topic_id=TOPIC))]
    creation += [encode_metadata_record(_partition(version, p)) for p in range(partitions)]
    changes = [encode_metadata_record(_change(version, p)) for p in range(partitions)]
    segment = log_dir / "00000000000000000000.log"
    segment.write_bytes(
        encode_batch(
            [(None, v) for v in creation], base_offset=0, epoch=1, timestamp_ms=10, compression=compression
        )
        + encode_batch(
            [(None, v) for v in changes],
            base_offset=len(creation),
            epoch=1,
            timestamp_ms=20,
            compression=compression,
        )
    )
    return segment


def _plain_image(path: Path) -> MetadataImage:
    """The image through `ImageBuilder.apply` on the general decoder's entries (no fast path)."""
    builder = ImageBuilder(MetadataImage())
    for entry in FileReader(path=path, stats=ReadStats(), values=frozenset({2, 3, 4, 5, 12})).entries():
        builder.apply(entry)
    return builder.finish()


def _partitions(image: MetadataImage) -> dict[int, dict[str, Any]]:
    topic = image.topics[TOPIC]
    return {pid: PartitionState.of(values)._asdict() for pid, values in topic.partitions.items()}


@pytest.mark.parametrize("version", [0, 1, 2])
@pytest.mark.parametrize("partitions", [50, 9000])  # offset deltas of 1 and 2 bytes; 2 and 3 bytes
def test_big_batches_replay_and_dump_as_the_general_decoder_does(
    tmp_path: Path, version: int, partitions: int
) -> None:
    segment = _log(tmp_path, version, partitions)
    image = build_image(tmp_path)
    assert _partitions(image) == _partitions(_plain_image(segment))
    assert image.stats.records == 2 * partitions + 1
    assert image.provenance.offset == 2 * partitions
    for as_json, render in ((True, entry_json), (False, entry_text)):
        lines: list[str] = []
        FileReader(path=segment, stats=ReadStats()).scan(DumpSink(lines, lambda: None, json=as_json))
        assert lines == [render(entry) for entry in FileReader(path=segment, stats=ReadStats()).entries()]


def test_a_batch_past_the_cached_record_headers_frames_the_rest_generally(tmp_path: Path) -> None:
    from kcli.metadata.framing import _HEADER_CACHE_LIMIT

    count = _HEADER_CACHE_LIMIT + 300
    noop = encode_metadata_record(r.NoOpRecord())
    config = encode_metadata_record(
        r.ConfigRecord(resource_type=i8(4), resource_name="", name="a", value="b")
    )
    values = [noop] * (count - 1) + [config]
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(encode_batch([(None, v) for v in values], base_offset=0, epoch=1, timestamp_ms=1))
    image = build_image(path)
    assert image.stats.records == count and image.configs == {(4, ""): {"a": "b"}}
    assert image.provenance.offset == count - 1


@pytest.mark.parametrize(
    "compression", [Compression.GZIP, Compression.SNAPPY, Compression.LZ4, Compression.ZSTD]
)
def test_compressed_batches_take_the_same_path(tmp_path: Path, compression: Compression) -> None:
    segment = _log(tmp_path, 2, 300, compression)
    assert _partitions(build_image(tmp_path)) == _partitions(_plain_image(segment))


def _rewrite_crc(data: bytearray, batch_start: int) -> None:
    length = int.from_bytes(data[batch_start + 8 : batch_start + 12], "big")
    end = batch_start + 12 + length
    data[batch_start + 17 : batch_start + 21] = crc32c(bytes(data[batch_start + 21 : end])).to_bytes(4, "big")


def _record_start(data: bytes, batch_start: int, index: int) -> int:
    """Where record `index` of the batch at `batch_start` starts (uncompressed)."""
    from kcli.metadata.framing import frame_record, read_batch

    batch, _size = read_batch(data, batch_start)
    pos = batch_start + 61
    for at in range(index):
        *_rest, pos = frame_record(data, pos, batch_start + batch.size, at, batch.record_count, 0)
    return pos


@pytest.mark.parametrize("skip", [False, True])
def test_a_wrong_offset_delta_inside_a_run_stops_the_batch_there(tmp_path: Path, skip: bool) -> None:
    segment = _log(tmp_path, 2, 120)
    data = bytearray(segment.read_bytes())
    bad = 77  # a record well inside a run of PartitionRecords (index 77: a 2-byte offset delta)
    start = _record_start(bytes(data), 0, bad)
    delta_at = start + 2 + 2  # 2-byte record length, attributes, timestamp delta
    assert data[delta_at : delta_at + 2] == bytes(((2 * bad & 0x7F) | 0x80, 2 * bad >> 7))
    data[delta_at] ^= 0x02  # offset delta 75
    _rewrite_crc(data, 0)
    segment.write_bytes(bytes(data))
    message = f"record offset delta {bad - 1}, expected {bad} at byte {start}"
    if not skip:
        with pytest.raises(DecodeError) as error:
            build_image(tmp_path)
        assert message in error.value.message and error.value.last_good_offset == bad - 1
        return
    image = build_image(tmp_path, skip_corrupt=True)
    # the partitions before the bad record (record 0 is the TopicRecord) were applied, not after
    assert set(image.topics[TOPIC].partitions) == set(range(bad - 1))
    assert image.stats.skipped_batches == 1 and message in image.stats.problems[0]


def test_a_wrong_length_byte_inside_a_run_is_decided_by_the_general_decoder(tmp_path: Path) -> None:
    segment = _log(tmp_path, 1, 120)
    data = bytearray(segment.read_bytes())
    start = _record_start(bytes(data), 0, 40)
    # PartitionRecord v1 of partition 39: its replicas count byte comes right after the two ids
    value = data.index(b"\x01\x03\x01", start)
    assert value < start + 12 and data[value + 3 + 20] == 4
    data[value + 3 + 20] = 5  # four replicas: the body no longer adds up
    _rewrite_crc(data, 0)
    segment.write_bytes(bytes(data))
    with pytest.raises(DecodeError) as fast:
        build_image(tmp_path)
    with pytest.raises(DecodeError) as plain:
        _plain_image(segment)
    assert fast.value.message == plain.value.message
    assert (
        "offset 40: cannot decode PartitionRecord v1" in fast.value.message
        or "offset 40:" in fast.value.message
    )
