"""Corrupt input: one clear DecodeError (file, byte, last good offset), or skipped with --skip-corrupt."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.errors import TruncatedData, UsageError
from kcli.metadata import records as r
from kcli.metadata.batch import encode_batch
from kcli.metadata.codec import encode_metadata_record
from kcli.metadata.directory import find_log_directory
from kcli.metadata.framing import read_batch
from kcli.metadata.image import build_image
from kcli.metadata.read_model import DecodeError, ReadStats
from kcli.metadata.reader import FileReader
from tests.conftest import KRAFT_FIXTURES

FIXTURE_LOG = (
    KRAFT_FIXTURES
    / "galgrayzer-kafka-docker-compose/kafka_data/data/__cluster_metadata-0/00000000000000000000.log"
)


def _batch(offset: int) -> bytes:
    return encode_batch(
        [(None, encode_metadata_record(r.NoOpRecord()))], base_offset=offset, epoch=1, timestamp_ms=5
    )


def _read(path: Path, *, skip: bool = False) -> tuple[list[int], ReadStats]:
    stats = ReadStats()
    offsets = [entry.offset for entry in FileReader(path=path, stats=stats, skip_corrupt=skip).entries()]
    return offsets, stats


def test_bad_crc_names_file_byte_and_last_good_offset(tmp_path: Path) -> None:
    data = bytearray(_batch(0) + _batch(1) + _batch(2))
    second = len(_batch(0))
    data[second + 40] ^= 0xFF  # inside the CRC-covered part of batch 2
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(bytes(data))
    with pytest.raises(DecodeError) as caught:
        _read(path)
    assert caught.value.position == second
    assert caught.value.last_good_offset == 0
    assert caught.value.line().startswith(f"{path}: CRC-32C mismatch at byte {second} (last good offset 0)")
    offsets, stats = _read(path, skip=True)
    assert offsets == [0, 2]
    assert stats.skipped_batches == 1 and stats.skipped


def test_truncated_batch_is_reported_and_skip_keeps_the_rest(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(_batch(0) + _batch(1)[:-3])
    with pytest.raises(DecodeError, match="truncated batch"):
        _read(path)
    offsets, stats = _read(path, skip=True)
    assert offsets == [0]
    assert stats.skipped_bytes > 0


def test_zero_filled_tail_is_the_end_of_data(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(_batch(0) + bytes(4096))
    assert _read(path) == ([0], ReadStats(files=[str(path)], batches=1, records=1))


def test_garbage_file_and_non_log_directory(tmp_path: Path) -> None:
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(b"this is not a kafka log at all, not even close" * 3)
    with pytest.raises(DecodeError, match="byte 0"):
        _read(path)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(UsageError, match="not a KRaft metadata log directory"):
        find_log_directory(empty)
    with pytest.raises(UsageError, match="no such file"):
        find_log_directory(tmp_path / "missing")


def test_unknown_record_type_is_kept_raw_and_counted(tmp_path: Path) -> None:
    unknown = bytes.fromhex("017f0000")  # frame 1, api key 127, version 0, no tagged fields
    newer = bytes.fromhex("01020900")  # TopicRecord v9 (unknown version)
    path = tmp_path / "00000000000000000000.log"
    path.write_bytes(encode_batch([(None, unknown), (None, newer)], base_offset=0, epoch=1, timestamp_ms=1))
    stats = ReadStats()
    entries = list(FileReader(path=path, stats=stats).entries())
    assert [type(e.record).__name__ for e in entries] == ["RawRecord", "RawRecord"]
    assert stats.unknown == 2 and not stats.skipped
    image = build_image(path)
    assert image.provenance.offset == 1


def test_read_batch_is_pure_and_typed() -> None:
    data = FIXTURE_LOG.read_bytes()
    batch, size = read_batch(data, 0)
    assert (batch.base_offset, batch.epoch, batch.is_control, size) == (0, 1, True, 91)
    with pytest.raises(TruncatedData):
        read_batch(data[:50], 0)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_and_truncated_input_only_raises_decode_error(data: st.DataObject) -> None:
    original = FIXTURE_LOG.read_bytes()[:6000]
    buf = bytearray(original[: data.draw(st.integers(min_value=0, max_value=len(original)))])
    for _ in range(data.draw(st.integers(min_value=0, max_value=8))):
        if buf:
            index = data.draw(st.integers(min_value=0, max_value=len(buf) - 1))
            buf[index] = data.draw(st.integers(min_value=0, max_value=255))
    path = Path("/nonexistent/00000000000000000000.log")
    for skip in (False, True):
        reader = FileReader(path=path, stats=ReadStats(), skip_corrupt=skip)
        try:
            list(reader.entries(bytes(buf)))
        except DecodeError:
            assert not skip


@settings(max_examples=150, deadline=None)
@given(blob=st.binary(max_size=400))
def test_random_bytes_only_raise_decode_error(blob: bytes) -> None:
    # a valid header and CRC in front makes the fuzz reach the record parser
    from crc32c import crc32c

    count = blob[0] % 4 if blob else 0
    tail = struct.pack(">hiqqqhii", 0, max(count - 1, 0), 0, 0, -1, -1, -1, count) + blob
    batch = struct.pack(">qiib", 0, len(tail) + 9, 1, 2) + struct.pack(">I", crc32c(tail)) + tail
    for data in (blob, batch):
        for skip in (False, True):
            try:
                list(FileReader(path=Path("x.log"), stats=ReadStats(), skip_corrupt=skip).entries(data))
            except DecodeError:
                assert not skip
