"""Audit test fixtures: ONE local Spark session for the whole test run, and crafted fleets.

Spark start-up costs seconds, so every Spark test shares the session-scoped `spark` fixture; the
audit commands reuse an already active session instead of starting their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.audit.crafted import write_crafted_fleet


@pytest.fixture(scope="session")
def spark() -> Iterator[Any]:
    """A small local[2] session: no UI, two shuffle partitions, modest driver memory."""
    from kcli.audit.job import spark_session

    conf = {
        "spark.ui.enabled": "false",
        "spark.sql.shuffle.partitions": "2",
        "spark.driver.memory": "512m",
        "spark.default.parallelism": "2",
        # Tiny tables: interpreted plans beat compiling code on a cold JVM, and AQE re-planning
        # costs more than it saves.
        "spark.sql.codegen.wholeStage": "false",
        "spark.sql.adaptive.enabled": "false",
    }
    with spark_session("local[2]", conf) as session:
        yield session


@pytest.fixture(scope="session")
def crafted_fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(snapshot dir, metadata-log tree) of the dirty-* and clean-* clusters (see crafted.py)."""
    root = tmp_path_factory.mktemp("crafted")
    return write_crafted_fleet(root)
