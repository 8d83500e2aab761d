"""kcli metadata-quorum through the CLI: validation messages, dry runs, and tansu (no DescribeQuorum)."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import pytest

from kcli.metadata.uuids import kafka_uuid

DIR = uuid.UUID("7b1e5c2a-0000-4000-8000-000000000042")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["describe"], "One of --status or --replication must be specified with describe sub-command"),
        (
            ["describe", "--status", "--replication"],
            "Only one of --status or --replication should be specified with describe sub-command",
        ),
        (
            ["describe", "--status", "--human-readable"],
            "The option --human-readable is only supported along with --replication",
        ),
        (
            ["add-controller"],
            "You must supply the configuration file of the controller you are adding when using add-controller.",
        ),
        (
            ["remove-controller", "--controller-id", "-1", "--controller-directory-id", "x"],
            "Invalid negative --controller-id: -1",
        ),
    ],
)
def test_validation_messages(kcli: Any, args: list[str], message: str) -> None:
    result = kcli("metadata-quorum", "--bootstrap-server", "127.0.0.1:1", *args)
    assert result.code == 2
    assert result.stderr.strip() == f"Error: {message}"


def test_add_controller_dry_run_reads_the_controller_config(kcli: Any, tmp_path: Path) -> None:
    (tmp_path / "meta.properties").write_text(f"version=1\nnode.id=4\ndirectory.id={kafka_uuid(DIR)}\n")
    config = tmp_path / "controller.properties"
    config.write_text(
        "process.roles=controller\nnode.id=4\n"
        f"metadata.log.dir={tmp_path}\n"
        "controller.listener.names=CONTROLLER\n"
        "listeners=CONTROLLER://0.0.0.0:9093\nadvertised.listeners=CONTROLLER://c4.example:9093\n"
    )
    result = kcli(
        "metadata-quorum", "-b", "127.0.0.1:1", "--command-config", str(config), "add-controller", "--dry-run"
    )
    assert result.code == 0, result.stderr
    assert result.lines == [
        f"DRY RUN of adding controller 4 with directory id {kafka_uuid(DIR)} and endpoints: CONTROLLER://c4.example:9093"
    ]


def test_remove_controller_dry_run(kcli: Any) -> None:
    result = kcli(
        "metadata-quorum",
        "remove-controller",
        "-i",
        "3",
        "-d",
        kafka_uuid(DIR),
        "--dry-run",
        "-b",
        "127.0.0.1:1",
    )
    assert result.code == 0, result.stderr
    assert result.lines == [f"DRY RUN of removing KRaft controller 3 with directory id {kafka_uuid(DIR)}"]
    bad = kcli(
        "metadata-quorum", "-b", "127.0.0.1:1", "remove-controller", "-i", "3", "-d", "nope", "--dry-run"
    )
    assert bad.code == 2 and "Failed to parse --controller-directory-id" in bad.stderr


@pytest.mark.tansu
def test_describe_against_tansu_says_unsupported(kcli: Any, tansu: Any) -> None:
    result = kcli("metadata-quorum", "--bootstrap-server", tansu.bootstrap, "describe", "--status")
    assert result.code == 1
    assert result.stderr.startswith("Error: DescribeQuorum is not supported by this server")
