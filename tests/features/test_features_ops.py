"""Unit tests of the feature catalogue, feature=level parsing, update plans and their output lines."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.kafka import FeatureUpgradeType
from kcli.ops.features import (
    FeatureUpdate,
    Operation,
    UpdateOutcome,
    UpdateResult,
    describe_features,
    feature_dependencies,
    load_catalog,
    parse_feature_level,
    plan_update,
    version_mapping,
)
from kcli.render.features import (
    dependencies_lines,
    describe_json,
    describe_lines,
    mapping_lines,
    update_failure_line,
    update_lines,
)

CATALOG = load_catalog()


def test_catalog_names_levels_from_package_data() -> None:
    assert CATALOG.release_name(21) == "3.9-IV0"
    assert CATALOG.release_name(7) == "3.3-IV3"
    assert CATALOG.release_name(29) == "4.2-IV1"
    assert CATALOG.release_name(33) == "4.4-IV2"
    assert CATALOG.release_name(34) == "4.5-IV0"  # Kafka 4.4's unstable level
    assert CATALOG.release_name(999) is None
    assert CATALOG.metadata_versions[CATALOG.latest_production_metadata_level] == "4.4-IV2"
    assert [f.name for f in CATALOG.features] == [
        "kraft.version",
        "transaction.version",
        "group.version",
        "eligible.leader.replicas.version",
        "share.version",
        "streams.version",
    ]


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("3.9-IV0", 21),
        ("3.7", 19),
        ("3.7.1", 19),
        ("4.0", 25),
        ("22", 22),
        ("3.3-IV3", 7),
        ("9.9", None),
        ("x", None),
    ],
)
def test_metadata_level_parses_release_versions(text: str, level: int | None) -> None:
    assert CATALOG.metadata_level(text) == level


def test_parse_feature_level_messages() -> None:
    assert parse_feature_level("group.version=1") == ("group.version", 1)
    with pytest.raises(UsageError, match=r"^Can't parse feature=level string foo: equals sign not found\.$"):
        parse_feature_level("foo")
    with pytest.raises(UsageError, match=r"unable to parse x as a short\.$"):
        parse_feature_level("foo=x")
    with pytest.raises(UsageError, match="unable to parse 40000 as a short"):
        parse_feature_level("foo=40000")


def test_plan_upgrade_sorts_and_marks_upgrade_type() -> None:
    plan = plan_update(
        Operation.upgrade, features=["transaction.version=2", "group.version=1"], catalog=CATALOG
    )
    assert plan.updates == (
        FeatureUpdate(feature="group.version", level=1, upgrade_type=FeatureUpgradeType.UPGRADE),
        FeatureUpdate(feature="transaction.version", level=2, upgrade_type=FeatureUpgradeType.UPGRADE),
    )


def test_plan_downgrade_unsafe_and_metadata_flag() -> None:
    plan = plan_update(Operation.downgrade, metadata="3.8-IV0", unsafe=True, catalog=CATALOG)
    assert plan.updates == (
        FeatureUpdate(feature="metadata.version", level=20, upgrade_type=FeatureUpgradeType.UNSAFE_DOWNGRADE),
    )
    assert plan.notices == (" `metadata` flag is deprecated and may be removed in a future release.",)


def test_plan_disable_sends_level_zero_safe_downgrade() -> None:
    plan = plan_update(Operation.disable, features=["group.version"], catalog=CATALOG)
    assert plan.updates == (
        FeatureUpdate(feature="group.version", level=0, upgrade_type=FeatureUpgradeType.SAFE_DOWNGRADE),
    )


def test_plan_release_version_upgrade_skips_zero_levels_downgrade_keeps_them() -> None:
    up = plan_update(Operation.upgrade, release_version="3.9-IV0", catalog=CATALOG)
    assert {u.feature: u.level for u in up.updates} == {"metadata.version": 21, "kraft.version": 1}
    down = plan_update(Operation.downgrade, release_version="3.9-IV0", catalog=CATALOG)
    assert {u.feature: u.level for u in down.updates} == {
        "metadata.version": 21,
        "kraft.version": 1,
        "transaction.version": 0,
        "group.version": 0,
        "eligible.leader.replicas.version": 0,
        "share.version": 0,
        "streams.version": 0,
    }


def test_plan_errors_match_kafka_features() -> None:
    with pytest.raises(UsageError, match=r"^Can not specify `release-version` with other feature flags.$"):
        plan_update(Operation.upgrade, release_version="4.0", features=["a=1"], catalog=CATALOG)
    with pytest.raises(UsageError, match=r"^Feature group.version was specified more than once.$"):
        plan_update(Operation.upgrade, features=["group.version=1", "group.version=0"], catalog=CATALOG)
    with pytest.raises(KcliError, match=r"^You must specify at least one feature to upgrade$"):
        plan_update(Operation.upgrade, catalog=CATALOG)
    with pytest.raises(
        UsageError, match=r"^Unknown metadata.version 2.9-IV9\. Supported metadata.version are 3.3-IV3, "
    ):
        plan_update(Operation.upgrade, metadata="2.9-IV9", catalog=CATALOG)


def test_version_mapping_lines_for_4_0_and_default() -> None:
    assert mapping_lines(version_mapping("4.0-IV3", CATALOG)) == [
        "metadata.version=25 (4.0-IV3)",
        "kraft.version=1",
        "transaction.version=2",
        "group.version=1",
        "eligible.leader.replicas.version=0",
        "share.version=0",
        "streams.version=0",
    ]
    assert mapping_lines(version_mapping(None, CATALOG))[0] == "metadata.version=33 (4.4-IV2)"
    with pytest.raises(
        UsageError, match=r"^Unknown release version '2.8'. Supported versions are: 3.3-IV3 to 4.4-IV2$"
    ):
        version_mapping("2.8", CATALOG)


def test_feature_dependencies_lines() -> None:
    results = feature_dependencies(
        ["eligible.leader.replicas.version=1", "group.version=1", "metadata.version=21"], CATALOG
    )
    assert dependencies_lines(results) == [
        "eligible.leader.replicas.version=1 requires:",
        "    metadata.version=23 (4.0-IV1)",
        "group.version=1 has no dependencies.",
        "metadata.version=21 (3.9-IV0) has no dependencies.",
    ]
    with pytest.raises(KcliError, match=r"^Unknown feature: nope$"):
        feature_dependencies(["nope=1"], CATALOG)
    with pytest.raises(KcliError, match=r"^No feature:group.version with feature level 7$"):
        feature_dependencies(["group.version=7"], CATALOG)
    with pytest.raises(KcliError, match=r"^Unknown metadata.version 3$"):
        feature_dependencies(["metadata.version=3"], CATALOG)


def test_describe_lines_render_metadata_version_names_and_epoch() -> None:
    result = describe_features(
        supported=[("metadata.version", 7, 29), ("group.version", 0, 1), ("kraft.version", 0, 1)],
        finalized={"metadata.version": 21, "kraft.version": 1, "unlisted.version": 3},
        epoch=12,
    )
    assert describe_lines(result, CATALOG) == [  # a 4.2 node: FeatureCommand of 4.0-4.2 separates with tabs
        "Feature: group.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 0\tEpoch: 12",
        "Feature: kraft.version\tSupportedMinVersion: 0\tSupportedMaxVersion: 1\tFinalizedVersionLevel: 1\tEpoch: 12",
        "Feature: metadata.version\tSupportedMinVersion: 3.3-IV3\tSupportedMaxVersion: 4.2-IV1\t"
        "FinalizedVersionLevel: 3.9-IV0\tEpoch: 12",
    ]
    unknown = describe_features(supported=[("metadata.version", 7, 99)], finalized={}, epoch=-1)
    assert describe_lines(unknown, CATALOG) == [  # a node newer than 4.3 pads, as FeatureCommand does since
        "Feature: metadata.version                          SupportedMinVersion: 3.3-IV3          "
        "SupportedMaxVersion: UNKNOWN 99       FinalizedVersionLevel: UNKNOWN 0        Epoch: -"
    ]
    assert describe_json(result, CATALOG)["features"][2]["finalized_release"] == "3.9-IV0"


def test_describe_pads_from_the_first_4_3_node() -> None:
    def first_line(max_level: int) -> str:
        result = describe_features(supported=[("metadata.version", 7, max_level)], finalized={}, epoch=5)
        return describe_lines(result, CATALOG)[0]

    assert "\t" in first_line(29)
    assert first_line(30) == (  # Kafka 4.3's `%-40s  SupportedMinVersion: %-15s  ...` (read in FeatureCommand)
        "Feature: metadata.version                          SupportedMinVersion: 3.3-IV3          "
        "SupportedMaxVersion: 4.3-IV0          FinalizedVersionLevel: UNKNOWN 0        Epoch: 5"
    )


def test_update_lines_success_failure_and_dry_run() -> None:
    result = UpdateResult(
        operation=Operation.downgrade,
        dry_run=False,
        outcomes=(
            UpdateOutcome(feature="metadata.version", level=20),
            UpdateOutcome(feature="group.version", level=0),
            UpdateOutcome(feature="kraft.version", level=0, error="Invalid update version 0."),
        ),
    )
    # FeatureCommand words lines by the operation, not the level: a downgrade to 0 is "downgraded to 0".
    assert update_lines(result) == [
        "group.version was downgraded to 0.",
        "Could not downgrade kraft.version to 0. Invalid update version 0.",
        "metadata.version was downgraded to 20.",
    ]
    disable = UpdateResult(
        operation=Operation.disable,
        dry_run=True,
        outcomes=(
            UpdateOutcome(feature="group.version", level=0),
            UpdateOutcome(feature="kraft.version", level=0, error="Invalid update version 0."),
        ),
    )
    assert update_lines(disable) == [
        "group.version can be disabled.",
        "Can not disable kraft.version. Invalid update version 0.",
    ]
    assert update_failure_line(result) == "1 out of 3 operation(s) failed."
    dry = UpdateResult(
        operation=Operation.upgrade,
        dry_run=True,
        outcomes=(
            UpdateOutcome(feature="group.version", level=1),
            UpdateOutcome(feature="share.version", level=1, error="boom"),
        ),
    )
    assert update_lines(dry) == [
        "group.version can be upgraded to 1.",
        "Can not upgrade share.version to 1. boom",
    ]


@pytest.mark.parametrize("flag", ["metadata", "release_version"])
def test_a_release_below_the_4_x_minimum_is_unknown(flag: str) -> None:
    """Kafka 4.x's MetadataVersion starts at 3.3-IV3: `downgrade --metadata 3.3-IV0` is refused before sending."""
    with pytest.raises(KcliError, match=r"^Unknown metadata.version 3.3-IV0\. Supported metadata.version are 3.3-IV3, "):
        plan_update(Operation.downgrade, catalog=CATALOG, **{flag: "3.3-IV0"})
