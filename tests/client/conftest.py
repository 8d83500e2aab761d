"""A group on the session's emulator sandbox, for the tests that trace what commands send."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.fixture(scope="session")
def traced_group(sandbox: Any, tmp_path_factory: pytest.TempPathFactory) -> str:
    """A topic of 6 partitions and an Empty group with an offset on each."""
    from tests.conftest import invoke

    b = sandbox.bootstrap_servers
    created = invoke("topics", "-b", b, "--create", "--topic", "traced", "--partitions", "6")
    assert created.code == 0, created.stderr
    rollback = tmp_path_factory.mktemp("trace") / "rollback.csv"
    reset = invoke(
        "consumer-groups", "-b", b, "--reset-offsets", "--group", "traced-g", "--topic", "traced",
        "--to-earliest", "--execute", "--rollback-file", str(rollback),
    )  # fmt: skip
    assert reset.code == 0, reset.stderr
    return "traced-g"
