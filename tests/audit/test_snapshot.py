"""The snapshot writer and the documented tables (pyarrow only, no Spark)."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds
import pytest

from kcli.audit.snapshot import SnapshotWriter, partition_dir
from kcli.audit.synthetic import FleetSpec, generate_fleet
from kcli.audit.tables import ALL_TABLES, SNAPSHOT_TABLES, TableKind, table

DOCUMENTED = {
    "clusters", "brokers", "controllers", "quorum", "topics", "partitions", "topic_configs",
    "broker_configs", "acls", "client_quotas", "log_dirs", "features", "endpoints",
    "groups", "group_offsets", "broker_events", "leader_changes", "metadata_topics",
}  # fmt: skip


def test_the_documented_tables_exist_and_are_in_the_docs() -> None:
    assert {t.name for t in ALL_TABLES} == DOCUMENTED
    docs = (Path(__file__).parents[2] / "docs" / "audit-tables.md").read_text()
    for spec in ALL_TABLES:
        assert f"### `{spec.name}`" in docs
        for column in spec.all_columns():
            assert f"`{column.name}`" in docs, (spec.name, column.name)


def test_spark_ddl_includes_partition_columns_of_snapshot_tables() -> None:
    assert table("partitions").spark_ddl().endswith("`cluster_id` STRING, `collected_at` STRING")
    assert "`replicas` ARRAY<INT>" in table("partitions").spark_ddl()
    assert table("broker_events").kind is TableKind.HISTORY
    assert table("broker_events").spark_ddl().startswith("`cluster_id` STRING")


def test_writer_partitions_by_cluster_and_time_and_commits_with_clusters_last(tmp_path: Path) -> None:
    writer = SnapshotWriter(tmp_path, cluster_id="a/b c", collected_at="20260101T000000Z")
    assert (
        writer.write("brokers", [{"broker_id": 1, "host": "h", "port": 9092, "rack": None, "fenced": False}])
        == 1
    )
    assert not (tmp_path / "clusters").exists()
    written = writer.finish(
        {
            "bootstrap": "h:9092",
            "endpoint_type": "brokers",
            "controller_id": 1,
            "collected_ms": 0,
            "kcli_version": "t",
        }
    )
    assert written.rows["brokers"] == 1 and written.rows["clusters"] == 1 and written.rows["acls"] == 0
    for spec in SNAPSHOT_TABLES:
        assert (
            partition_dir(tmp_path, spec.name, "a/b c", "20260101T000000Z") / "part-00000.parquet"
        ).is_file()
    assert (tmp_path / "brokers" / "cluster_id=a%2Fb%20c").is_dir()
    data = ds.dataset(tmp_path / "brokers", format="parquet", partitioning="hive").to_table().to_pylist()
    assert data[0]["broker_id"] == 1 and data[0]["collected_at"] == "20260101T000000Z"


def test_writer_rejects_unknown_columns_and_the_clusters_table(tmp_path: Path) -> None:
    writer = SnapshotWriter(tmp_path, cluster_id="c", collected_at="20260101T000000Z")
    with pytest.raises(ValueError, match="unknown columns \\['colour'\\]"):
        writer.write("brokers", [{"broker_id": 1, "colour": "red"}])
    with pytest.raises(ValueError, match="finish"):
        writer.write("clusters", [])


def test_synthetic_fleet_has_the_asked_size(tmp_path: Path) -> None:
    written = generate_fleet(tmp_path, FleetSpec(clusters=3, partitions=1000, partitions_per_topic=10))
    assert [w.cluster_id for w in written] == ["synthetic-000", "synthetic-001", "synthetic-002"]
    assert sum(w.rows["partitions"] for w in written) == 1000
    partitions = ds.dataset(tmp_path / "partitions", format="parquet", partitioning="hive").to_table()
    assert partitions.num_rows == 1000
    assert set(partitions.column("cluster_id").to_pylist()) == {w.cluster_id for w in written}
