#!/usr/bin/env python3
"""Kafka's metadata record schemas as kcli data, and the record classes generated from that data.

    python scripts/metadata-records.py extract KAFKA_SOURCE [--kafka-version LABEL]
    python scripts/metadata-records.py generate [--check]

`extract` reads metadata/src/main/resources/common/metadata/*.json of a Kafka source checkout and
writes their facts (record names, api keys, versions, field names, types, tags, defaults, entity
types; never the prose) to kcli/data/metadata_records.json. The Kafka version is read from the
checkout's gradle.properties unless --kafka-version names it. Record types the data file has and the
checkout no longer defines (removed from Kafka, still in old logs) are kept.

`generate` writes kcli/metadata/generated/records.py from that data file: one frozen dataclass per
record type and version (`PartitionRecordV2`, ...), as kio's entity reader/writer expect them, and
the registries kcli's reader and writer look classes up in. The module defines the classes of a
record type the first time one is asked for (a read of a log defines only the types it meets, not
some fifty dataclasses at import); records.pyi beside it declares them all for type checkers.
`--check` writes nothing and exits 1 when a file on disk differs from what the data file generates.

The Raft control records (LeaderChangeMessage, SnapshotHeaderRecord, ...) are not generated: kio
ships them.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "kcli" / "data" / "metadata_records.json"
OUTPUT = ROOT / "kcli" / "metadata" / "generated" / "records.py"
STUB = OUTPUT.with_suffix(".pyi")
SCHEMA_DIR = "metadata/src/main/resources/common/metadata"
SCRIPT = "scripts/metadata-records.py"

# The keys of a Kafka field that are facts kcli keeps; "about" (prose) and the rest are dropped.
FIELD_KEYS = (
    "name",
    "type",
    "versions",
    "nullableVersions",
    "taggedVersions",
    "tag",
    "default",
    "entityType",
    "mapKey",
)
RECORD_KEYS = ("name", "apiKey", "validVersions", "flexibleVersions")

PRIMITIVES = {
    "bool": "bool",
    "int8": "i8",
    "int16": "i16",
    "int32": "i32",
    "int64": "i64",
    "uint16": "u16",
    "float64": "f64",
    "string": "str",
    "bytes": "bytes",
    "uuid": "uuid.UUID",
}
KIO_PRIMITIVES = ("f64", "i8", "i16", "i32", "i64", "u16")  # in the order ruff sorts them
# The value a field takes when the schema names no default (Kafka's generator uses the same zeros).
ZERO = {
    "bool": "False",
    "string": '""',
    "bytes": 'b""',
    "uuid": "uuid.UUID(int=0)",
}


# ---------------------------------------------------------------------------------------- extract


def _load_schema(path: Path) -> dict[str, Any]:
    # Kafka's schema files are JSON with //-comment lines.
    text = "\n".join(line for line in path.read_text().splitlines() if not line.lstrip().startswith("//"))
    return json.loads(text)  # type: ignore[no-any-return]


def _field_facts(raw: dict[str, Any]) -> dict[str, Any]:
    facts = {key: raw[key] for key in FIELD_KEYS if key in raw}
    if "tag" in facts:
        facts["tag"] = int(facts["tag"])
    if "fields" in raw:
        facts["fields"] = [_field_facts(f) for f in raw["fields"]]
    return facts


def extract(source: Path, kafka_version: str | None) -> dict[str, Any]:
    """The facts of every metadata record schema under `source` (a Kafka checkout)."""
    schema_dir = source / SCHEMA_DIR
    files = sorted(schema_dir.glob("*.json"))
    if not files:
        raise SystemExit(f"error: no schema files in {schema_dir}: give the root of a Kafka source checkout")
    if kafka_version is None:
        props = source / "gradle.properties"
        found = re.search(r"^version=(\S+)", props.read_text(), re.M) if props.exists() else None
        if found is None:
            raise SystemExit(f"error: no version in {props}: pass --kafka-version")
        kafka_version = found.group(1)
    records = []
    for path in files:
        raw = _load_schema(path)
        if raw.get("type") != "metadata":
            continue
        record = {key: raw[key] for key in RECORD_KEYS if key in raw}
        record["file"] = path.name
        record["fields"] = [_field_facts(f) for f in raw["fields"]]
        records.append(record)
    records.sort(key=lambda r: r["apiKey"])
    return {"kafka": kafka_version, "schemaDir": SCHEMA_DIR, "records": records}


def keep_removed(data: dict[str, Any], earlier: dict[str, Any]) -> dict[str, Any]:
    """`data` plus the record types of `earlier` (the data file as it was) that the checkout no longer
    defines: Kafka removes a type's schema once no supported version writes it, but logs written
    before still hold it, so the reader keeps knowing it."""
    present = {r["apiKey"] for r in data["records"]}
    removed = [r for r in earlier.get("records", ()) if r["apiKey"] not in present]
    if not removed:
        return data
    names = " and ".join(r["name"] for r in removed)
    label = f'{data["kafka"]} ({names} from earlier releases)'
    records = sorted([*data["records"], *removed], key=lambda r: r["apiKey"])
    return {**data, "kafka": label, "records": records}


def dump_data(data: dict[str, Any]) -> str:
    """The data file's text: one line per field, so a diff shows which fact changed."""
    lines = [
        "{",
        f'  "kafka": {json.dumps(data["kafka"])},',
        f'  "schemaDir": {json.dumps(data["schemaDir"])},',
    ]
    lines.append('  "records": [')
    for i, record in enumerate(data["records"]):
        head = {k: v for k, v in record.items() if k != "fields"}
        lines.append("    {" + json.dumps(head)[1:-1] + ', "fields": [')
        _dump_fields(record["fields"], "      ", lines)
        lines.append("    ]}" + ("," if i < len(data["records"]) - 1 else ""))
    lines += ["  ]", "}"]
    return "\n".join(lines) + "\n"


