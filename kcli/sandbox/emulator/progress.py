"""Copy progress of in-flight replica moves, kept across restarts in DIR/replica-progress.json.

A Kafka broker resumes a half-copied replica from the data already on its disk, and so does the
sandbox (its adding and future replicas hold real batches, kcli.sandbox.emulator.data.copies). Which
log-dir moves are running, their targets, and the bytes each adding replica (reassignment) and each
future replica (AlterReplicaLogDirs) has copied are saved here: about once a second while something
moves, and at shutdown. `up` on the same DIR resumes the moves; the metadata log still says which
reassignments are running, and an entry whose move is gone is ignored.

Format (version 1): {"version": 1, "reassignments": [{"topic_id", "partition", "copied"}],
"log_dir_moves": [{"topic_id", "partition", "broker", "target", "copied"}]} with ids as UUID strings.
"""

from __future__ import annotations

import contextlib
import json
import os
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

PROGRESS_FILE = "replica-progress.json"


@dataclass(slots=True, kw_only=True)
class SavedProgress:
    """What a previous run had copied: reassignment copies and log-dir moves."""

    copies: dict[tuple[uuid.UUID, int], float] = field(default_factory=dict)
    moves: dict[tuple[uuid.UUID, int, int], tuple[uuid.UUID, float]] = field(default_factory=dict)


def load(directory: Path) -> SavedProgress:
    """The saved progress in `directory` (empty when there is none or it cannot be read)."""
    path = directory / PROGRESS_FILE
    saved = SavedProgress()
    try:
        data: Any = json.loads(path.read_text(encoding="utf-8"))
        if data.get("version") != 1:
            return saved
        for item in data.get("reassignments", []):
            saved.copies[(uuid.UUID(item["topic_id"]), int(item["partition"]))] = float(item["copied"])
        for item in data.get("log_dir_moves", []):
            key = (uuid.UUID(item["topic_id"]), int(item["partition"]), int(item["broker"]))
            saved.moves[key] = (uuid.UUID(item["target"]), float(item["copied"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return SavedProgress()  # no file, or one from a crash mid-write: start the copies over
    return saved


def save(
    directory: Path, copies: dict[tuple[uuid.UUID, int], Any], moves: dict[tuple[uuid.UUID, int, int], Any]
) -> None:
    """Write the progress of `copies` (reassign.Copy) and `moves` (logdirs.Move); remove the file when idle."""
    path = directory / PROGRESS_FILE
    if not copies and not moves:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    data = {
        "version": 1,
        "reassignments": [
            {"topic_id": str(topic_id), "partition": partition, "copied": copy.copied}
            for (topic_id, partition), copy in sorted(copies.items())
        ],
        "log_dir_moves": [
            {
                "topic_id": str(topic_id),
                "partition": partition,
                "broker": broker,
                "target": str(move.target),
                "copied": move.copied,
            }
            for (topic_id, partition, broker), move in sorted(moves.items())
        ],
    }
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data) + "\n", encoding="utf-8")
    os.replace(temporary, path)
