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
    """A local[2] session with kcli's command-line settings and a modest driver memory."""
    from kcli.audit.session import spark_session

    with spark_session("local[2]", {"spark.driver.memory": "1g"}) as session:
        yield session


@pytest.fixture(scope="session")
def audit_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A sandbox shaped like a small real cluster that no test changes: 3 brokers, 4 topics x 3 partitions."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("audit-sandbox"), brokers=3, topics=4, partitions=3) as sb:
        yield sb


@pytest.fixture(scope="session")
def crafted_fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(snapshot dir, metadata-log tree) of the dirty-* and clean-* clusters (see crafted.py)."""
    root = tmp_path_factory.mktemp("crafted")
    return write_crafted_fleet(root)
