"""Write a KRaft metadata log directory the way a Kafka node lays it out on disk.

API (used by the sandbox to persist its state as a real `__cluster_metadata-0` log):

    from kcli.metadata.writer import MetadataLogWriter
    from kcli.metadata import records as r

    with MetadataLogWriter(log_dir, node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw") as log:
        log.write_bootstrap_checkpoint([r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))])
        log.append_control([r.LeaderChangeMessage(version=i16(0), leader_id=i32(1), voters=..., granting_voters=...)],
                           epoch=1, timestamp_ms=now_ms)
        last = log.append([r.TopicRecord(name="orders", topic_id=uuid4()), r.PartitionRecordV0(...)],
                          epoch=1, timestamp_ms=now_ms)           # -> offset of the last record written
        log.write_quorum_state(leader_id=1, leader_epoch=1, voters=[1])
        log.write_snapshot(image_records, offset=last + 1, epoch=1, last_contained_log_timestamp=now_ms)

- `MetadataLogWriter(directory, *, node_id, cluster_id, directory_id=None, segment_bytes=1 GiB)`:
  `directory` is the log dir (it gets meta.properties); the log itself goes to
  `directory/__cluster_metadata-0/` (segments `<20-digit base offset>.log`, partition.metadata,
  leader-epoch-checkpoint, quorum-state, snapshots `<20-digit offset>-<10-digit epoch>.checkpoint`).
  Opening an existing directory continues after its last complete batch (a torn tail is cut off)
  and refuses a different node id or cluster id.
- `append(records, *, epoch, timestamp_ms) -> last_offset`: data batch(es) of metadata records
  (split at 8 MiB); `append_control(records, *, epoch, timestamp_ms) -> last_offset`: one control
  batch (LeaderChangeMessage, KRaftVersionRecord, VotersRecord). A new epoch adds a
  leader-epoch-checkpoint entry; epochs never go down.
- `write_snapshot(records, *, offset, epoch, ...) -> Path`: header batch (SnapshotHeaderRecord plus
  optional KRaftVersion/Voters), data batches, footer batch; written to a `.checkpoint.part` file and
  renamed. `write_bootstrap_checkpoint(records)` writes `bootstrap.checkpoint` in the same format.
- `write_quorum_state(...)`, `flush()`, `close()` (fsync); `next_offset`, `epoch`, `log_dir`.
- To restart from such a directory, read it back with `kcli.metadata.reader.read_directory`.

Behavior:
- Every batch holds records of one timestamp; offsets are contiguous across segments.
- Index files (.index/.timeindex) are not written: they are optional for every reader, Kafka included.
"""

from __future__ import annotations

import json
import os
import struct
import time
import uuid
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from kcli.metadata.batch import MAX_BATCH_BYTES, Compression, encode_batch
from kcli.metadata.codec import encode_control_record, encode_metadata_record
from kcli.metadata.records import ControlRecord, MetadataRecord
from kcli.metadata.uuids import kafka_uuid
from kcli.properties import parse_properties
from kcli.writes import make_directories, open_segment, replacing, truncate_file, write_file

METADATA_PARTITION = "__cluster_metadata-0"
# Uuid.METADATA_TOPIC_ID: bytes 0..0 01.
METADATA_TOPIC_ID = "AAAAAAAAAAAAAAAAAAAAAQ"
DEFAULT_SEGMENT_BYTES = 1024 * 1024 * 1024

_BATCH_PREFIX = struct.Struct(">qi")
_LAST_OFFSET_DELTA = struct.Struct(">i")


def segment_name(base_offset: int) -> str:
    return f"{base_offset:020d}.log"


def snapshot_name(offset: int, epoch: int) -> str:
    return f"{offset:020d}-{epoch:010d}.checkpoint"


