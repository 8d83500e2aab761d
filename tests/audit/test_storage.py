"""Files written through Spark's Hadoop filesystem layer (kcli.audit.storage) replace their target whole.

A real local Spark session; the files are read back by Python's own file calls, which see the file
system as any other reader of the audit's output would.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import pytest

from kcli.audit.storage import to_uri

pytestmark = pytest.mark.spark

ROUNDS = 40


def _storage(spark: Any) -> Any:
    from kcli.audit.storage import Storage

    return Storage(spark)


def _leftovers(directory: Path, keep: str) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name != keep)


@pytest.mark.timeout(300)
def test_concurrent_writers_of_one_file_each_replace_it_whole(spark: Any, tmp_path: Path) -> None:
    storage = _storage(spark)
    target = tmp_path / "findings.jsonl"
    # Two writers, each writing its own payloads of different sizes; a reader watches the file.
    payloads = {
        writer: [bytes([65 + writer]) * (100_000 + 37_000 * n) for n in range(ROUNDS)] for writer in (0, 1)
    }
    storage.write_bytes(to_uri(str(target)), b"first")
    whole = {b"first", *payloads[0], *payloads[1]}
    errors: list[BaseException] = []
    seen: list[bytes] = []
    done = threading.Event()

    def write(writer: int) -> None:
        try:
            for data in payloads[writer]:
                storage.write_bytes(to_uri(str(target)), data)
        except BaseException as error:
            errors.append(error)

    def read() -> None:
        while not done.is_set():
            try:
                seen.append(target.read_bytes())
            except BaseException as error:  # a missing file between a delete and a rename
                errors.append(error)
                return

    writers = [threading.Thread(target=write, args=(w,)) for w in (0, 1)]
    reader = threading.Thread(target=read)
    reader.start()
    for thread in writers:
        thread.start()
    for thread in writers:
        thread.join()
    done.set()
    reader.join()
    assert errors == []
    assert seen and all(data in whole for data in seen), "a reader saw a file that no writer wrote whole"
    assert target.read_bytes() in {payloads[0][-1], payloads[1][-1]}
    assert _leftovers(tmp_path, target.name) == []  # no temporary file stays behind


def test_a_write_that_fails_midway_leaves_the_old_file_and_no_temporary(spark: Any, tmp_path: Path) -> None:
    storage = _storage(spark)
    target = tmp_path / "warnings.jsonl"
    storage.write_bytes(to_uri(str(target)), b"old\n")

    def arriving() -> Iterator[int]:  # bytes from a source that breaks after the file was created
        yield from b"new, but only half of it"
        raise OSError("the source went away")

    with pytest.raises(OSError, match="the source went away"):
        storage.write_bytes(to_uri(str(target)), cast(bytes, arriving()))
    assert target.read_bytes() == b"old\n"
    assert _leftovers(tmp_path, target.name) == []


def test_a_copy_from_a_missing_source_leaves_the_old_file_and_no_temporary(
    spark: Any, tmp_path: Path
) -> None:
    storage = _storage(spark)
    target = tmp_path / "findings.jsonl"
    storage.write_bytes(to_uri(str(target)), b"old\n")
    with pytest.raises(Exception, match="FileNotFoundException"):
        storage.copy(to_uri(str(tmp_path / "part-00000.json")), to_uri(str(target)))
    assert target.read_bytes() == b"old\n"
    assert _leftovers(tmp_path, target.name) == []


def test_a_directory_in_the_way_is_not_replaced(spark: Any, tmp_path: Path) -> None:
    storage = _storage(spark)
    target = tmp_path / "findings.jsonl"
    (target / "kept").mkdir(parents=True)
    with pytest.raises(OSError, match="it is a directory"):
        storage.write_bytes(to_uri(str(target)), b"new\n")
    assert (target / "kept").is_dir()
    assert _leftovers(tmp_path, target.name) == []
