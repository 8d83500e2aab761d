"""The generated record classes are exactly what scripts/metadata-records.py makes of the data file."""

from __future__ import annotations

import difflib
import importlib.util
import json
from pathlib import Path
from types import ModuleType

from kcli.metadata import records as r
from kcli.metadata.generated import records as generated

ROOT = Path(__file__).resolve().parents[2]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "metadata_records_script", ROOT / "scripts" / "metadata-records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_module_matches_the_data_file() -> None:
    script = _script()
    expected = script.generate(json.loads(script.DATA.read_text()))
    actual = script.OUTPUT.read_text()
    diff = "".join(
        difflib.unified_diff(actual.splitlines(True), expected.splitlines(True), "on disk", "generated", n=1)
    )
    assert not diff, f"run scripts/metadata-records.py generate:\n{diff[:4000]}"


def test_every_schema_version_of_the_data_file_has_a_class_and_a_name() -> None:
    script = _script()
    data = json.loads(script.DATA.read_text())
    expected = {
        (record["apiKey"], version)
        for record in data["records"]
        for version in script.versions(record["validVersions"])
    }
    assert set(r.METADATA_RECORD_CLASSES) == expected
    assert {record["apiKey"]: record["name"] for record in data["records"]} == dict(r.RECORD_NAMES)
    assert data["kafka"] in (generated.__doc__ or "").replace("\n", " ")
    assert data["kafka"] == generated.KAFKA_VERSION


def test_the_data_file_holds_facts_only() -> None:
    """No prose ("about") is copied from Kafka's schema files."""
    script = _script()
    text = script.DATA.read_text()
    assert '"about"' not in text
    keys: set[str] = set()

    def walk(fields: list[dict[str, object]]) -> None:
        for item in fields:
            keys.update(item)
            nested = item.get("fields")
            if isinstance(nested, list):
                walk(nested)

    for record in json.loads(text)["records"]:
        walk(record["fields"])
    assert keys <= {*script.FIELD_KEYS, "fields"}
