"""kafka-features.sh: Kafka's FeatureCommandTest, ported.

Cluster cases run against sandboxes formatted at the metadata.version Kafka's test asks for, moved
into 4.x's range where the test predates it (4.x starts at 3.3-IV3, level 7). Where Kafka's test
uses a mock admin client, a control hook of the session sandbox answers ApiVersions or
UpdateFeatures as the mock does, and kcli's lines are compared with Kafka's expected text.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.kafka_parity.conftest import NOWHERE, kcli, usage_error

KAFKA_TOOL = "kafka-features.sh"
KAFKA_TEST_CLASS = "FeatureCommandTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/FeatureCommandTest.java"
KAFKA_METHODS = [
    "testDescribeWithKRaft",
    "testDescribeWithKRaftAndBootstrapControllers",
    "testUpgradeMetadataVersionWithKraft",
    "testDowngradeMetadataVersionWithKRaft",
    "testUpgradeWithReleaseVersion",
    "testDowngradeWithReleaseVersion",
    "testLevelToString",
    "testMetadataVersionsToString",
    "testDowngradeType",
    "testParseNameAndLevel",
    "testHandleDescribe",
    "testHandleUpgradeToUnsupportedMetadataVersion",
    "testHandleUpgradeToLowerVersion",
    "testHandleUpgradeToLowerVersionDryRun",
    "testHandleDowngrade",
    "testHandleDowngradeDryRun",
    "testHandleDisable",
    "testHandleDisableDryRun",
    "testInvalidReleaseVersion",
    "testIncompatibleUpgradeFlags",
    "testHandleVersionMappingWithValidReleaseVersion",
    "testHandleVersionMappingWithNoReleaseVersion",
    "testHandleVersionMappingWithInvalidReleaseVersion",
    "testHandleFeatureDependenciesForFeatureWithDependencies",
    "testHandleFeatureDependenciesForFeatureWithNoDependencies",
    "testHandleFeatureDependenciesForUnknownFeature",
    "testHandleFeatureDependenciesForFeatureWithUnknownFeatureVersion",
    "testHandleFeatureDependenciesForInvalidVersionFormat",
    "testHandleFeatureDependenciesForMultipleFeatures",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a usage error exits 2 with one line; kafka-features exits 1"
API_VERSIONS, UPDATE_FEATURES = 18, 57
DEPRECATED = "`metadata` flag is deprecated and may be removed in a future release."
# Kafka 4.4's production features and the metadata.version levels this file names.
FEATURES = (
    "kraft.version",
    "transaction.version",
    "group.version",
    "eligible.leader.replicas.version",
    "share.version",
    "streams.version",
)
LATEST_PRODUCTION = (33, "4.4-IV2")
# Each feature's default level at 4.4-IV2 (Kafka 4.4.0's `kafka-features.sh version-mapping`).
DEFAULTS_AT_LATEST = {
    "kraft.version": 1,
    "transaction.version": 2,
    "group.version": 1,
    "eligible.leader.replicas.version": 1,
    "share.version": 2,
    "streams.version": 1,
}


@pytest.fixture(scope="module")
def sandbox_at(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[str], Any]]:
    """`sandbox_at("3.8-IV0")`: a 1-controller, 1-broker sandbox formatted at that metadata.version."""
    from kcli.sandbox.emulator.handle import Sandbox

    started: list[Any] = []

    def start(release: str) -> Any:
        sb = Sandbox(
            directory=tmp_path_factory.mktemp(f"features-{release}"),
            controllers=1,
            brokers=1,
            release_version=release,
        )
        sb.start()
        started.append(sb)
        return sb

    yield start
    for sb in started:
        sb.stop()


def features(sb: Any, *args: str, controllers: bool = False) -> Any:
    flag = (
        ("--bootstrap-controller", sb.bootstrap_controllers)
        if controllers
        else ("--bootstrap-server", sb.bootstrap_servers)
    )
    return kcli("features", *flag, *args)


def _without_epoch(line: str) -> str:
    return line[: line.index("Epoch: ")] if "Epoch: " in line else line


def _check_describe(sb: Any, finalized_mv: str, controllers: bool) -> None:
    from kcli.sandbox.emulator.features import supported_features

    result = features(sb, "describe", controllers=controllers)
    assert result.code == 0, result.stderr
    supported = {f.name: (f.min_level, f.max_level) for f in supported_features()}
    names = {1: "3.0-IV1", 7: "3.3-IV3", 29: "4.2-IV1", 30: "4.3-IV0", 33: "4.4-IV2"}
    expected = []
    for name in sorted(supported):
        low, high = supported[name]
        if name == "metadata.version":
            low_text, high_text, level = names.get(low, str(low)), names.get(high, str(high)), finalized_mv
        else:
            low_text, high_text, level = str(low), str(high), "0"
        # Kafka 4.3+'s FeatureCommand pads its columns (FeatureCommandTest.assertFeatureOutput): the
        # sandbox's nodes support 4.4's levels, so kcli answers in that form
        expected.append(
            f"Feature: {name:<40}  SupportedMinVersion: {low_text:<15}  SupportedMaxVersion: {high_text:<15}  "
            f"FinalizedVersionLevel: {level:<15}  "
        )
    assert [_without_epoch(line) for line in sorted(result.stdout.splitlines())] == expected


def test_FeatureCommandTest_testDescribeWithKRaft(sandbox_at: Any) -> None:
    _check_describe(sandbox_at("3.3-IV3"), "3.3-IV3", controllers=False)


def test_FeatureCommandTest_testDescribeWithKRaftAndBootstrapControllers(sandbox_at: Any) -> None:
    _check_describe(sandbox_at("3.7-IV0"), "3.7-IV0", controllers=True)


def test_FeatureCommandTest_testUpgradeMetadataVersionWithKraft(sandbox_at: Any) -> None:
    sb = sandbox_at("3.3-IV3")
    first = features(sb, "upgrade", "--feature", "metadata.version=8")
    assert (first.code, first.stdout.strip()) == (0, "metadata.version was upgraded to 8.")
    second = features(sb, "upgrade", "--metadata", "3.5-IV0")
    assert second.code == 0, second.stderr
    assert second.stdout.strip() == f"{DEPRECATED}\nmetadata.version was upgraded to 9."


def _answer_updates(hooks: Any, sb: Any, message: str, code: int = 48) -> list[Any]:
    """UpdateFeatures fails as a Kafka 4.x controller answers (one top-level error); requests are recorded."""
    from kcli.sandbox.emulator.context import ZERO

    requests: list[Any] = []

    async def fail(context: Any, request: Any) -> Any:
        if not context.forwarded:
            requests.append(request)
        return context.r(
            "UpdateFeaturesResponse", throttle_time=ZERO, error_code=code, error_message=message, results=()
        )

    hooks(sb, UPDATE_FEATURES, fail)
    return requests


FAILED_ALL = "The update failed for all features since the following feature had an error: "


def test_FeatureCommandTest_testDowngradeMetadataVersionWithKRaft(sandbox: Any, hooks: Any) -> None:
    disable_error = f"{FAILED_ALL}Invalid update version 0 for feature metadata.version. Local controller 3000 only supports versions 1-25"
    _answer_updates(hooks, sandbox, disable_error)
    result = features(sandbox, "disable", "--feature", "metadata.version")
    assert result.code == 1
    assert result.stdout.strip() == f"Could not disable metadata.version. {disable_error}"
    downgrade_error = (
        f"{FAILED_ALL}Unsupported metadata.version downgrade from 8 to 7. Refusing to perform the requested "
        "downgrade because it might delete metadata information."
    )
    sandbox.control(UPDATE_FEATURES, None)
    _answer_updates(hooks, sandbox, downgrade_error)
    result = features(sandbox, "downgrade", "--metadata", "3.3-IV3")  # 4.x knows nothing older
    assert result.code == 1
    assert (
        result.stdout.strip() == f"{DEPRECATED}\nCould not downgrade metadata.version to 7. {downgrade_error}"
    )
    unsafe_error = (
        f"{FAILED_ALL}Unsupported metadata.version downgrade from 8 to 7. Unsafe metadata downgrade is not "
        "supported in this version."
    )
    sandbox.control(UPDATE_FEATURES, None)
    _answer_updates(hooks, sandbox, unsafe_error)
    result = features(sandbox, "downgrade", "--unsafe", "--metadata", "3.3-IV3")
    assert result.code == 1
    assert result.stdout.strip() == f"{DEPRECATED}\nCould not downgrade metadata.version to 7. {unsafe_error}"


def _sent(requests: list[Any]) -> list[tuple[str, int, int]]:
    ((updates),) = [r.feature_updates for r in requests]
    return sorted((u.feature, int(u.max_version_level), int(u.upgrade_type)) for u in updates)


def test_FeatureCommandTest_testUpgradeWithReleaseVersion(sandbox_at: Any, recorder: Any) -> None:
    sb = sandbox_at("3.8-IV0")
    refused = features(sb, "upgrade", "--release-version", "3.7-IV3")
    assert refused.code == 1
    (line,) = refused.stdout.strip().splitlines()
    assert line.startswith("Could not upgrade metadata.version to 18. ")
    assert line.endswith(
        "Invalid update version 18 for feature metadata.version. Can't downgrade the version of this feature "
        "without setting the upgrade type to either safe or unsafe downgrade."
    )
    requests = recorder(sb, UPDATE_FEATURES)  # the sandbox's controller answers
    done = features(sb, "upgrade", "--release-version", "3.9-IV0")
    assert done.code == 0, done.stderr
    assert done.stdout.strip() == "kraft.version was upgraded to 1.\nmetadata.version was upgraded to 21."
    assert _sent(requests) == [("kraft.version", 1, 1), ("metadata.version", 21, 1)]


def test_FeatureCommandTest_testDowngradeWithReleaseVersion(sandbox_at: Any, recorder: Any) -> None:
    sb = sandbox_at("3.8-IV0")
    refused = features(sb, "downgrade", "--release-version", "3.9-IV0")
    assert refused.code == 1
    assert (
        "Invalid update version 1 for feature kraft.version. Can't downgrade to a newer version."
        in refused.stdout
    )
    for line in (
        "Could not downgrade group.version to 0.",
        "Could not downgrade transaction.version to 0.",
        "Could not downgrade kraft.version to 1.",
        "Could not downgrade metadata.version to 21.",
    ):
        assert line in refused.stdout
    requests = recorder(sb, UPDATE_FEATURES)  # the sandbox's controller answers
    done = features(sb, "downgrade", "--release-version", "3.7-IV3")
    assert done.code == 0, done.stderr
    assert done.stdout.strip().splitlines() == [
        "eligible.leader.replicas.version was downgraded to 0.",
        "group.version was downgraded to 0.",
        "kraft.version was downgraded to 0.",
        "metadata.version was downgraded to 18.",
        "share.version was downgraded to 0.",
        "streams.version was downgraded to 0.",
        "transaction.version was downgraded to 0.",
    ]
    assert _sent(requests) == sorted([(f, 0, 2) for f in FEATURES] + [("metadata.version", 18, 2)])


# ---------------------------------------------------------------- Kafka's unit tests (mock admin client)


def test_FeatureCommandTest_testLevelToString() -> None:
    from kcli.ops.features import level_text, load_catalog

    catalog = load_catalog()
    assert level_text("foo.bar", 5, catalog) == "5"
    assert level_text("metadata.version", 4, catalog) == "3.3-IV0"


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_FeatureCommandTest_testMetadataVersionsToString() -> None:
    """Kafka lists the supported versions, comma-separated, when it does not know one."""
    result = kcli("features", "--bootstrap-server", NOWHERE, "upgrade", "--metadata", "3.3-IV9")
    # FeatureCommand prints --metadata's deprecation on stdout before it reads the version
    assert result.stdout == " `metadata` flag is deprecated and may be removed in a future release.\n"
    usage_error(
        dataclasses.replace(result, stdout=""),
        "Unknown metadata.version 3.3-IV9. Supported metadata.version are 3.3-IV3, 3.4-IV0, 3.5-IV0, ",
    )


@pytest.mark.parametrize(
    ("args", "upgrade_type"),
    [(["downgrade", "--feature", "foo.bar=1"], 2), (["downgrade", "--unsafe", "--feature", "foo.bar=1"], 3),
     (["disable", "--feature", "foo.bar"], 2)],
    ids=["safe", "unsafe", "disable"],
)  # fmt: skip
def test_FeatureCommandTest_testDowngradeType(
    sandbox: Any, hooks: Any, args: list[str], upgrade_type: int
) -> None:
    requests = _answer_updates(hooks, sandbox, "recorded", code=0)
    features(sandbox, *args)
    ((update,),) = [r.feature_updates for r in requests]
    assert int(update.upgrade_type) == upgrade_type


def test_FeatureCommandTest_testParseNameAndLevel(sandbox: Any, hooks: Any) -> None:
    requests = _answer_updates(hooks, sandbox, "recorded", code=0)
    assert features(sandbox, "upgrade", "--feature", "foo.bar=5", "--feature", "quux=0").code == 0
    assert [(u.feature, int(u.max_version_level)) for u in requests[0].feature_updates] == [
        ("foo.bar", 5),
        ("quux", 0),
    ]
    for text, message in (
        ("baaz", "Can't parse feature=level string baaz: equals sign not found."),
        ("w=tf", "Can't parse feature=level string w=tf: unable to parse tf as a short."),
    ):
        result = kcli("features", "--bootstrap-server", NOWHERE, "upgrade", "--feature", text)
        assert result.code == 2 and message in result.stderr, result.stderr


def _mock_features(hooks: Any, sb: Any) -> None:
    """ApiVersions carries the features of Kafka's buildAdminClient(): foo.bar and metadata.version."""
    from kcli.sandbox.emulator.apis.k18_api_versions import handle_api_versions

    async def mock(context: Any, request: Any) -> Any:
        response = await handle_api_versions(context, request)
        if context.version < 3:
            return response
        supported = type(response.supported_features[0])
        finalized = type(response.finalized_features[0])
        return dataclasses.replace(
            response,
            supported_features=(
                supported(name="foo.bar", min_version=0, max_version=10),
                supported(name="metadata.version", min_version=4, max_version=7),
            ),
            finalized_features=(
                finalized(name="foo.bar", max_version_level=5, min_version_level=5),
                finalized(name="metadata.version", max_version_level=6, min_version_level=6),
            ),
            finalized_features_epoch=123,
        )

    hooks(sb, API_VERSIONS, mock)


