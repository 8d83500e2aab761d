"""Writing cluster snapshots as Parquet, partitioned Hive-style by cluster id and collection time.

Layout: DIR/<table>/cluster_id=<id>/collected_at=<YYYYMMDDTHHMMSSZ>/part-00000.parquet. Every table
of a snapshot is written, empty ones included, and the `clusters` row is written last: a snapshot
whose `clusters` row is missing (an interrupted collection) is ignored by the audit.

The writer makes the Parquet bytes; a sink stores them. `LocalSink` writes a local directory (no
Spark needed, for `kcli spark collect`); the audit passes a sink over Spark's Hadoop filesystem
layer (kcli.audit.storage) so a snapshot can go to hdfs://, s3a:// or file:// alike.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from kcli.audit.tables import SNAPSHOT_TABLES, TableKind, table
from kcli.errors import KcliError

if TYPE_CHECKING:
    from kcli.workflows.audit_collect import ClusterSnapshot

COLLECTED_AT_FORMAT = "%Y%m%dT%H%M%SZ"
PART_FILE = "part-00000.parquet"

Rows = Sequence[Mapping[str, Any]] | Mapping[str, Sequence[Any]]


class Sink(Protocol):
    """Stores one file of a snapshot, given its path relative to the snapshot directory."""

    def __call__(self, relative: str, data: bytes) -> None: ...


def collected_at_label(moment: datetime) -> str:
    """The partition value for a collection time: UTC, second precision, sortable as text."""
    return moment.astimezone(UTC).strftime(COLLECTED_AT_FORMAT)


def partition_path(table_name: str, cluster_id: str, collected_at: str) -> str:
    """One table of one snapshot, relative to the snapshot directory (the id escaped as Spark unescapes it)."""
    escaped = urllib.parse.quote(cluster_id, safe="-_.~")
    return f"{table_name}/cluster_id={escaped}/collected_at={collected_at}"


def partition_dir(out: Path, table_name: str, cluster_id: str, collected_at: str) -> Path:
    """Where one table of one snapshot goes in a local directory."""
    return out / partition_path(table_name, cluster_id, collected_at)


class LocalSink:
    """Writes snapshot files under a local directory; readers never see half a file."""

    def __init__(self, root: Path) -> None:
        self.root = root

    def __call__(self, relative: str, data: bytes) -> None:
        from kcli.writes import make_directories, write_file

        target = self.root / relative
        make_directories(target.parent, what="the snapshot directory")
        write_file(target, data, what="the snapshot file")


@dataclass(frozen=True, slots=True, kw_only=True)
class WrittenSnapshot:
    """What was written: the cluster, its collection label and the row count of every table."""

    cluster_id: str
    collected_at: str
    rows: Mapping[str, int]


def arrow_table(table_name: str, rows: Rows) -> Any:
    """One snapshot table's rows (row dicts or a dict of columns) as a pyarrow Table of its stored schema."""
    import pyarrow as pa

    spec = table(table_name)
    if spec.kind is not TableKind.SNAPSHOT:
        raise ValueError(f"{table_name} is not a snapshot table")
    _check_columns(table_name, rows, spec.column_names)
    schema = spec.arrow_schema()
    try:
        if isinstance(rows, Mapping):
            return pa.Table.from_pydict(dict(rows), schema=schema)
        return pa.Table.from_pylist(list(rows), schema=schema)
    except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
        raise KcliError(f"snapshot table {table_name}: bad value: {error}") from error


def parquet_bytes(data: Any) -> bytes:
    """A pyarrow Table as the bytes of one Parquet file (zstd)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    buffer = pa.BufferOutputStream()
    pq.write_table(data, buffer, compression="zstd")
    return bytes(buffer.getvalue().to_pybytes())


class SnapshotWriter:
    """Writes the tables of one snapshot of one cluster; call `finish` last (writes `clusters`)."""

    def __init__(
        self, out: Path | None, *, cluster_id: str, collected_at: str, sink: Sink | None = None
    ) -> None:
        if sink is None:
            if out is None:
                raise ValueError("give a directory or a sink")
            sink = LocalSink(out)
        self.sink = sink
        self.cluster_id = cluster_id
        self.collected_at = collected_at
        self._counts: dict[str, int] = {}

    def write(self, table_name: str, rows: Rows) -> int:
        """Write one snapshot table from row dicts or from a dict of columns; returns the row count."""
        if table_name == "clusters":
            raise ValueError("the clusters row is written by finish()")
        return self._write(table_name, rows)

    def finish(self, cluster_row: Mapping[str, Any]) -> WrittenSnapshot:
        """Write every table not written yet as empty, then the `clusters` row that commits the snapshot."""
        for spec in SNAPSHOT_TABLES:
            if spec.name != "clusters" and spec.name not in self._counts:
                self._write(spec.name, [])
        rows = sum(self._counts.values()) + 1
        self._write("clusters", [{"warnings": [], **cluster_row, "snapshot_rows": rows}])
        return WrittenSnapshot(
            cluster_id=self.cluster_id, collected_at=self.collected_at, rows=dict(self._counts)
        )

    def _write(self, table_name: str, rows: Rows) -> int:
        data = arrow_table(table_name, rows)
        relative = f"{partition_path(table_name, self.cluster_id, self.collected_at)}/{PART_FILE}"
        self.sink(relative, parquet_bytes(data))
        self._counts[table_name] = data.num_rows
        return int(data.num_rows)


def _check_columns(table_name: str, rows: Rows, known: Sequence[str]) -> None:
    """Unknown keys are a programming error the writer must not silently drop."""
    names: set[str] = set()
    if isinstance(rows, Mapping):
        names = set(rows)
    else:
        for row in rows[:1]:
            names = set(row)
    unknown = names - set(known)
    if unknown:
        raise ValueError(f"snapshot table {table_name}: unknown columns {sorted(unknown)}")


def cluster_row(snapshot: ClusterSnapshot) -> dict[str, Any]:
    """The `clusters` row of a collected snapshot (without its partition columns)."""
    from kcli import __version__

    return {
        "bootstrap": snapshot.bootstrap,
        "endpoint_type": snapshot.endpoint_type,
        "controller_id": snapshot.controller_id,
        "collected_ms": int(snapshot.collected_at.timestamp() * 1000),
        "kcli_version": __version__,
        "snapshot_rows": sum(len(rows) for rows in snapshot.tables.values()) + 1,
        "warnings": list(snapshot.warnings),
    }


def write_snapshot(
    snapshot: ClusterSnapshot, out: Path | None, *, sink: Sink | None = None
) -> WrittenSnapshot:
    """Write every table of a collected snapshot under `out` or to `sink` (the clusters row last)."""
    label = collected_at_label(snapshot.collected_at)
    writer = SnapshotWriter(out, cluster_id=snapshot.cluster_id, collected_at=label, sink=sink)
    for name, rows in snapshot.tables.items():
        writer.write(name, rows)
    return writer.finish(cluster_row(snapshot))
