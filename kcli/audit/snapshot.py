"""Writing cluster snapshots as Parquet, partitioned Hive-style by cluster id and collection time.

Layout: DIR/<table>/cluster_id=<id>/collected_at=<YYYYMMDDTHHMMSSZ>/part-00000.parquet. Every table
of a snapshot is written, empty ones included, and the `clusters` row is written last: a snapshot
whose `clusters` row is missing (an interrupted collection) is ignored by the audit.
"""

from __future__ import annotations

import os
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kcli.audit.tables import SNAPSHOT_TABLES, TableKind, table
from kcli.errors import KcliError

COLLECTED_AT_FORMAT = "%Y%m%dT%H%M%SZ"
PART_FILE = "part-00000.parquet"

Rows = Sequence[Mapping[str, Any]] | Mapping[str, Sequence[Any]]


def collected_at_label(moment: datetime) -> str:
    """The partition value for a collection time: UTC, second precision, sortable as text."""
    return moment.astimezone(UTC).strftime(COLLECTED_AT_FORMAT)


def partition_dir(out: Path, table_name: str, cluster_id: str, collected_at: str) -> Path:
    """Where one table of one snapshot goes (the cluster id is escaped the way Spark unescapes it)."""
    escaped = urllib.parse.quote(cluster_id, safe="-_.~")
    return out / table_name / f"cluster_id={escaped}" / f"collected_at={collected_at}"


@dataclass(frozen=True, slots=True, kw_only=True)
class WrittenSnapshot:
    """What was written: the cluster, its collection label and the row count of every table."""

    cluster_id: str
    collected_at: str
    rows: Mapping[str, int]


class SnapshotWriter:
    """Writes the tables of one snapshot of one cluster; call `finish` last (writes `clusters`)."""

    def __init__(self, out: Path, *, cluster_id: str, collected_at: str) -> None:
        self.out = out
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
        self._write("clusters", [cluster_row])
        return WrittenSnapshot(
            cluster_id=self.cluster_id, collected_at=self.collected_at, rows=dict(self._counts)
        )

    def _write(self, table_name: str, rows: Rows) -> int:
        import pyarrow as pa
        import pyarrow.parquet as pq

        spec = table(table_name)
        if spec.kind is not TableKind.SNAPSHOT:
            raise ValueError(f"{table_name} is not a snapshot table")
        schema = spec.arrow_schema()
        _check_columns(table_name, rows, spec.column_names)
        try:
            if isinstance(rows, Mapping):
                data = pa.Table.from_pydict(dict(rows), schema=schema)
            else:
                data = pa.Table.from_pylist(list(rows), schema=schema)
        except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
            raise KcliError(f"snapshot table {table_name}: bad value: {error}") from error
        target = partition_dir(self.out, table_name, self.cluster_id, self.collected_at)
        target.mkdir(parents=True, exist_ok=True)
        temporary = target / f".{PART_FILE}.tmp"
        pq.write_table(data, temporary, compression="zstd")
        os.replace(temporary, target / PART_FILE)  # readers never see half a file
        self._counts[table_name] = data.num_rows
        return data.num_rows


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
