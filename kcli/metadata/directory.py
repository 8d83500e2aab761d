"""Find what a KRaft log directory holds and read it in replay order: newest snapshot, then the log.

Behavior:
- Accepts the log dir root (holding `__cluster_metadata-0/`), the `__cluster_metadata-0` directory
  itself, or a single file (segment, `.checkpoint`, `bootstrap.checkpoint`). A single file that is
  something else (producer-state `.snapshot`, index, quorum-state, ...) is a UsageError naming it.
- The newest `<offset>-<epoch>.checkpoint` (highest offset, then epoch) is the start state;
  `.checkpoint.part` and `.checkpoint.deleted` are ignored, as Kafka ignores them on start-up.
- Segments are read in base-offset order; only records at offsets >= the snapshot's end offset are
  replayed, and segments wholly before it are not opened.
- meta.properties, quorum-state and leader-epoch-checkpoint are read when present (never required),
  through kcli.files (bounded, never waiting on a FIFO); one that cannot be read is a note, not an
  error. A segment- or snapshot-named entry that is not a regular file (a directory, a dangling
  link, a link loop, a FIFO) is a UsageError naming it, before anything is opened.
- The last segment is the one a running node appends to: a batch still being written at its end
  is the end of the data (FileReader.live_tail). Nothing is locked: reading takes no lock.
"""

from __future__ import annotations

import errno
import itertools
import json
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.errors import UsageError
from kcli.integers import java_long
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from kcli.properties import parse_properties

METADATA_PARTITION = "__cluster_metadata-0"
_SEGMENT = re.compile(r"^(\d{20})\.log$")
_SNAPSHOT = re.compile(r"^(\d{20})-(\d{10})\.checkpoint$")
# Files that sit next to log segments but hold something else, by name (a reader would call them
# corrupt batches, or worse read an all-zero index as an empty log).
_OTHER_FILE_SUFFIXES = {
    ".snapshot": "a producer-state snapshot",
    ".index": "an offset index",
    ".timeindex": "a time index",
    ".txnindex": "a transaction index",
}
_OTHER_FILE_NAMES = {
    "quorum-state": "the KRaft quorum-state file",
    "leader-epoch-checkpoint": "a leader-epoch checkpoint",
    "meta.properties": "a log directory's meta.properties",
    "partition.metadata": "a partition.metadata file",
    "replication-offset-checkpoint": "a replication-offset checkpoint",
    "recovery-point-offset-checkpoint": "a recovery-point checkpoint",
    "log-start-offset-checkpoint": "a log-start-offset checkpoint",
    "cleaner-offset-checkpoint": "a cleaner-offset checkpoint",
}
_WHAT_TO_PASS = "pass a .log segment or a .checkpoint snapshot, or the log directory with --directory"
_BATCH_MAGIC_AT = 16  # baseOffset int64, batchLength int32, partitionLeaderEpoch int32, then magic


@dataclass(frozen=True, slots=True, kw_only=True)
class SourceFile:
    """One file in replay order: a snapshot (start state) or a log segment."""

    path: Path
    kind: str  # "snapshot" | "segment" | "bootstrap"
    offset: int = 0  # snapshot end offset, or segment base offset
    epoch: int = -1  # snapshot epoch
    min_offset: int = 0  # records below this offset are skipped (already in the snapshot)


@dataclass(frozen=True, slots=True, kw_only=True)
class LogDirectory:
    """The files of one metadata log, in the order they are replayed, and the side files' contents."""

    root: Path | None
    sources: tuple[SourceFile, ...]
    meta_properties: dict[str, str] = field(default_factory=dict)
    quorum_state: dict[str, Any] | None = None
    leader_epochs: tuple[tuple[int, int], ...] = ()
    notes: tuple[str, ...] = ()  # side files that could not be read, each one line

    @property
    def warnings(self) -> tuple[str, ...]:
        """What breaks Kafka's invariants in the side files: a leader-epoch-checkpoint whose epochs
        or start offsets go backwards (the reader checks the log itself)."""
        if self.root is None:
            return ()
        out = []
        for (epoch, start), (next_epoch, next_start) in itertools.pairwise(self.leader_epochs):
            if next_epoch <= epoch or next_start < start:
                out.append(
                    f"{self.root / METADATA_PARTITION / 'leader-epoch-checkpoint'}: epoch {next_epoch} starts at "
                    f"offset {next_start}, after epoch {epoch} at offset {start} (epochs or offsets go backwards)"
                )
        return tuple(out)

    @property
    def snapshot(self) -> SourceFile | None:
        return next((source for source in self.sources if source.kind == "snapshot"), None)


