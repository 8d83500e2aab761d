"""The small text files beside a partition's segments, in Kafka's formats.

- `partition.metadata` in each partition dir: `version: 0` and `topic_id: <id>` (PartitionMetadata).
- `leader-epoch-checkpoint` in each partition dir: version 0, the entry count, `<epoch> <start offset>`
  lines (LeaderEpochCheckpointFile).
- In each log dir, `recovery-point-offset-checkpoint`, `replication-offset-checkpoint` (the high
  watermarks) and `log-start-offset-checkpoint`: version 0, the entry count, `<topic> <partition>
  <offset>` lines (OffsetCheckpointFile).
Every file is written to a `.tmp` sibling, fsynced and renamed, as Kafka writes them; a file that
does not parse reads as absent.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import Iterable, Mapping
from pathlib import Path

from kcli.metadata.uuids import kafka_uuid, parse_kafka_uuid

PARTITION_METADATA = "partition.metadata"
EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
RECOVERY_POINTS = "recovery-point-offset-checkpoint"
HIGH_WATERMARKS = "replication-offset-checkpoint"
LOG_STARTS = "log-start-offset-checkpoint"


def replace(path: Path, text: str) -> None:
    """Write `text` to `path` atomically and durably."""
    temporary = path.with_name(path.name + ".tmp")
    with open(temporary, "w", encoding="utf-8") as out:
        out.write(text)
        out.flush()
        os.fsync(out.fileno())
    os.replace(temporary, path)


def write_partition_metadata(directory: Path, topic_id: uuid.UUID) -> None:
    replace(directory / PARTITION_METADATA, f"version: 0\ntopic_id: {kafka_uuid(topic_id)}")


def read_partition_metadata(directory: Path) -> uuid.UUID | None:
    """The topic id a partition dir belongs to (None when the file is missing or unreadable)."""
    with contextlib.suppress(OSError, ValueError, UnicodeDecodeError):
        fields = dict(
            line.split(": ", 1)
            for line in (directory / PARTITION_METADATA).read_text(encoding="utf-8").splitlines()
            if ": " in line
        )
        if fields.get("version") == "0" and "topic_id" in fields:
            return parse_kafka_uuid(fields["topic_id"].strip())
    return None


def _lines(path: Path) -> list[list[str]] | None:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    if len(lines) < 2 or lines[0].strip() != "0" or not lines[1].strip().isdigit():
        return None
    rows = [line.split() for line in lines[2:] if line.strip()]
    return rows if len(rows) == int(lines[1]) else None


def write_epochs(directory: Path, epochs: Iterable[tuple[int, int]]) -> None:
    entries = list(epochs)
    replace(
        directory / EPOCH_CHECKPOINT,
        "".join(["0\n", f"{len(entries)}\n", *(f"{e} {o}\n" for e, o in entries)]),
    )


def read_epochs(directory: Path) -> list[tuple[int, int]]:
    rows = _lines(directory / EPOCH_CHECKPOINT)
    with contextlib.suppress(ValueError, IndexError):
        return [(int(row[0]), int(row[1])) for row in rows or ()]
    return []


def write_offsets(log_dir: Path, name: str, offsets: Mapping[tuple[str, int], int]) -> None:
    rows = sorted(offsets.items())
    replace(log_dir / name, "".join(["0\n", f"{len(rows)}\n", *(f"{t} {p} {o}\n" for (t, p), o in rows)]))


def read_offsets(log_dir: Path, name: str) -> dict[tuple[str, int], int]:
    rows = _lines(log_dir / name)
    out: dict[tuple[str, int], int] = {}
    with contextlib.suppress(ValueError, IndexError):
        for row in rows or ():
            out[(row[0], int(row[1]))] = int(row[2])
    return out
