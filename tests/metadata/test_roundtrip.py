"""Writer -> reader round trips: every record class and version, batches, segments, snapshots."""

from __future__ import annotations

import uuid
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from kio.static.primitive import i8, i16, i32

from kcli.metadata import records as r
from kcli.metadata.batch import Compression
from kcli.metadata.codec import encode_body, encode_metadata_record
from kcli.metadata.directory import find_log_directory, read_sources
from kcli.metadata.framing import decode_value
from kcli.metadata.image import build_image
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.writer import MetadataLogWriter

ALL_CLASSES = sorted(r.METADATA_RECORD_CLASSES.items()) + sorted(r.CONTROL_RECORD_CLASSES.items())


@pytest.mark.parametrize(
    ("key", "cls"), ALL_CLASSES, ids=lambda v: v.__name__ if isinstance(v, type) else str(v)
)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_record_class_round_trips_through_its_codec(
    key: tuple[int, int], cls: type, data: st.DataObject
) -> None:
    record = data.draw(st.from_type(cls))
    body = encode_body(record)
    control = cls in r.CONTROL_TYPES
    decoded = decode_value(key[0], key[1], control, body, 0, len(body))
    assert decoded == record


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    records=st.lists(
        st.sampled_from([cls for (_key, cls) in sorted(r.METADATA_RECORD_CLASSES.items())]).flatmap(
            st.from_type
        ),
        min_size=1,
        max_size=20,
    ),
    compression=st.sampled_from(list(Compression)),
    epoch=st.integers(min_value=1, max_value=2**31 - 1),
)
def test_log_round_trip(
    tmp_path_factory: pytest.TempPathFactory, records: list, compression: Compression, epoch: int
) -> None:
    directory = tmp_path_factory.mktemp("log")
    split = len(records) // 2 + 1
    with MetadataLogWriter(directory, node_id=1, cluster_id="c1", segment_bytes=4096) as log:
        assert (
            log.append(records[:split], epoch=epoch, timestamp_ms=1000, compression=compression) == split - 1
        )
        if records[split:]:
            log.append(records[split:], epoch=epoch, timestamp_ms=2000)
    stats = ReadStats()
    found = find_log_directory(directory)
    entries = [e for _source, reader in read_sources(found.sources, stats=stats) for e in reader.entries()]
    assert [e.record for e in entries] == records
    assert [e.offset for e in entries] == list(range(len(entries)))
    assert {e.epoch for e in entries} == {epoch}
    assert not stats.skipped


def _partition(topic_id: uuid.UUID, partition: int) -> r.PartitionRecordV0:
    return r.PartitionRecordV0(
        partition_id=i32(partition),
        topic_id=topic_id,
        replicas=(i32(1), i32(2)),
        isr=(i32(1), i32(2)),
        removing_replicas=(),
        adding_replicas=(),
        leader=i32(1),
        leader_epoch=i32(0),
        partition_epoch=i32(0),
    )


def test_side_files_snapshot_and_resume(tmp_path: Path) -> None:
    topic_id = uuid.uuid4()
    leader_change = r.LeaderChangeMessage(
        version=i16(0), leader_id=i32(1), voters=(r.Voter(voter_id=i32(1)),), granting_voters=()
    )
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.write_bootstrap_checkpoint([r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))])
        log.append_control([leader_change], epoch=1, timestamp_ms=10)
        log.append(
            [r.TopicRecord(name="orders", topic_id=topic_id), _partition(topic_id, 0)],
            epoch=1,
            timestamp_ms=20,
        )
        log.write_quorum_state(leader_id=1, leader_epoch=1, voters=[1])
    # 249 bytes is what Kafka 3.3-3.9 writes for one FeatureLevelRecord (metadata-log.md 1.2).
    assert (tmp_path / "bootstrap.checkpoint").stat().st_size == 249
    meta = (tmp_path / "meta.properties").read_text()
    assert "node.id=1" in meta and "cluster.id=WnLkTHhkQaiJbwP8FClPhw" in meta and "version=1" in meta
    log_dir = tmp_path / "__cluster_metadata-0"
    assert (log_dir / "partition.metadata").read_text() == "version: 0\ntopic_id: AAAAAAAAAAAAAAAAAAAAAQ"
    assert (log_dir / "quorum-state").read_text() == (
        '{"clusterId":"","leaderId":1,"leaderEpoch":1,"votedId":-1,"appliedOffset":0,'
        '"currentVoters":[{"voterId":1}],"data_version":0}'
    )
    # reopen: continues at the next offset, new epoch gets a checkpoint entry, snapshot is used
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        assert log.next_offset == 3
        log.append_control([leader_change], epoch=2, timestamp_ms=30)
        last = log.append(
            [r.ConfigRecord(resource_type=i8(2), resource_name="orders", name="retention.ms", value="1")],
            epoch=2,
            timestamp_ms=40,
        )
        assert last == 4
        log.write_snapshot(
            [
                r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25)),
                r.TopicRecord(name="orders", topic_id=topic_id),
                _partition(topic_id, 0),
            ],
            offset=5,
            epoch=2,
            last_contained_log_timestamp=40,
        )
    assert (log_dir / "leader-epoch-checkpoint").read_text() == "0\n2\n1 0\n2 3\n"
    assert (log_dir / "00000000000000000005-0000000002.checkpoint").exists()
    image = build_image(tmp_path)
    assert image.provenance.offset == 4
    assert image.features == {"metadata.version": 25}
    assert set(image.topic_names) == {"orders"}
    assert image.configs == {}  # the snapshot (written without the config) is the start state
    with pytest.raises(ValueError, match="belongs to node 1"):
        MetadataLogWriter(tmp_path, node_id=2, cluster_id="WnLkTHhkQaiJbwP8FClPhw")


def test_torn_tail_is_cut_on_reopen(tmp_path: Path) -> None:
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="c") as log:
        log.append([r.NoOpRecord()], epoch=1, timestamp_ms=1)
        log.append([r.NoOpRecord()], epoch=1, timestamp_ms=2)
    segment = tmp_path / "__cluster_metadata-0" / "00000000000000000000.log"
    data = segment.read_bytes()
    segment.write_bytes(data[:-5])
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="c") as log:
        assert log.next_offset == 1
        log.append([r.NoOpRecord()], epoch=1, timestamp_ms=3)
    stats = ReadStats()
    assert [e.offset for e in FileReader(path=segment, stats=stats).entries()] == [0, 1]


def test_segments_roll_at_the_size_limit(tmp_path: Path) -> None:
    with MetadataLogWriter(tmp_path, node_id=1, cluster_id="c", segment_bytes=200) as log:
        for index in range(10):
            log.append([r.NoOpRecord()], epoch=1, timestamp_ms=index)
    segments = sorted((tmp_path / "__cluster_metadata-0").glob("*.log"))
    assert len(segments) > 1
    directory = find_log_directory(tmp_path)
    stats = ReadStats()
    offsets = [
        e.offset for _s, reader in read_sources(directory.sources, stats=stats) for e in reader.entries()
    ]
    assert offsets == list(range(10))


def test_metadata_value_framing_matches_the_reference() -> None:
    # metadata-log.md section 4: NoOpRecord is 01 14 00 00; FeatureLevelRecord metadata.version=19.
    assert encode_metadata_record(r.NoOpRecord()) == bytes.fromhex("01140000")
    value = encode_metadata_record(r.FeatureLevelRecord(name="metadata.version", feature_level=i16(19)))
    assert value == bytes.fromhex("010c0011") + b"metadata.version" + bytes.fromhex("001300")
