"""Every KRaft fixture written by real Kafka decodes completely, with the contents SOURCES.md lists."""

from __future__ import annotations

from pathlib import Path

import pytest

from kcli.metadata.directory import find_log_directory, full_log_sources, read_sources
from kcli.metadata.image import build_image
from kcli.metadata.read_model import DecodeError, RawRecord, ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.tree import build_tree, metadata_version_name
from kcli.shell.glob import lookup
from tests.conftest import KRAFT_FIXTURES

FIXTURES = KRAFT_FIXTURES
NEGATIVE = FIXTURES / "apache-kafka-pr15553/core/data/kafka-1168504093769635972"

# (log dir, records in the whole log, topic names in the image, broker ids, metadata.version level)
EXPECTED = [
    ("furkancets-flink-docker/kafka/data", 7, {"test1"}, {1}, None),
    ("hiage-kafka-raft/data/kafka1", 2982, {"test1", "__consumer_offsets", "test5"}, {1, 2, 3}, 7),
    ("cooler-sai-go-kafkaproject/kafka-data", 2715, {"test-topic", "my-topic"}, {1}, 8),
    (
        "greenlemont-kafka-temp/data/kafka1",
        30638,
        {"payment-create-request", "delivery-create-request", "__consumer_offsets", "delivery-create-response",
         "payment-failed", "payment-create-response"},
        {1, 2, 3},
        11,
    ),
    (
        "niloufar-ldi-poc",
        4929,
        {"__consumer_offsets", "batch2.work.notification.SHR_PROD.persistence",
         "subscription.matching.SHR_PROD.persistence", "TestTopicPatient", "Retry.TestTopicPatient"},
        {1},
        19,
    ),
    ("apache-kafka-pr15553/core/data/kafka-2167572160391180112", 26, set(), {0, 1, 2}, 18),
    ("1stapossum-otus-kafka/HW02/kafka_data", 9074, {"test-topic"}, {1}, 20),
    (
        "qkrckstjq-spring-kafka/data",
        12619,
        {"parkchansub", "test-topic2", "admin-topic", "__consumer_offsets", "test-topic"},
        {1},
        21,
    ),
    ("devandref-kafka-eda-study/data", 14667 + 9100, {"product-created-events-topic"}, {1}, 25),
    ("galgrayzer-kafka-docker-compose/kafka_data/data", 842, set(), {1}, 25),
    ("dkoh12-systems/kafka/data", 7707, {"__consumer_offsets", "test_topic"}, {1}, 27),
    ("induswargods-local-test-rig/kafka-data", 51264, {"test-topic"}, {1}, 29),
]  # fmt: skip


def _data_files() -> list[Path]:
    files = [
        path
        for path in FIXTURES.rglob("*")
        if path.is_file() and (path.suffix == ".log" or ".checkpoint" in path.name)
    ]
    return sorted(path for path in files if NEGATIVE not in path.parents)


def _kio_count(path: Path) -> int:
    from kio.records.readers import read_batch

    data = path.read_bytes()
    position = count = 0
    while position < len(data):
        batch, size = read_batch(data, position)
        position += size
        count += len(batch.records)
    return count


@pytest.mark.parametrize("path", _data_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_every_file_decodes_and_matches_kios_record_count(path: Path) -> None:
    stats = ReadStats()
    entries = list(FileReader(path=path, stats=stats).entries())
    assert not stats.skipped
    assert stats.unknown == 0
    assert all(type(entry.record) is not RawRecord for entry in entries)
    assert len(entries) == _kio_count(path)
    offsets = [entry.offset for entry in entries]
    assert offsets == list(range(offsets[0], offsets[0] + len(offsets)))


@pytest.mark.parametrize(
    ("relative", "records", "topics", "brokers", "level"), EXPECTED, ids=[e[0] for e in EXPECTED]
)
def test_fixture_contents(
    relative: str, records: int, topics: set[str], brokers: set[int], level: int | None
) -> None:
    directory = find_log_directory(FIXTURES / relative)
    stats = ReadStats()
    total = 0
    for _source, reader in read_sources(full_log_sources(directory), stats=stats):
        total += sum(1 for _ in reader.entries())
    assert total == records
    image = build_image(directory)
    assert set(image.topic_names) == topics
    assert set(image.brokers) == brokers
    assert image.features.get("metadata.version") == level
    root = build_tree(image)
    version = lookup(root, ("image", "features", "metadataVersion"))
    assert version is not None
    assert version.text() == ("Optional.empty" if level is None else f"Optional[{metadata_version_name(level)}]")


def test_snapshot_then_log_replay_matches_sources_md() -> None:
    image = build_image(FIXTURES / "qkrckstjq-spring-kafka/data")
    assert image.directory is not None and image.directory.snapshot is not None
    assert image.directory.snapshot.path.name == "00000000000000243115-0000000030.checkpoint"
    assert image.provenance.offset == 245532
    assert image.provenance.epoch == 30


def test_two_segments_are_contiguous() -> None:
    directory = find_log_directory(FIXTURES / "devandref-kafka-eda-study/data")
    stats = ReadStats()
    offsets = [
        e.offset for _s, r in read_sources(directory.sources, stats=stats, decode=False) for e in r.entries()
    ]
    assert offsets == list(range(23767))
    assert stats.files[-1].endswith("00000000000000014667.log")


def test_scram_user_and_features_from_kafka_40() -> None:
    image = build_image(FIXTURES / "galgrayzer-kafka-docker-compose/kafka_data/data")
    assert [(mechanism, name) for mechanism, name in image.scram] == [(1, "admin")]
    assert image.scram[(1, "admin")].iterations == 4096
    assert image.features == {"metadata.version": 25, "group.version": 1, "transaction.version": 2}
    text = lookup(build_tree(image), ("image", "scram", "SCRAM-SHA-256", "admin"))
    assert text is not None and "[redacted]" in text.text() and "iterations=4096" in text.text()


def test_topic_deleted_and_recreated() -> None:
    image = build_image(FIXTURES / "induswargods-local-test-rig/kafka-data")
    assert len(image.topics) == 1
    assert len(image.topics[image.topic_names["test-topic"]].partitions) == 1


def test_configs_of_the_confluent_fixture() -> None:
    image = build_image(FIXTURES / "rjmfernandes-flink-on-prem/data")
    topic_configs = {name for (kind, name) in image.configs if kind == 2}
    assert "_schemas" in topic_configs
    assert image.configs[(2, "_schemas")]["cleanup.policy"] == "compact"


def test_negative_fixture_reports_the_first_bad_record() -> None:
    with pytest.raises(DecodeError) as caught:
        build_image(NEGATIVE)
    error = caught.value
    assert error.file.endswith("00000000000000000000.log")
    assert error.last_good_offset == 23
    assert "offset 24" in error.message and "PartitionRecord v1" in error.message
    assert error.position > 0


def test_negative_fixture_with_skip_corrupt_keeps_the_rest() -> None:
    stats = ReadStats()
    image = build_image(NEGATIVE, skip_corrupt=True, stats=stats)
    assert stats.skipped_records == 6
    assert [p.split(": ")[1] for p in stats.problems] == [f"offset {o}" for o in (24, 25, 26, 27, 28, 42)]
    assert set(image.topic_names) == {"__consumer_offsets", "topic"}
    assert set(image.brokers) == {0, 1, 2}
    assert image.provenance.offset == 93
