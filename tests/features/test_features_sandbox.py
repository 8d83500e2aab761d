"""kcli features end to end on the sandbox: describe, upgrade/downgrade, and the FeatureLevelRecord in the log."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kcli.ops.features import load_catalog

pytestmark = pytest.mark.sandbox
FEATURE_LEVEL_RECORD = 12


def finalized(kcli: Any, *connection: str) -> dict[str, Any]:
    result = kcli("features", *connection, "describe", "-o", "json")
    assert result.code == 0, result.stderr
    return {f["name"]: f for f in result.json["features"]}


def feature_levels_in_log(directory: Path) -> list[tuple[str, int]]:
    from kcli.metadata.reader import read_file

    found = []
    for segment in sorted(directory.glob("*.log")):
        for entry in read_file(segment):
            if not entry.control and entry.key == FEATURE_LEVEL_RECORD:
                found.append((str(entry.record.name), int(entry.record.feature_level)))
    return found


def test_describe_lines(kcli: Any, sandbox: Any) -> None:
    result = kcli("features", "--bootstrap-server", sandbox.bootstrap_servers, "describe")
    assert result.code == 0, result.stderr
    # the sandbox's nodes support Kafka 4.4's levels: the columns are padded, as kafka-features 4.3+ prints
    rows = [[" ".join(cell.split()) for cell in re.split(r"\s{2,}", line.strip())] for line in result.lines]
    lines = {row[0]: row for row in rows}
    mv = lines["Feature: metadata.version"]
    assert mv[1] == "SupportedMinVersion: 3.3-IV3"
    assert mv[3].startswith("FinalizedVersionLevel: ") and "UNKNOWN" not in mv[3]
    assert mv[4].startswith("Epoch: ") and mv[4] != "Epoch: -"
    assert "\t" not in result.stdout
    assert [row[0] for row in rows] == sorted(lines)


def test_downgrade_and_upgrade_change_the_level_and_the_log(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    before = finalized(kcli, "-b", sb.bootstrap_servers)
    assert before["group.version"]["finalized_version_level"] == 1

    dry = kcli(
        "features", "-b", sb.bootstrap_servers, "downgrade", "--feature", "group.version=0", "--dry-run"
    )
    assert (dry.code, dry.lines) == (0, ["group.version can be downgraded to 0."]), dry.stderr
    assert finalized(kcli, "-b", sb.bootstrap_servers)["group.version"]["finalized_version_level"] == 1

    down = kcli("features", "-C", sb.bootstrap_controllers, "disable", "--feature", "group.version")
    assert (down.code, down.lines) == (0, ["group.version was disabled."]), down.stderr
    assert finalized(kcli, "-b", sb.bootstrap_servers)["group.version"]["finalized_version_level"] == 0

    up = kcli("features", "-b", sb.bootstrap_servers, "upgrade", "--feature", "group.version=1")
    assert (up.code, up.lines) == (0, ["group.version was upgraded to 1."]), up.stderr
    after = finalized(kcli, "-C", sb.bootstrap_controllers)["group.version"]
    assert after["finalized_version_level"] == 1 and after["epoch"] > before["group.version"]["epoch"]

    levels = feature_levels_in_log(sb.metadata_log_dir(sb.active_controller_id))
    assert [level for name, level in levels if name == "group.version"][-2:] == [0, 1]


def test_metadata_version_downgrade_is_refused_like_kafka(kcli: Any, sandbox: Any) -> None:
    mv = finalized(kcli, "-b", sandbox.bootstrap_servers)["metadata.version"]
    assert load_catalog().release_name(mv["finalized_version_level"]) == mv["finalized_release"]
    result = kcli("features", "-b", sandbox.bootstrap_servers, "downgrade", "--release-version", "3.9-IV0")
    assert result.code == 1
    assert "Could not downgrade metadata.version to 21. " in result.stdout
    assert "out of" in result.stderr
    after = finalized(kcli, "-b", sandbox.bootstrap_servers)["metadata.version"]
    assert after["finalized_version_level"] == mv["finalized_version_level"]


def test_failed_update_reports_and_exits_1(kcli: Any, sandbox: Any) -> None:
    result = kcli("features", "-b", sandbox.bootstrap_servers, "upgrade", "--feature", "no.such.feature=1")
    assert result.code == 1
    assert result.lines[0].startswith("Could not upgrade no.such.feature to 1. ")
    assert result.stderr.strip() == "Error: 1 out of 1 operation(s) failed."
