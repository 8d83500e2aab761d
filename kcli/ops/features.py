"""Kafka feature versions: the metadata.version catalogue, feature=level parsing and update planning.

Everything here is pure: the catalogue comes from package data (kcli/data/features.toml, the one
place the levels live), and the plans are values the wire layer turns into UpdateFeatures requests.
Messages match kafka-features.sh (FeatureCommand) so runbooks that grep them keep working.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from types import MappingProxyType

from kcli.errors import KcliError, UsageError
from kcli.integers import clipped, java_long
from kcli.kafka import FeatureUpgradeType

METADATA_VERSION = "metadata.version"


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureLevel:
    """One level of a feature: from which metadata.version it is the default, and what it needs."""

    level: int
    bootstrap: int
    requires: Mapping[str, int] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureSpec:
    """A production feature (kraft.version, group.version, ...) and its known levels."""

    name: str
    latest_production: int
    levels: tuple[FeatureLevel, ...]

    def level(self, level: int) -> FeatureLevel:
        """The level entry, or the error Kafka's Feature.fromFeatureLevel raises."""
        for entry in self.levels:
            if entry.level == level:
                return entry
        raise KcliError(f"No feature:{self.name} with feature level {level}")

    def default_level(self, metadata_level: int) -> int:
        """The level a cluster formatted at `metadata_level` gets (Feature.defaultLevel)."""
        chosen = self.levels[0].level
        for entry in self.levels:
            if entry.bootstrap > metadata_level:
                break
            chosen = entry.level
        return chosen


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureCatalog:
    """The metadata.version levels and production features kcli knows (Kafka 4.2)."""

    metadata_versions: Mapping[int, str]
    minimum_metadata_level: int
    latest_production_metadata_level: int
    features: tuple[FeatureSpec, ...]
    metadata_changed: frozenset[int] = frozenset()

    def downgrade_changes_metadata(self, current: int, target: int) -> bool:
        """MetadataVersion.checkIfMetadataChanged: does a level in (target, current] change the metadata?"""
        low, high = sorted((current, target))
        return any(level in self.metadata_changed for level in range(low + 1, high + 1))

    def release_name(self, level: int) -> str | None:
        """`21` -> `3.9-IV0`; None for a level kcli does not know."""
        return self.metadata_versions.get(level)

    def feature(self, name: str) -> FeatureSpec | None:
        return next((spec for spec in self.features if spec.name == name), None)

    @property
    def supported_names(self) -> tuple[str, ...]:
        """Release names from the minimum (4.x) to the newest known level."""
        return tuple(
            name
            for level, name in sorted(self.metadata_versions.items())
            if level >= self.minimum_metadata_level
        )

    def metadata_level(self, text: str) -> int | None:
        """Parse a release version as MetadataVersion.fromVersionString does.

        `3.9-IV0` is exact; `3.9` (or `3.9.1`) means the last IV of that release; an integer is a level.
        None when unknown.
        """
        text = text.strip()
        level = java_long(text) if text.isdigit() else None
        if level is not None:
            return level if level in self.metadata_versions else None
        segments = text.split(".")
        key = ".".join(segments[:2]) if len(segments) > 2 else text
        for level, name in sorted(self.metadata_versions.items(), reverse=True):
            if name == key or name.split("-", 1)[0] == key:
                return level
        return None


@functools.cache
def load_catalog() -> FeatureCatalog:
    """The catalogue from kcli/data/features.toml (read once per process)."""
    import tomllib

    from kcli.data import read_text

    raw = tomllib.loads(read_text("features.toml"))
    return catalog_from_mapping(raw)


def catalog_from_mapping(raw: Mapping[str, object]) -> FeatureCatalog:
    """Build a catalogue from the parsed TOML document (kept separate so tests can pass their own)."""
    mv = raw["metadata_version"]
    assert isinstance(mv, Mapping)
    levels = {int(level): str(name) for level, name in mv["levels"].items()}
    features = []
    for entry in raw.get("features", []):  # type: ignore[attr-defined]
        feature_levels = tuple(
            FeatureLevel(
                level=int(item["level"]),
                bootstrap=int(item["bootstrap"]),
                requires=MappingProxyType({str(k): int(v) for k, v in item.get("requires", {}).items()}),
            )
            for item in entry["levels"]
        )
        features.append(
            FeatureSpec(
                name=str(entry["name"]),
                latest_production=int(entry["latest_production"]),
                levels=feature_levels,
            )
        )
    return FeatureCatalog(
        metadata_versions=MappingProxyType(levels),
        minimum_metadata_level=int(mv["minimum"]),
        latest_production_metadata_level=int(mv["latest_production"]),
        features=tuple(features),
        metadata_changed=frozenset(int(level) for level in mv.get("metadata_changed", ())),
    )


