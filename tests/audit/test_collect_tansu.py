"""`kcli spark collect` against tansu, a Kafka broker nobody here wrote (no Spark needed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow.dataset as ds
import pytest

from tests.conftest import invoke

pytestmark = pytest.mark.tansu


def test_collect_from_tansu_writes_a_complete_snapshot(tansu: Any, tmp_path: Path) -> None:
    out = tmp_path / "snapshots"
    result = invoke(
        "spark", "collect", "--bootstrap-server", tansu.bootstrap, "--out", str(out), "-o", "json"
    )
    assert result.code == 0, result.stderr
    [written] = result.json
    assert written["rows"]["brokers"] >= 1
    for name in ("clusters", "brokers", "topics", "partitions", "topic_configs", "acls", "features"):
        files = list((out / name).rglob("part-00000.parquet"))
        assert len(files) == 1, name
    clusters = ds.dataset(out / "clusters", format="parquet", partitioning="hive").to_table().to_pylist()
    assert clusters[0]["cluster_id"] == written["cluster_id"]
    assert clusters[0]["bootstrap"] == tansu.bootstrap
    # What tansu does not offer is a warning on stderr, never a failure.
    assert all(line.startswith(("Warning: ", "collected ")) for line in result.stderr.splitlines())
