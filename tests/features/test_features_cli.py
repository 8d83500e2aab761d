"""kcli features through the CLI: offline subcommands, usage errors, and tansu (no features, no UpdateFeatures)."""

from __future__ import annotations

from typing import Any

import pytest


def test_version_mapping_and_dependencies_need_no_cluster(kcli: Any) -> None:
    result = kcli("features", "version-mapping", "--release-version", "3.9-IV0")
    assert result.code == 0 and result.lines[:2] == ["metadata.version=21 (3.9-IV0)", "kraft.version=1"]
    deps = kcli(
        "features", "feature-dependencies", "--feature", "eligible.leader.replicas.version=1", "-o", "json"
    )
    assert deps.json == [
        {
            "feature": "eligible.leader.replicas.version",
            "level": 1,
            "release": None,
            "requires": [{"feature": "metadata.version", "level": 23, "release": "4.0-IV1"}],
        }
    ]
    bad = kcli("features", "version-mapping", "--release-version", "1.0")
    assert bad.code == 2 and "Unknown release version '1.0'" in bad.stderr


def test_update_flags_are_validated_before_connecting(kcli: Any) -> None:
    result = kcli("features", "--bootstrap-server", "127.0.0.1:1", "upgrade", "--feature", "group.version")
    assert result.code == 2
    assert (
        result.stderr.strip()
        == "Error: Can't parse feature=level string group.version: equals sign not found."
    )
    mixed = kcli("features", "-b", "127.0.0.1:1", "upgrade", "--release-version", "4.0", "--metadata", "3.9")
    assert mixed.code == 2 and "Can not specify `release-version` with other feature flags." in mixed.stderr


@pytest.mark.tansu
def test_describe_and_upgrade_against_tansu(kcli: Any, tansu: Any) -> None:
    # tansu sends no SupportedFeatures: nothing to print, like kafka-features.sh against it.
    described = kcli("features", "--bootstrap-server", tansu.bootstrap, "describe", "-o", "json")
    assert described.code == 0 and described.json["features"] == []
    # Connection options are accepted after the subcommand as well.
    upgraded = kcli("features", "upgrade", "--feature", "group.version=1", "-b", tansu.bootstrap)
    assert upgraded.code == 1
    assert "UpdateFeatures is not supported by this server" in upgraded.stderr