def level_text(feature: str, level: int, catalog: FeatureCatalog) -> str:
    """How describe prints a level: metadata.version as its release name (`UNKNOWN n` if unmapped)."""
    if feature != METADATA_VERSION:
        return str(level)
    name = catalog.release_name(level)
    return name if name is not None else f"UNKNOWN {level}"


# ---------------------------------------------------------------------------------------- describe


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureState:
    """One supported feature of a node, with the cluster's finalized level (0 when not finalized)."""

    name: str
    supported_min: int
    supported_max: int
    finalized_level: int
    epoch: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureDescription:
    """What `features describe` reports: the supported features of the node that answered."""

    node: int | None
    finalized_epoch: int | None
    features: tuple[FeatureState, ...]


def describe_features(
    *,
    supported: Iterable[tuple[str, int, int]],
    finalized: Mapping[str, int],
    epoch: int | None,
    node: int | None = None,
) -> FeatureDescription:
    """Join supported and finalized features by name, sorted (finalized-only features are not shown)."""
    known_epoch = epoch if epoch is not None and epoch >= 0 else None
    states = tuple(
        FeatureState(
            name=name,
            supported_min=low,
            supported_max=high,
            finalized_level=finalized.get(name, 0),
            epoch=known_epoch,
        )
        for name, low, high in sorted(supported)
    )
    return FeatureDescription(node=node, finalized_epoch=known_epoch, features=states)


# ------------------------------------------------------------------------------------------ update


class Operation(StrEnum):
    upgrade = "upgrade"
    downgrade = "downgrade"
    disable = "disable"


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureUpdate:
    feature: str
    level: int
    upgrade_type: FeatureUpgradeType


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdatePlan:
    """The updates of one upgrade/downgrade/disable, sorted by feature name, plus notices to print."""

    operation: Operation
    updates: tuple[FeatureUpdate, ...]
    dry_run: bool
    notices: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateOutcome:
    """The result for one feature: error is the server's message, None when it succeeded."""

    feature: str
    level: int
    error: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class UpdateResult:
    operation: Operation
    dry_run: bool
    outcomes: tuple[UpdateOutcome, ...]

    @property
    def failures(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.error is not None)


def parse_feature_level(text: str) -> tuple[str, int]:
    """`name=level` -> (name, level), with kafka-features.sh's messages."""
    name, sep, level = text.partition("=")
    if not sep:
        raise UsageError(f"Can't parse feature=level string {text}: equals sign not found.")
    level = level.strip()
    try:
        value = int(level)
    except ValueError:
        value = None
    if value is None or not -32768 <= value <= 32767:
        raise UsageError(f"Can't parse feature=level string {text}: unable to parse {level} as a short.")
    return name.strip(), value


def parse_feature_levels(texts: Sequence[str]) -> dict[str, int]:
    """Several `name=level`, refusing a feature named twice."""
    result: dict[str, int] = {}
    for text in texts:
        name, level = parse_feature_level(text)
        if name in result:
            raise UsageError(f"Feature {name} was specified more than once.")
        result[name] = level
    return result


def unknown_metadata_version(text: str, catalog: FeatureCatalog) -> UsageError:
    supported = ", ".join(catalog.supported_names)
    return UsageError(f"Unknown metadata.version {clipped(text)}. Supported metadata.version are {supported}")