def test_FeatureCommandTest_testHandleDescribe(sandbox: Any, hooks: Any) -> None:
    _mock_features(hooks, sandbox)
    result = features(sandbox, "describe")
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == (
        "Feature: foo.bar\tSupportedMinVersion: 0\tSupportedMaxVersion: 10\tFinalizedVersionLevel: 5\tEpoch: 123\n"
        "Feature: metadata.version\tSupportedMinVersion: 3.3-IV0\tSupportedMaxVersion: 3.3-IV3\t"
        "FinalizedVersionLevel: 3.3-IV2\tEpoch: 123"
    )


def _handled(sandbox: Any, hooks: Any, args: list[str], error: str, lines: list[str], failed: str) -> None:
    _answer_updates(hooks, sandbox, error)
    result = features(sandbox, *args)
    assert result.code == 1
    assert result.stdout.strip().splitlines() == lines
    assert failed in result.stderr


UPGRADE_ERROR = "Invalid update version 7 for feature metadata.version. Can't upgrade to lower version."
DOWNGRADE_ERROR = "Invalid update version 7 for feature metadata.version. Can't downgrade to newer version."
DISABLE_ERROR = "Invalid update version 0 for feature metadata.version. Can't downgrade below 4"


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_FeatureCommandTest_testHandleUpgradeToUnsupportedMetadataVersion() -> None:
    """Kafka 4.x's MetadataVersion starts at 3.3-IV3: an older --metadata is refused before sending."""
    result = kcli("features", "--bootstrap-server", NOWHERE, "upgrade", "--metadata", "3.3-IV1", "--feature", "foo.bar=6")
    assert result.stdout == f" {DEPRECATED}\n"  # printed before the version is read, as FeatureCommand does
    usage_error(dataclasses.replace(result, stdout=""), "Unknown metadata.version 3.3-IV1")


