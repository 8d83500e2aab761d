"""A large snapshot dumped by two processes: a forked child renders the second half of its batches
into a temporary file while this process renders the first half to stdout; the child's text follows.

Behavior:
- Only for a snapshot file of at least SPLIT_BYTES, read without --skip-corrupt, where fork exists
  and more than one CPU is there to use; anything else is read in one pass by the caller.
- The split is the first batch boundary at or past the middle, found by walking the batch lengths
  from the start; lengths that do not walk cleanly leave the file to the one pass (whose reader
  says what is wrong where).
- The output and the exit code are the one pass's: the child's half is used only when it read
  clean (no problem, no broken invariant) and its first batch follows this half's last (offset
  above, leader epoch not below). Otherwise this process reads the second half itself, its checks
  going on from the first half, as the one pass would have; the child's text is dropped.
- An error in the first half ends the dump as in one pass; the child is stopped and reaped.
"""

from __future__ import annotations

import dataclasses
import json
import os
import struct
from collections.abc import Callable
from pathlib import Path
from typing import IO

from kcli.metadata.read_model import BATCH_OVERHEAD, ReadStats
from kcli.metadata.reader import FileReader
from kcli.processes import Forked, kill_child
from kcli.writes import scratch_file

SPLIT_BYTES = 16 * 1024 * 1024  # below this the fork and the copy cost more than they win
COPY_BYTES = 1024 * 1024

Scan = Callable[[FileReader, Callable[[str], object], bool], None]  # (reader, write, resume)


def split_point(path: Path) -> int | None:
    """The first batch boundary at or past the middle of a file of SPLIT_BYTES or more, or None."""
    with open(path, "rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        if size < SPLIT_BYTES:
            return None
        position = 0
        while position < size // 2:
            handle.seek(position)
            head = handle.read(12)
            if len(head) < 12:
                return None
            length = struct.unpack_from(">i", head, 8)[0]
            if length < BATCH_OVERHEAD - 12 or position + 12 + length > size:
                return None
            position += 12 + length
        return position if position < size else None


def _first_batch(path: Path, position: int) -> tuple[int, int]:
    """(base offset, partition leader epoch) of the batch at `position`."""
    with open(path, "rb") as handle:
        handle.seek(position)
        base_offset, _length, epoch = struct.unpack(">qii", handle.read(16))
    return base_offset, epoch


def dump_in_halves(reader: FileReader, scan: Scan, write: Callable[[str], object]) -> bool:
    """Dump the reader's file in two processes (as the module says); False when it does not apply
    and nothing was read (the caller then reads it in one pass)."""
    if not hasattr(os, "fork") or _cpus() < 2 or reader.skip_corrupt:
        return False
    split = split_point(reader.path)
    if split is None:
        return False
    warned = len(reader.stats.warnings)
    with scratch_file(what="the second half of the dump") as text, scratch_file(what="its report") as report:
        pid = os.fork()
        if pid == 0:  # pragma: no cover (the child ends in os._exit; its work shows in its output)
            _second_half(reader, split, scan, text, report)
        child = Forked(pid)
        try:
            reader.stop = split
            scan(reader, write, False)
        except BaseException:
            kill_child(child)
            raise
        finally:
            reader.stop = None
            child.wait()
        report.seek(0)
        result = json.loads(report.read() or "{}")
        # With the first half clean, its last batch holds the highest offset and the latest epoch
        # read: the second half's first batch must come after both, as the one pass checks.
        first_offset, first_epoch = _first_batch(reader.path, split)
        follows = (
            len(reader.stats.warnings) == warned
            and (reader.last_good_offset is None or first_offset > reader.last_good_offset)
            and first_epoch >= reader.last_epoch
        )
        if not (result.get("clean") and follows):
            reader.start = split
            try:
                scan(reader, write, True)  # as one pass would: the checks go on from the first half
            finally:
                reader.start = 0
            return True
        text.seek(0)
        while chunk := text.read(COPY_BYTES):
            write(chunk)
        stats = reader.stats
        stats.batches += result["batches"]
        stats.records += result["records"]
        stats.unknown += result["unknown"]
        reader.last_good_offset, reader.last_epoch, reader.last_timestamp = result["last"]
    return True


def _cpus() -> int:
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def _second_half(reader: FileReader, split: int, scan: Scan, text: IO[str], report: IO[str]) -> None:
    """In the child: read from `split` to the end into `text`, tell the parent how it went, exit."""
    answer: dict[str, object] = {"clean": False}
    try:
        second = dataclasses.replace(reader, stats=ReadStats(), start=split, stop=None)
        scan(second, text.write, False)
        text.flush()
        stats = second.stats
        answer = {
            "clean": not (stats.problems or stats.warnings or stats.skipped or stats.partial_tail_bytes),
            "batches": stats.batches,
            "records": stats.records,
            "unknown": stats.unknown,
            "last": [second.last_good_offset, second.last_epoch, second.last_timestamp],
        }
    except BaseException:
        pass  # whatever went wrong (a damaged batch, Ctrl-C): the parent reads this half itself
    finally:
        try:
            report.write(json.dumps(answer))
            report.flush()
        finally:
            os._exit(0)
