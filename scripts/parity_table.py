#!/usr/bin/env python3
"""Write docs/parity.md from tests/kafka_parity and tests/kafka_diff: kcli against Kafka's tool tests and tools.

    python scripts/parity_table.py            # run the suite, write docs/parity.md (exit 1 if a case fails)
    python scripts/parity_table.py --check    # collect only; exit 1 if docs/parity.md is not current

The table is generated, never edited by hand (what follows HAND_WRITTEN in the file is kept as it
is): per Kafka tool, the Kafka test classes and methods,
how many methods were ported and into how many kcli cases, how many passed, the methods that cannot
be checked from outside a JVM (each module's NOT_PORTED, with the reason) and every deliberate
difference (the cases marked `kafka_difference`, grouped by reason). The module conventions are in
tests/kafka_parity/conftest.py. A column per Kafka release summarizes the differential suite
(tests/kafka_diff/corpus.py, read as data: the command lines run by Kafka's tool and by kcli on the
same real cluster): how many lines give the same result, a documented difference, or a difference
not fixed yet; each difference is listed below with its reason, and so is every normalization
(tests/kafka_diff/normalize.py). --check assumes every case passes: CI runs both suites, and a
failing case fails CI.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SUITE = REPO / "tests" / "kafka_parity"
TARGET = REPO / "docs" / "parity.md"
# Below this line docs/parity.md is written by hand (kcli against real Kafka releases); kept as it is.
HAND_WRITTEN = "<!-- Written by hand below this line; scripts/parity_table.py keeps it as it is. -->"
SHELL_TOOL = "kafka-metadata-shell.sh"


@dataclass
class DiffTally:
    """The differential corpus's cases of one tool at one Kafka release, by outcome."""

    same: list[str] = field(default_factory=list)
    documented: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # reason -> ids
    not_yet: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    def cell(self) -> str:
        if not (self.same or self.documented or self.not_yet):
            return "—"
        documented = len({case for cases in self.documented.values() for case in cases})
        not_yet = len({case for cases in self.not_yet.values() for case in cases})
        return f"{len(self.same)} same · {documented} documented · {not_yet} not yet"


def diff_tallies() -> tuple[tuple[str, ...], dict[tuple[str, str], DiffTally]]:
    """(releases, {(tool script, release): tally}) from tests/kafka_diff/corpus.py."""
    from tests.kafka_diff import corpus

    tallies: dict[tuple[str, str], DiffTally] = defaultdict(DiffTally)
    for case in corpus.ALL_CASES:
        script = f"kafka-{case.tool}.sh"
        for release in case.versions:
            tally = tallies[(script, release)]
            expected = case.expected(release)
            if not expected:
                tally.same.append(case.id)
            for difference in expected:
                bucket = tally.not_yet if difference.not_yet else tally.documented
                bucket[difference.reason].append(case.id)
    return corpus.VERSIONS, tallies


def release_label(release: str) -> str:
    """`4.0.x` for the oldest line the suite runs (any 4.0 patch release prints the same), else exact."""
    from tests.kafka_diff import corpus

    return "4.0.x" if release == corpus.OLDEST else release


@dataclass
class Module:
    """One ported Kafka test class (one pytest module)."""

    tool: str
    test_class: str
    source: str
    methods: list[str]
    not_ported: dict[str, str]
    cases: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # method -> case ids
    differences: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))  # reason -> case ids
    passed: int = 0


class Collector:
    """A pytest plugin that records the parity cases and, when they run, which passed."""

    def __init__(self) -> None:
        self.modules: dict[str, Module] = {}
        self.problems: list[str] = []
        self.outcomes: dict[str, bool] = {}
        self.module_of: dict[str, str] = {}

    def pytest_collection_finish(self, session: Any) -> None:
        for item in session.items:
            module = item.module
            name = Path(module.__file__).stem
            if not (name.startswith("test_shell_") or hasattr(module, "KAFKA_TEST_CLASS")):
                continue
            entry = self.modules.get(name) or self._module(name, module)
            self.modules[name] = entry
            function = item.originalname if hasattr(item, "originalname") else item.name
            prefix = f"test_{entry.test_class}_"
            if not function.startswith(prefix):
                self.problems.append(f"{item.nodeid}: a parity case is named {prefix}<Kafka test method>")
                continue
            method = function[len(prefix) :]
            if entry.methods and method not in entry.methods:
                self.problems.append(f"{item.nodeid}: {method} is not a method of Kafka's {entry.test_class}")
            case = item.nodeid.split("::", 1)[1]
            entry.cases[method].append(case)
            marker = item.get_closest_marker("kafka_difference")
            if marker is not None:
                entry.differences[str(marker.args[0])].append(case)
            self.module_of[item.nodeid] = name

    @staticmethod
    def _module(name: str, module: Any) -> Module:
        test_class = getattr(module, "KAFKA_TEST_CLASS", None) or name.removeprefix(
            "test_shell_"
        ).removeprefix("test_")
        return Module(
            tool=getattr(module, "KAFKA_TOOL", SHELL_TOOL if name.startswith("test_shell_") else "?"),
            test_class=test_class,
            source=getattr(module, "KAFKA_SOURCE", ""),
            methods=list(getattr(module, "KAFKA_METHODS", [])),
            not_ported=dict(getattr(module, "NOT_PORTED", {})),
        )

    def pytest_runtest_logreport(self, report: Any) -> None:
        if report.when == "call" or report.outcome != "passed":
            previous = self.outcomes.get(report.nodeid, True)
            self.outcomes[report.nodeid] = previous and report.outcome == "passed"

    def finish(self, ran: bool) -> None:
        for entry in self.modules.values():
            for method in entry.methods:
                if method not in entry.cases and method not in entry.not_ported:
                    self.problems.append(
                        f"{entry.test_class}.{method}: neither ported nor listed in NOT_PORTED"
                    )
            for method in entry.not_ported:
                if method in entry.cases:
                    self.problems.append(f"{entry.test_class}.{method}: both ported and listed in NOT_PORTED")
        for nodeid, name in self.module_of.items():
            if not ran or self.outcomes.get(nodeid, False):
                self.modules[name].passed += 1


