"""A log that breaks Kafka's invariants is read on, with a warning naming the file, the byte and the
offsets: a batch at offsets already read (two records at one offset), epochs going backwards, a
leader-epoch-checkpoint going backwards. Kafka-written logs raise none."""

from __future__ import annotations

from pathlib import Path

import pytest
from kio.static.primitive import i8, i32

from kcli.metadata import records as r
from kcli.metadata.batch import encode_batch
from kcli.metadata.codec import encode_metadata_record
from kcli.metadata.directory import find_log_directory, full_log_sources, read_sources
from kcli.metadata.image import build_image
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from tests.conftest import KRAFT_FIXTURES, invoke


def _config(topic: str, value: str) -> bytes:
    return encode_metadata_record(
        r.ConfigRecord(resource_type=i8(2), resource_name=topic, name="retention.ms", value=value)
    )


def _batch(offset: int, epoch: int, *values: bytes) -> bytes:
    return encode_batch(
        [(None, value) for value in values], base_offset=offset, epoch=epoch, timestamp_ms=offset
    )


def _noop(offset: int, epoch: int) -> bytes:
    return _batch(offset, epoch, encode_metadata_record(r.NoOpRecord()))


def _diverged_log(directory: Path) -> Path:
    """What a voter's log looked like after the sandbox's lost writes: offsets 2-3 written twice
    (different records, a later epoch), then an epoch lower than one before it."""
    log_dir = directory / "__cluster_metadata-0"
    log_dir.mkdir(parents=True)
    segment = log_dir / "00000000000000000000.log"
    segment.write_bytes(
        _batch(0, 7, _config("topic-00001", "1"), _config("topic-00002", "2"))
        + _batch(2, 7, _config("topic-00035", "35"), _config("topic-00036", "36"))
        + _batch(2, 8, _config("topic-00033", "33"), _config("topic-00034", "34"))
        + _batch(4, 6, _config("topic-00040", "40"))
    )
    return segment


def test_offsets_read_twice_and_epochs_going_back_are_warned_about(tmp_path: Path) -> None:
    segment = _diverged_log(tmp_path)
    stats = ReadStats()
    offsets = [entry.offset for entry in FileReader(path=segment, stats=stats).entries()]
    assert offsets == [0, 1, 2, 3, 2, 3, 4]  # every record is still read, in file order
    third = len(_batch(0, 7, _config("topic-00001", "1"), _config("topic-00002", "2"))) + len(
        _batch(2, 7, _config("topic-00035", "35"), _config("topic-00036", "36"))
    )
    fourth = third + len(_batch(2, 8, _config("topic-00033", "33"), _config("topic-00034", "34")))
    assert stats.warnings == [
        f"{segment}: the batch at byte {third} holds offsets 2-3 again (offsets not increasing: "
        "offset 3 was read before it)",
        f"{segment}: the batch at byte {fourth} (offset 4) has leader epoch 6 after epoch 8 (epochs go backwards)",
    ]
    assert not stats.skipped  # a warning, not corruption


def test_the_checks_follow_the_log_across_segments_and_through_noop_runs(tmp_path: Path) -> None:
    log_dir = tmp_path / "__cluster_metadata-0"
    log_dir.mkdir()
    # the idle controller's NoOp batches (read a run at a time) with an offset written twice
    first = log_dir / "00000000000000000000.log"
    first.write_bytes(b"".join(_noop(offset, 3) for offset in (0, 1, 2, 3, 3, 4)))
    second = log_dir / "00000000000000000004.log"
    second.write_bytes(_noop(4, 3) + _noop(5, 2))
    stats = ReadStats()
    for _source, reader in read_sources(full_log_sources(find_log_directory(tmp_path)), stats=stats):
        list(reader.entries())
    assert stats.warnings == [
        f"{first}: the batch at byte 288 holds offset 3 again (offsets not increasing: offset 3 was read before it)",
        f"{second}: the batch at byte 0 holds offset 4 again (offsets not increasing: offset 4 was read before it)",
        f"{second}: the batch at byte 72 (offset 5) has leader epoch 2 after epoch 3 (epochs go backwards)",
    ]


def test_a_leader_epoch_checkpoint_going_backwards_is_warned_about(tmp_path: Path) -> None:
    _diverged_log(tmp_path)
    checkpoint = tmp_path / "__cluster_metadata-0" / "leader-epoch-checkpoint"
    checkpoint.write_text("0\n3\n7 0\n20 503\n21 497\n")
    assert find_log_directory(tmp_path).warnings == (
        f"{checkpoint}: epoch 21 starts at offset 497, after epoch 20 at offset 503 (epochs or offsets go backwards)",
    )


def test_dump_of_a_diverged_log_warns_and_exits_1(tmp_path: Path) -> None:
    _diverged_log(tmp_path)
    result = invoke("metadata-shell", "--directory", str(tmp_path), "--dump", "-o", "json")
    assert result.code == 1
    assert [line.split(",")[0] for line in result.lines] == [
        '{"offset":0', '{"offset":1', '{"offset":2', '{"offset":3', '{"offset":2', '{"offset":3', '{"offset":4',
    ]  # fmt: skip
    assert result.stderr.startswith("Warning: the log breaks Kafka's invariants (2 problems)")
    assert "holds offsets 2-3 again" in result.stderr and "epochs go backwards" in result.stderr
    # the shell says so too, after its output
    result = invoke("metadata-shell", "--directory", str(tmp_path), "ls", "/image/configs")
    assert result.code == 1 and "TOPIC:topic-00033" in result.lines
    assert "Warning: the log breaks Kafka's invariants" in result.stderr


def _fixture_dirs() -> list[Path]:
    return sorted({p.parent.parent for p in KRAFT_FIXTURES.rglob("__cluster_metadata-0/*.log")})


@pytest.mark.parametrize("root", _fixture_dirs(), ids=lambda p: str(p.relative_to(KRAFT_FIXTURES)))
def test_logs_written_by_kafka_raise_no_warning(root: Path) -> None:
    directory = find_log_directory(root)
    assert directory.warnings == ()
    stats = ReadStats()
    for _source, reader in read_sources(full_log_sources(directory), stats=stats, skip_corrupt=True):
        list(reader.entries())
    assert stats.warnings == []
    assert build_image(root, skip_corrupt=True).stats.warnings == []


def test_a_snapshot_is_checked_too(tmp_path: Path) -> None:
    snapshot = tmp_path / "00000000000000000010-0000000002.checkpoint"
    snapshot.write_bytes(
        _batch(0, 2, encode_metadata_record(r.NoOpRecord()), encode_metadata_record(r.NoOpRecord()))
        + _batch(
            1,
            2,
            encode_metadata_record(r.ProducerIdsRecord(broker_id=i32(1), broker_epoch=1, next_producer_id=5)),
        )
    )
    stats = ReadStats()
    list(FileReader(path=snapshot, stats=stats).entries())
    assert len(stats.warnings) == 1 and "holds offset 1 again" in stats.warnings[0]
