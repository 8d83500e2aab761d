#!/usr/bin/env python3
"""Kafka's error codes and APIs as kcli data, taken from the installed kio.

    python scripts/kio-data.py [--check]

Writes, in kcli/data:
- kafka_errors.tsv: one line per error code, `code<TAB>NAME<TAB>retriable<TAB>message`, in code
  order. The name and retriable flag are kio's ErrorCode; the message is the docstring kio gives the
  member (Kafka's Errors.java text), empty where kio has none.
- kafka_apis.tsv: one line per API key, `key<TAB>schema name<TAB>lowest<TAB>highest<TAB>first
  flexible`, in key order: kio's schema name and request versions, and the first version whose
  request is flexible (-1 when none is).
kcli reads these files instead of kio, whose import (its whole index, every schema) costs far more than
kcli's start-up can afford. `--check` writes nothing and exits 1 when a file on disk differs from what
the installed kio gives.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import sys
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "kcli" / "data"
SCRIPT = "scripts/kio-data.py"


def _member_docstrings(source: str) -> dict[str, str]:
    """The docstring under each `member = value, retriable` line of kio's ErrorCode class."""
    tree = ast.parse(source)
    (enum_class,) = [
        node for node in tree.body if isinstance(node, ast.ClassDef) and node.name == "ErrorCode"
    ]
    docs: dict[str, str] = {}
    for node, following in zip(enum_class.body, enum_class.body[1:], strict=False):
        if (
            isinstance(node, ast.Assign)
            and isinstance(node.targets[0], ast.Name)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
            and isinstance(following.value.value, str)
        ):
            docs[node.targets[0].id] = following.value.value
    return docs


def errors_table() -> str:
    from kio.schema import errors

    docs = _member_docstrings(Path(errors.__file__).read_text(encoding="utf-8"))
    return _lines(
        (int(member), member.name.upper(), int(member.retriable), docs.get(member.name, ""))
        for member in sorted(errors.ErrorCode, key=int)
    )


def apis_table() -> str:
    from kio.schema.index import api_key_map, schema_name_map
    from kio.static.constants import EntityType

    def flexible(name: str, version: int) -> bool:
        module, _, cls = schema_name_map[name][version][EntityType.request].partition(":")
        return bool(getattr(importlib.import_module(module), cls).__flexible__)

    rows = []
    for key, name in sorted(api_key_map.items()):
        versions = sorted(schema_name_map[name])
        if versions != list(range(versions[0], versions[-1] + 1)):
            raise SystemExit(f"{SCRIPT}: {name}'s versions are not one range: {versions}")
        first = next((version for version in versions if flexible(name, version)), -1)
        rows.append((key, name, versions[0], versions[-1], first))
    return _lines(rows)


def _lines(rows: Iterable[tuple[object, ...]]) -> str:
    lines = []
    for row in rows:
        fields = [str(field) for field in row]
        if any("\t" in field or "\n" in field for field in fields):
            raise SystemExit(f"{SCRIPT}: a kio text holds a tab or a newline: {row!r}")
        lines.append("\t".join(fields) + "\n")
    return "".join(lines)


def generate() -> dict[Path, str]:
    """Each data file's text for the installed kio."""
    return {DATA / "kafka_errors.tsv": errors_table(), DATA / "kafka_apis.tsv": apis_table()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a data file is stale")
    args = parser.parse_args()
    stale = 0
    for path, text in generate().items():
        if not args.check:
            path.write_text(text, encoding="utf-8")
        elif path.read_text(encoding="utf-8") != text:
            print(f"{path.relative_to(ROOT)} is stale: run {SCRIPT}", file=sys.stderr)
            stale = 1
    return stale


if __name__ == "__main__":
    sys.exit(main())
