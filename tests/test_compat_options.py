"""Every option of each mirrored kafka-*.sh tool is accepted by kcli, with the same arity.

The options are what Kafka's own tools list in their --help (kcli/data/kafka_tool_options.tsv, written
by scripts/kafka-options.py from Kafka 4.0.2 and 4.4.0): a runbook line that works with the original
must parse with kcli after replacing the program name. The last test re-reads the tools' --help where
Kafka can run (CI), so the file cannot go stale unnoticed.
"""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from kcli.cli.kafka_options import kafka_tool_options, original_options

REPO = Path(__file__).resolve().parents[1]


@cache
def _root() -> Any:
    import typer

    from kcli.cli.main import app

    return typer.main.get_command(app)


def _command(path: tuple[str, ...]) -> Any:
    command = _root()
    for name in path:
        command = command.commands[name]  # type: ignore[attr-defined]
    return command


@pytest.mark.parametrize(
    ("path", "option", "takes_value"),
    original_options(),
    ids=lambda v: " ".join(v) if isinstance(v, tuple) else str(v),
)
def test_original_option_is_accepted_with_the_same_arity(
    path: tuple[str, ...], option: str, takes_value: bool
) -> None:
    params = [p for p in _command(path).params if option in (*p.opts, *p.secondary_opts)]
    assert params, f"kcli {' '.join(path)} does not accept {option}"
    (param,) = params
    assert (not param.is_flag) is takes_value, (
        f"{option} should {'take a value' if takes_value else 'be a flag'}"
    )


def test_the_table_covers_every_tool_and_release() -> None:
    rows = kafka_tool_options()
    assert {row.tool for row in rows} >= {
        "kafka-acls", "kafka-cluster", "kafka-configs", "kafka-features",
        "kafka-metadata-quorum", "kafka-reassign-partitions",
    }  # fmt: skip
    assert {release for row in rows for release in row.releases} == {"4.0.2", "4.4.0"}
    # facts the releases differ on, as their --help shows them
    by_key = {(row.tool, row.subcommand, row.option): row.releases for row in rows}
    assert by_key[("kafka-cluster", "unregister-controller", "--id")] == ("4.4.0",)
    assert by_key[("kafka-metadata-quorum", "remove-controller", "--unregister")] == ("4.4.0",)
    assert by_key[("kafka-configs", "-", "--force")] == ("4.0.2",)  # removed in 4.1


@pytest.mark.realkafka
@pytest.mark.slow
def test_the_table_is_what_the_tools_print() -> None:
    from tests.fixtures_kafka import NEWEST, OLDEST, kafka_home

    for release in (OLDEST, NEWEST):
        kafka_home(release)  # skips (or, in CI, fails) when Kafka cannot run here
    done = subprocess.run(
        [sys.executable, "scripts/kafka-options.py", "--check"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert done.returncode == 0, done.stderr + done.stdout