def classify_file(path: Path) -> SourceFile:
    """A single file given with --snapshot: what it is, judged by its name."""
    snapshot = _SNAPSHOT.match(path.name.removesuffix(".deleted"))
    if snapshot:
        return SourceFile(path=path, kind="snapshot", offset=int(snapshot[1]), epoch=int(snapshot[2]))
    segment = _SEGMENT.match(path.name)
    if segment:
        return SourceFile(path=path, kind="segment", offset=int(segment[1]))
    if path.name == "bootstrap.checkpoint":
        return SourceFile(path=path, kind="bootstrap")
    return SourceFile(path=path, kind="segment")


def check_metadata_file(path: Path) -> None:
    """UsageError unless `path` can be a metadata log segment or snapshot: by name, else by its first batch."""
    kind = _OTHER_FILE_NAMES.get(path.name) or next(
        (what for suffix, what in _OTHER_FILE_SUFFIXES.items() if path.name.endswith(suffix)), None
    )
    if kind is None and not (
        _SEGMENT.match(path.name) or _SNAPSHOT.match(path.name.removesuffix(".deleted"))
    ):
        # An unfamiliar name: judge by the first record batch (magic 2); an empty file is an empty log.
        try:
            with path.open("rb") as file:
                head = file.read(_BATCH_MAGIC_AT + 1)
        except OSError as error:
            raise UsageError(f"{path}: {error.strerror or error}") from None
        if head and (len(head) <= _BATCH_MAGIC_AT or head[_BATCH_MAGIC_AT] != 2):
            kind = "no record batch at its start"
    if kind is not None:
        raise UsageError(f"{path} is not a metadata log segment or snapshot ({kind}): {_WHAT_TO_PASS}")


def find_log_directory(path: Path | str) -> LogDirectory:
    """Locate the metadata log under `path`; UsageError when there is none."""
    path = Path(path)
    if path.is_file():
        check_metadata_file(path)
        return LogDirectory(root=None, sources=(classify_file(path),))
    if not path.is_dir():
        raise UsageError(f"{path}: {_not_a_file(path) or 'no such file or directory'}")
    log_dir = path / METADATA_PARTITION if (path / METADATA_PARTITION).is_dir() else path
    root = log_dir.parent if log_dir.name == METADATA_PARTITION else log_dir
    snapshots: list[SourceFile] = []
    segments: list[SourceFile] = []
    for child in log_dir.iterdir():
        if _SNAPSHOT.match(child.name) or _SEGMENT.match(child.name):
            problem = _not_a_file(child)
            if problem is not None:
                raise UsageError(f"{child} {problem}, not a log file", hint="move it out of the log directory")
        snapshot = _SNAPSHOT.match(child.name)
        if snapshot:
            snapshots.append(
                SourceFile(path=child, kind="snapshot", offset=int(snapshot[1]), epoch=int(snapshot[2]))
            )
            continue
        segment = _SEGMENT.match(child.name)
        if segment:
            segments.append(SourceFile(path=child, kind="segment", offset=int(segment[1])))
    if not snapshots and not segments:
        raise UsageError(
            f"{path}: not a KRaft metadata log directory (no {METADATA_PARTITION}/ with .log or .checkpoint files)"
        )
    segments.sort(key=lambda source: source.offset)
    sources: list[SourceFile] = []
    start = 0
    if snapshots:
        newest = max(snapshots, key=lambda source: (source.offset, source.epoch))
        sources.append(newest)
        start = newest.offset
    for index, found in enumerate(segments):
        following = segments[index + 1].offset if index + 1 < len(segments) else None
        if following is not None and following <= start:
            continue  # wholly before the snapshot
        sources.append(SourceFile(path=found.path, kind="segment", offset=found.offset, min_offset=start))
    notes: list[str] = []
    return LogDirectory(
        root=root,
        sources=tuple(sources),
        meta_properties=_properties(root / "meta.properties", notes),
        quorum_state=_json(log_dir / "quorum-state", notes),
        leader_epochs=_epochs(log_dir / "leader-epoch-checkpoint", notes),
        notes=tuple(notes),
    )


