"""The benchmark figure recorder: targets are judged and figures reach the runner's table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchmarks.figures import FIGURES_ENV, Figure, record
from benchmarks.run import results_markdown, rows_of_others


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


def test_a_partial_run_keeps_the_rows_of_the_benchmarks_it_did_not_run() -> None:
    before = results_markdown(
        [
            Figure(benchmark="bench_a", name="old a", value=1.0, unit="s"),
            Figure(benchmark="bench_b", name="old b", value=2.0, unit="s"),
        ],
        [],
    )
    kept = rows_of_others(before, {"bench_a"})
    assert kept == ["| bench_b | old b |  | 2 s |  |  |"]
    after = results_markdown([Figure(benchmark="bench_a", name="new a", value=3.0, unit="s")], [], earlier=kept)
    rows = [line for line in after.splitlines() if line.startswith("| bench_")]
    assert rows == ["| bench_a | new a |  | 3 s |  |  |", "| bench_b | old b |  | 2 s |  |  |"]
    assert "This run: bench_a; the other rows are from earlier runs." in after
