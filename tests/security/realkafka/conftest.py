"""Real-Kafka security tests: each module starts one Kafka node for its security set-up (module scope)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import CliResult
from tests.security.realkafka.kafka_node import kafka_home


@pytest.fixture(scope="session")
def kafka_dist() -> Path:
    """The Kafka distribution of KCLI_KAFKA_HOME (skips when unset or without java): ask for it first."""
    return kafka_home()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "realkafka" in item.nodeid:
            item.add_marker(pytest.mark.slow)


def one_error_line(result: CliResult, code: int) -> str:
    """The single stderr line of a failed kcli run (no traceback)."""
    assert result.code == code, (result.code, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip() and not line.startswith("Warning")]
    assert len(lines) == 1, result.stderr
    return lines[0]
