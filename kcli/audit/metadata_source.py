"""A Spark source over KRaft metadata logs: segment files read in parallel, one file per task.

Behavior:
- Each --metadata-dir may be a log dir (holding `__cluster_metadata-0/`), the `__cluster_metadata-0`
  directory itself, or any tree of them (every `__cluster_metadata-0` below it is found).
- The driver only lists files; each task reads one file with kcli.metadata's reader (CRC-checked,
  NoOpRecords skipped before decoding) and yields rows of the history tables.
- Every log segment feeds broker_events and leader_changes; the newest snapshot also feeds
  metadata_topics, so leader changes of topics created before the retained log still get names.
- Several nodes' copies of one cluster's log hold the same records: rows are de-duplicated by
  (cluster_id, offset) before any rule sees them.
- A corrupt or unreadable file does not fail the audit: its good records are used and the problem
  comes back as a warning naming the file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.audit.tables import HISTORY_TABLES
from kcli.errors import UsageError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

METADATA_PARTITION = "__cluster_metadata-0"
PROBLEM = "problem"
# TopicRecord, the broker registration records and the partition records (api keys).
AUDITED_RECORD_TYPES = frozenset({0, 1, 2, 3, 5, 7, 8, 17})
# Keys that identify one record's row(s) across copies of the same log on different nodes.
DEDUP_KEYS = {
    "broker_events": ["cluster_id", "offset", "broker_id", "event"],
    "leader_changes": ["cluster_id", "offset", "topic_id", "partition"],
    "metadata_topics": ["cluster_id", "topic_id"],
}


@dataclass(frozen=True, slots=True, kw_only=True)
class FileTask:
    """One file for one task: where it is, what it is and whose log it belongs to."""

    path: str
    kind: str  # "segment" | "snapshot"
    cluster_id: str
    node_id: int
    min_offset: int = 0


def metadata_log_dirs(root: Path) -> list[Path]:
    """Every `__cluster_metadata-0` directory at or below `root`, sorted."""
    if root.name == METADATA_PARTITION and root.is_dir():
        return [root]
    if (root / METADATA_PARTITION).is_dir():
        return [root / METADATA_PARTITION]
    return sorted(path for path in root.rglob(METADATA_PARTITION) if path.is_dir())


def plan_tasks(roots: Sequence[Path]) -> list[FileTask]:
    """The files to read, one task each: every segment, and the newest snapshot of each log."""
    from kcli.metadata.directory import find_log_directory, full_log_sources

    tasks: list[FileTask] = []
    for root in roots:
        found = metadata_log_dirs(root)
        if not found:
            raise UsageError(f"--metadata-dir {root}: no {METADATA_PARTITION} directory found in it")
        for log_dir in found:
            directory = find_log_directory(log_dir)
            properties = directory.meta_properties
            cluster_id = properties.get("cluster.id") or log_dir.parent.name
            node_id = int(properties.get("node.id", properties.get("broker.id", "-1")) or -1)
            for source in full_log_sources(directory):
                if source.kind == "segment":
                    tasks.append(
                        FileTask(
                            path=str(source.path), kind="segment", cluster_id=cluster_id, node_id=node_id
                        )
                    )
            snapshot = directory.snapshot
            if snapshot is not None:
                tasks.append(
                    FileTask(path=str(snapshot.path), kind="snapshot", cluster_id=cluster_id, node_id=node_id)
                )
    return tasks


def read_file_rows(task: FileTask) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """The history rows of one file as (table, row) pairs, plus (problem, (message,)) for trouble.

    Runs in a Spark task: imports only kcli.metadata (no Spark).
    """
    from kcli.errors import KcliError
    from kcli.metadata.projection import read_records
    from kcli.metadata.reader import ReadStats

    stats = ReadStats()
    # only the record types the tables hold are decoded; a snapshot gives topic names alone
    keys = AUDITED_RECORD_TYPES if task.kind == "segment" else {2}
    cluster, node = task.cluster_id, task.node_id
    try:
        for entry in read_records(Path(task.path), keys, stats=stats, skip_corrupt=True):
            if entry.control or entry.record is None:
                continue
            record = entry.record
            name = getattr(type(record), "__record_name__", "")
            if name == "TopicRecord":
                yield "metadata_topics", (cluster, _uuid(record.topic_id), str(record.name))
                continue
            if task.kind != "segment":
                continue  # snapshots summarise state; events come from the log itself
            ts = datetime.fromtimestamp(entry.timestamp / 1000, UTC)
            for table, row in _events(name, record):
                yield table, (cluster, node, int(entry.offset), ts, *row)
    except (KcliError, OSError, ValueError) as error:
        yield PROBLEM, (f"{task.path}: {error}",)
    for problem in stats.problems:
        yield PROBLEM, (f"{task.path}: {problem}",)


def _events(name: str, record: Any) -> Iterator[tuple[str, tuple[Any, ...]]]:
    """broker_events / leader_changes rows (without the common leading columns) of one record."""
    if name == "RegisterBrokerRecord":
        yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "register")
    elif name == "UnregisterBrokerRecord":
        yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "unregister")
    elif name == "FenceBrokerRecord":
        yield "broker_events", (int(record.id), int(record.epoch), "fence")
    elif name == "UnfenceBrokerRecord":
        yield "broker_events", (int(record.id), int(record.epoch), "unfence")
    elif name == "BrokerRegistrationChangeRecord":
        fenced = int(record.fenced)
        if fenced == 1:
            yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "fence")
        elif fenced == -1:
            yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "unfence")
        if int(getattr(record, "in_controlled_shutdown", 0)) == 1:
            yield "broker_events", (int(record.broker_id), int(record.broker_epoch), "controlled_shutdown")
    elif name == "PartitionRecord":
        yield (
            "leader_changes",
            (_uuid(record.topic_id), int(record.partition_id), int(record.leader), "create"),
        )
    elif name == "PartitionChangeRecord" and int(record.leader) != -2:  # -2: leader unchanged
        yield (
            "leader_changes",
            (_uuid(record.topic_id), int(record.partition_id), int(record.leader), "elect"),
        )


def _uuid(value: Any) -> str:
    from kcli.audit.collect import topic_id_text

    return topic_id_text(value) or ""


def _is_table(name: str) -> Any:
    def keep(row: tuple[str, tuple[Any, ...]]) -> bool:
        return row[0] == name

    return keep


def _row_values(row: tuple[str, tuple[Any, ...]]) -> tuple[Any, ...]:
    return row[1]


def history_frames(
    spark: SparkSession, roots: Sequence[Path], *, warnings: list[str] | None = None
) -> dict[str, DataFrame]:
    """The history tables over every metadata log under `roots`, read one file per task."""
    tasks = plan_tasks(roots)
    if not tasks:
        return {spec.name: spark.createDataFrame([], schema=spec.spark_ddl()) for spec in HISTORY_TABLES}
    rows = spark.sparkContext.parallelize(tasks, len(tasks)).flatMap(read_file_rows).cache()
    if warnings is not None:
        warnings.extend(row[1][0] for row in rows.filter(_is_table(PROBLEM)).collect())
    frames: dict[str, DataFrame] = {}
    for spec in HISTORY_TABLES:
        selected = rows.filter(_is_table(spec.name)).map(_row_values)
        frame = spark.createDataFrame(selected, schema=spec.spark_ddl())
        frames[spec.name] = frame.dropDuplicates(DEDUP_KEYS[spec.name])
    return frames