def collect(run: bool) -> Collector:
    import pytest

    collector = Collector()
    args = [str(SUITE), "-q", "-p", "no:cacheprovider"]
    if not run:
        args += ["--collect-only", "-q"]  # -qq: a count per module, not every test id
    code = pytest.main(args, plugins=[collector])
    collector.finish(ran=run)
    if not run and code not in (0, 5):
        collector.problems.append(f"collecting {SUITE.relative_to(REPO)} failed (pytest exit {code})")
    return collector


def render(collector: Collector) -> str:
    releases, tallies = diff_tallies()
    by_tool: dict[str, list[Module]] = defaultdict(list)
    for name in sorted(collector.modules):
        entry = collector.modules[name]
        by_tool[entry.tool].append(entry)
    for tool, _ in tallies:  # a tool with no ported Kafka test class: its differential lines only
        by_tool.setdefault(tool, [])
    lines = [
        "# Parity with Kafka's own tools and their tests",
        "",
        "<!-- Generated by scripts/parity_table.py from tests/kafka_parity and tests/kafka_diff; do not edit. -->",
        "",
        "kcli's acceptance suite is Kafka's own tests of the tools it mirrors, ported as facts: one pytest",
        "module per Kafka test class in `tests/kafka_parity/`, one case per Kafka test method (parametrized",
        "where the method checks several command lines), each named `test_<KafkaTestClass>_<method>`.",
        "Command-line checks run in-process without a cluster; output and behaviour run against the kcli",
        "sandbox, whose control hooks answer as Kafka's mock admin client does where a test uses one.",
        "CI runs the suite: a failing case fails the build.",
        "",
        "The last columns are the differential suite (`tests/kafka_diff/`): every command line of Kafka's",
        "operations and security docs, of each tool's --help, and of the error cases, run by Kafka's own",
        "tool of that release and by kcli against the same real cluster (Kafka 4.4.0: 3 controllers and 3",
        "brokers, SASL_SSL with SCRAM and the StandardAuthorizer; 4.0.x: one combined node), comparing",
        "stdout line for line, success or failure, the error's key sentence, and the cluster state each",
        "leaves behind. Per release: lines with the same result · with a documented difference (listed",
        "below with its reason) · with a difference not fixed yet (listed too; those cases are expected",
        "failures until fixed).",
        "",
        "| Kafka tool | Kafka test classes | Kafka test methods | ported | not portable | kcli cases | passing | deliberate differences | "
        + " | ".join(f"Kafka {release_label(r)}" for r in releases)
        + " |",
        "|---|---|---|---|---|---|---|---|" + "---|" * len(releases),
    ]
    totals = [0, 0, 0, 0, 0, 0]
    for tool, entries in sorted(by_tool.items()):
        methods = sum(len(e.methods) or len(e.cases) for e in entries)
        ported = sum(len(e.cases) for e in entries)
        not_ported = sum(len(e.not_ported) for e in entries)
        cases = sum(len(c) for e in entries for c in e.cases.values())
        passing = sum(e.passed for e in entries)
        differences = sum(len(c) for e in entries for c in e.differences.values())
        for index, value in enumerate((methods, ported, not_ported, cases, passing, differences)):
            totals[index] += value
        classes = ", ".join(e.test_class for e in entries) or "—"
        columns = " | ".join(tallies[(tool, r)].cell() if (tool, r) in tallies else "—" for r in releases)
        lines.append(
            f"| `{tool}` | {classes} | {methods} | {ported} | {not_ported} | {cases} | {passing} | {differences} | {columns} |"
        )
    all_columns = " | ".join(_total(tallies, r) for r in releases)
    lines.append("| **all** | | {} | {} | {} | {} | {} | {} | ".format(*totals) + all_columns + " |")
    lines.append("")
    for tool, entries in sorted(by_tool.items()):
        lines += [f"## `{tool}`", ""]
        if not entries:
            lines.append("- No Kafka test class of this tool is ported (its lines run beside Kafka's tool only).")
        for entry in entries:
            source = f" (`{entry.source}`)" if entry.source else ""
            lines.append(
                f"- **{entry.test_class}**{source}: {len(entry.cases)} of {len(entry.methods) or len(entry.cases)} methods ported."
            )
        reasons: dict[str, list[str]] = defaultdict(list)
        for entry in entries:
            for reason, cases in entry.differences.items():
                reasons[reason] += cases
        if reasons:
            lines += ["", "Deliberate differences (asserted as such):", ""]
            for reason in sorted(reasons):
                cases = reasons[reason]
                methods = sorted({c.split("[", 1)[0].split("_", 2)[2] for c in cases})
                count = f"{len(cases)} case{'' if len(cases) == 1 else 's'}"
                lines.append(f"- {reason} ({count}: {', '.join(methods)})")
        missing = [(e.test_class, m, why) for e in entries for m, why in sorted(e.not_ported.items())]
        if missing:
            lines += ["", "Not portable (they need Kafka internals):", ""]
            lines += [f"- `{test_class}.{method}`: {why}" for test_class, method, why in missing]
        lines += _diff_section(tool, releases, tallies)
        lines.append("")
    lines += _normalizations()
    return "\n".join(lines).rstrip("\n") + "\n"


