"""Run every benchmark in this folder and write benchmarks/RESULTS.md.

    python benchmarks/run.py            # all of them
    python benchmarks/run.py startup    # those whose file name contains "startup"

Each benchmarks/bench_*.py prints its own figures (benchmarks/figures.py); this collects them into one
markdown table: figure, target, this run, ratio to the in-run baseline. Rows of benchmarks not run
this time are kept from RESULTS.md as they were, with the date of their own run.
"""

from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.figures import FIGURES_ENV, Figure  # noqa: E402


def main(argv: list[str]) -> int:
    chosen = [p for p in sorted(HERE.glob("bench_*.py")) if not argv or any(a in p.name for a in argv)]
    figures: list[Figure] = []
    failures: list[str] = []
    for script in chosen:
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl", delete=False) as sink:
            sink_path = sink.name
        print(f"== {script.name}", flush=True)
        started = time.perf_counter()
        env = {**os.environ, FIGURES_ENV: sink_path, "PYTHONPATH": str(HERE.parent)}
        done = subprocess.run([sys.executable, str(script)], env=env, check=False)
        elapsed = time.perf_counter() - started
        print(f"   ({elapsed:.1f} s, exit {done.returncode})", flush=True)
        if done.returncode != 0:
            failures.append(f"{script.name} exited {done.returncode}")
        with open(sink_path, encoding="utf-8") as handle:
            figures += [Figure(**json.loads(line)) for line in handle if line.strip()]
        os.unlink(sink_path)
    results = HERE / "RESULTS.md"
    kept, dates = _earlier(results, {script.stem for script in chosen})
    today = datetime.date.today().isoformat()
    dates.update({script.stem: today for script in chosen})
    results.write_text(results_markdown(figures, failures, kept, dates), encoding="utf-8")
    print(f"wrote {HERE / 'RESULTS.md'} ({len(figures)} figures)")
    return 1 if failures else 0


def _earlier(results: Path, ran: set[str]) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The table rows of RESULTS.md of the benchmarks not in `ran`, by benchmark, and the date each
    benchmark last ran (from its "Last run" line, or the older single "Run on" date)."""
    rows: dict[str, list[str]] = {}
    dates: dict[str, str] = {}
    if not results.exists():
        return rows, dates
    single = ""
    for line in results.read_text(encoding="utf-8").splitlines():
        if line.startswith("Run on "):
            single = line.split()[2]
        elif line.startswith("Last run of each benchmark: "):
            for item in line.removeprefix("Last run of each benchmark: ").rstrip(".").split(", "):
                name, _, date = item.partition(" ")
                dates[name] = date
        elif line.startswith("| bench_"):
            name = line.split("|")[1].strip()
            if name not in ran:
                rows.setdefault(name, []).append(line)
    for name in rows:
        dates.setdefault(name, single)
    return rows, {name: date for name, date in dates.items() if name in rows}


def results_markdown(
    figures: list[Figure],
    failures: list[str],
    kept: dict[str, list[str]] | None = None,
    dates: dict[str, str] | None = None,
) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    kept = kept or {}
    ran_on = ", ".join(f"{name} {date}" for name, date in sorted((dates or {}).items()))
    lines = [
        "# Benchmark results",
        "",
        f"Run on {machine} by `python benchmarks/run.py` (`python benchmarks/run.py NAME` runs a subset).",
        f"Last run of each benchmark: {ran_on}.",
        "Whole-process and in-process figures; the ratio compares with the baseline measured in the same run.",
        "",
        "| benchmark | figure | target | this run | ratio to baseline | verdict |",
        "|---|---|---|---|---|---|",
    ]
    ran = {f.benchmark for f in figures}
    for name in sorted(set(kept) | ran):
        if name not in ran:
            lines += kept[name]
            continue
        lines += [_row(f) for f in figures if f.benchmark == name]
    if failures:
        lines += ["", "Failed runs:", *[f"- {failure}" for failure in failures]]
    return "\n".join(lines) + "\n"


def _row(f: Figure) -> str:
    target = f"{f.target} {f.unit}" if f.target else ""
    ratio = f"{f.ratio:.2f}x {f.baseline_name}" if f.ratio is not None else ""
    verdict = {True: "meets", False: "**misses**", None: ""}[f.meets_target]
    return f"| {f.benchmark} | {f.name} | {target} | {_value(f)} | {ratio} | {verdict} |"


def _value(f: Figure) -> str:
    if f.value >= 1000:
        return f"{f.value:,.0f} {f.unit}"
    return f"{f.value:.3g} {f.unit}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
