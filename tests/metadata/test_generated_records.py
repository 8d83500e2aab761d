"""The generated record classes are exactly what scripts/metadata-records.py makes of the data file."""

from __future__ import annotations

import difflib
import importlib.util
import json
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from kcli.metadata import records as r
from kcli.metadata.generated import records as generated

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent / "shared" / "fixtures" / "kraft"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "metadata_records_script", ROOT / "scripts" / "metadata-records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("which", ["module", "stub"])
def test_generated_module_matches_the_data_file(which: str) -> None:
    script = _script()
    data = json.loads(script.DATA.read_text())
    expected = script.generate(data) if which == "module" else script.generate_stub(data)
    actual = (script.OUTPUT if which == "module" else script.STUB).read_text()
    diff = "".join(
        difflib.unified_diff(actual.splitlines(True), expected.splitlines(True), "on disk", "generated", n=1)
    )
    assert not diff, f"run scripts/metadata-records.py generate:\n{diff[:4000]}"


def test_the_stub_declares_what_the_module_makes() -> None:
    """records.pyi (what mypy reads) and the module's lazily made classes are the same classes."""
    script = _script()
    stub = script.STUB.read_text()
    declared = set(re.findall(r"^class (\w+)", stub, re.MULTILINE)) | set(
        re.findall(r"^(\w+) = \w+V\d+$", stub, re.MULTILINE)
    )
    assert declared == set(generated._MAKERS)
    for name in declared:
        cls = getattr(generated, name)
        assert (cls.__module__, cls.__qualname__) == (generated.__name__, cls.__name__)
        assert getattr(generated, name) is cls  # made once


def test_a_dump_defines_only_the_record_types_its_file_holds() -> None:
    """Reading a log makes the classes of (at most) the types it meets, not some fifty dataclasses at start."""
    snapshot = next(FIXTURES.glob("*/kafka-data/__cluster_metadata-0/*.checkpoint"))
    code = (
        "import atexit, sys\n"
        "from kcli.metadata.generated import records\n"
        "made = lambda: {c.__record_name__ for c in vars(records).values() if hasattr(c, '__record_name__')}\n"
        "atexit.register(lambda: print('MADE', *sorted(made())))\n"
        "from kcli.cli.entry import console\n"
        f"sys.argv = ['kcli', 'metadata-shell', '--snapshot', {str(snapshot)!r}, '--dump', '-o', 'json']\n"
        "console()\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    *lines, made = done.stdout.splitlines()
    met = {json.loads(line)["type"] for line in lines} & set(r.RECORD_NAMES.values())
    assert made.split()[0] == "MADE" and met
    assert set(made.split()[1:]) <= met  # those the fast paths read without classes are not made at all


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