def test_FeatureCommandTest_testHandleUpgradeToLowerVersion(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks, ["upgrade", "--metadata", "3.3-IV3", "--feature", "foo.bar=6"], UPGRADE_ERROR,
        [DEPRECATED, f"Could not upgrade foo.bar to 6. {UPGRADE_ERROR}", f"Could not upgrade metadata.version to 7. {UPGRADE_ERROR}"],
        "2 out of 2 operation(s) failed.",
    )  # fmt: skip


def test_FeatureCommandTest_testHandleUpgradeToLowerVersionDryRun(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks, ["upgrade", "--metadata", "3.3-IV3", "--feature", "foo.bar=6", "--dry-run"], UPGRADE_ERROR,
        [DEPRECATED, f"Can not upgrade foo.bar to 6. {UPGRADE_ERROR}", f"Can not upgrade metadata.version to 7. {UPGRADE_ERROR}"],
        "2 out of 2 operation(s) failed.",
    )  # fmt: skip


def test_FeatureCommandTest_testHandleDowngrade(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks, ["downgrade", "--metadata", "3.3-IV3", "--feature", "foo.bar=1"], DOWNGRADE_ERROR,
        [DEPRECATED, f"Could not downgrade foo.bar to 1. {DOWNGRADE_ERROR}",
         f"Could not downgrade metadata.version to 7. {DOWNGRADE_ERROR}"],
        "2 out of 2 operation(s) failed.",
    )  # fmt: skip


