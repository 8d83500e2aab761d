"""`kcli log-dirs --describe`: what each broker's log dirs hold, printed as kafka-log-dirs.sh prints it,
and summed up by broker, log dir or topic.

Pure: kcli.client.api.log_dirs reads DescribeLogDirs into these values (each broker's dirs and
replicas in the order the broker sent them); kcli.workflows.log_dirs asks the brokers.

Behavior (LogDirsCommand of Kafka 4.4, and 4.0, which prints the same):
- --broker-list and --topic-list are comma lists (empty entries skipped); brokers the cluster does
  not have are an error naming them and the brokers there are;
- the JSON line is Jackson's rendering of HashMaps: every object's keys, the brokers, each broker's
  log dirs and each dir's partitions come in the iteration order of the HashMaps Kafka's admin
  client and tool build (kcli.ops.java_order replays it), `error` is the Java exception class of
  the dir's error code or null; --topic-list filters the partitions, not the dirs.
kcli adds the totals: bytes per broker, dir or topic, each dir's total and usable bytes
(DescribeLogDirs v4+), cordoned dirs (v5, Kafka 4.4, KIP-1066), future replicas (the target of a
move between dirs) with their lag, and how far each row's bytes are from the mean.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from kcli.errors import KcliError, UsageError
from kcli.ops.java_order import JavaHashMap, hash_set_order, integer_hash, string_hash, topic_partition_hash


@dataclass(frozen=True, slots=True, kw_only=True)
class ReplicaEntry:
    """One replica in one log dir, as DescribeLogDirs reports it."""

    topic: str
    partition: int
    size: int
    offset_lag: int
    is_future: bool  # the copy an intra-broker move is making (AlterReplicaLogDirs)

    @property
    def name(self) -> str:
        return f"{self.topic}-{self.partition}"


@dataclass(frozen=True, slots=True, kw_only=True)
class LogDirReport:
    """One log dir of one broker: its replicas in the broker's order, its volume's space, its state."""

    path: str
    error_code: int = 0
    error_class: str | None = None  # the Java exception of error_code, as kafka-log-dirs prints it
    total_bytes: int = -1  # -1: not reported (DescribeLogDirs before v4)
    usable_bytes: int = -1
    cordoned: bool = False
    replicas: tuple[ReplicaEntry, ...] = ()

    @property
    def size(self) -> int:
        return sum(r.size for r in self.replicas if not r.is_future)


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerReport:
    broker: int
    dirs: tuple[LogDirReport, ...]  # in the order of the broker's answer


@dataclass(frozen=True, slots=True, kw_only=True)
class LogDirsDescription:
    """What --describe read: the brokers asked (in Kafka's HashSet order) and what each reported."""

    queried: tuple[int, ...]
    reports: Mapping[int, BrokerReport]
    topics: frozenset[str] = frozenset()  # --topic-list (empty: every topic)
    errors: Mapping[int, str] = field(default_factory=dict)  # broker -> why it gave no report

    def shown(self, report: LogDirReport) -> tuple[ReplicaEntry, ...]:
        return tuple(r for r in report.replicas if not self.topics or r.topic in self.topics)


def _comma_list(text: str) -> list[str]:
    return [x for x in text.split(",") if x]


def parse_topic_list(text: str) -> frozenset[str]:
    return frozenset(_comma_list(text))


def parse_broker_list(text: str) -> list[int]:
    """--broker-list as Integer.valueOf reads each entry (in the order given)."""
    from kcli.integers import java_long

    out = []
    for word in _comma_list(text):
        value = java_long(word)
        if value is None or not -(2**31) <= value < 2**31:
            raise UsageError(f'For input string: "{word}" (--broker-list takes broker ids: 1,2,3)')
        out.append(value)
    return out


def brokers_to_query(asked: Sequence[int], cluster: Sequence[int]) -> tuple[int, ...]:
    """The brokers to ask, in the order Kafka's tool holds them (a HashSet), or the error it reports."""
    cluster_set = hash_set_order(list(cluster), integer_hash)  # Collectors.toSet() of the nodes
    given = hash_set_order(list(asked), integer_hash)
    missing = [b for b in JavaHashMap.hash_set_of(given, integer_hash).ordered() if b not in cluster_set]
    if missing:
        raise KcliError(
            "ERROR: The given brokers do not exist from --broker-list: "
            f"{','.join(map(str, missing))}. Current existent brokers: {','.join(map(str, cluster_set))}"
        )
    chosen = given if given else cluster_set
    return tuple(JavaHashMap.hash_set_of(chosen, integer_hash).ordered())


def _keys(*names: str) -> list[str]:
    """The order Jackson writes the keys of a small HashMap<String, Object> in."""
    return hash_set_order(list(names), string_hash)


_TOP, _BROKER = _keys("version", "brokers"), _keys("broker", "logDirs")
_DIR, _PARTITION = _keys("logDir", "error", "partitions"), _keys("partition", "size", "offsetLag", "isFuture")


def _ordered(values: dict[str, object], order: list[str]) -> dict[str, object]:
    return {k: values[k] for k in order}


def kafka_json(description: LogDirsDescription) -> str:
    """The JSON line kafka-log-dirs.sh prints, byte for byte."""
    # futures (HashMap sized for the brokers) -> its copy -> allDescriptions (HashMap sized alike)
    futures = JavaHashMap.copy_of_capacity(description.queried, len(description.queried), integer_hash)
    copied = JavaHashMap.copy_of(futures.ordered(), len(futures), integer_hash)
    ordered = JavaHashMap.copy_of_capacity(copied.ordered(), len(copied), integer_hash).ordered()
    brokers = []
    for broker in ordered:
        report = description.reports[broker]
        by_path = {d.path: d for d in report.dirs}
        dirs = JavaHashMap.copy_of_capacity(list(by_path), len(by_path), string_hash).ordered()
        brokers.append(
            _ordered(
                {"broker": broker, "logDirs": [_dir_json(by_path[p], description) for p in dirs]}, _BROKER
            )
        )
    return json.dumps(
        _ordered({"version": 1, "brokers": brokers}, _TOP), separators=(",", ":"), ensure_ascii=False
    )


def _dir_json(report: LogDirReport, description: LogDirsDescription) -> dict[str, object]:
    def key_hash(key: tuple[str, int]) -> int:
        return topic_partition_hash(*key)

    by_key = {(r.topic, r.partition): r for r in report.replicas}  # a later duplicate replaces (HashMap.put)
    first = hash_set_order(list(by_key), key_hash)  # the admin client's replicaInfoMap
    kept = [
        by_key[key]
        for key in hash_set_order([k for k in first if not description.topics or k[0] in description.topics], key_hash)
    ]
    partitions = [
        _ordered(
            {"partition": r.name, "size": r.size, "offsetLag": r.offset_lag, "isFuture": r.is_future},
            _PARTITION,
        )
        for r in kept
    ]
    return _ordered({"logDir": report.path, "error": report.error_class, "partitions": partitions}, _DIR)


# --------------------------------------------------------------------------------- kcli's summaries


class GroupBy(StrEnum):
    BROKER = "broker"
    DIR = "dir"
    TOPIC = "topic"


@dataclass(frozen=True, slots=True, kw_only=True)
class UsageRow:
    """One row of the table: a broker, a log dir or a topic, and what it holds."""

    key: str
    broker: int | None
    path: str | None
    replicas: int
    size: int  # bytes of current replicas (future copies not counted twice)
    future: int = 0  # future replicas (moves between dirs in progress)
    future_lag: int = 0  # their summed offsetLag
    total_bytes: int = -1
    usable_bytes: int = -1
    cordoned: int = 0  # cordoned dirs among the row's
    offline: int = 0  # dirs with an error
    skew: float | None = None  # (size - mean) / mean over the rows of the table


def usage_rows(description: LogDirsDescription, by: GroupBy) -> list[UsageRow]:
    """The table's rows, sorted (by broker id, then dir path; topics by name), with their skew."""
    rows: list[UsageRow] = []
    if by is GroupBy.TOPIC:
        sizes: dict[str, list[int]] = {}
        for broker in sorted(description.reports):
            for d in description.reports[broker].dirs:
                for r in description.shown(d):
                    acc = sizes.setdefault(r.topic, [0, 0, 0, 0])
                    acc[0] += 0 if r.is_future else 1
                    acc[1] += 0 if r.is_future else r.size
                    acc[2] += 1 if r.is_future else 0
                    acc[3] += r.offset_lag if r.is_future else 0
        for topic, (count, size, future, lag) in sorted(sizes.items()):
            rows.append(
                UsageRow(
                    key=topic,
                    broker=None,
                    path=None,
                    replicas=count,
                    size=size,
                    future=future,
                    future_lag=lag,
                )
            )
    else:
        for broker in sorted(description.reports):
            dirs = sorted(description.reports[broker].dirs, key=lambda d: d.path)
            parts = [[d] for d in dirs] if by is GroupBy.DIR else [dirs]
            for group in parts:
                rows.append(_row(description, broker, group, by))
    return _with_skew(rows)


def _row(description: LogDirsDescription, broker: int, dirs: Sequence[LogDirReport], by: GroupBy) -> UsageRow:
    shown = [r for d in dirs for r in description.shown(d)]
    path = dirs[0].path if by is GroupBy.DIR and dirs else None
    return UsageRow(
        key=f"{broker}:{path}" if path else str(broker),
        broker=broker,
        path=path,
        replicas=sum(1 for r in shown if not r.is_future),
        size=sum(r.size for r in shown if not r.is_future),
        future=sum(1 for r in shown if r.is_future),
        future_lag=sum(r.offset_lag for r in shown if r.is_future),
        total_bytes=_known_sum(t for t, _ in _volumes(dirs)),
        usable_bytes=_known_sum(u for _, u in _volumes(dirs)),
        cordoned=sum(1 for d in dirs if d.cordoned),
        offline=sum(1 for d in dirs if d.error_code),
    )


def _volumes(dirs: Sequence[LogDirReport]) -> set[tuple[int, int]]:
    """The volumes under `dirs`: dirs that report the same total and usable bytes share one (a
    broker's dirs on one disk), so its space is counted once."""
    return {(d.total_bytes, d.usable_bytes) for d in dirs if d.total_bytes >= 0}


def _known_sum(values: Iterable[int]) -> int:
    known = [v for v in values if v >= 0]
    return sum(known) if known else -1


def _with_skew(rows: list[UsageRow]) -> list[UsageRow]:
    import dataclasses

    online = [r for r in rows if not r.offline or r.replicas]
    mean = sum(r.size for r in online) / len(online) if online else 0.0
    return [dataclasses.replace(r, skew=(r.size - mean) / mean if mean > 0 else None) for r in rows]


def human_bytes(value: int) -> str:
    """1536 -> `1.5 KiB`, 2**40 - 1 -> `1.0 TiB` (never `1024.0 GiB`); -1 (unknown) -> `-`."""
    if value < 0:
        return "-"
    if value < 1024:
        return f"{value} B"
    size = value / 1024
    for unit in ("KiB", "MiB", "GiB"):
        if round(size, 1) < 1024:
            return f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TiB"
