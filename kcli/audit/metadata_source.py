"""A Spark source over KRaft metadata logs, read through Spark's Hadoop filesystem layer.

Behavior:
- Each --metadata-dir is a URI (a local path, file://, hdfs://, s3a://, ...) of a log dir (holding
  `__cluster_metadata-0/`), of the `__cluster_metadata-0` directory itself, or of a tree of them
  (every `__cluster_metadata-0` up to MAX_DEPTH levels below it is found).
- The driver only lists files (kcli.audit.storage); executors read them with Spark's binaryFile
  source and decode each with kcli.metadata's reader (CRC-checked, NoOpRecords skipped before
  decoding) in one Python pass, into one cached table of every history row.
- Every log segment feeds broker_events and leader_changes; the newest snapshot also feeds
  metadata_topics, so leader changes of topics created before the retained log still get names.
- Several nodes' copies of one cluster's log hold the same records: rows are de-duplicated by
  (cluster_id, offset) before any rule sees them.
- A corrupt file does not fail the audit: its good records are used and the problem comes back as
  a warning naming the file.
- A batch timestamp no timestamp column holds (outside the years 1 to 9999) gives its events a null
  `ts` and one warning naming the file, offset and timestamp; the rest of the file is read on.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.audit.storage import glob_escape, join, name_of, parent_of
from kcli.audit.tables import HISTORY_TABLES
from kcli.errors import UsageError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from kcli.audit.storage import Storage

METADATA_PARTITION = "__cluster_metadata-0"
MAX_DEPTH = 8  # how far below a --metadata-dir a __cluster_metadata-0 directory is looked for
META_PROPERTIES_LIMIT = 64 * 1024
PROBLEM = "problem"
# Kafka's file names in a metadata log directory: segments and snapshots.
_SEGMENT = re.compile(r"^\d{20}\.log$")
_SNAPSHOT = re.compile(r"^(\d{20})-(\d{10})\.checkpoint$")
# TopicRecord, the broker registration records and the partition records (api keys).
AUDITED_RECORD_TYPES = frozenset({0, 1, 2, 3, 5, 7, 8, 17})
TRANSACTION_MARKERS = frozenset({23, 24, 25})  # Begin/End/AbortTransactionRecord
# Keys that identify one record's row(s) across copies of the same log on different nodes.
DEDUP_KEYS = {
    "broker_events": ["cluster_id", "offset", "broker_id", "event"],
    "leader_changes": ["cluster_id", "offset", "topic_id", "partition"],
    "metadata_topics": ["cluster_id", "topic_id"],
}
# Every history column once, plus the row's table (`kind`) and a problem message: one row type for all.
_COLUMNS: dict[str, str] = {"kind": "string"}
for _spec in HISTORY_TABLES:
    for _column in _spec.columns:
        _COLUMNS.setdefault(_column.name, _column.type.value)
_COLUMNS[PROBLEM] = "string"
HISTORY_ROW_DDL = ", ".join(f"`{name}` {kind.upper()}" for name, kind in _COLUMNS.items())


@dataclass(frozen=True, slots=True, kw_only=True)
class FileTask:
    """One file to read: where it is, what it is and whose log it belongs to."""

    path: str
    kind: str  # "segment" | "snapshot"
    cluster_id: str
    node_id: int
    min_offset: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class HistoryPlan:
    """The files to read, and what they come from."""

    tasks: tuple[FileTask, ...]
    logs: int  # __cluster_metadata-0 directories found
    clusters: frozenset[str] = field(default_factory=frozenset)
    size: int = 0  # bytes in all the files


def metadata_log_dirs(storage: Storage, root: str) -> list[str]:
    """Every `__cluster_metadata-0` directory at or below `root` (at most MAX_DEPTH levels), sorted."""
    if name_of(root) == METADATA_PARTITION:
        return [root] if storage.is_dir(root) else []
    found: set[str] = set()
    base = glob_escape(root.rstrip("/"))
    for depth in range(MAX_DEPTH + 1):
        pattern = "/".join([base, *(["*"] * depth), METADATA_PARTITION])
        found.update(info.uri for info in storage.glob(pattern) if info.is_dir)
    return sorted(found)


def plan_tasks(storage: Storage, roots: Sequence[str]) -> HistoryPlan:
    """The files to read, one task each: every segment, and the newest snapshot of each log."""
    from kcli.properties import parse_properties

    tasks: list[FileTask] = []
    logs = 0
    clusters: set[str] = set()
    size = 0
    for root in roots:
        found = metadata_log_dirs(storage, root)
        if not found:
            raise UsageError(f"--metadata-dir {root}: no {METADATA_PARTITION} directory found in it")
        for log_dir in found:
            files = [info for info in storage.glob(join(glob_escape(log_dir), "*")) if not info.is_dir]
            segments = sorted((info for info in files if _SEGMENT.match(name_of(info.uri))), key=_uri)
            snapshots = [info for info in files if _SNAPSHOT.match(name_of(info.uri))]
            if not segments and not snapshots:
                raise UsageError(
                    f"--metadata-dir {root}: {log_dir} holds no metadata log segment (.log) or snapshot "
                    "(.checkpoint)"
                )
            logs += 1
            properties: Mapping[str, str] = {}
            meta = join(parent_of(log_dir), "meta.properties")
            if storage.exists(meta):
                text = storage.read_bytes(meta, limit=META_PROPERTIES_LIMIT).decode("utf-8", "replace")
                properties = parse_properties(text)
            cluster_id = properties.get("cluster.id") or name_of(parent_of(log_dir))
            node_id = int(properties.get("node.id", properties.get("broker.id", "-1")) or -1)
            clusters.add(cluster_id)
            chosen = list(segments)
            if snapshots:
                chosen.append(max(snapshots, key=_snapshot_position))
            for info in chosen:
                kind = "segment" if info in segments else "snapshot"
                tasks.append(FileTask(path=info.uri, kind=kind, cluster_id=cluster_id, node_id=node_id))
                size += info.size
    return HistoryPlan(tasks=tuple(tasks), logs=logs, clusters=frozenset(clusters), size=size)


def _uri(info: Any) -> str:
    return str(info.uri)


def _snapshot_position(info: Any) -> tuple[int, int]:
    match = _SNAPSHOT.match(name_of(info.uri))
    assert match is not None
    return int(match[1]), int(match[2])


def read_file_rows(task: FileTask, data: bytes | None = None) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The history rows of one file as (table, row) pairs, plus (problem, (message,)) for trouble.

    Records are taken as kcli.metadata.delta's replay rule takes them: a metadata transaction's records
    count once it ends (an aborted one's never), a change's fencing and controlled shutdown as Kafka
    reads them. Runs in a Spark task on the file's bytes (`data`; None reads `task.path` as a local file):
    imports only kcli.metadata (no Spark).
    """
    from kcli.errors import KcliError
    from kcli.metadata.delta import Transaction
    from kcli.metadata.projection import read_records
    from kcli.metadata.read_model import ReadStats

    stats = ReadStats()
    # only the record types the tables hold are decoded (and the transaction markers: records of an
    # aborted metadata transaction never happened); a snapshot gives topic names alone
    keys = AUDITED_RECORD_TYPES | TRANSACTION_MARKERS if task.kind == "segment" else {2}
    transaction = Transaction()
    flagged: set[int] = set()  # out-of-range timestamps already warned about
    try:
        for entry in read_records(Path(task.path), keys, stats=stats, skip_corrupt=True, data=data):
            if entry.control or entry.record is None:
                continue
            if entry.key in TRANSACTION_MARKERS:
                for held in transaction.mark(entry.key):
                    yield from _rows(task, held, flagged)
            elif not transaction.hold(entry):
                yield from _rows(task, entry, flagged)
    except (KcliError, OSError, ValueError) as error:
        yield PROBLEM, (f"{task.path}: {error}",)
    if transaction.held:
        yield (
            PROBLEM,
            (
                f"{task.path}: a metadata transaction is open at the end of the file: its "
                f"{len(transaction.held)} records are left out (they apply only when it ends)",
            ),
        )
    for problem in stats.problems:
        yield PROBLEM, (f"{task.path}: {problem}",)