class MetadataLogWriter:
    """Appends record batches to a `__cluster_metadata-0` directory and maintains its side files."""

    def __init__(
        self,
        directory: Path | str,
        *,
        node_id: int,
        cluster_id: str,
        directory_id: str | None = None,
        segment_bytes: int = DEFAULT_SEGMENT_BYTES,
    ) -> None:
        self.directory = Path(directory)
        self.log_dir = self.directory / METADATA_PARTITION
        self.node_id = node_id
        self.cluster_id = cluster_id
        self.segment_bytes = segment_bytes
        make_directories(self.log_dir, what="the metadata log directory")
        self._write_meta_properties(directory_id)
        partition_metadata = self.log_dir / "partition.metadata"
        if not partition_metadata.exists():
            _replace_text(partition_metadata, f"version: 0\ntopic_id: {METADATA_TOPIC_ID}")
        self._epochs: list[tuple[int, int]] = _read_epoch_checkpoint(self.log_dir / "leader-epoch-checkpoint")
        self._segment: IO[bytes] | None = None
        self._segment_size = 0
        self.next_offset = 0
        self._recover()

    # -- context manager -------------------------------------------------------------------------

    def __enter__(self) -> MetadataLogWriter:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    # -- appending -------------------------------------------------------------------------------

    @property
    def epoch(self) -> int:
        """The newest leader epoch written (0 before the first batch)."""
        return self._epochs[-1][0] if self._epochs else 0

    def append(
        self,
        records: Sequence[MetadataRecord],
        *,
        epoch: int,
        timestamp_ms: int,
        compression: Compression = Compression.NONE,
    ) -> int:
        """Append metadata records as data batch(es); returns the offset of the last record."""
        values = [(None, encode_metadata_record(record)) for record in records]
        if not values:
            raise ValueError("append needs at least one record")
        last = -1
        for chunk in _chunks(values):
            last = self._append_batch(
                chunk, epoch=epoch, timestamp_ms=timestamp_ms, control=False, compression=compression
            )
        return last

    def append_control(self, records: Sequence[ControlRecord], *, epoch: int, timestamp_ms: int) -> int:
        """Append Raft control records (LeaderChange, KRaftVersion, Voters) as one control batch."""
        pairs: list[tuple[bytes | None, bytes | None]] = [encode_control_record(record) for record in records]
        if not pairs:
            raise ValueError("append_control needs at least one record")
        return self._append_batch(pairs, epoch=epoch, timestamp_ms=timestamp_ms, control=True)

    def _append_batch(
        self,
        pairs: Sequence[tuple[bytes | None, bytes | None]],
        *,
        epoch: int,
        timestamp_ms: int,
        control: bool,
        compression: Compression = Compression.NONE,
    ) -> int:
        if epoch < self.epoch:
            raise ValueError(f"leader epoch {epoch} is older than the log's epoch {self.epoch}")
        batch = encode_batch(
            pairs,
            base_offset=self.next_offset,
            epoch=epoch,
            timestamp_ms=timestamp_ms,
            control=control,
            compression=compression,
        )
        if epoch > self.epoch:
            self._epochs.append((epoch, self.next_offset))
            self._write_epoch_checkpoint()
        segment = self._segment_for(len(batch))
        segment.write(batch)
        segment.flush()
        self._segment_size += len(batch)
        self.next_offset += len(pairs)
        return self.next_offset - 1

    def _segment_for(self, size: int) -> IO[bytes]:
        if self._segment is not None and (
            self._segment_size == 0 or self._segment_size + size <= self.segment_bytes
        ):
            return self._segment
        if self._segment is not None:
            self._segment.close()
        self._segment = open_segment(self.log_dir / segment_name(self.next_offset), what="a log segment")
        self._segment_size = self._segment.tell()
        return self._segment

    # -- snapshots and side files ----------------------------------------------------------------

    def write_snapshot(
        self,
        records: Iterable[MetadataRecord],
        *,
        offset: int,
        epoch: int,
        timestamp_ms: int | None = None,
        last_contained_log_timestamp: int = 0,
        header_records: Sequence[ControlRecord] = (),
    ) -> Path:
        """Write `<offset>-<epoch>.checkpoint`: the image as of (excluding) log offset `offset`.

        `header_records` (KRaftVersionRecord, VotersRecord) join the SnapshotHeaderRecord in the first
        control batch, as Kafka does for kraft.version >= 1.
        """
        path = self.log_dir / snapshot_name(offset, epoch)
        # Kafka's name for a snapshot being written (ignored by every reader until renamed)
        partial = f"{offset:020d}-{epoch:010d}-{uuid.uuid4().hex[:12]}.checkpoint.part"
        _write_snapshot_file(
            path,
            records,
            epoch=epoch,
            timestamp_ms=_now_ms() if timestamp_ms is None else timestamp_ms,
            last_contained_log_timestamp=last_contained_log_timestamp,
            header_records=header_records,
            partial=partial,
        )
        return path

    def write_bootstrap_checkpoint(self, records: Iterable[MetadataRecord]) -> Path:
        """Write `bootstrap.checkpoint` in the log dir root, as `kafka-storage format` does."""
        path = self.directory / "bootstrap.checkpoint"
        _write_snapshot_file(
            path, records, epoch=0, timestamp_ms=_now_ms(), last_contained_log_timestamp=0,
            partial="bootstrap.checkpoint.tmp",
        )  # fmt: skip
        return path

    def write_quorum_state(
        self,
        *,
        leader_id: int,
        leader_epoch: int,
        voters: Iterable[int] = (),
        voted_id: int = -1,
        voted_directory_id: str | None = None,
    ) -> None:
        """Rewrite `quorum-state` atomically: data_version 0 (static voters), or 1 when a voted
        directory id is given (KIP-853 dynamic quorum)."""
        state: dict[str, Any]
        if voted_directory_id is None:
            state = {
                "clusterId": "",
                "leaderId": leader_id,
                "leaderEpoch": leader_epoch,
                "votedId": voted_id,
                "appliedOffset": 0,
                "currentVoters": [{"voterId": voter} for voter in voters],
                "data_version": 0,
            }
        else:
            state = {
                "leaderId": leader_id,
                "leaderEpoch": leader_epoch,
                "votedId": voted_id,
                "votedDirectoryId": voted_directory_id,
                "data_version": 1,
            }
        _replace_text(self.log_dir / "quorum-state", json.dumps(state, separators=(",", ":")))

    def flush(self) -> None:
        if self._segment is not None:
            self._segment.flush()
            os.fsync(self._segment.fileno())

    def close(self) -> None:
        if self._segment is not None:
            self.flush()
            self._segment.close()
            self._segment = None

    # -- internals -------------------------------------------------------------------------------

    def _write_meta_properties(self, directory_id: str | None) -> None:
        path = self.directory / "meta.properties"
        if path.exists():
            existing = parse_properties(path.read_text(encoding="utf-8"))
            if existing.get("node.id") != str(self.node_id) or existing.get("cluster.id") != self.cluster_id:
                raise ValueError(
                    f"{path} belongs to node {existing.get('node.id')} of cluster {existing.get('cluster.id')}, "
                    f"not node {self.node_id} of cluster {self.cluster_id}"
                )
            return
        stamp = time.strftime("%a %b %d %H:%M:%S UTC %Y", time.gmtime())
        directory_id = directory_id or kafka_uuid(uuid.uuid4())
        _replace_text(
            path,
            f"#\n#{stamp}\nnode.id={self.node_id}\ndirectory.id={directory_id}\n"
            f"version=1\ncluster.id={self.cluster_id}\n",
        )

    def _write_epoch_checkpoint(self) -> None:
        lines = ["0", str(len(self._epochs)), *(f"{epoch} {offset}" for epoch, offset in self._epochs)]
        _replace_text(self.log_dir / "leader-epoch-checkpoint", "\n".join(lines) + "\n")

    def _recover(self) -> None:
        """Find the next offset after the last complete batch; cut a torn tail off the last segment."""
        segments = sorted(self.log_dir.glob("[0-9]" * 20 + ".log"))
        snapshots = sorted(self.log_dir.glob("*.checkpoint"))
        if snapshots:
            self.next_offset = max(int(path.name[:20]) for path in snapshots)
        if not segments:
            return
        last = segments[-1]
        data = last.read_bytes()
        position, next_offset = 0, int(last.name[:20])
        while position + 27 <= len(data):
            base_offset, length = _BATCH_PREFIX.unpack_from(data, position)
            end = position + 12 + length
            if length < 49 or end > len(data):
                break
            (last_delta,) = _LAST_OFFSET_DELTA.unpack_from(data, position + 23)
            next_offset = base_offset + last_delta + 1
            position = end
        if position < len(data):
            truncate_file(last, position, what="the torn tail of a log segment")
        self.next_offset = max(self.next_offset, next_offset)
        self._segment = open_segment(last, what="a log segment")
        self._segment_size = position


