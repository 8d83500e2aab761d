#!/usr/bin/env python3
"""Kafka's feature levels as kcli data, read from Kafka's own tools and a running node.

    python scripts/kafka-features-data.py --kafka-home NEWEST [--kafka-home OLDER ...] \
        --bootstrap-server B [--check]

Writes kcli/data/features.toml (read by kcli.ops.features):
- every metadata.version level and its release name, from `kafka-storage.sh version-mapping` of the
  newest distribution (its refusal of an unknown version lists every name; each name's mapping
  gives its level and each feature's default level at it);
- each feature's levels and dependencies, from `kafka-storage.sh feature-dependencies` (level by
  level until the tool says the level does not exist), and the metadata.version from which each
  level is the default (the lowest level whose mapping gives it or more);
- the latest production level of metadata.version (version-mapping's default) and of each feature
  (the SupportedMaxVersion the running node's ApiVersions advertises);
- which metadata.version levels changed the metadata (MetadataVersion.didMetadataChange), which
  decides whether a downgrade is safe: the node named by --bootstrap-server must be a scratch
  cluster formatted at the minimum level (`kafka-storage.sh format --release-version 3.3-IV3`,
  a static controller.quorum.voters quorum); the script raises metadata.version one level at a
  time and at each level asks a validate-only safe downgrade to the level below, which Kafka
  refuses exactly when that level changed the metadata. The node is left at the newest level.
Every older distribution given is checked to name its levels as the newest does.

Levels 1-6 (3.0-IV1 .. 3.3-IV2) are no longer known to Kafka 4.x's tools; 3.x clusters still report
them, so their names and metadata changes, from Kafka 3.9's MetadataVersion, are written here.

`--check` writes nothing and exits 1 when the file on disk differs from what the tools give.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import re
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

OUTPUT = ROOT / "kcli" / "data" / "features.toml"
SCRIPT = "scripts/kafka-features-data.py"
METADATA_VERSION = "metadata.version"

# Levels Kafka 4.0 removed (name, did the metadata change), from Kafka 3.9's MetadataVersion.
KAFKA_3_ONLY: dict[int, tuple[str, bool]] = {
    1: ("3.0-IV1", True),
    2: ("3.1-IV0", False),
    3: ("3.2-IV0", True),
    4: ("3.3-IV0", False),
    5: ("3.3-IV1", True),
    6: ("3.3-IV2", True),
}
# The minimum level cannot be downgraded from, so no node can show its flag: 3.9's, for describe only.
MINIMUM_CHANGED = True

MAPPED = re.compile(r"^metadata\.version=(\d+) \((\S+)\)$", re.MULTILINE)
FEATURE_LINE = re.compile(r"^([a-z.]+)=(\d+)$", re.MULTILINE)
SUPPORTED = re.compile(r"Supported metadata\.version are: (.*)$", re.MULTILINE)
SUPPORTED_RANGE = re.compile(r"Supported versions are: (\S+) to (\S+)")
REQUIRES = re.compile(r"^\s+([a-z.]+)=(\d+)", re.MULTILINE)


def log(message: str) -> None:
    print(f"{SCRIPT}: {message}", file=sys.stderr)


@dataclass
class Tools:
    """One distribution's kafka-storage.sh."""

    home: Path

    def storage(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(self.home / "bin" / "kafka-storage.sh"), *args], capture_output=True, text=True, timeout=120
        )

    def names(self) -> list[str]:
        """Every metadata.version name the tool knows, as its refusal of an unknown one lists them."""
        done = self.storage("version-mapping", "--release-version", "0.0-IV0")
        text = done.stdout + done.stderr
        if match := SUPPORTED.search(text):
            return [name.strip() for name in match.group(1).split(",")]
        if match := SUPPORTED_RANGE.search(text):
            return [match.group(1), match.group(2)]  # older tools state only the range's ends
        raise SystemExit(f"{SCRIPT}: {self.home}: cannot read the supported versions from: {text.strip()}")

    def mapping(self, release: str | None = None) -> tuple[int, str, dict[str, int]]:
        """(level, name, default level of each feature) of a release (None: the latest production)."""
        done = self.storage("version-mapping", *(("--release-version", release) if release else ()))
        match = MAPPED.search(done.stdout)
        if done.returncode or match is None:
            raise SystemExit(f"{SCRIPT}: version-mapping {release}: {done.stdout}{done.stderr}")
        features = {n: int(v) for n, v in FEATURE_LINE.findall(done.stdout) if n != METADATA_VERSION}
        return int(match.group(1)), match.group(2), features

    def dependencies(self, feature: str, level: int) -> dict[str, int] | None:
        """What `feature` at `level` requires; None when the level does not exist."""
        done = self.storage("feature-dependencies", "--feature", f"{feature}={level}")
        if done.returncode:
            text = done.stdout + done.stderr
            if "No feature" in text or f"Feature level {level} is not supported for feature {feature}" in text:
                return None
            raise SystemExit(f"{SCRIPT}: feature-dependencies {feature}={level}: {done.stdout}{done.stderr}")
        if "has no dependencies" in done.stdout:
            return {}
        return {name: int(value) for name, value in REQUIRES.findall(done.stdout)}


