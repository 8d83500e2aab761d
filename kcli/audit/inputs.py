"""The snapshot tables of an audit: snapshot directories (any Hadoop URI) and live-collected clusters.

Behavior:
- The driver lists each snapshot directory once (two Hadoop globs) and keeps, per cluster, the newest
  snapshot whose `clusters` row was written (the commit of a snapshot); only those partition files
  are read, so an old or half-written snapshot costs nothing.
- A live-collected cluster becomes in-memory tables (Arrow batches sent with the job), so executors
  on any cluster can read it without shared storage; it is the newest snapshot of its cluster.
- The warnings a collection recorded travel with its snapshot (the clusters row) into the audit.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kcli.audit.snapshot import arrow_table, cluster_row, collected_at_label
from kcli.audit.sqlconf import listed_here
from kcli.audit.storage import FileInfo, glob_escape, join
from kcli.audit.tables import SNAPSHOT_TABLES, TABLES_BY_NAME, Table
from kcli.errors import UsageError

if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

    from kcli.audit.storage import Storage
    from kcli.workflows.audit_collect import ClusterSnapshot


@dataclass(frozen=True, slots=True, kw_only=True)
class StoredSnapshot:
    """One committed snapshot in a snapshot directory."""

    root: str  # the snapshot directory (URI)
    cluster_dir: str  # cluster_id=<escaped id>
    cluster_id: str
    collected_at: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SnapshotInput:
    """What the audit reads: the newest snapshot of every cluster, from files or collected live."""

    stored: tuple[StoredSnapshot, ...] = ()
    live: tuple[ClusterSnapshot, ...] = ()
    files: frozenset[str] = field(default_factory=frozenset)  # partition dirs that exist
    size: int = 0  # bytes of the chosen snapshots' files
    superseded: tuple[str, ...] = ()  # newer snapshots without a clusters row (warnings)

    @property
    def clusters(self) -> int:
        return len(self.stored) + len(self.live)


def plan_snapshots(storage: Storage, roots: Sequence[str], live: Sequence[ClusterSnapshot]) -> SnapshotInput:
    """Find the newest committed snapshot of each cluster in `roots`; live snapshots win over stored ones."""
    newest: dict[str, StoredSnapshot] = {}
    existing: dict[str, FileInfo] = {}
    seen: set[tuple[str, str]] = set()
    for root in roots:
        base = glob_escape(root.rstrip("/"))
        committed = storage.glob(f"{base}/clusters/cluster_id=*/collected_at=*/*.parquet")
        if not committed:
            raise UsageError(
                f"--input {root}: not a kcli snapshot directory (no committed snapshot in clusters/; "
                "write one with `kcli spark collect --out DIR`)"
            )
        for info in committed:
            snapshot = _stored(info.uri)
            current = newest.get(snapshot.cluster_id)
            if current is None or snapshot.collected_at >= current.collected_at:
                newest[snapshot.cluster_id] = snapshot
        for info in storage.glob(f"{base}/*/cluster_id=*/collected_at=*/*.parquet"):
            existing[info.uri.rsplit("/", 1)[0]] = info
            snapshot = _stored(info.uri)
            seen.add((snapshot.cluster_id, snapshot.collected_at))
    superseded = tuple(
        f"snapshot of {cluster} at {moment} has no clusters row (an interrupted collection): ignored"
        for cluster, moment in sorted(seen)
        if cluster not in newest or moment > newest[cluster].collected_at
    )
    for collected in live:
        newest.pop(collected.cluster_id, None)
    chosen = tuple(sorted(newest.values(), key=lambda s: s.cluster_id))
    files = frozenset(
        directory
        for snapshot in chosen
        for spec in SNAPSHOT_TABLES
        if (directory := _partition_uri(snapshot, spec.name)) in existing
    )
    size = sum(existing[directory].size for directory in files)
    return SnapshotInput(stored=chosen, live=tuple(live), files=files, size=size, superseded=superseded)


def stored_clusters(spark: SparkSession, plan: SnapshotInput) -> list[Any]:
    """The clusters rows of the chosen stored snapshots (their warnings and sizes): one small job."""
    spec = TABLES_BY_NAME["clusters"]
    parts = _stored_frames(spark, plan, spec)
    if not parts:
        return []
    return list(_union(parts).select("cluster_id", "snapshot_rows", "warnings").collect())


def snapshot_frames(spark: SparkSession, plan: SnapshotInput) -> dict[str, DataFrame]:
    """Every snapshot table as one DataFrame over the chosen snapshots."""
    frames: dict[str, DataFrame] = {}
    for spec in SNAPSHOT_TABLES:
        parts = [*_stored_frames(spark, plan, spec), *_live_frames(spark, plan, spec)]
        frames[spec.name] = _union(parts) if parts else empty_frame(spark, spec)
    return frames


def empty_frame(spark: SparkSession, spec: Table) -> DataFrame:
    """An empty table (built from Arrow in the JVM: a Python-side empty list would start Python workers)."""
    return spark.createDataFrame(
        spec.arrow_schema(with_partitions=True).empty_table(), schema=spec.spark_ddl()
    )


def _stored_frames(spark: SparkSession, plan: SnapshotInput, spec: Table) -> list[DataFrame]:
    frames = []
    for root in sorted({snapshot.root for snapshot in plan.stored}):
        directories = [
            glob_escape(directory)
            for snapshot in plan.stored
            if snapshot.root == root and (directory := _partition_uri(snapshot, spec.name)) in plan.files
        ]
        if not directories:
            continue
        with listed_here(spark, len(directories)):
            reader = spark.read.schema(spec.spark_ddl()).option("basePath", join(root, spec.name))
            frames.append(reader.parquet(*directories))
    return frames


def _live_frames(spark: SparkSession, plan: SnapshotInput, spec: Table) -> list[DataFrame]:
    if not plan.live:
        return []
    import pyarrow as pa

    tables = []
    for snapshot in plan.live:
        rows: Any = [cluster_row(snapshot)] if spec.name == "clusters" else snapshot.tables.get(spec.name, [])
        data = arrow_table(spec.name, rows)
        data = data.append_column("cluster_id", pa.array([snapshot.cluster_id] * data.num_rows, pa.string()))
        label = collected_at_label(snapshot.collected_at)
        data = data.append_column("collected_at", pa.array([label] * data.num_rows, pa.string()))
        tables.append(data)
    return [spark.createDataFrame(pa.concat_tables(tables), schema=spec.spark_ddl())]


def _stored(file_uri: str) -> StoredSnapshot:
    """The snapshot a partition file belongs to, from its URI ROOT/TABLE/cluster_id=X/collected_at=Y/FILE."""
    root, _table, cluster_dir, time_dir, _file = file_uri.rsplit("/", 4)
    return StoredSnapshot(
        root=root,
        cluster_dir=cluster_dir,
        cluster_id=urllib.parse.unquote(cluster_dir.removeprefix("cluster_id=")),
        collected_at=time_dir.removeprefix("collected_at="),
    )


def _partition_uri(snapshot: StoredSnapshot, table_name: str) -> str:
    return join(snapshot.root, table_name, snapshot.cluster_dir, f"collected_at={snapshot.collected_at}")


def _union(frames: Sequence[DataFrame]) -> DataFrame:
    result = frames[0]
    for frame in frames[1:]:
        result = result.unionByName(frame)
    return result