def _dump_fields(fields: list[dict[str, Any]], indent: str, lines: list[str]) -> None:
    for i, f in enumerate(fields):
        comma = "," if i < len(fields) - 1 else ""
        head = json.dumps({k: v for k, v in f.items() if k != "fields"})
        if "fields" in f:
            lines.append(indent + head[:-1] + ', "fields": [')
            _dump_fields(f["fields"], indent + "  ", lines)
            lines.append(indent + "]}" + comma)
        else:
            lines.append(indent + head + comma)


# --------------------------------------------------------------------------------------- generate


def versions(spec: str | None) -> range:
    """Kafka's version range notation: "0", "1+", "0-2", "none"."""
    if spec is None or spec == "none":
        return range(0)
    if spec.endswith("+"):
        return range(int(spec[:-1]), 1 << 15)
    low, _, high = spec.partition("-")
    return range(int(low), int(high or low) + 1)


def snake(name: str) -> str:
    """Kafka's field name as kio spells the attribute (`KRaftVersion` -> `k_raft_version`)."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name).lower()


def _element(kafka_type: str) -> tuple[bool, str]:
    return (True, kafka_type[2:]) if kafka_type.startswith("[]") else (False, kafka_type)


def _default(f: dict[str, Any], nullable: bool, tagged: bool) -> str | None:
    """The Python default of a field in one version, or None when the field is required."""
    is_array, element = _element(f["type"])
    given = f.get("default")
    if given is None and not tagged:
        return None
    if given == "null":
        if not nullable:
            raise SystemExit(f"error: {f['name']} defaults to null but is not nullable")
        return "None"
    if is_array:
        return "()"
    if element in ZERO:
        if given is None:
            return ZERO[element]
        if element == "bool":
            return {"true": "True", "false": "False"}[given]
        return repr(given)
    if element not in PRIMITIVES:
        raise SystemExit(f"error: a default for struct field {f['name']} is not supported")
    return f"{PRIMITIVES[element]}({int(given, 0) if given else 0})"


class Generator:
    """Renders the record classes of the data file as one Python module."""

    width = 110  # of a line in a class body at module level (ruff's line length)

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.structs: dict[str, list[str]] = {}  # struct name -> its class lines
        self.struct_fields: dict[str, list[dict[str, Any]]] = {}
        self.primitives: set[str] = {"i16"}
        self.uses_uuid = False

    def _annotation(self, f: dict[str, Any], nullable: bool) -> str:
        is_array, element = _element(f["type"])
        if element in PRIMITIVES:
            python = PRIMITIVES[element]
            if python in KIO_PRIMITIVES:
                self.primitives.add(python)
            self.uses_uuid |= element == "uuid"
        else:
            python = element
        text = f"tuple[{python}, ...]" if is_array else python
        return f"{text} | None" if nullable else text

    def _field_lines(self, f: dict[str, Any], version: int, owner: str) -> list[str]:
        nullable = version in versions(f.get("nullableVersions"))
        tagged = version in versions(f.get("taggedVersions"))
        _, element = _element(f["type"])
        if "fields" in f:
            self._struct(element, f["fields"], version, owner)
        annotation = self._annotation(f, nullable)
        args = []
        if element in PRIMITIVES:
            meta = f'"kafka_type": "{element}"' + (f', "tag": {f["tag"]}' if tagged else "")
            args.append(f"metadata={{{meta}}}")
        elif tagged:
            raise SystemExit(f"error: tagged struct field {owner}.{f['name']} is not supported")
        default = _default(f, nullable, tagged)
        if default is not None:
            args.append(f"default={default}")
        attribute = f"    {snake(f['name'])}: {annotation}" + (f" = field({', '.join(args)})" if args else "")
        if len(attribute) > self.width:  # wrapped as ruff format wraps it
            attribute = f"    {snake(f['name'])}: {annotation} = field(\n        {', '.join(args)}\n    )"
        notes = [f["type"]] + (["nullable"] if nullable else []) + ([f"tag {f['tag']}"] if tagged else [])
        doc = f"Kafka field `{f['name']}` ({', '.join(notes)})"
        if f.get("mapKey"):
            doc += "; mapKey"
        if "entityType" in f:
            doc += f"; entity: {f['entityType']}"
        return [attribute, f'    """{doc}."""']

    def _struct(self, name: str, fields: list[dict[str, Any]], version: int, owner: str) -> None:
        present = [f for f in fields if version in versions(f.get("versions"))]
        if name in self.structs:
            if self.struct_fields[name] != present:
                raise SystemExit(f"error: struct {name} of {owner} differs between versions or records")
            return
        self.struct_fields[name] = present
        lines = [
            "@dataclass(frozen=True, slots=True, kw_only=True)",
            f"class {name}:",
            f'    """The `{name}` struct of {owner}."""',
            "",
            "    __type__: ClassVar = EntityType.nested",
            f"    __version__: ClassVar[i16] = i16({version})",
            "    __flexible__: ClassVar[bool] = True",
        ]
        body = [line for f in present for line in self._field_lines(f, version, owner)]
        self.structs[name] = lines + body  # after the structs it holds, which its fields added

    def _record(self, record: dict[str, Any], version: int) -> list[str]:
        name = record["name"]
        flexible = version in versions(record.get("flexibleVersions"))
        schema = f"{self.data['schemaDir']}/{record['file']}"
        schema_line = f'    __schema__: ClassVar[str] = "{schema}"'
        if len(schema_line) > self.width:
            schema_line = f'    __schema__: ClassVar[str] = (\n        "{schema}"\n    )'
        lines = [
            "@dataclass(frozen=True, slots=True, kw_only=True)",
            f"class {name}V{version}:",
            f'    """{name} version {version} (api key {record["apiKey"]})."""',
            "",
            "    __type__: ClassVar = EntityType.data",
            f"    __version__: ClassVar[i16] = i16({version})",
            f"    __flexible__: ClassVar[bool] = {flexible}",
            schema_line,
            f'    __record_name__: ClassVar[str] = "{name}"',
            f"    __api_key__: ClassVar[int] = {record['apiKey']}",
        ]
        for f in record["fields"]:
            if version in versions(f.get("versions")):
                lines += self._field_lines(f, version, name)
        return lines

    def _record_blocks(self, record: dict[str, Any]) -> list[list[str]]:
        """The class blocks of one record type: each version's, after the structs it adds first."""
        blocks: list[list[str]] = []
        for version in versions(record["validVersions"]):
            before = set(self.structs)
            lines = self._record(record, version)
            blocks += [self.structs[s] for s in self.structs if s not in before]
            blocks.append(lines)
        return blocks

    def _about(self, more: str = "") -> str:
        return (
            f'"""KRaft metadata record classes, generated by {SCRIPT}, Kafka {self.data["kafka"]}.\n\n'
            f"Do not edit: change kcli/data/metadata_records.json (`{SCRIPT} extract`) and run `{SCRIPT} "
            "generate`. One class per record type and version; the unsuffixed names are the newest version. "
            'Each field carries `metadata={"kafka_type": ...}` and, when it is a tagged field in that version, '
            f'`"tag"`.{more}"""'
        )

    def render(self) -> str:
        blocks: list[list[str]] = []
        registry: list[str] = []
        names: list[str] = []
        newest: list[str] = []
        for record in self.data["records"]:
            name = record["name"]
            valid = versions(record["validVersions"])
            blocks += self._record_blocks(record)
            registry += [f"    ({record['apiKey']}, {version}): {name}V{version}," for version in valid]
            names.append(f'    {record["apiKey"]}: "{name}",')
            newest.append(f"{name} = {name}V{valid[-1]}")
        primitives = ", ".join(p for p in KIO_PRIMITIVES if p in self.primitives)
        about = self._about()
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
        exported = sorted(
            {line.split()[1].split(":")[0].split("(")[0] for block in blocks for line in block[1:2]}
            | {line.split(" = ")[0] for line in newest}
            | {"KAFKA_VERSION", "RECORD_CLASSES", "RECORD_NAMES"},
            key=lambda name: (not name.isupper(), name),  # as ruff sorts __all__
        )
        header += ["", "__all__ = [", *(f'    "{name}",' for name in exported), "]"]
        out = [*header, ""]
        for block in blocks:
            out += ["", *block, ""]
        out += ["", "RECORD_CLASSES: Final[Mapping[tuple[int, int], type]] = {", *registry, "}", ""]
        out += ["RECORD_NAMES: Final[Mapping[int, str]] = {", *names, "}", "", *newest]
        return "\n".join(out) + "\n"


