"""A replica's snapshot files (`<offset>-<epoch>.checkpoint`): which are whole, and what to do with the rest.

A snapshot the sandbox wrote is whole: a control batch with the SnapshotHeader first, the image's
data batches, a control batch with the SnapshotFooter last, every batch CRC-valid. One that is not
(cut on a batch boundary, emptied, a flipped bit) must not be read as the state: a snapshot cut
after its header would read as an empty cluster. Such a file is set aside (renamed to
`.checkpoint.damaged`, which neither kcli nor Kafka reads as a snapshot) when an older snapshot or
the log itself can rebuild the state without it.
"""

from __future__ import annotations

import os
import shutil
import struct
import uuid
from dataclasses import dataclass
from pathlib import Path

from kcli.kafka import VarintError, read_varint
from kcli.metadata.writer import snapshot_name
from kcli.sandbox.emulator.batches import parse_batch

SUFFIX = ".checkpoint"
DAMAGED_SUFFIX = ".damaged"
_CONTROL_FLAG = 0x20
_ATTRIBUTES = struct.Struct(">h")  # at byte 21 of a v2 batch
_RECORDS_AT = 61  # the first record of a v2 batch
SNAPSHOT_HEADER = 3  # ControlRecordType ids
SNAPSHOT_FOOTER = 4


@dataclass(frozen=True, slots=True, order=True)
class SnapshotFile:
    """One `<offset>-<epoch>.checkpoint`: the state up to (not including) `offset`, made in `epoch`."""

    offset: int
    epoch: int
    path: Path


def snapshot_files(log_dir: Path) -> list[SnapshotFile]:
    """The snapshot files of `log_dir` by name, oldest first (their contents unchecked)."""
    out = []
    for path in log_dir.glob("*" + SUFFIX):
        name = path.name
        if len(name) == 42 and name[20] == "-" and name[:20].isdigit() and name[21:31].isdigit():
            out.append(SnapshotFile(int(name[:20]), int(name[21:31]), path))
    return sorted(out)


def _control_type(data: bytes, position: int) -> int | None:
    """The control record type of the first record of the batch at `position` (None: a data batch)."""
    (attributes,) = _ATTRIBUTES.unpack_from(data, position + 21)
    if not attributes & _CONTROL_FLAG:
        return None
    at = position + _RECORDS_AT
    try:
        _length, size = read_varint(data, at)
        at += size + 1  # the record's length, then its attributes (one byte)
        for _field in ("timestamp delta", "offset delta"):
            _value, size = read_varint(data, at)
            at += size
        key_length, size = read_varint(data, at)
    except VarintError:
        return -1
    at += size
    if key_length < 4 or at + key_length > len(data):
        return -1
    return struct.unpack_from(">h", data, at + 2)[0]  # the key: version, then type (int16 each)


def problem_of(path: Path) -> str | None:
    """What keeps the snapshot at `path` from being read as the state (None: it is whole)."""
    if not path.is_file():
        return "it is not a regular file"
    data = path.read_bytes()
    if not data:
        return "it is empty"
    position = 0
    kinds: list[int | None] = []
    while position < len(data):
        head = parse_batch(data, position)
        if head is None:
            return f"a torn or damaged batch at byte {position}"
        kinds.append(_control_type(data, position))
        position += head.size
    if kinds[0] != SNAPSHOT_HEADER:
        return "it does not begin with a snapshot header"
    if len(kinds) < 2 or kinds[-1] != SNAPSHOT_FOOTER:
        return "it ends without its snapshot footer (cut short)"
    return None


def set_aside(snapshot: SnapshotFile) -> Path:
    """Rename a damaged snapshot to `<name>.damaged` (kept for a look, never read as a snapshot)."""
    target = snapshot.path.with_name(snapshot.path.name + DAMAGED_SUFFIX)
    os.replace(snapshot.path, target)
    fsync_dir(snapshot.path.parent)
    return target


def copy_into(snapshot: SnapshotFile, log_dir: Path) -> Path:
    """A durable copy of `snapshot` in `log_dir` (written beside, fsynced, renamed): how a follower gets it."""
    target = log_dir / snapshot_name(snapshot.offset, snapshot.epoch)
    partial = log_dir / f"{target.name}.{uuid.uuid4().hex[:12]}.part"
    try:
        shutil.copyfile(snapshot.path, partial)
        fd = os.open(partial, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    fsync_dir(log_dir)
    return target


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