def test_FeatureCommandTest_testHandleDowngradeDryRun(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks, ["downgrade", "--metadata", "3.3-IV3", "--feature", "foo.bar=1", "--dry-run"], DOWNGRADE_ERROR,
        [DEPRECATED, f"Can not downgrade foo.bar to 1. {DOWNGRADE_ERROR}",
         f"Can not downgrade metadata.version to 7. {DOWNGRADE_ERROR}"],
        "2 out of 2 operation(s) failed.",
    )  # fmt: skip


def test_FeatureCommandTest_testHandleDisable(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks, ["disable", "--feature", "foo.bar", "--feature", "metadata.version", "--feature", "quux"],
        DISABLE_ERROR,
        [f"Could not disable foo.bar. {DISABLE_ERROR}", f"Could not disable metadata.version. {DISABLE_ERROR}",
         f"Could not disable quux. {DISABLE_ERROR}"],
        "3 out of 3 operation(s) failed.",
    )  # fmt: skip


def test_FeatureCommandTest_testHandleDisableDryRun(sandbox: Any, hooks: Any) -> None:
    _handled(
        sandbox, hooks,
        ["disable", "--feature", "foo.bar", "--feature", "metadata.version", "--feature", "quux", "--dry-run"],
        DISABLE_ERROR,
        [f"Can not disable foo.bar. {DISABLE_ERROR}", f"Can not disable metadata.version. {DISABLE_ERROR}",
         f"Can not disable quux. {DISABLE_ERROR}"],
        "3 out of 3 operation(s) failed.",
    )  # fmt: skip


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_FeatureCommandTest_testInvalidReleaseVersion() -> None:
    result = kcli("features", "--bootstrap-server", NOWHERE, "upgrade", "--release-version", "foo")
    usage_error(result, "Unknown metadata.version foo.")