class LazyGenerator(Generator):
    """Renders the module itself: each record type's classes made by a function, on first use."""

    width = 106  # the class bodies are indented once more

    def render(self) -> str:
        groups: list[tuple[str, list[list[str]], list[str], str]] = []  # record, classes, names, newest
        registry: list[str] = []
        names: list[str] = []
        for record in self.data["records"]:
            name = record["name"]
            valid = versions(record["validVersions"])
            blocks = self._record_blocks(record)
            registry += [f'    ({record["apiKey"]}, {version}): "{name}V{version}",' for version in valid]
            defined = [block[1].split()[1].split(":")[0] for block in blocks]
            groups.append((name, blocks, [*defined, name], f"{name}V{valid[-1]}"))
            names.append(f'    {record["apiKey"]}: "{name}",')
        primitives = ", ".join(p for p in KIO_PRIMITIVES if p in self.primitives)
        about = self._about(
            "\n\nA record type's classes are made the first time one of them is asked for (the module's "
            "`__getattr__`, RECORD_CLASSES): a read defines the types it meets, not every dataclass at "
            "import. records.pyi declares them all for type checkers."
        )
        out = [
            *("\n".join(textwrap.fill(p, 100) for p in about.split("\n")).split("\n")),
            "",
            "import threading",
            *(["import uuid"] if self.uses_uuid else []),
            "from collections.abc import Callable, Iterator, Mapping",
            "from dataclasses import dataclass, field",
            "from typing import ClassVar, Final",
            "",
            "from kio.static.constants import EntityType",
            f"from kio.static.primitive import {primitives}",
            "",
            f'KAFKA_VERSION: Final = "{self.data["kafka"]}"',
        ]
        out.append("")  # no __all__: the classes are not module globals until made (records.pyi has it)
        makers: list[str] = []
        for record_name, blocks, defined, newest in groups:
            function = f"_{snake(record_name)}"
            out += ["", f"def {function}() -> dict[str, type]:"]
            for block in blocks:
                # the class statement, its docstring, then its module-level name (a nested class
                # would be `_function.<locals>.Name`: kio, pickle and the walks go by qualname)
                qualname = f'    __qualname__ = "{block[1].split()[1].split(":")[0]}"'
                body = [*block[:3], "", qualname, *block[4:]]
                out += [f"    {line}" if line else "" for text in body for line in text.split("\n")]
                out.append("")
            out += [
                "    return {",
                *(f'        "{n}": {n},' for n in defined[:-1]),
                f'        "{record_name}": {newest},',
                "    }",
                "",
            ]
            makers += [f'    "{n}": {function},' for n in defined]
        out += [
            "",
            "_MAKERS: Final[Mapping[str, Callable[[], dict[str, type]]]] = {",
            *makers,
            "}",
            "_MAKING = threading.Lock()",
            "",
            "",
            "def __getattr__(name: str) -> type:",
            '    """A record class, made with the others of its record type when first asked for."""',
            "    make = _MAKERS.get(name)",
            "    if make is None:",
            '        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")',
            "    with _MAKING:  # two threads asking at once must get the same class",
            "        if name not in globals():",
            "            globals().update(make())",
            "    found: type = globals()[name]",
            "    return found",
            "",
            "",
            "def __dir__() -> list[str]:",
            "    return sorted({*globals(), *_MAKERS})",
            "",
            "",
            "class _RecordClasses(Mapping[tuple[int, int], type]):",
            '    """(api key, version) -> class; a record type\'s classes are made when one is looked up."""',
            "",
            "    def __init__(self, names: Mapping[tuple[int, int], str]) -> None:",
            "        self._names = names",
            "",
            "    def __getitem__(self, key: tuple[int, int]) -> type:",
            "        name = self._names[key]",
            "        found: type | None = globals().get(name)",
            "        return found if found is not None else __getattr__(name)",
            "",
            "    def __iter__(self) -> Iterator[tuple[int, int]]:",
            "        return iter(self._names)",
            "",
            "    def __len__(self) -> int:",
            "        return len(self._names)",
            "",
            "",
            "RECORD_CLASSES: Final[Mapping[tuple[int, int], type]] = _RecordClasses(",
            "    {",
            *(f"    {line}" for line in registry),
            "    }",
            ")",
            "",
            "RECORD_NAMES: Final[Mapping[int, str]] = {",
            *names,
            "}",
        ]
        return "\n".join(out) + "\n"


def generate(data: dict[str, Any]) -> str:
    """The text of kcli/metadata/generated/records.py for this data."""
    return LazyGenerator(data).render()


def generate_stub(data: dict[str, Any]) -> str:
    """The text of kcli/metadata/generated/records.pyi: every class at module level, as type checkers read it."""
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
        earlier = json.loads(DATA.read_text()) if DATA.exists() else {}
        DATA.write_text(dump_data(keep_removed(extract(args.source, args.kafka_version), earlier)))
        print(f"wrote {DATA.relative_to(ROOT)}")
        return 0
    data = json.loads(DATA.read_text())
    texts = {OUTPUT: generate(data), STUB: generate_stub(data)}
    if args.check:
        stale = [path for path, text in texts.items() if not path.exists() or path.read_text() != text]
        for path in stale:
            print(f"{path.relative_to(ROOT)} is stale: run {SCRIPT} generate", file=sys.stderr)
        return 1 if stale else 0
    OUTPUT.parent.mkdir(parents=True, exist_ok=True)
    for path, text in texts.items():
        path.write_text(text)
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
