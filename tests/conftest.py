"""Shared test helpers: run kcli in-process and capture stdout, stderr, exit code and JSON."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest_plugins = ["tests.fixtures_tansu", "tests.fixtures_sandbox", "tests.fixtures_kafka"]


# Shared test data lives in `../shared` beside the checkout, wherever it is cloned; KCLI_TEST_SHARED_DIR
# names another copy. Every test finds the Kafka-written metadata logs through KRAFT_FIXTURES.
REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("KCLI_TEST_SHARED_DIR") or REPO.parent / "shared")
KRAFT_FIXTURES = SHARED / "fixtures" / "kraft"


@dataclass(frozen=True)
class CliResult:
    code: int
    stdout: str
    stderr: str
    exception: BaseException | None

    @property
    def json(self) -> Any:
        return json.loads(self.stdout)

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines()


def invoke(
    *args: str,
    input: str | None = None,
    environ: Mapping[str, str | None] | None = None,
) -> CliResult:
    """Run `kcli ARGS...` in-process. Unexpected exceptions fail the test (they would be bugs)."""
    from kcli.cli.main import app

    env: dict[str, str | None] = {"NO_COLOR": "1", "COLUMNS": "200", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    env.update(environ or {})
    result = CliRunner().invoke(app, list(args), input=input, env=env, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return CliResult(result.exit_code, result.stdout, result.stderr, result.exception)


@pytest.fixture
def kcli() -> Any:
    """`kcli("configs", "--describe", ...)` -> CliResult."""
    return invoke
