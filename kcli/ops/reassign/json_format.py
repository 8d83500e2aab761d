"""Kafka's reassignment JSON files: reading them with precise errors and writing them byte-for-byte.

Formats (kafka-reassign-partitions.sh):
- reassignment: `{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":["any","any"]}]}`
- topics to move: `{"version":1,"topics":[{"topic":"t"}]}`
Syntax errors name the line and column; structural errors name the entry. All are UsageError (exit 2).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kcli.errors import UsageError
from kcli.integers import clipped, java_long
from kcli.ops.reassign.model import Assignment, TopicPartition

ANY_LOG_DIR = "any"


@dataclass(frozen=True, slots=True, kw_only=True)
class ReassignmentEntry:
    """One partition of a reassignment file; `log_dirs` is None when the file gives none."""

    partition: TopicPartition
    replicas: tuple[int, ...]
    log_dirs: tuple[str, ...] | None = None

    def has_log_dir_moves(self) -> bool:
        return self.log_dirs is not None and any(d != ANY_LOG_DIR for d in self.log_dirs)


@dataclass(frozen=True, slots=True, kw_only=True)
class ReassignmentFile:
    """A parsed --reassignment-json-file, entries in file order."""

    entries: tuple[ReassignmentEntry, ...]

    @property
    def targets(self) -> dict[TopicPartition, tuple[int, ...]]:
        return {e.partition: e.replicas for e in self.entries}

    @property
    def topics(self) -> list[str]:
        return sorted({e.partition.topic for e in self.entries})

    @property
    def log_dir_moves(self) -> dict[tuple[TopicPartition, int], str]:
        return log_dir_moves(self.entries)


def log_dir_moves(entries: Iterable[ReassignmentEntry]) -> dict[tuple[TopicPartition, int], str]:
    """The log dir each (partition, broker) is to move to: every log dir the entries name but "any"."""
    return {
        (e.partition, b): d
        for e in entries
        if e.log_dirs is not None
        for b, d in zip(e.replicas, e.log_dirs, strict=True)
        if d != ANY_LOG_DIR
    }


def load_json(text: str, source: str) -> Any:
    """Parse JSON text, turning a syntax error into one line naming the file, line and column."""
    from kcli.integers import json_int
    from kcli.text import first_surrogate_path, may_hold_surrogates

    try:
        document = json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as error:
        raise UsageError(
            f"The input string is not a valid JSON: {source}: line {error.lineno}, "
            f"column {error.colno}: {error.msg}"
        ) from None
    except RecursionError:
        raise UsageError(f"The input string is not a valid JSON: {source}: nested too deeply") from None
    found = first_surrogate_path(document) if may_hold_surrogates(text) else None
    if found is not None:  # "\ud800": no topic or log dir Kafka's protocol can carry
        raise UsageError(f"Invalid JSON in {source}: {found[0]} {found[1]}")
    return document


def _check_version(doc: Mapping[str, Any], source: str) -> None:
    version = doc.get("version", 1)
    if version != 1 or isinstance(version, bool):
        raise UsageError(f"Not supported version field value {json.dumps(version, default=str)} in {source}")


INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1  # broker ids and partitions are Java ints


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _java_list(values: Iterable[Any]) -> str:
    """Java's List.toString form, used in the original messages: `[1, 2]`."""
    return "[" + ", ".join(str(v) for v in values) + "]"


def parse_reassignment(text: str, source: str = "reassignment JSON") -> ReassignmentFile:
    """Read a reassignment file: structure, types and log_dirs length (cluster checks come later)."""
    doc = load_json(text, source)
    if not isinstance(doc, dict):
        raise UsageError(f"Invalid reassignment JSON in {source}: expected an object with a partitions array")
    _check_version(doc, source)
    parts = doc.get("partitions")
    if parts is None:
        raise UsageError(f"Invalid reassignment JSON in {source}: missing the partitions array")
    if not isinstance(parts, list):
        raise UsageError(f"Invalid reassignment JSON in {source}: partitions must be an array")
    entries: list[ReassignmentEntry] = []
    for index, item in enumerate(parts):
        where = f"{source}: partitions[{index}]"
        if not isinstance(item, dict):
            raise UsageError(f"Invalid reassignment JSON in {where}: expected an object")
        topic = item.get("topic")
        partition = item.get("partition")
        replicas = item.get("replicas")
        if not isinstance(topic, str) or not topic:
            raise UsageError(f"Invalid reassignment JSON in {where}: topic must be a non-empty string")
        if not isinstance(partition, int) or isinstance(partition, bool) or not 0 <= partition <= INT32_MAX:
            raise UsageError(
                f"Invalid reassignment JSON in {where}: partition must be a non-negative integer (32-bit), "
                f"not {partition!r}"
            )
        if not isinstance(replicas, list):
            raise UsageError(f"Invalid reassignment JSON in {where}: replicas must be an array of broker ids")
        for position, replica in enumerate(replicas):
            if not _int(replica) or not INT32_MIN <= replica <= INT32_MAX:
                raise UsageError(
                    f"Invalid reassignment JSON in {where}: replicas must be an array of broker ids "
                    f"(32-bit integers); replicas[{position}] is {replica!r}"
                )
        tp = TopicPartition(topic, partition)
        log_dirs_value = item.get("log_dirs")
        log_dirs: tuple[str, ...] | None = None
        if log_dirs_value is not None:
            if not isinstance(log_dirs_value, list) or not all(isinstance(d, str) for d in log_dirs_value):
                raise UsageError(
                    f"Invalid reassignment JSON in {where}: log_dirs must be an array of strings"
                )
            if len(log_dirs_value) != len(replicas):
                raise UsageError(
                    f"Size of replicas list {_java_list(replicas)} is different from size of log dirs list "
                    f"{_java_list(log_dirs_value)} for partition {tp}"
                )
            for d in log_dirs_value:
                if d != ANY_LOG_DIR and not d.startswith("/"):
                    raise UsageError(
                        f'Invalid reassignment JSON in {where}: log dir {d!r} must be "any" or an absolute path'
                    )
            log_dirs = tuple(log_dirs_value)
        entries.append(ReassignmentEntry(partition=tp, replicas=tuple(replicas), log_dirs=log_dirs))
    return ReassignmentFile(entries=tuple(entries))