@pytest.mark.kafka_difference(USAGE_EXIT)
@pytest.mark.parametrize(
    "extra",
    [
        ["--feature", "foo.bar", "--feature", "metadata.version", "--feature", "quux"],
        ["--metadata", "3.3-IV3"],
    ],
    ids=["features", "metadata"],
)
def test_FeatureCommandTest_testIncompatibleUpgradeFlags(extra: list[str]) -> None:
    result = kcli(
        "features", "--bootstrap-server", NOWHERE, "upgrade", "--release-version", "3.3-IV3", *extra
    )
    usage_error(result, "Can not specify `release-version` with other feature flags.")


def test_FeatureCommandTest_testHandleVersionMappingWithValidReleaseVersion() -> None:
    result = kcli(
        "features", "--bootstrap-server", NOWHERE, "version-mapping", "--release-version", "3.3-IV3"
    )
    assert result.code == 0, result.stderr
    assert "metadata.version=7 (3.3-IV3)" in result.stdout
    for feature in FEATURES:
        assert f"{feature}=0" in result.stdout.splitlines()


def test_FeatureCommandTest_testHandleVersionMappingWithNoReleaseVersion() -> None:
    result = kcli("features", "--bootstrap-server", NOWHERE, "version-mapping")
    assert result.code == 0, result.stderr
    level, name = LATEST_PRODUCTION
    assert f"metadata.version={level} ({name})" in result.stdout
    for feature, default in DEFAULTS_AT_LATEST.items():
        assert f"{feature}={default}" in result.stdout.splitlines()


