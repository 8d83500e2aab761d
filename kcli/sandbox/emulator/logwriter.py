"""Encode the sandbox's metadata batches and snapshots.

Record values by kcli.metadata.codec (kio's encoders), batches by kcli.metadata.batch, split at
Kafka's 8 MiB batch limit.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from kcli.metadata import writer as base
from kcli.metadata.batch import encode_batch
from kcli.metadata.codec import encode_control_record, encode_metadata_record


def record_value(record: Any) -> bytes:
    """The framed value bytes of one metadata record."""
    return encode_metadata_record(record)


def data_batches(records: Sequence[Any], *, base_offset: int, epoch: int, timestamp_ms: int) -> list[bytes]:
    """Metadata records as consecutive data batches starting at `base_offset`."""
    values: list[tuple[bytes | None, bytes | None]] = [(None, record_value(r)) for r in records]
    out: list[bytes] = []
    offset = base_offset
    for chunk in base._chunks(values):
        out.append(encode_batch(chunk, base_offset=offset, epoch=epoch, timestamp_ms=timestamp_ms))
        offset += len(chunk)
    return out


def control_batch(records: Sequence[Any], *, base_offset: int, epoch: int, timestamp_ms: int) -> bytes:
    """Raft control records (LeaderChangeMessage, KRaftVersionRecord, VotersRecord) as one control batch."""
    pairs = [encode_control_record(record) for record in records]
    return encode_batch(pairs, base_offset=base_offset, epoch=epoch, timestamp_ms=timestamp_ms, control=True)


def write_snapshot(
    log_dir: Path,
    records: Iterable[Any],
    *,
    offset: int,
    epoch: int,
    timestamp_ms: int,
    last_contained_log_timestamp: int = 0,
) -> Path:
    """Write `<offset>-<epoch>.checkpoint` in `log_dir` (header batch, data batches, footer batch).

    Written to a `.part` file, fsynced and renamed, so a crash leaves either the whole snapshot or
    a leftover `.part` that the next open deletes.
    """
    from kcli.metadata.records import SnapshotFooterRecord, SnapshotHeaderRecord

    path = log_dir / base.snapshot_name(offset, epoch)
    partial = log_dir / f"{offset:020d}-{epoch:010d}-{uuid.uuid4().hex[:12]}.checkpoint.part"
    header = SnapshotHeaderRecord(version=0, last_contained_log_timestamp=last_contained_log_timestamp)  # type: ignore[arg-type]
    position = 0
    with open(partial, "wb") as out:
        head = [encode_control_record(header)]
        out.write(
            encode_batch(head, base_offset=position, epoch=epoch, timestamp_ms=timestamp_ms, control=True)
        )
        position += len(head)
        values: list[tuple[bytes | None, bytes | None]] = [(None, record_value(r)) for r in records]
        for chunk in base._chunks(values):
            out.write(encode_batch(chunk, base_offset=position, epoch=epoch, timestamp_ms=timestamp_ms))
            position += len(chunk)
        footer = [encode_control_record(SnapshotFooterRecord(version=0))]  # type: ignore[arg-type]
        out.write(
            encode_batch(footer, base_offset=position, epoch=epoch, timestamp_ms=timestamp_ms, control=True)
        )
        out.flush()
        os.fsync(out.fileno())
    os.replace(partial, path)
    return path
