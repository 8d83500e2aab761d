"""Against the kcli sandbox: its metadata log (written by kcli's writer) reads back; live mode reads the quorum."""

from __future__ import annotations

from typing import Any

import pytest

from kcli.metadata.image import build_image
from kcli.metadata.read_model import ReadStats
from kcli.metadata.reader import FileReader
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def test_sandbox_log_round_trips(sandbox: Any) -> None:
    log_dir = sandbox.metadata_log_dir(sandbox.active_controller_id)
    stats = ReadStats()
    for segment in sorted(log_dir.glob("*.log")):
        assert list(FileReader(path=segment, stats=stats).entries())
    assert not stats.skipped and stats.unknown == 0
    image = build_image(log_dir.parent)
    assert set(image.brokers) == set(sandbox.broker_ids)
    assert set(image.controllers) == set(sandbox.controller_ids)
    assert "metadata.version" in image.features
    result = invoke("metadata-shell", "--directory", str(log_dir.parent), "ls", "/image/cluster/brokers")
    assert result.code == 0 and result.lines == sorted(str(b) for b in sandbox.broker_ids)


def test_live_mode_reads_the_quorum_and_says_it_is_partial(sandbox: Any) -> None:
    result = invoke(
        "metadata-shell",
        "--bootstrap-controller",
        sandbox.bootstrap_controllers,
        "ls",
        "/image/cluster/controllers",
    )
    assert result.code == 0, result.stderr
    assert result.lines == sorted(str(c) for c in sandbox.controller_ids)
    assert "partial metadata" in result.stderr
    result = invoke(
        "metadata-shell",
        "--bootstrap-controller",
        sandbox.bootstrap_controllers,
        "cat",
        "/local/partial",
        "/image/features/metadataVersion",
    )
    assert result.code == 0, result.stderr
    assert result.lines[0].startswith("live read through the admin APIs")
    # what the controllers cannot show is said, not listed as empty
    result = invoke(
        "metadata-shell",
        "--bootstrap-controller",
        sandbox.bootstrap_controllers,
        "ls",
        "/image/topics/byName",
    )
    assert result.code == 1 and result.stdout == ""
    assert "ls: /image/topics/byName: topics are not available from controllers" in result.stderr
