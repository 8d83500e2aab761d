"""RecordBatch v2 as the data plane reads and builds it (kcli.sandbox.emulator.data.records)."""

from __future__ import annotations

import pytest

from kcli.metadata.batch import Compression
from kcli.metadata.batch import encode_batch as metadata_batch
from kcli.sandbox.emulator.data.records import (
    BatchError,
    Record,
    encode_batch,
    headers_in,
    marker_batch,
    marker_of,
    read_header,
    records_of,
    with_offset_and_epoch,
)


@pytest.mark.parametrize("codec", list(Compression))
def test_records_round_trip_through_every_codec(codec: Compression) -> None:
    records = [
        Record(offset=0, timestamp_ms=0, key=b"k", value=b"v" * 300, headers=(("trace", b"1"), ("n", None))),
        (None, b"second"),
        (b"third", None),
    ]
    batch = encode_batch(
        records,
        timestamp_ms=1_700_000_000_000,
        timestamps=[1_700_000_000_000, 1_700_000_000_005, 1_700_000_000_002],
        producer_id=7,
        producer_epoch=2,
        base_sequence=41,
        compression=int(codec),
    )
    header = read_header(batch)
    assert (header.records_count, header.last_offset_delta, header.compression) == (3, 2, int(codec))
    assert (header.base_timestamp, header.max_timestamp) == (1_700_000_000_000, 1_700_000_000_005)
    assert (header.producer_id, header.producer_epoch, header.base_sequence, header.last_sequence) == (
        7,
        2,
        41,
        43,
    )
    renumbered = bytes(with_offset_and_epoch(batch, 500, 9))
    header = read_header(renumbered)  # the CRC still holds
    assert (header.base_offset, header.last_offset, header.leader_epoch) == (500, 502, 9)
    decoded = list(records_of(renumbered, header))
    assert [(r.offset, r.timestamp_ms, r.key, r.value) for r in decoded] == [
        (500, 1_700_000_000_000, b"k", b"v" * 300),
        (501, 1_700_000_000_005, None, b"second"),
        (502, 1_700_000_000_002, b"third", None),
    ]
    assert decoded[0].headers == (("trace", b"1"), ("n", None))


def test_a_batch_of_the_metadata_encoder_reads_alike() -> None:
    batch = metadata_batch([(b"a", b"1"), (b"b", b"2")], base_offset=10, epoch=3, timestamp_ms=99)
    (header,) = headers_in(batch)
    assert [(r.offset, r.key, r.value) for r in records_of(batch, header)] == [
        (10, b"a", b"1"),
        (11, b"b", b"2"),
    ]


def test_damaged_and_torn_batches_are_refused_with_their_byte() -> None:
    batch = encode_batch([(b"k", b"v")], timestamp_ms=1)
    flipped = bytearray(batch)
    flipped[-1] ^= 1
    with pytest.raises(BatchError, match="CRC mismatch in the batch at byte 0"):
        read_header(bytes(flipped))
    with pytest.raises(BatchError, match="torn batch at byte 0"):
        read_header(batch[:-1])
    with pytest.raises(BatchError, match="torn batch header at byte 3"):
        read_header(b"123" + batch[:10], 3)
    with pytest.raises(BatchError, match="torn batch header at byte 70"):
        headers_in(batch + batch[:3])


def test_end_transaction_markers() -> None:
    for commit in (True, False):
        batch = marker_batch(
            producer_id=3, producer_epoch=1, commit=commit, coordinator_epoch=12, timestamp_ms=5
        )
        header = read_header(batch)
        assert header.is_control and header.is_transactional
        assert marker_of(batch, header) == (1 if commit else 0, 12)