def _not_a_file(path: Path) -> str | None:
    """Why `path` is no regular file (following links), or None when it is one."""
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        if os.path.islink(path):
            return "is a symbolic link loop" if error.errno == errno.ELOOP else "is a dangling symbolic link"
        return None if error.errno == errno.ENOENT else f"cannot be read ({error.strerror})"
    if stat.S_ISREG(mode):
        return None
    kinds = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"))
    return "is " + next((name for test, name in kinds if test(mode)), "a device")


def full_log_sources(directory: LogDirectory) -> tuple[SourceFile, ...]:
    """Every segment from the first one on disk (the replay sources when there are no segments).

    For dumps and record history: the records themselves rather than a snapshot's summary of them.
    A single file given on its own (no `root`) stays just that file.
    """
    if directory.root is None:
        return directory.sources
    segments = [source for source in directory.sources if source.kind == "segment"]
    if not segments:
        return directory.sources
    log_dir = segments[0].path.parent
    return tuple(classify_file(path) for path in sorted(log_dir.glob("[0-9]" * 20 + ".log")))


def read_sources(
    sources: tuple[SourceFile, ...],
    *,
    stats: ReadStats,
    skip_corrupt: bool = False,
    decode: bool = True,
    skip_noop: bool = False,
    values: frozenset[int] = frozenset(),
) -> Iterator[tuple[SourceFile, FileReader]]:
    """Each source with its reader; consume `reader.entries()` before asking for the next source."""
    last_good: int | None = None
    last_epoch = -1
    last_segment = next((s for s in reversed(sources) if s.kind == "segment"), None)
    for source in sources:
        reader = FileReader(
            path=source.path,
            stats=stats,
            skip_corrupt=skip_corrupt,
            decode=decode,
            skip_noop=skip_noop,
            values=values,
            min_offset=source.min_offset,
            last_good_offset=last_good if source.kind == "segment" else None,
            last_epoch=last_epoch if source.kind == "segment" else -1,
            live_tail=source is last_segment,
        )
        yield source, reader
        if source.kind == "segment":
            last_good = reader.last_good_offset
            last_epoch = reader.last_epoch


SIDE_FILE_LIMIT = 16 * 1024 * 1024  # a leader-epoch-checkpoint of ~1M epochs; the others are tiny


def _side_text(path: Path, notes: list[str]) -> str | None:
    """A side file's text, read bounded (a FIFO, /dev/zero, a huge file or a link loop is a note)."""
    from kcli.files import read_bytes

    try:
        data = read_bytes(path, what="side file", limit=SIDE_FILE_LIMIT, pipes=False)
    except FileNotFoundError:
        return None
    except (OSError, UsageError) as error:
        reason = error.message if isinstance(error, UsageError) else f"side file {path}: {error.strerror or error}"
        notes.append(f"{reason}; not read")
        return None
    return data.decode("utf-8", errors="replace")


def _properties(path: Path, notes: list[str]) -> dict[str, str]:
    text = _side_text(path, notes)
    return {} if text is None else parse_properties(text)


def _json(path: Path, notes: list[str]) -> dict[str, Any] | None:
    text = _side_text(path, notes)
    try:
        value = json.loads(text) if text is not None else None
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _epochs(path: Path, notes: list[str]) -> tuple[tuple[int, int], ...]:
    text = _side_text(path, notes)
    if text is None:
        return ()
    try:
        lines = text.split("\n")
        count = java_long(lines[1].strip())
        if count is None or count < 0:
            return ()
        return tuple(_epoch_line(line) for line in lines[2 : 2 + count])
    except (ValueError, IndexError):
        return ()


def _epoch_line(line: str) -> tuple[int, int]:
    epoch, start = (java_long(word) for word in line.split()[:2])
    if epoch is None or start is None:
        raise ValueError(line)
    return epoch, start