@dataclass
class FeatureFacts:
    name: str
    latest_production: int = 0
    levels: list[tuple[int, int | None, dict[str, int]]] = field(default_factory=list)  # level, bootstrap, requires


async def _node_facts(bootstrap: str, levels: Sequence[int]) -> tuple[dict[str, tuple[int, int]], list[int]]:
    """(supported ranges the node advertises, the levels whose metadata changed) from a scratch node."""
    from kcli.client.admin import Admin
    from kcli.client.api.features import update
    from kcli.client.config import config_from_properties
    from kcli.kafka import FeatureUpgradeType
    from kcli.ops.features import FeatureUpdate, Operation, UpdatePlan

    config = config_from_properties({"bootstrap.servers": bootstrap}, warn=log)
    async with Admin(config) as admin:
        response = await admin.api_versions()
        supported = {f.name: (int(f.min_version), int(f.max_version)) for f in response.supported_features}
        finalized = {f.name: int(f.max_version_level) for f in response.finalized_features}
        current = finalized.get(METADATA_VERSION, 0)
        if current != levels[0]:
            raise SystemExit(
                f"{SCRIPT}: the node is at metadata.version {current}; format a scratch node at {levels[0]}"
            )

        async def change(level: int, kind: FeatureUpgradeType, dry_run: bool) -> str | None:
            plan = UpdatePlan(
                operation=Operation.upgrade if kind is FeatureUpgradeType.UPGRADE else Operation.downgrade,
                updates=(FeatureUpdate(feature=METADATA_VERSION, level=level, upgrade_type=kind),),
                dry_run=dry_run,
            )
            (outcome,) = (await update(admin, plan)).outcomes
            return outcome.error

        changed = []
        for previous, level in itertools.pairwise(levels):
            error = await change(level, FeatureUpgradeType.UPGRADE, dry_run=False)
            if error:
                raise SystemExit(f"{SCRIPT}: upgrading metadata.version to {level}: {error}")
            refusal = await change(previous, FeatureUpgradeType.SAFE_DOWNGRADE, dry_run=True)
            if refusal is not None:
                if "might delete metadata information" not in refusal:
                    raise SystemExit(f"{SCRIPT}: an unexpected refusal at {level}: {refusal}")
                changed.append(level)
        return supported, changed


