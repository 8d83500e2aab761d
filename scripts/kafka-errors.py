#!/usr/bin/env python3
"""Kafka's error codes as kcli data, taken from the installed kio's ErrorCode.

    python scripts/kafka-errors.py [--check]

Writes kcli/data/kafka_errors.tsv: one line per code, `code<TAB>NAME<TAB>retriable<TAB>message`, in
code order. The name and retriable flag are kio's enum; the message is the docstring kio gives the
member (Kafka's Errors.java text), empty where kio has none. kcli reads this file at import instead of
kio, whose import costs far more than kcli's start-up can afford. `--check` writes nothing and exits 1
when the file on disk differs from what the installed kio gives.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "kcli" / "data" / "kafka_errors.tsv"
SCRIPT = "scripts/kafka-errors.py"


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


def generate() -> str:
    """The data file's text for the installed kio."""
    from kio.schema import errors

    docs = _member_docstrings(Path(errors.__file__).read_text(encoding="utf-8"))
    lines = [
        f"{int(member)}\t{member.name.upper()}\t{int(member.retriable)}\t{docs.get(member.name, '')}\n"
        for member in sorted(errors.ErrorCode, key=int)
    ]
    for line in lines:
        if line.count("\t") != 3 or line.count("\n") != 1:
            raise SystemExit(f"{SCRIPT}: a kio message holds a tab or a newline: {line!r}")
    return "".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the data file is stale")
    args = parser.parse_args()
    text = generate()
    if args.check:
        if DATA.read_text(encoding="utf-8") != text:
            print(f"{DATA.relative_to(ROOT)} is stale: run {SCRIPT}", file=sys.stderr)
            return 1
        return 0
    DATA.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
