"""Run every benchmark in this folder and write benchmarks/RESULTS.md.

    python benchmarks/run.py            # all of them
    python benchmarks/run.py startup    # those whose file name contains "startup"

Each benchmarks/bench_*.py prints its own figures (benchmarks/figures.py); this collects them into one
markdown table: figure, target, this run, ratio to the in-run baseline. A partial run replaces the
rows of the benchmarks it ran and keeps the others' rows from earlier runs.
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
from collections.abc import Sequence
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
    previous = results.read_text(encoding="utf-8") if results.exists() else ""
    earlier = rows_of_others(previous, {script.stem for script in chosen})
    load = os.getloadavg()[0]
    results.write_text(results_markdown(figures, failures, earlier=earlier, load=load), encoding="utf-8")
    print(f"wrote {results} ({len(figures)} figures, {len(earlier)} rows kept from earlier runs)")
    return 1 if failures else 0


def rows_of_others(previous: str, ran: set[str]) -> list[str]:
    """The table rows of `previous` (a RESULTS.md) whose benchmark is not in `ran`, as they were."""
    return [
        line
        for line in previous.splitlines()
        if line.startswith("| bench_") and line.split("|")[1].strip() not in ran
    ]


def results_markdown(
    figures: list[Figure], failures: list[str], *, earlier: Sequence[str] = (), load: float | None = None
) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    ran = sorted({f.benchmark for f in figures})
    conditions = f", load average {load:.1f} at the end" if load is not None else ""
    lines = [
        "# Benchmark results",
        "",
        f"Run on {datetime.date.today().isoformat()} ({machine}{conditions}) by `python benchmarks/run.py`.",
        "Whole-process and in-process figures; the ratio compares with the baseline measured in the same run.",
    ]
    if earlier:
        lines.append(f"This run: {', '.join(ran) or 'none'}; the other rows are from earlier runs.")
    lines += [
        "",
        "| benchmark | figure | target | this run | ratio to baseline | verdict |",
        "|---|---|---|---|---|---|",
    ]
    rows = []
    for f in figures:
        target = f"{f.target} {f.unit}" if f.target else ""
        ratio = f"{f.ratio:.2f}x {f.baseline_name}" if f.ratio is not None else ""
        verdict = {True: "meets", False: "**misses**", None: ""}[f.meets_target]
        rows.append(f"| {f.benchmark} | {f.name} | {target} | {_value(f)} | {ratio} | {verdict} |")
    # grouped by benchmark, each group in its own order
    rows = sorted([*earlier, *rows], key=lambda row: row.split("|")[1].strip())
    lines += rows
    if failures:
        lines += ["", "Failed runs:", *[f"- {failure}" for failure in failures]]
    return "\n".join(lines) + "\n"


def _value(f: Figure) -> str:
    if f.value >= 1000:
        return f"{f.value:,.0f} {f.unit}"
    return f"{f.value:.3g} {f.unit}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