def collect(homes: Sequence[Path], bootstrap: str) -> dict[str, Any]:
    newest = Tools(homes[0])
    names = newest.names()
    levels: dict[int, str] = {}
    defaults: dict[int, dict[str, int]] = {}
    for name in names:
        level, mapped, features = newest.mapping(name)
        if mapped != name:
            raise SystemExit(f"{SCRIPT}: version-mapping {name} answered {mapped}")
        levels[level], defaults[level] = name, features
    production, _, _ = newest.mapping()
    for home in homes[1:]:
        older = Tools(home)
        low, high = older.names()[0], older.names()[-1]
        for name in names[names.index(low) : names.index(high) + 1]:
            level, mapped, _ = older.mapping(name)
            if levels.get(level) != mapped:
                raise SystemExit(f"{SCRIPT}: {home} names level {level} {mapped}, {homes[0]} {levels.get(level)}")
        log(f"{home}: levels {low} to {high} named as in {homes[0]}")

    order = sorted(levels)
    feature_names = list(defaults[order[-1]])
    facts = []
    for feature in feature_names:
        fact = FeatureFacts(name=feature)
        level = 0
        while (requires := newest.dependencies(feature, level)) is not None:
            bootstrap_level = next((mv for mv in order if defaults[mv].get(feature, 0) >= level), None)
            fact.levels.append((level, bootstrap_level, requires))
            level += 1
        facts.append(fact)

    production_levels = [level for level in order if level <= production]
    supported, changed = asyncio.run(_node_facts(bootstrap, production_levels))
    if supported[METADATA_VERSION] != (order[0], production):
        raise SystemExit(f"{SCRIPT}: the node supports metadata.version {supported[METADATA_VERSION]}")
    for fact in facts:
        fact.latest_production = supported[fact.name][1]
    return {
        "levels": levels,
        "minimum": order[0],
        "production": production,
        "changed": sorted({lvl for lvl, (_, c) in KAFKA_3_ONLY.items() if c} | ({order[0]} if MINIMUM_CHANGED else set()) | set(changed)),
        "features": facts,
    }


def render(data: dict[str, Any], kafka_version: str) -> str:
    levels = {**{lvl: name for lvl, (name, _) in KAFKA_3_ONLY.items()}, **data["levels"]}
    production = data["production"]
    lines = [
        "# Kafka feature versions (KIP-584, KIP-1022): the one place kcli keeps them.",
        "#",
        f"# Written by {SCRIPT} from Apache Kafka {kafka_version}'s kafka-storage.sh (version-mapping,",
        "# feature-dependencies) and a running node of it (production levels, metadata changes); do not edit.",
        "# Read by kcli.ops.features.",
        "#",
        "# metadata.version: level -> release name (\"X.Y-IVn\"). Levels 1-6 were removed in Kafka 4.0 but",
        "# 3.x clusters still report them, so they stay here for describe; levels above latest_production",
        "# are Kafka's unstable ones.",
        "",
        "[metadata_version]",
        f"minimum = {data['minimum']}              # MetadataVersion.MINIMUM_VERSION ({levels[data['minimum']]})",
        f"latest_production = {production}  # {levels[production]}",
        "# Levels whose MetadataVersion has didMetadataChange = true: a metadata.version downgrade is safe",
        "# only when no level above the target, up to and including the current one, is listed here.",
        f"metadata_changed = [{', '.join(str(level) for level in data['changed'])}]",
        "",
        "[metadata_version.levels]",
        *(f'{level} = "{name}"' for level, name in sorted(levels.items())),
        "",
        "# Production features in Kafka's enum order (the order of version-mapping lines).",
        "# Each level: `bootstrap` = the metadata.version level from which this level is the default",
        "# (FeatureVersion.bootstrapMetadataVersion; absent: never a default); `requires` = its",
        "# dependencies (feature -> level).",
    ]
    for fact in data["features"]:
        lines += ["", "[[features]]", f'name = "{fact.name}"', f"latest_production = {fact.latest_production}", "levels = ["]
        for level, bootstrap, requires in fact.levels:
            needs = ", ".join(f'"{name}" = {value}' for name, value in requires.items())
            boot = "" if bootstrap is None else f"bootstrap = {bootstrap}, "
            lines.append(f"    {{ level = {level}, {boot}requires = {{{' ' + needs + ' ' if needs else ''}}} }},")
        lines.append("]")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kafka-home", action="append", type=Path, required=True, help="newest first")
    parser.add_argument("--bootstrap-server", required=True, help="a scratch node at the minimum level")
    parser.add_argument("--kafka-version", required=True, help="the newest distribution's release, e.g. 4.4.0")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file differs")
    args = parser.parse_args(argv)
    text = render(collect(args.kafka_home, args.bootstrap_server), args.kafka_version)
    if args.check:
        if OUTPUT.read_text(encoding="utf-8") != text:
            log(f"{OUTPUT.relative_to(ROOT)} differs from what the tools report")
            return 1
        return 0
    OUTPUT.write_text(text, encoding="utf-8")
    log(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
