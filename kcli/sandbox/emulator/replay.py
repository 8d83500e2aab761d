"""Read a sandbox metadata log back into records: the newest snapshot, then the log after it.

Batches are parsed with kio's record batch reader (an implementation independent of the writer),
record bodies with kcli.metadata's codec. Metadata transactions that were aborted are dropped.
The log is recovered first (kcli.sandbox.emulator.replica), so a batch that does not read is an error here.
"""

from __future__ import annotations

import struct
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kcli.kafka import read_uvarint
from kcli.metadata.codec import control_body_reader, metadata_body_reader
from kcli.metadata.records import record_name

CONTROL_FLAG = 0x20


def decode_value(value: bytes) -> Any | None:
    """One metadata record from its framed value (None for unknown types)."""
    offset = 0
    fields = []
    for _ in range(3):  # frame version, api key, record version
        field, size = read_uvarint(value, offset)
        fields.append(field)
        offset += size
    _frame_version, api_key, version = fields
    reader = metadata_body_reader(api_key, version)
    if reader is None:
        return None
    record, _ = reader(value, offset)
    return record


class ReplayError(Exception):
    """A recovered log that still does not read (names the file and byte)."""


@dataclass(slots=True)
class ControlState:
    """What the Raft control records of a log say: kraft.version and the voter set (KIP-853)."""

    kraft_version: int | None = None
    voters: dict[int, uuid.UUID] | None = None

    def apply(self, key: bytes | None, value: bytes | None) -> None:
        if key is None or value is None or len(key) < 4:
            return
        control_type = struct.unpack_from(">h", key, 2)[0]
        reader = control_body_reader(control_type)
        if reader is None:
            return
        try:
            record, _ = reader(value, 0)
        except Exception:
            return
        name = record_name(type(record))
        if name == "KRaftVersionRecord":
            self.kraft_version = int(record.k_raft_version)
        elif name == "VotersRecord":
            self.voters = {int(v.voter_id): v.voter_directory_id for v in record.voters}


def read_file(
    path: Path, *, start_offset: int = 0, control: ControlState | None = None
) -> tuple[list[Any], int]:
    """Records of one segment or snapshot file with offset >= start_offset; and the last epoch seen."""
    from kio.records.readers import read_batch

    data = path.read_bytes()
    position = 0
    out: list[Any] = []
    epoch = 0
    while position < len(data):
        try:
            batch, size = read_batch(data, position)
        except Exception as error:
            # replicas are recovered (torn tails cut) before replay: what is left must read whole
            raise ReplayError(f"{path}: unreadable batch at byte {position}: {error}") from None
        position += size
        epoch = max(epoch, int(batch.partition_leader_epoch))
        if batch.attributes & CONTROL_FLAG:
            if control is not None:
                for record in batch.records:
                    control.apply(record.key, record.value)
            continue
        for record in batch.records:
            if record.offset < start_offset or record.value is None:
                continue
            decoded = decode_value(bytes(record.value))
            if decoded is not None:
                out.append(decoded)
    return out, epoch


def _without_aborted(records: list[Any]) -> list[Any]:
    out: list[Any] = []
    pending: list[Any] | None = None
    for record in records:
        name = type(record).__record_name__
        if name == "BeginTransactionRecord":
            pending = []
        elif name == "EndTransactionRecord":
            out.extend(pending or [])
            pending = None
        elif name == "AbortTransactionRecord":
            pending = None
        elif pending is not None:
            pending.append(record)
        else:
            out.append(record)
    return out


def read_log(log_dir: Path, control: ControlState | None = None) -> tuple[list[Any], int]:
    """All records that make up the current state of `log_dir`, and its newest leader epoch."""
    snapshots = sorted(log_dir.glob("*.checkpoint"))
    records: list[Any] = []
    start = 0
    epoch = 0
    if snapshots:
        newest = snapshots[-1]
        start = int(newest.name[:20])
        epoch = int(newest.name[21:31])
        records, _ = read_file(newest, control=control)
    for segment in sorted(log_dir.glob("*.log")):
        found, segment_epoch = read_file(segment, start_offset=start, control=control)
        records.extend(found)
        epoch = max(epoch, segment_epoch)
    return _without_aborted(records), epoch
