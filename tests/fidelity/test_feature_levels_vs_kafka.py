"""kcli/data/features.toml against the Kafka distribution that wrote it (no cluster needed): the level
names, the latest production level, the defaults at it and every feature level's dependencies, as
`kafka-storage.sh` says them. The distribution is Kafka 4.4.0 from scripts/kafka-dist.sh, or the one
KCLI_TEST_KAFKA_HOME names."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from kcli.ops.features import METADATA_VERSION, load_catalog

HOME_ENV = "KCLI_TEST_KAFKA_HOME"
pytestmark = pytest.mark.realkafka


def _storage(*args: str) -> str:
    from tests.fixtures_kafka import NEWEST, kafka_home

    home = Path(os.environ[HOME_ENV]) if os.environ.get(HOME_ENV) else kafka_home(NEWEST)
    tool = home / "bin" / "kafka-storage.sh"
    done = subprocess.run([str(tool), *args], capture_output=True, text=True, timeout=120)
    return done.stdout + done.stderr


def test_feature_levels_are_those_of_kafkas_tools() -> None:
    catalog = load_catalog()
    listed = re.search(r"Supported metadata\.version are: (.*)", _storage("version-mapping", "-r", "0.0-IV0"))
    assert listed is not None
    names = [name.strip() for name in listed.group(1).split(",")]
    assert names == [name for level, name in sorted(catalog.metadata_versions.items()) if level >= 7]
    mapping = dict(line.split("=", 1) for line in _storage("version-mapping").splitlines() if "=" in line)
    level = catalog.latest_production_metadata_level
    assert mapping.pop(METADATA_VERSION) == f"{level} ({catalog.metadata_versions[level]})"
    assert mapping == {spec.name: str(spec.default_level(level)) for spec in catalog.features}
    # one run for every level: the tool prints a block per --feature, in order
    levels = [(spec.name, entry) for spec in catalog.features for entry in spec.levels]
    text = _storage("feature-dependencies", *(a for n, e in levels for a in ("--feature", f"{n}={e.level}")))
    blocks = re.split(r"^(?=[a-z.]+=\d+ )", text, flags=re.MULTILINE)[1:]
    assert len(blocks) == len(levels), text
    for (name, entry), block in zip(levels, blocks, strict=True):
        assert block.startswith(f"{name}={entry.level} "), block
        required = dict(re.findall(r"^\s+([a-z.]+)=(\d+)", block, re.MULTILINE))
        assert {k: int(v) for k, v in required.items()} == dict(entry.requires), (name, entry.level)
