"""Run every benchmark in this folder and write benchmarks/RESULTS.md.

    python benchmarks/run.py            # all of them
    python benchmarks/run.py startup    # those whose file name contains "startup"

Each benchmarks/bench_*.py prints its own figures (benchmarks/figures.py); this collects them into one
markdown table: figure, target, this run, ratio to the in-run baseline.
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
    (HERE / "RESULTS.md").write_text(results_markdown(figures, failures), encoding="utf-8")
    print(f"wrote {HERE / 'RESULTS.md'} ({len(figures)} figures)")
    return 1 if failures else 0


def results_markdown(figures: list[Figure], failures: list[str]) -> str:
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    lines = [
        "# Benchmark results",
        "",
        f"Run on {datetime.date.today().isoformat()} ({machine}) by `python benchmarks/run.py`.",
        "Whole-process and in-process figures; the ratio compares with the baseline measured in the same run.",
        "",
        "| benchmark | figure | target | this run | ratio to baseline | verdict |",
        "|---|---|---|---|---|---|",
    ]
    for f in figures:
        target = f"{f.target} {f.unit}" if f.target else ""
        ratio = f"{f.ratio:.2f}x {f.baseline_name}" if f.ratio is not None else ""
        verdict = {True: "meets", False: "**misses**", None: ""}[f.meets_target]
        lines.append(f"| {f.benchmark} | {f.name} | {target} | {_value(f)} | {ratio} | {verdict} |")
    if failures:
        lines += ["", "Failed runs:", *[f"- {failure}" for failure in failures]]
    return "\n".join(lines) + "\n"


def _value(f: Figure) -> str:
    if f.value >= 1000:
        return f"{f.value:,.0f} {f.unit}"
    return f"{f.value:.3g} {f.unit}"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
