"""Read only what is needed: the record types that shape a part of the shell tree, and a reader of
chosen record types.

`keys_for(path, depth)` says which metadata record types (api keys) an image must replay for a
command to show the node at `path` and `depth` levels below it (`ls` 1, `ls -l` 2, `cat` 0, `find`
and `tree` every level; None for every level): `ls /image/topics/byName` needs TopicRecord and
RemoveTopicRecord, not the partitions. `build_image(..., keys=...)` then passes every other record
over after its frame header. Control records and the transaction markers are always read.
`topics_for` narrows the partitions kept the same way: `cat /image/topics/byName/T/0` needs T's
alone (a 1,000,000-partition image is then T's few, not every partition in memory).

`read_records(path, keys)` gives the records of those types in one file, as Entries whose `record`
is a light view of the decoded fields (attribute names of the record classes, `__record_name__`);
records of other types are framed, CRC-checked and counted, never decoded.
"""

from __future__ import annotations

import functools
from collections import namedtuple
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from kcli.metadata.framing import FastHandler, RunHandler
from kcli.metadata.read_model import BatchSpan, Entry, ReadStats
from kcli.metadata.reader import FileReader
from kcli.metadata.tree import ALIASES

TOPIC_NAMES = frozenset({2, 9})  # TopicRecord, RemoveTopicRecord
TOPICS = frozenset({2, 3, 5, 9, 28})  # + PartitionRecord, PartitionChangeRecord, ClearElrRecord
# The areas of the tree with their record types: (path, types for the names below it, types for more).
_AREAS: tuple[tuple[tuple[str, ...], frozenset[int], frozenset[int]], ...] = (
    (("image", "features"), frozenset({12, 16, 21}), frozenset({12, 16, 21})),
    (("image", "cluster", "brokers"), frozenset({0, 1}), frozenset({0, 1, 7, 8, 17})),
    (("image", "cluster", "controllers"), frozenset({27, 29}), frozenset({27, 29})),
    (("image", "topics", "byName"), TOPIC_NAMES, TOPICS),
    (("image", "topics", "byId"), TOPIC_NAMES, TOPICS),
    # a RemoveTopicRecord drops its topic's configs: it needs the topic's name
    (("image", "configs"), frozenset({2, 4, 9}), frozenset({2, 4, 9})),
    (("image", "clientQuotas"), frozenset({14}), frozenset({14})),
    (("image", "producerIds"), frozenset({15}), frozenset({15})),
    (("image", "acls", "byId"), frozenset({18, 19}), frozenset({18, 19})),
    (("image", "scram"), frozenset({11, 22}), frozenset({11, 22})),
    (("image", "delegationToken"), frozenset({10, 26}), frozenset({10, 26})),
)
# Where the tree does not yet depend on records: below these only the areas above are dynamic.
_STATIC = {(), ("image",), ("image", "cluster"), ("image", "topics"), ("image", "acls")}


def keys_for(path: tuple[str, ...], depth: int | None) -> frozenset[int] | None:
    """The record types the node at `path` (absolute components, no globs) needs to be shown down to
    `depth` levels below it (None: every level); None when the whole image is needed."""
    if path and path[0] in ALIASES:
        path = ALIASES[path[0]] + path[1:]
    if path[:1] == ("local",) or (path == () and (depth is None or depth > 2)):
        return None  # the counts of unknown and skipped records: every body decoded
    if path == ("image", "provenance"):
        return frozenset()
    needed: set[int] = set()
    for area, names, more in _AREAS:
        if path[: len(area)] == area:  # the node is in this area: names do for listing the area itself
            listing_the_area = len(path) == len(area) and depth is not None and depth <= 1
            return names if listing_the_area else more
        if area[: len(path)] == path:  # the area is below the node
            distance = len(area) - len(path)
            if depth is None or distance < depth:
                level = depth - distance if depth is not None else 99
                needed |= names if level <= 1 else more
    if path not in _STATIC and path[:1] != ("image",):
        return frozenset()  # no such node: nothing to read
    return frozenset(needed)


class Projection(NamedTuple):
    """What a one-shot command needs replayed: the record types (None: every type) and the topics whose
    partitions it shows, by name or by id in Kafka's text form (None: every topic's)."""

    keys: frozenset[int] | None
    topics: frozenset[str] | None