def _rows(task: FileTask, entry: Any, flagged: set[int]) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The history rows of one applied record (and a problem for a timestamp out of range)."""
    record = entry.record
    name = getattr(type(record), "__record_name__", "")
    if name == "TopicRecord":
        yield "metadata_topics", (task.cluster_id, _uuid(record.topic_id), str(record.name))
        return
    if task.kind != "segment":
        return  # snapshots summarise state; events come from the log itself
    ts = event_time(entry.timestamp)
    if ts is None and entry.timestamp not in flagged:
        flagged.add(entry.timestamp)
        where = f"{task.path}: the batch of offset {entry.offset} has timestamp {entry.timestamp} ms"
        yield PROBLEM, (f"{where}, outside the years 1 to 9999: its events have a null ts",)
    for table, row in _events(name, record):
        yield table, (task.cluster_id, task.node_id, int(entry.offset), ts, *row)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def event_time(timestamp_ms: int) -> datetime | None:
    """A batch timestamp (epoch ms) as a UTC datetime; None outside the years 1 to 9999."""
    try:
        return _EPOCH + timedelta(milliseconds=timestamp_ms)
    except OverflowError:
        return None


def _events(name: str, record: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """broker_events / leader_changes rows (without the common leading columns) of one record."""
    from kcli.metadata.delta import NO_LEADER_CHANGE, enters_controlled_shutdown, fencing_change

    if name == "RegisterBrokerRecord":
        yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "register")
    elif name == "UnregisterBrokerRecord":
        yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "unregister")
    elif name == "FenceBrokerRecord":
        yield "broker_events", (int(record.id), int(record.epoch), "fence")
    elif name == "UnfenceBrokerRecord":
        yield "broker_events", (int(record.id), int(record.epoch), "unfence")
    elif name == "BrokerRegistrationChangeRecord":
        fencing = fencing_change(record)
        if fencing is not None:
            yield (
                "broker_events",
                (int(record.broker_id), int(record.broker_epoch), "fence" if fencing else "unfence"),
            )
        if enters_controlled_shutdown(record):
            yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "controlled_shutdown")
    elif name == "PartitionRecord":
        yield (
            "leader_changes",
            (_uuid(record.topic_id), int(record.partition_id), int(record.leader), "create"),
        )
    elif name == "PartitionChangeRecord" and int(record.leader) != NO_LEADER_CHANGE:
        yield (
            "leader_changes",
            (_uuid(record.topic_id), int(record.partition_id), int(record.leader), "elect"),
        )


def _uuid(value: Any) -> str:
    from kcli.workflows.partitions import topic_id_text

    return topic_id_text(value) or ""


class _ReadFiles:
    """The executor side: (path, content) rows of the binaryFile source -> history rows."""

    def __init__(self, tasks: Sequence[FileTask]) -> None:
        self.tasks = {task.path: task for task in tasks}

    def __call__(self, row: Any) -> Iterator[tuple[Any, ...]]:
        from kcli.audit.shipping import activate

        activate()
        task = self.tasks[row[0]]
        for table, values in read_file_rows(task, bytes(row[1])):
            yield _history_row(table, values)


def _history_row(table: str, values: tuple[Any, ...]) -> tuple[Any, ...]:
    names = (PROBLEM,) if table == PROBLEM else _TABLE_COLUMNS[table]
    named = dict(zip(names, values, strict=True))
    named["kind"] = table
    return tuple(named.get(name) for name in _COLUMNS)


_TABLE_COLUMNS = {spec.name: spec.column_names for spec in HISTORY_TABLES}


def history_frames(
    spark: SparkSession,
    plan: HistoryPlan,
    *,
    warnings: list[str] | None = None,
    single: bool = False,
    held: list[DataFrame] | None = None,
) -> dict[str, DataFrame]:
    """The history tables over the planned files, decoded in one Python pass (this runs it).

    The problems found while decoding come back in `warnings`. A large input stays on the executors,
    cached (the cached frame is added to `held`: unpersist it when done); a `single` (small) one
    comes back to the driver and becomes one in-memory partition per table, so de-duplicating it
    needs no shuffle.
    """
    from pyspark.sql import functions as F

    from kcli.audit.inputs import empty_frame
    from kcli.audit.sqlconf import listed_here

    if not plan.tasks:
        return {spec.name: empty_frame(spark, spec) for spec in HISTORY_TABLES}
    paths = [glob_escape(task.path) for task in plan.tasks]
    with listed_here(spark, len(paths)):
        content = spark.read.format("binaryFile").load(paths).select("path", "content")
    rows = content.rdd.flatMap(_ReadFiles(plan.tasks))
    frames: dict[str, DataFrame] = {}
    if single:
        found = rows.collect()
        problems = [row[-1] for row in found if row[0] == PROBLEM]
        for spec in HISTORY_TABLES:
            table = _arrow_rows(spec, [row for row in found if row[0] == spec.name])
            frame = spark.createDataFrame(table, schema=spec.spark_ddl()).coalesce(1)
            frames[spec.name] = frame.dropDuplicates(DEDUP_KEYS[spec.name])
    else:
        history = spark.createDataFrame(rows, schema=HISTORY_ROW_DDL, verifySchema=False).persist()
        if held is not None:
            held.append(history)
        problems = [row[0] for row in history.filter(F.col("kind") == PROBLEM).select(PROBLEM).collect()]
        for spec in HISTORY_TABLES:
            selected = history.filter(F.col("kind") == spec.name).select(*spec.column_names)
            frames[spec.name] = selected.dropDuplicates(DEDUP_KEYS[spec.name])
    if warnings is not None:
        warnings.extend(str(problem) for problem in problems)
    return frames


def _arrow_rows(spec: Any, rows: Sequence[tuple[Any, ...]]) -> Any:
    """History rows (in HISTORY_ROW_DDL's column order) as a pyarrow Table of one history table."""
    import pyarrow as pa

    positions = {name: index for index, name in enumerate(_COLUMNS)}
    schema = spec.arrow_schema()
    return pa.table(
        {
            name: pa.array([row[positions[name]] for row in rows], schema.field(name).type)
            for name in spec.column_names
        },
        schema=schema,
    )