def _total(tallies: dict[tuple[str, str], DiffTally], release: str) -> str:
    total = DiffTally()
    for (_, r), tally in tallies.items():
        if r == release:
            total.same += tally.same
            for reason, cases in tally.documented.items():
                total.documented[reason] += cases
            for reason, cases in tally.not_yet.items():
                total.not_yet[reason] += cases
    return total.cell()


def _diff_section(
    tool: str, releases: tuple[str, ...], tallies: dict[tuple[str, str], DiffTally]
) -> list[str]:
    """The documented and not-yet differences of the differential suite for one tool, per reason."""
    out: list[str] = []
    for kind, label in (("documented", "Documented differences"), ("not_yet", "Not yet fixed")):
        reasons: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
        for release in releases:
            tally = tallies.get((tool, release))
            if tally is None:
                continue
            for reason, cases in getattr(tally, kind).items():
                reasons[reason][release_label(release)] += cases
        if not reasons:
            continue
        out += ["", f"{label} beside Kafka's own tool (tests/kafka_diff):", ""]
        for reason in sorted(reasons):
            where = "; ".join(
                f"Kafka {release}: {', '.join(f'`{case}`' for case in sorted(set(cases)))}"
                for release, cases in reasons[reason].items()
            )
            out.append(f"- {reason} ({where})")
    return out


def _normalizations() -> list[str]:
    from tests.kafka_diff import normalize

    lines = [
        "## Normalizations of the differential suite",
        "",
        "Both tools run on the same cluster one after the other; only these values are rewritten before",
        "comparing, because they change between the two runs or follow an order neither tool controls",
        "(`tests/kafka_diff/normalize.py`):",
        "",
    ]
    for name, tools, why, _ in normalize.RULES:
        names = ", ".join(f"kafka-{tool}" for tool in sorted(tools))
        lines.append(f"- {name} ({names}): {why}")
    from tests.kafka_diff import compare

    lines += [f"- state read back: {normalize.STATE_RULE}", f"- errors: {compare.KEY_SENTENCE_RULE}", ""]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="collect only; fail if docs/parity.md is stale")
    options = parser.parse_args(argv)
    sys.path.insert(0, str(REPO))
    collector = collect(run=not options.check)
    if collector.problems:
        for problem in collector.problems:
            print(f"parity_table: {problem}", file=sys.stderr)
        return 1
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
    _, marker, tail = current.partition(HAND_WRITTEN)
    text = render(collector) + (f"\n{marker}{tail}" if marker else "")
    if options.check:
        if current != text:
            print(
                "parity_table: docs/parity.md is not current; run python scripts/parity_table.py",
                file=sys.stderr,
            )
            return 1
        return 0
    TARGET.write_text(text, encoding="utf-8")
    failed = sum(len(c) for e in collector.modules.values() for c in e.cases.values()) - sum(
        e.passed for e in collector.modules.values()
    )
    print(
        f"parity_table: wrote {TARGET.relative_to(REPO)}" + (f" ({failed} failing cases)" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
