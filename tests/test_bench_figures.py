"""The benchmark figure recorder: targets are judged and figures reach the runner's table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.figures import FIGURES_ENV, Figure, record
from benchmarks.run import results_markdown


@pytest.mark.parametrize(
    ("value", "target", "meets"),
    [(0.1, "< 0.15", True), (0.2, "< 0.15", False), (600000, ">= 500000", True), (1.0, None, None)],
)
def test_target_verdicts(value: float, target: str | None, meets: bool | None) -> None:
    figure = Figure(benchmark="b", name="n", value=value, unit="s", target=target)
    assert figure.meets_target is meets


def test_record_appends_json_and_table_has_ratio(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sink = tmp_path / "figures.jsonl"
    monkeypatch.setenv(FIGURES_ENV, str(sink))
    record("cold start", 0.12, "s", target="< 0.15", baseline=0.03, baseline_name="python -c pass")
    figure = Figure(**json.loads(sink.read_text()))
    assert figure.ratio == pytest.approx(4.0)
    table = results_markdown([figure], [])
    assert "| cold start | < 0.15 s | 0.12 s | 4.00x python -c pass | meets |" in table


def test_a_partial_run_keeps_the_other_benchmarks_rows_with_their_dates(tmp_path: Path) -> None:
    from benchmarks.run import _earlier

    results = tmp_path / "RESULTS.md"
    old = Figure(benchmark="bench_old", name="kept", value=1.0, unit="s")
    stale = Figure(benchmark="bench_new", name="replaced", value=9.0, unit="s")
    results.write_text(
        results_markdown([old, stale], [], dates={"bench_old": "2026-01-02", "bench_new": "x"})
    )
    kept, dates = _earlier(results, {"bench_new"})
    fresh = Figure(benchmark="bench_new", name="fresh", value=2.0, unit="s")
    table = results_markdown([fresh], [], kept, {**dates, "bench_new": "2026-02-03"})
    assert "| bench_old | kept |" in table and "| bench_new | fresh |" in table and "replaced" not in table
    assert "Last run of each benchmark: bench_new 2026-02-03, bench_old 2026-01-02." in table
