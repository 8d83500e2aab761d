"""A large snapshot's --dump in two processes (kcli.shell.halves) prints what one pass prints, byte for
byte, and exits as it does: clean, with a damaged batch in either half, with offsets that go back at
the split. One pass is the same command held to one CPU (halves needs two)."""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from kio.static.primitive import i16, i32

from kcli.metadata import records as r
from kcli.metadata.writer import MetadataLogWriter
from kcli.shell.halves import SPLIT_BYTES, split_point

pytestmark = pytest.mark.skipif(
    not hasattr(os, "sched_getaffinity") or len(os.sched_getaffinity(0)) < 2,
    reason="a dump in halves needs two CPUs",
)

# Runs kcli as its console script does, telling on stderr whether the dump went in halves.
PROBE = """
import sys
import kcli.shell.log_reading as reading
used = reading.dump_in_halves
def told(*args):
    done = "raised"
    try:
        done = used(*args)
    finally:
        sys.stderr.write(f"HALVES {done}\\n")
    return done
reading.dump_in_halves = told
sys.argv = ["kcli", *sys.argv[1:]]
from kcli.cli.entry import console
console()
"""


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A snapshot of 1,600 topics x 90 partitions (some 18 MB, in Kafka's 8 MiB batches)."""

    def image() -> object:
        yield r.FeatureLevelRecord(name="metadata.version", feature_level=i16(25))
        replicas = (i32(1), i32(2), i32(3))
        for t in range(1600):
            topic_id = uuid.UUID(int=t + 1)
            yield r.TopicRecord(name=f"topic-{t:05d}", topic_id=topic_id)
            for p in range(90):
                yield r.PartitionRecord(
                    partition_id=i32(p), topic_id=topic_id, replicas=replicas, isr=replicas[: 2 + p % 2],
                    removing_replicas=(), adding_replicas=(), leader=i32(1 + p % 3), leader_epoch=i32(p % 5),
                    partition_epoch=i32(p % 7), directories=(uuid.UUID(int=7 + p % 3),) * 3,
                )  # fmt: skip

    with MetadataLogWriter(
        tmp_path_factory.mktemp("halves"), node_id=1, cluster_id="WnLkTHhkQaiJbwP8FClPhw"
    ) as log:
        path = log.write_snapshot(image(), offset=200_000, epoch=3)  # type: ignore[arg-type]
    assert path.stat().st_size >= SPLIT_BYTES
    return path


def _dump(path: Path, *, cpus: int, as_json: bool = True) -> tuple[int, str, str]:
    """(exit code, stdout, stderr without the probe's line) of `kcli metadata-shell --snapshot P --dump`."""
    one = min(os.sched_getaffinity(0))
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            PROBE,
            "metadata-shell",
            "--snapshot",
            str(path),
            "--dump",
            *(["-o", "json"] if as_json else []),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        preexec_fn=(lambda: os.sched_setaffinity(0, {one})) if cpus == 1 else None,
    )
    told = [line for line in done.stderr.splitlines() if line.startswith("HALVES ")]
    rest = "".join(line + "\n" for line in done.stderr.splitlines() if not line.startswith("HALVES "))
    # with two CPUs the halves ran: to the end, or until the first half's error ended the dump
    assert told in ([f"HALVES {cpus == 2}"], ["HALVES raised"] if cpus == 2 else []), done.stderr[-2000:]
    return done.returncode, done.stdout, rest


def _damaged(snapshot: Path, tmp_path: Path, where: str) -> Path:
    """A copy with one byte of a batch flipped (its CRC no longer matches), in the first or second half."""
    split = split_point(snapshot)
    assert split is not None
    data = bytearray(snapshot.read_bytes())
    data[split // 2 if where == "first" else split + (len(data) - split) // 2] ^= 0xFF
    copy = tmp_path / snapshot.name
    copy.write_bytes(data)
    return copy


def test_a_clean_snapshot_dumps_in_halves_as_in_one_pass(snapshot: Path) -> None:
    for as_json in (True, False):
        halves, one = _dump(snapshot, cpus=2, as_json=as_json), _dump(snapshot, cpus=1, as_json=as_json)
        assert halves[0] == 0 and halves[2] == ""
        assert halves == one
    assert len(halves[1].splitlines()) > 140_000


@pytest.mark.parametrize("where", ["first", "second"])
def test_a_damaged_batch_in_either_half_ends_the_dump_as_one_pass_does(
    snapshot: Path, tmp_path: Path, where: str
) -> None:
    copy = _damaged(snapshot, tmp_path, where)
    halves, one = _dump(copy, cpus=2), _dump(copy, cpus=1)
    assert halves[0] != 0 and "CRC" in halves[2]
    assert halves == one
    # every record read before the damaged batch is printed, up to the last good offset the error names
    last_good = int(halves[2].split("last good offset ")[1].split(")")[0])
    assert json.loads(halves[1].splitlines()[-1])["offset"] == last_good


def test_offsets_that_go_back_at_the_split_warn_as_in_one_pass(snapshot: Path, tmp_path: Path) -> None:
    """The base offset is outside the batch CRC: the second half's first batch moved back reads clean
    on its own, and only the split's check sees it."""
    split = split_point(snapshot)
    assert split is not None
    data = bytearray(snapshot.read_bytes())
    (base,) = struct.unpack_from(">q", data, split)
    struct.pack_into(">q", data, split, base - 10)
    copy = tmp_path / snapshot.name
    copy.write_bytes(data)
    halves, one = _dump(copy, cpus=2), _dump(copy, cpus=1)
    assert "offsets not increasing" in halves[2]
    assert halves == one
