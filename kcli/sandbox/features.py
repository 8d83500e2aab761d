"""Feature levels the sandbox supports and finalizes (metadata.version, kraft.version, group.version, ...)."""

from __future__ import annotations

from dataclasses import dataclass

# metadata.version levels by release name (MetadataVersion.java); the level is what FeatureLevelRecord holds.
METADATA_VERSIONS: dict[str, int] = {
    "3.3-IV3": 7,
    "3.4-IV0": 8,
    "3.5-IV0": 9,
    "3.5-IV1": 10,
    "3.5-IV2": 11,
    "3.6-IV0": 12,
    "3.6-IV1": 13,
    "3.6-IV2": 14,
    "3.7-IV0": 15,
    "3.7-IV1": 16,
    "3.7-IV2": 17,
    "3.7-IV3": 18,
    "3.7-IV4": 19,
    "3.8-IV0": 20,
    "3.9-IV0": 21,
    "4.0-IV0": 22,
    "4.0-IV1": 23,
    "4.0-IV2": 24,
    "4.0-IV3": 25,
    "4.1-IV0": 26,
    "4.1-IV1": 27,
    "4.2-IV0": 28,
}


@dataclass(frozen=True, slots=True, kw_only=True)
class FeatureSpec:
    """A feature: supported range, level a new cluster starts at, and what each level needs."""

    name: str
    min_level: int
    max_level: int
    bootstrap_level: int
    # level -> (feature, minimum level) it depends on
    requires: tuple[tuple[int, str, int], ...] = ()


FEATURES: dict[str, FeatureSpec] = {
    spec.name: spec
    for spec in (
        FeatureSpec(name="metadata.version", min_level=7, max_level=28, bootstrap_level=28),
        FeatureSpec(name="kraft.version", min_level=0, max_level=1, bootstrap_level=1),
        FeatureSpec(
            name="group.version",
            min_level=0,
            max_level=1,
            bootstrap_level=1,
            requires=((1, "metadata.version", 22),),
        ),
        FeatureSpec(
            name="transaction.version",
            min_level=0,
            max_level=2,
            bootstrap_level=2,
            requires=((1, "metadata.version", 22), (2, "metadata.version", 22)),
        ),
        FeatureSpec(
            name="eligible.leader.replicas.version",
            min_level=0,
            max_level=1,
            bootstrap_level=1,
            requires=((1, "metadata.version", 23),),
        ),
        FeatureSpec(
            name="share.version",
            min_level=0,
            max_level=1,
            bootstrap_level=0,
            requires=((1, "metadata.version", 26),),
        ),
        FeatureSpec(
            name="streams.version",
            min_level=0,
            max_level=1,
            bootstrap_level=0,
            requires=((1, "metadata.version", 27),),
        ),
    )
}

# kraft.version lives in a KRaftVersionRecord control record, not in a FeatureLevelRecord.
CONTROL_FEATURES = frozenset({"kraft.version"})
