#!/usr/bin/env python3
"""Kafka's group and transaction coordinator record schemas as kcli data, and the classes generated from it.

    python scripts/coordinator-records.py extract KAFKA_SOURCE [--kafka-version LABEL]
    python scripts/coordinator-records.py generate [--check]

These are the keys and values Kafka's coordinators write to __consumer_offsets and __transaction_state
(group-coordinator/src/main/resources/common/message/ and transaction-coordinator/src/main/resources/
common/message/): a key is its record type (int16) then the key struct at version 0, a value its version
(int16) then the value struct. `extract` keeps the facts of the record types the sandbox's coordinators
write (offsets, classic groups, KIP-848 consumer groups, transactions: never the prose) in
kcli/data/coordinator_records.json; common structs are written inline and a tagged field's versions
default to its tagged versions, as Kafka's generator reads them. `generate` writes
kcli/sandbox/emulator/groups/generated_records.py with the same generator as the metadata records
(scripts/metadata-records.py): one frozen kio-style dataclass per schema and version. `--check` writes
nothing and exits 1 when the file on disk is stale.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "kcli" / "data" / "coordinator_records.json"
OUTPUT = ROOT / "kcli" / "sandbox" / "emulator" / "groups" / "generated_records.py"
SCRIPT = "scripts/coordinator-records.py"
SCHEMA_DIRS = (
    "group-coordinator/src/main/resources/common/message",
    "transaction-coordinator/src/main/resources/common/message",
)
# The record types the sandbox writes and reads back (Kafka's CoordinatorRecordType names).
KEPT = (
    "OffsetCommit",
    "GroupMetadata",
    "ConsumerGroupMetadata",
    "ConsumerGroupPartitionMetadata",
    "ConsumerGroupMemberMetadata",
    "ConsumerGroupTargetAssignmentMetadata",
    "ConsumerGroupTargetAssignmentMember",
    "ConsumerGroupCurrentMemberAssignment",
    "ConsumerGroupRegularExpression",
    "TransactionLog",
)


def _metadata_script() -> ModuleType:
    """scripts/metadata-records.py, whose generator and field rules these records share."""
    spec = importlib.util.spec_from_file_location(
        "metadata_records_script", ROOT / "scripts" / "metadata-records.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


base = _metadata_script()


# ---------------------------------------------------------------------------------------- extract


def _field_facts(raw: dict[str, Any], common: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    facts = {key: raw[key] for key in base.FIELD_KEYS if key in raw}
    if "versions" not in facts and "taggedVersions" in facts:
        facts["versions"] = facts["taggedVersions"]  # Kafka's generator: a tagged field's versions
    if "tag" in facts:
        facts["tag"] = int(facts["tag"])
    if "default" in facts and facts["default"] is None:
        facts["default"] = "null"
    elif isinstance(facts.get("default"), bool):
        facts["default"] = str(facts["default"]).lower()
    elif isinstance(facts.get("default"), int):
        facts["default"] = str(facts["default"])  # as the metadata schemas spell defaults
    element = raw["type"][2:] if raw["type"].startswith("[]") else raw["type"]
    nested = raw.get("fields") or common.get(element)
    if nested is not None:
        facts["fields"] = [_field_facts(f, common) for f in nested]
    return facts


def extract(source: Path, kafka_version: str | None) -> dict[str, Any]:
    """The facts of the kept coordinator record schemas under `source` (a Kafka checkout)."""
    files = sorted(path for folder in SCHEMA_DIRS for path in (source / folder).glob("*.json"))
    if not files:
        raise SystemExit(f"error: no schema files under {source}: give the root of a Kafka source checkout")
    if kafka_version is None:
        props = source / "gradle.properties"
        found = re.search(r"^version=(\S+)", props.read_text(), re.M) if props.exists() else None
        if found is None:
            raise SystemExit(f"error: no version in {props}: pass --kafka-version")
        kafka_version = found.group(1)
    records = []
    for path in files:
        raw = base._load_schema(path)
        kind = raw.get("type")
        if kind not in ("coordinator-key", "coordinator-value"):
            continue
        stem = raw["name"].removesuffix("Key").removesuffix("Value")
        if stem not in KEPT:
            continue
        common = {struct["name"]: struct["fields"] for struct in raw.get("commonStructs", ())}
        record = {key: raw[key] for key in base.RECORD_KEYS if key in raw}
        record["kind"] = "key" if kind == "coordinator-key" else "value"
        record["file"] = f"{path.parent.relative_to(source).as_posix()}/{path.name}"
        record["fields"] = [_field_facts(f, common) for f in raw["fields"]]
        records.append(record)
    records.sort(key=lambda r: (r["apiKey"], r["kind"], r["name"]))
    return {"kafka": kafka_version, "records": records}


def dump_data(data: dict[str, Any]) -> str:
    """The data file's text: one line per field, so a diff shows which fact changed."""
    lines = ["{", f'  "kafka": {json.dumps(data["kafka"])},', '  "records": [']
    for i, record in enumerate(data["records"]):
        head = {k: v for k, v in record.items() if k != "fields"}
        lines.append("    {" + json.dumps(head)[1:-1] + ', "fields": [')
        base._dump_fields(record["fields"], "      ", lines)
        lines.append("    ]}" + ("," if i < len(data["records"]) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------- generate


class Generator(base.Generator):  # type: ignore[misc, name-defined]
    """The metadata records' generator, for coordinator keys and values (tagged structs allowed: kio
    writes a tagged struct field as it writes any tagged field; a nested struct is as flexible as the
    record version that holds it)."""

    flexible = True

    def _field_lines(self, f: dict[str, Any], version: int, owner: str) -> list[str]:
        if "fields" not in f:
            return super()._field_lines(f, version, owner)  # type: ignore[no-any-return]
        nullable = version in base.versions(f.get("nullableVersions"))
        tagged = version in base.versions(f.get("taggedVersions"))
        is_array, element = base._element(f["type"])
        name = self._struct_named(element, f["fields"], version, owner)
        annotation = f"tuple[{name}, ...]" if is_array else name
        annotation = f"{annotation} | None" if nullable else annotation
        args = []
        if tagged:
            args.append(f'metadata={{"tag": {f["tag"]}}}')
            args.append(f"default={'None' if nullable else ('()' if is_array else f'{name}()')}")
        attribute = f"    {base.snake(f['name'])}: {annotation}" + (
            f" = field({', '.join(args)})" if args else ""
        )
        notes = [f["type"]] + (["nullable"] if nullable else []) + ([f"tag {f['tag']}"] if tagged else [])
        return [attribute, f'    """Kafka field `{f["name"]}` ({", ".join(notes)})."""']

    def _struct_named(self, element: str, fields: list[dict[str, Any]], version: int, owner: str) -> str:
        """The class name of a nested struct: its own name, or suffixed with the version when another
        version of a record holds it with other fields or another flexibility."""
        present = [f for f in fields if version in base.versions(f.get("versions"))]
        shape = (self.flexible, present)
        shapes = [n for n in self.struct_fields if n == element or n.startswith(f"{element}V")]
        name = next((n for n in shapes if self.struct_fields[n] == shape), None)
        if name is not None:
            return name
        name = element if not shapes else f"{element}V{version}"
        self.struct_fields[name] = shape
        lines = [
            "@dataclass(frozen=True, slots=True, kw_only=True)",
            f"class {name}:",
            f'    """The `{element}` struct of {owner} (version {version})."""',
            "",
            "    __type__: ClassVar = EntityType.nested",
            f"    __version__: ClassVar[i16] = i16({version})",
            f"    __flexible__: ClassVar[bool] = {self.flexible}",
        ]
        body = [line for f in present for line in self._field_lines(f, version, owner)]
        self.structs[name] = lines + body  # after the structs it holds, which its fields added
        return name

    def _record(self, record: dict[str, Any], version: int) -> list[str]:
        name = record["name"]
        flexible = self.flexible = version in base.versions(record.get("flexibleVersions"))
        lines = [
            "@dataclass(frozen=True, slots=True, kw_only=True)",
            f"class {name}V{version}:",
            f'    """{name} version {version} (record type {record["apiKey"]}, {record["file"].split("/")[0]})."""',
            "",
            "    __type__: ClassVar = EntityType.data",
            f"    __version__: ClassVar[i16] = i16({version})",
            f"    __flexible__: ClassVar[bool] = {flexible}",
            f'    __record_name__: ClassVar[str] = "{name}"',
            f"    __api_key__: ClassVar[int] = {record['apiKey']}",
        ]
        for f in record["fields"]:
            if version in base.versions(f.get("versions")):
                lines += self._field_lines(f, version, name)
        return lines

    def render(self) -> str:
        blocks: list[list[str]] = []
        keys: list[str] = []
        values: list[str] = []
        newest: list[str] = []
        for record in self.data["records"]:
            name = record["name"]
            valid = base.versions(record["validVersions"])
            for version in valid:
                before = set(self.structs)
                lines = self._record(record, version)
                blocks += [self.structs[s] for s in self.structs if s not in before]
                blocks.append(lines)
                entry = f"    ({record['apiKey']}, {version}): {name}V{version},"
                (keys if record["kind"] == "key" else values).append(entry)
            newest.append(f"{name} = {name}V{valid[-1]}")
        primitives = ", ".join(p for p in base.KIO_PRIMITIVES if p in self.primitives)
        about = (
            f'"""Group and transaction coordinator record classes, generated by {SCRIPT}, Kafka {self.data["kafka"]}.\n\n'
            f"Do not edit: change kcli/data/coordinator_records.json (`{SCRIPT} extract`) and run `{SCRIPT} "
            "generate`. One class per key or value schema and version; the unsuffixed names are the newest "
            'version. KEY_CLASSES and VALUE_CLASSES map (record type, version) to a class."""'
        )
        header = [
            *("\n".join(textwrap.fill(p, 100) for p in about.split("\n")).split("\n")),
            "",
            *(["import uuid"] if self.uses_uuid else []),
            "from collections.abc import Mapping",
            "from dataclasses import dataclass, field",
            "from typing import ClassVar, Final",
            "",
            "from kio.static.constants import EntityType",
            f"from kio.static.primitive import {primitives}",
            "",
            f'KAFKA_VERSION: Final = "{self.data["kafka"]}"',
        ]
        out = [*header, ""]
        for block in blocks:
            out += ["", *block, ""]
        out += ["", "KEY_CLASSES: Final[Mapping[tuple[int, int], type]] = {", *keys, "}", ""]
        out += ["VALUE_CLASSES: Final[Mapping[tuple[int, int], type]] = {", *values, "}", "", *newest]
        return "\n".join(out) + "\n"


def generate(data: dict[str, Any]) -> str:
    """The text of the generated module for this data."""
    return Generator(data).render()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    ex = commands.add_parser("extract", help="read a Kafka checkout's schemas into the data file")
    ex.add_argument("source", type=Path, help="root of a Kafka source checkout")
    ex.add_argument(
        "--kafka-version", help="the Kafka version the checkout holds (default: gradle.properties)"
    )
    gen = commands.add_parser("generate", help="write the record classes from the data file")
    gen.add_argument("--check", action="store_true", help="only report whether the generated file is stale")
    args = parser.parse_args(argv)
    if args.command == "extract":
        DATA.write_text(dump_data(extract(args.source, args.kafka_version)))
        print(f"wrote {DATA.relative_to(ROOT)}")
        return 0
    text = generate(json.loads(DATA.read_text()))
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_text() != text:
            print(f"{OUTPUT.relative_to(ROOT)} is stale: run {SCRIPT} generate", file=sys.stderr)
            return 1
        return 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    OUTPUT.write_text(text)
    print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
