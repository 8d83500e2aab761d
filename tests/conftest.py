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

# The files that take minutes (real clusters, Kafka's own JVM tools, Spark), longest first, as CI's
# durations show them. `-n 2 --dist loadfile` hands whole files to the workers in collection order,
# so one of these collected late would run alone at the end while the other worker waits.
LONGEST_FIRST = (
    "tests/metadata_vs_kafka/", "tests/kafka_diff/", "tests/runbooks/", "tests/audit/test_standalone_cluster.py",
    "tests/realkafka/", "tests/realcluster/", "tests/first_use/", "tests/audit/", "tests/security/realkafka/",
)  # fmt: skip


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The long files first (a stable sort: every other order, within a file and among the rest, stays)."""

    def rank(item: pytest.Item) -> int:
        path = Path(str(item.fspath)).resolve()
        where = path.relative_to(REPO).as_posix() if REPO in path.parents else ""
        return next((i for i, prefix in enumerate(LONGEST_FIRST) if where.startswith(prefix)), len(LONGEST_FIRST))

    items.sort(key=rank)


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