@pytest.mark.kafka_difference(USAGE_EXIT)
@pytest.mark.parametrize("version", ["2.9-IV2", "invalid"])
def test_FeatureCommandTest_testHandleVersionMappingWithInvalidReleaseVersion(version: str) -> None:
    result = kcli("features", "--bootstrap-server", NOWHERE, "version-mapping", "--release-version", version)
    usage_error(result, f"Unknown release version '{version}'. Supported versions are: 3.3-IV3 to 4.4-IV2")


def dependencies(*features_: str) -> Any:
    return kcli(
        "features",
        "--bootstrap-server",
        NOWHERE,
        "feature-dependencies",
        *(a for f in features_ for a in ("--feature", f)),
    )


# Kafka's test uses test.feature.version, a feature of Kafka's test build only;
# eligible.leader.replicas.version=1, which needs metadata.version 4.0-IV1, shows the same fact with a
# production feature (as Kafka 4.4.0's kafka-features.sh prints it).
WITH_DEPENDENCIES = "eligible.leader.replicas.version=1 requires:\n    metadata.version=23 (4.0-IV1)"


def test_FeatureCommandTest_testHandleFeatureDependenciesForFeatureWithDependencies() -> None:
    result = dependencies("eligible.leader.replicas.version=1")
    assert (result.code, result.stdout.strip()) == (0, WITH_DEPENDENCIES)


def test_FeatureCommandTest_testHandleFeatureDependenciesForFeatureWithNoDependencies() -> None:
    result = dependencies("metadata.version=17")
    assert (result.code, result.stdout) == (0, "metadata.version=17 (3.7-IV2) has no dependencies.\n")


def test_FeatureCommandTest_testHandleFeatureDependenciesForUnknownFeature() -> None:
    result = dependencies("unknown.feature=1")
    assert (result.code, result.stderr.strip()) == (1, "Error: Unknown feature: unknown.feature")


def test_FeatureCommandTest_testHandleFeatureDependenciesForFeatureWithUnknownFeatureVersion() -> None:
    result = dependencies("transaction.version=1000")
    assert (result.code, result.stderr.strip()) == (
        1,
        "Error: No feature:transaction.version with feature level 1000",
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_FeatureCommandTest_testHandleFeatureDependenciesForInvalidVersionFormat() -> None:
    usage_error(
        dependencies("metadata.version=invalid"),
        "Can't parse feature=level string metadata.version=invalid: unable to parse invalid as a short.",
    )


def test_FeatureCommandTest_testHandleFeatureDependenciesForMultipleFeatures() -> None:
    result = dependencies("transaction.version=2", "group.version=1", "eligible.leader.replicas.version=1")
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == "\n".join(
        [
            "transaction.version=2 has no dependencies.",
            "group.version=1 has no dependencies.",
            WITH_DEPENDENCIES,
        ]
    )
