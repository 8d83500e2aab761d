"""The sandbox's feature levels come from kcli's one catalogue (kcli/data/features.toml)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from kcli.ops.features import load_catalog, version_mapping
from kcli.sandbox.emulator.features import bootstrap_levels, release_level, supported_features
from tests.sandbox.raw import RawConnection, first

INVALID_UPDATE_VERSION = 95
UPGRADE = 1


def test_supported_ranges_follow_the_catalogue() -> None:
    catalog = load_catalog()
    supported = {f.name: (f.min_level, f.max_level) for f in supported_features()}
    assert supported.pop("metadata.version") == (
        catalog.minimum_metadata_level,
        catalog.latest_production_metadata_level,
    )
    assert supported == {spec.name: (0, spec.latest_production) for spec in catalog.features}


@pytest.mark.parametrize("release", ["3.3-IV3", "3.9", "4.0", "4.1-IV0", None])
def test_bootstrap_levels_are_the_version_mapping(release: str | None) -> None:
    catalog = load_catalog()
    level = release_level(release)
    mapping = version_mapping(release, catalog)
    expected = {"metadata.version": mapping.metadata_level, **dict(mapping.features)}
    assert bootstrap_levels(level) == expected


def test_unknown_or_removed_release_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown release version"):
        release_level("3.2")  # below the 4.x minimum (3.3-IV3)
    with pytest.raises(ValueError, match="unknown release version"):
        release_level("9.9")
    with pytest.raises(ValueError):
        from kcli.sandbox.emulator.handle import Sandbox

        Sandbox(release_version="nope")


@pytest.mark.sandbox
def test_dependencies_are_kafkas_on_a_3_9_sandbox(make_sandbox: Any) -> None:
    from kio.schema.update_features.v1 import request as update_features

    # kio's constructors take its phantom int types; plain ints are what they hold at runtime
    key_cls: Any = update_features.FeatureUpdateKey
    request_cls: Any = update_features.UpdateFeaturesRequest

    sb = make_sandbox(controllers=1, brokers=1, release_version="3.9")
    features = sb.run(lambda c: dict(c.image.features))
    assert features == {"metadata.version": 21}  # every feature's default at 3.9 is 0
    assert sb.run(lambda c: c.kraft_version) == 1

    def update(*changes: tuple[str, int]) -> Any:
        keys = tuple(key_cls(feature=f, max_version_level=lv, upgrade_type=UPGRADE) for f, lv in changes)
        with RawConnection(first(sb.bootstrap_controllers)) as conn:
            request = request_cls(
                timeout=datetime.timedelta(seconds=5), feature_updates=keys, validate_only=False
            )
            return conn.call(request)

    # group.version 1 has no dependency in Kafka (it is only the default from 4.0 on)
    assert update(("group.version", 1)).results[0].error_code.value == 0
    # eligible.leader.replicas.version 1 needs metadata.version 4.0-IV1 (23)
    elr = "eligible.leader.replicas.version"
    refused = update((elr, 1))  # a failure is the top-level error, as Kafka's controller answers
    assert (refused.error_code.value, refused.results) == (INVALID_UPDATE_VERSION, ())
    assert str(refused.error_message).startswith("The update failed for all features since the following")
    assert str(refused.error_message).endswith(
        "Invalid update version 1 for feature eligible.leader.replicas.version. eligible.leader.replicas.version "
        "could not be set to 1 because it depends on metadata.version level 23"
    )
    assert elr not in sb.run(lambda c: c.image.features)
    # both in one request: the dependency holds on the final levels
    both = update(("metadata.version", 23), (elr, 1))
    assert both.results[0].error_code.value == 0
    assert sb.run(lambda c: (c.image.features["metadata.version"], c.image.features[elr])) == (23, 1)