def topics_for(path: tuple[str, ...], depth: int | None) -> frozenset[str] | None:
    """The topics whose partitions the node at `path` needs down to `depth` levels (see `keys_for`):
    the one topic below /image/topics/byName or byId; none where no partition record is needed."""
    if path and path[0] in ALIASES:
        path = ALIASES[path[0]] + path[1:]
    if len(path) >= 4 and path[:2] == ("image", "topics") and path[2] in ("byName", "byId"):
        return frozenset({path[3]})
    keys = keys_for(path, depth)
    return None if keys is None or keys & _PARTITION_KEYS else frozenset()


_PARTITION_KEYS = frozenset({3, 5, 28})  # PartitionRecord, PartitionChangeRecord, ClearElrRecord


def projection_of(requests: Iterable[tuple[tuple[str, ...], int | None]]) -> Projection:
    """The union over (path, depth) requests of `keys_for` and `topics_for`."""
    keys: set[int] | None = set()
    topics: set[str] | None = set()
    for path, depth in requests:
        needed = keys_for(path, depth)
        keys = None if keys is None or needed is None else keys | needed
        named = topics_for(path, depth)
        topics = None if topics is None or named is None else topics | named
    return Projection(
        None if keys is None else frozenset(keys), None if topics is None else frozenset(topics)
    )


# -- reading chosen record types ----------------------------------------------------------------------


@functools.cache
def record_view(api_key: int, version: int) -> Any:
    """A named tuple class over the field values of one flat record class (None: not flat), with
    the class's `__record_name__`, `__api_key__` and `__version__`."""
    from kcli.metadata.fastdecode import field_names, values_reader
    from kcli.metadata.records import METADATA_RECORD_CLASSES

    cls = METADATA_RECORD_CLASSES.get((api_key, version))
    if cls is None or values_reader(api_key, version) is None:
        return None
    view = namedtuple(f"{cls.__name__}View", field_names(cls))  # type: ignore[misc]
    view.__record_name__ = cls.__record_name__  # type: ignore[attr-defined]
    view.__api_key__ = api_key  # type: ignore[attr-defined]
    view.__version__ = version  # type: ignore[attr-defined]
    return view


class _Chosen:
    """The sink of `read_records`: the chosen types through the general decoder, the rest skipped."""

    def __init__(self, keys: frozenset[int], out: list[Entry]) -> None:
        from kcli.metadata.records import METADATA_RECORD_CLASSES

        self.handlers: dict[bytes, FastHandler | None] = {
            bytes((1, key, version)): None
            for key, version in METADATA_RECORD_CLASSES
            if key not in keys and key < 0x80 and version < 0x80
        }
        self.runs: dict[bytes, RunHandler] = {}
        self.keys = keys
        self.out = out

    def begin(self, batch: BatchSpan) -> None:
        pass

    def entry(self, entry: Entry) -> None:
        if entry.control or entry.key not in self.keys:
            return
        record = entry.record
        if type(record) is tuple:
            view = record_view(entry.key, entry.version)
            if view is not None:
                entry = entry._replace(record=view._make(record))
        self.out.append(entry)

    def noops(self, batch: BatchSpan) -> None:
        pass


def read_records(
    path: Path | str,
    keys: Iterable[int],
    *,
    stats: ReadStats | None = None,
    skip_corrupt: bool = False,
    min_offset: int = 0,
    data: bytes | None = None,
) -> Iterator[Entry]:
    """The data records of the types `keys` in one file, in order (see the module docstring).

    `data` is the file's content when the caller already holds it (a Spark task reading through
    Hadoop's filesystem layer); `path` then only names the file in messages.

    Corrupt data follows the reader's policy: DecodeError, or with `skip_corrupt` counted in
    `stats` (its `problems` say what and where) while reading goes on.
    """
    chosen = frozenset(keys)
    reader = FileReader(
        path=Path(path),
        stats=stats if stats is not None else ReadStats(),
        skip_corrupt=skip_corrupt,
        skip_noop=20 not in chosen,
        values=chosen,
        min_offset=min_offset,
    )
    out: list[Entry] = []
    yield from reader.collected(_Chosen(chosen, out), out, data)