def _chunks(
    values: Sequence[tuple[bytes | None, bytes | None]],
) -> Iterable[list[tuple[bytes | None, bytes | None]]]:
    """Split records into batches that stay under Kafka's 8 MiB batch limit."""
    chunk: list[tuple[bytes | None, bytes | None]] = []
    size = 0
    budget = MAX_BATCH_BYTES - 1024
    for pair in values:
        cost = len(pair[1] or b"") + 16
        if chunk and size + cost > budget:
            yield chunk
            chunk, size = [], 0
        chunk.append(pair)
        size += cost
    if chunk:
        yield chunk


def _write_snapshot_file(
    path: Path,
    records: Iterable[MetadataRecord],
    *,
    epoch: int,
    timestamp_ms: int,
    last_contained_log_timestamp: int,
    header_records: Sequence[ControlRecord] = (),
    partial: str,
) -> None:
    """Header, records and footer batches, written beside `path` as `partial` and renamed."""
    from kio.static.primitive import i16, i64

    from kcli.metadata.records import SnapshotFooterRecord, SnapshotHeaderRecord

    header = SnapshotHeaderRecord(
        version=i16(0), last_contained_log_timestamp=i64(last_contained_log_timestamp)
    )
    offset = 0
    with replacing(path, what="a snapshot", binary=True, temporary_name=partial) as out:
        head = [encode_control_record(header), *(encode_control_record(r) for r in header_records)]
        out.write(
            encode_batch(head, base_offset=offset, epoch=epoch, timestamp_ms=timestamp_ms, control=True)
        )
        offset += len(head)
        values = [(None, encode_metadata_record(record)) for record in records]
        for chunk in _chunks(values):
            out.write(encode_batch(chunk, base_offset=offset, epoch=epoch, timestamp_ms=timestamp_ms))
            offset += len(chunk)
        footer = [encode_control_record(SnapshotFooterRecord(version=i16(0)))]
        out.write(
            encode_batch(footer, base_offset=offset, epoch=epoch, timestamp_ms=timestamp_ms, control=True)
        )


def _read_epoch_checkpoint(path: Path) -> list[tuple[int, int]]:
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").split("\n")
    count = int(lines[1])
    pairs = [line.split() for line in lines[2 : 2 + count]]
    return [(int(epoch), int(offset)) for epoch, offset in pairs]


def _replace_text(path: Path, text: str) -> None:
    write_file(path, text, what=f"the log's {path.name}")


def _now_ms() -> int:
    return time.time_ns() // 1_000_000