def parse_topics_to_move(text: str, source: str = "topics-to-move JSON") -> list[str]:
    """Read a --topics-to-move-json-file; topics in file order, duplicates refused as the original does."""
    doc = load_json(text, source)
    if not isinstance(doc, dict):
        raise UsageError(f"Invalid topics-to-move JSON in {source}: expected an object with a topics array")
    _check_version(doc, source)
    items = doc.get("topics")
    if not isinstance(items, list):
        raise UsageError(f"Invalid topics-to-move JSON in {source}: missing the topics array")
    topics: list[str] = []
    for index, item in enumerate(items):
        topic = item.get("topic") if isinstance(item, dict) else None
        if not isinstance(topic, str) or not topic:
            raise UsageError(
                f'Invalid topics-to-move JSON in {source}: topics[{index}] needs a non-empty "topic" string'
            )
        topics.append(topic)
    duplicates = _duplicates(topics)  # counted once: 200,000 entries took minutes with list.count
    if duplicates:
        raise UsageError(f"List of topics to reassign contains duplicate entries: {_java_list(duplicates)}")
    return topics


def _duplicates(values: list[Any]) -> list[Any]:
    """The values that occur more than once, sorted (linear in the values)."""
    from collections import Counter

    return sorted(value for value, count in Counter(values).items() if count > 1)


def parse_broker_list(text: str) -> list[int]:
    """`--broker-list "0,1,2"` -> [0, 1, 2]; duplicates and non-numbers refused."""
    brokers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        broker = java_long(part)  # Integer.parseInt: no "1_0", no other scripts' digits
        if broker is None or not INT32_MIN <= broker <= INT32_MAX:
            raise UsageError(f"Invalid --broker-list {clipped(text)!r}: {clipped(part)!r} is not a broker id")
        brokers.append(broker)
    duplicates = _duplicates(brokers)
    if duplicates:
        raise UsageError(f"Broker list contains duplicate entries: {_java_list(duplicates)}")
    return brokers


def format_reassignment(
    assignment: Assignment, log_dirs: Mapping[TopicPartition, tuple[str, ...]] | None = None
) -> str:
    """The compact JSON the original prints and reads: sorted partitions, `log_dirs` "any" unless known."""
    chunks: list[str] = []
    dumps = json.dumps
    topic_json: dict[str, str] = {}
    any_dirs: dict[int, str] = {}
    known = log_dirs or {}
    for tp in sorted(assignment):  # TopicPartition tuples sort by topic, then partition
        replicas = assignment[tp]
        name = topic_json.get(tp.topic)
        if name is None:
            name = topic_json[tp.topic] = dumps(tp.topic, ensure_ascii=False)
        dirs = known.get(tp)
        if dirs is None:
            text = any_dirs.get(len(replicas))
            if text is None:
                text = any_dirs[len(replicas)] = ",".join(['"any"'] * len(replicas))
        else:
            text = ",".join(dumps(d, ensure_ascii=False) for d in dirs)
        chunks.append(
            f'{{"topic":{name},"partition":{tp.partition},"replicas":[{",".join(map(str, replicas))}],'
            f'"log_dirs":[{text}]}}'
        )
    return '{"version":1,"partitions":[' + ",".join(chunks) + "]}"


def format_topics_to_move(topics: Iterable[str]) -> str:
    """A --topics-to-move-json-file body."""
    return json.dumps({"version": 1, "topics": [{"topic": t} for t in topics]}, separators=(",", ":"))
