"""One way for every benchmark to report a figure: a line for people, a JSON line for benchmarks/run.py.

`record("cold start: kcli --help", 0.11, "s", target="< 0.15", baseline=0.02, baseline_name="python -c pass")`
prints a readable line and, when KCLI_BENCH_FIGURES names a file, appends the figure to it as JSON.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict, dataclass

FIGURES_ENV = "KCLI_BENCH_FIGURES"


@dataclass(frozen=True, slots=True, kw_only=True)
class Figure:
    benchmark: str
    name: str
    value: float
    unit: str
    target: str | None = None  # e.g. "< 0.2" or ">= 500000"
    baseline: float | None = None  # the same quantity for the in-run baseline
    baseline_name: str | None = None

    @property
    def ratio(self) -> float | None:
        return self.value / self.baseline if self.baseline else None

    @property
    def meets_target(self) -> bool | None:
        if not self.target:
            return None
        op, _, bound_text = self.target.partition(" ")
        bound = float(bound_text)
        checks = {
            "<": self.value < bound,
            "<=": self.value <= bound,
            ">": self.value > bound,
            ">=": self.value >= bound,
        }
        return checks.get(op)


def record(
    name: str,
    value: float,
    unit: str,
    *,
    target: str | None = None,
    baseline: float | None = None,
    baseline_name: str | None = None,
) -> Figure:
    """Print one figure and keep it for the results table."""
    benchmark = os.path.splitext(os.path.basename(sys.argv[0]))[0]
    figure = Figure(
        benchmark=benchmark,
        name=name,
        value=value,
        unit=unit,
        target=target,
        baseline=baseline,
        baseline_name=baseline_name,
    )
    verdict = {True: "meets target", False: "MISSES target", None: ""}[figure.meets_target]
    extra = f" (target {target} {unit}, {verdict})" if target else ""
    ratio = f"; {figure.ratio:.2f}x {baseline_name}" if figure.ratio is not None else ""
    print(f"FIGURE {name}: {_fmt(value)} {unit}{extra}{ratio}", flush=True)
    path = os.environ.get(FIGURES_ENV)
    if path:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(json.dumps(asdict(figure)) + "\n")
    return figure


def _fmt(value: float) -> str:
    if value >= 1000:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.3g}"
