#!/usr/bin/env python3
"""The command lines tests/kafka_parity gives kcli that need no cluster, as data for tests/kafka_diff.

    python scripts/parity-lines.py            # run tests/kafka_parity, write tests/kafka_diff/parity_lines.json
    python scripts/parity-lines.py --check    # the same run; exit 1 if the file differs

Runs the parity suite with kcli's in-process runner wrapped, and keeps every line that kcli refused
as a usage error (exit 2) or answered without a cluster, whose addresses are placeholders (the
parity suite's address where nothing listens, `localhost:9092`, or none) and that names no file the
suite wrote: the checks Kafka's tools make on the command line alone. tests/kafka_diff runs each of
them with Kafka 4.4.0's tool and with kcli.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
TARGET = REPO / "tests" / "kafka_diff" / "parity_lines.json"
ADDRESS_OPTIONS = ("--bootstrap-server", "--bootstrap-controller", "-b", "-C")
PLACEHOLDERS = {"127.0.0.1:1", "localhost:9092", "localhost:9093"}
TOOLS = ("configs", "acls", "cluster", "cluster-id", "features", "metadata-quorum", "reassign-partitions")


class Recorder:
    """A pytest plugin: wraps the parity suite's kcli runner and keeps the lines worth comparing."""

    def __init__(self) -> None:
        self.lines: dict[tuple[str, ...], dict[str, Any]] = {}
        self.current = ""  # the parity case running

    def pytest_collection_finish(self, session: Any) -> None:
        from tests.kafka_parity import conftest

        original = conftest.invoke

        def invoke(*args: str, **kwargs: Any) -> Any:
            result = original(*args, **kwargs)
            self.keep(tuple(args), result.code, self.current)
            return result

        conftest.invoke = invoke

    def pytest_runtest_setup(self, item: Any) -> None:
        self.current = item.nodeid

    def keep(self, argv: tuple[str, ...], code: int, nodeid: str) -> None:
        if not argv or argv[0] not in TOOLS or code not in (0, 2) or "--help" in argv:
            return
        addresses = [argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg in ADDRESS_OPTIONS]
        if any(address not in PLACEHOLDERS for address in addresses):
            return  # a sandbox's address: the line's meaning depends on that cluster
        if code == 0 and addresses:
            return  # it reached a cluster (or would)
        if any(re.search(r"(^|/)(tmp|pytest-)", arg) or arg.endswith((".json", ".properties")) for arg in argv):
            return  # names a file the parity suite wrote
        self.lines.setdefault(argv, {"argv": list(argv), "kcli_exit": code, "parity_case": nodeid})


def record() -> str:
    import pytest

    recorder = Recorder()
    code = pytest.main([str(REPO / "tests" / "kafka_parity"), "-q", "-p", "no:cacheprovider"], plugins=[recorder])
    if code != 0:
        raise SystemExit(f"parity-lines: tests/kafka_parity failed (pytest exit {code})")
    entries = sorted(recorder.lines.values(), key=lambda e: (e["parity_case"], e["argv"]))
    return json.dumps(entries, indent=1) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file is stale")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    text = record()
    if options.check:
        if not TARGET.exists() or TARGET.read_text(encoding="utf-8") != text:
            print(f"parity-lines: {TARGET.relative_to(REPO)} is stale; run scripts/parity-lines.py", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"parity-lines: wrote {TARGET.relative_to(REPO)} ({len(json.loads(text))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
