"""Shared test helpers: run kcli in-process and capture stdout, stderr, exit code and JSON."""

from __future__ import annotations

import json
import os
import sys
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
    command: Any = None,
) -> CliResult:
    """Run `kcli ARGS...` in-process. Unexpected exceptions fail the test (they would be bugs).

    `command` is kcli's click command when a caller that runs many builds it once
    (typer.main.get_command(app)); by default it is built for this call, as typer's CliRunner does.
    """
    import typer

    from kcli.cli.main import app

    env: dict[str, str | None] = {"NO_COLOR": "1", "COLUMNS": "200", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    env.update(environ or {})
    command = command or typer.main.get_command(app)
    code: Any = 0
    exception: BaseException | None = None
    with CliRunner().isolation(input=input, env=env) as (stdout, stderr, _output):
        try:
            command.main(args=list(args), prog_name="kcli")
        except SystemExit as done:
            code = done.code or 0
            exception = done if code != 0 else None
            if not isinstance(code, int):  # sys.exit("message"), as typer's CliRunner shows it
                sys.stdout.write(f"{code}\n")
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        out, err = stdout.getvalue(), stderr.getvalue()
    return CliResult(code if isinstance(code, int) else 1, _text(out), _text(err), exception)


def _text(data: bytes) -> str:
    return data.decode("utf-8", "replace").replace("\r\n", "\n")


@pytest.fixture
def kcli() -> Any:
    """`kcli("configs", "--describe", ...)` -> CliResult."""
    return invoke
