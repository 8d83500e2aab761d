"""Feature levels a sandbox node supports and a new sandbox finalizes, derived from kcli's one catalogue.

The levels, defaults and dependencies live in kcli/data/features.toml (kcli.ops.features.load_catalog);
this module only turns them into what a KRaft node does with them:
- supported ranges as BrokerFeatures.defaultSupportedFeatures: metadata.version from the minimum
  (3.3-IV3) to the latest production level, every production feature from 0 to its latest production level;
- bootstrap levels as `kafka-storage format` writes them: metadata.version at the latest production
  level and each feature at its default level for that metadata.version;
- dependency checks as Feature.validateVersion: a level's `requires` must hold on the final levels.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kcli.ops.features import METADATA_VERSION, FeatureCatalog, load_catalog

KRAFT_VERSION = "kraft.version"
# kraft.version lives in a KRaftVersionRecord control record, not in a FeatureLevelRecord.
CONTROL_FEATURES = frozenset({KRAFT_VERSION})


@dataclass(frozen=True, slots=True, kw_only=True)
class SupportedFeature:
    """A feature a node supports, with the inclusive range of levels it accepts."""

    name: str
    min_level: int
    max_level: int


def supported_features(catalog: FeatureCatalog | None = None) -> tuple[SupportedFeature, ...]:
    """What every sandbox node advertises in ApiVersions and its registration records."""
    catalog = catalog or load_catalog()
    features = [
        SupportedFeature(
            name=METADATA_VERSION,
            min_level=catalog.minimum_metadata_level,
            max_level=catalog.latest_production_metadata_level,
        )
    ]
    features += [
        SupportedFeature(name=spec.name, min_level=0, max_level=spec.latest_production)
        for spec in catalog.features
    ]
    return tuple(features)


def supported_feature(name: str, catalog: FeatureCatalog | None = None) -> SupportedFeature | None:
    """The supported range of `name`, or None for a feature the sandbox does not know."""
    return next((f for f in supported_features(catalog) if f.name == name), None)


def bootstrap_levels(
    metadata_level: int | None = None, catalog: FeatureCatalog | None = None
) -> dict[str, int]:
    """Finalized levels of a newly formatted cluster: metadata.version and each feature's default for it."""
    catalog = catalog or load_catalog()
    level = catalog.latest_production_metadata_level if metadata_level is None else metadata_level
    levels = {METADATA_VERSION: level}
    for spec in catalog.features:
        levels[spec.name] = spec.default_level(level)
    return levels


def release_level(release_version: str | None, catalog: FeatureCatalog | None = None) -> int | None:
    """The metadata.version level of a release (`3.9`, `3.9-IV0`, `21`); None for the latest production.

    Raises ValueError for a release kcli does not know or one older than the 4.x minimum (3.3-IV3).
    """
    if release_version is None:
        return None
    catalog = catalog or load_catalog()
    level = catalog.metadata_level(release_version)
    if level is None or not (
        catalog.minimum_metadata_level <= level <= catalog.latest_production_metadata_level
    ):
        low = catalog.metadata_versions[catalog.minimum_metadata_level]
        high = catalog.metadata_versions[catalog.latest_production_metadata_level]
        raise ValueError(f"unknown release version {release_version!r}: supported are {low} to {high}")
    return level


def dependency_problem(
    feature: str, level: int, levels: Mapping[str, int], catalog: FeatureCatalog | None = None
) -> tuple[str, int] | None:
    """The first (dependency, required level) that `levels` does not meet for `feature` at `level`."""
    catalog = catalog or load_catalog()
    spec = catalog.feature(feature)
    if spec is None or level == 0:
        return None
    entry = next((e for e in spec.levels if e.level == level), None)
    if entry is None:
        return None
    for other, minimum in sorted(entry.requires.items()):
        if levels.get(other, 0) < minimum:
            return other, minimum
    return None