def plan_update(
    operation: Operation,
    *,
    features: Sequence[str] = (),
    metadata: str | None = None,
    release_version: str | None = None,
    unsafe: bool = False,
    dry_run: bool = False,
    catalog: FeatureCatalog,
) -> UpdatePlan:
    """Turn the flags of upgrade/downgrade/disable into a plan, validating as FeatureCommand does."""
    if operation is Operation.upgrade:
        upgrade_type = FeatureUpgradeType.UPGRADE
    else:
        upgrade_type = FeatureUpgradeType.UNSAFE_DOWNGRADE if unsafe else FeatureUpgradeType.SAFE_DOWNGRADE
    if release_version is not None and (metadata is not None or features):
        raise UsageError("Can not specify `release-version` with other feature flags.")

    levels: dict[str, int] = {}
    notices: list[str] = []
    if metadata is not None:
        notices.append(" `metadata` flag is deprecated and may be removed in a future release.")
        level = catalog.metadata_level(metadata)
        if level is None:
            raise unknown_metadata_version(metadata, catalog)
        levels[METADATA_VERSION] = level
    if operation is Operation.disable:
        for name in features:
            name = name.strip()
            if name in levels:
                raise UsageError(f"Feature {name} was specified more than once.")
            levels[name] = 0
    else:
        for name, value in parse_feature_levels(features).items():
            if name in levels:
                raise UsageError(f"Feature {name} was specified more than once.")
            levels[name] = value
    if release_version is not None:
        mv_level = catalog.metadata_level(release_version)
        if mv_level is None:
            raise unknown_metadata_version(release_version, catalog)
        levels[METADATA_VERSION] = mv_level
        for spec in catalog.features:
            default = spec.default_level(mv_level)
            # An upgrade never turns a feature off; a downgrade sets every feature explicitly.
            if operation is Operation.upgrade and default == 0:
                continue
            levels[spec.name] = default
    if not levels:
        raise KcliError(f"You must specify at least one feature to {operation.value}")
    updates = tuple(
        FeatureUpdate(feature=name, level=level, upgrade_type=upgrade_type)
        for name, level in sorted(levels.items())
    )
    return UpdatePlan(operation=operation, updates=updates, dry_run=dry_run, notices=tuple(notices))


# ----------------------------------------------------------------- version-mapping and dependencies


@dataclass(frozen=True, slots=True, kw_only=True)
class VersionMapping:
    """The default feature levels of one release version."""

    release_version: str
    metadata_level: int
    features: tuple[tuple[str, int], ...]


def version_mapping(release_version: str | None, catalog: FeatureCatalog) -> VersionMapping:
    """What `features version-mapping` prints (default: the latest production metadata.version)."""
    typed = release_version
    if typed is None:
        typed = catalog.metadata_versions[catalog.latest_production_metadata_level]
    level = catalog.metadata_level(typed)
    if level is None or level < catalog.minimum_metadata_level:
        low = catalog.metadata_versions[catalog.minimum_metadata_level]
        high = catalog.metadata_versions[catalog.latest_production_metadata_level]
        raise UsageError(f"Unknown release version '{typed}'. Supported versions are: {low} to {high}")
    return VersionMapping(
        release_version=typed,
        metadata_level=level,
        features=tuple((spec.name, spec.default_level(level)) for spec in catalog.features),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class Dependency:
    feature: str
    level: int
    release: str | None = None  # the release name when feature is metadata.version


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureDependencies:
    """One `--feature name=level` of feature-dependencies and what it requires."""

    feature: str
    level: int
    release: str | None
    requires: tuple[Dependency, ...]


def feature_dependencies(texts: Sequence[str], catalog: FeatureCatalog) -> tuple[FeatureDependencies, ...]:
    """Dependencies of each given feature level, in argument order."""
    if not texts:
        raise UsageError("feature-dependencies needs at least one --feature name=level")
    results = []
    for name, level in parse_feature_levels(texts).items():
        if name == METADATA_VERSION:
            release = catalog.release_name(level)
            if release is None or level < catalog.minimum_metadata_level:
                raise KcliError(f"Unknown metadata.version {level}")
            results.append(FeatureDependencies(feature=name, level=level, release=release, requires=()))
            continue
        spec = catalog.feature(name)
        if spec is None:
            raise KcliError(f"Unknown feature: {name}")
        entry = spec.level(level)
        requires = tuple(
            Dependency(
                feature=dep,
                level=dep_level,
                release=catalog.release_name(dep_level) if dep == METADATA_VERSION else None,
            )
            for dep, dep_level in entry.requires.items()
        )
        results.append(FeatureDependencies(feature=name, level=level, release=None, requires=requires))
    return tuple(results)
