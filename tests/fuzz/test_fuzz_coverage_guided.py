"""Coverage-guided fuzzing (atheris/libFuzzer) of the three decoders of outside bytes, a few seconds
per target: the client's response decoding, the metadata reader (its general path, the image's and
the dump's fast paths), the emulator's request decoding.

Each target runs in a child process (benchmarks/fuzz_long.py, the longer run of the same targets)
under libFuzzer's memory limit and per-input timeout, so an abort in native code, a blown memory
limit, a hang or an unexpected exception is a finding that fails this test, with the input kept,
instead of a lost test run. Seeds: tests/fuzz/corpus (tests/fuzz/seeds.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks import fuzz_long

SECONDS = 6


@pytest.mark.parametrize("target", fuzz_long.TARGETS)
def test_coverage_guided_fuzzing_finds_nothing(target: str, tmp_path: Path) -> None:
    result = fuzz_long.run(target, SECONDS, tmp_path)
    log = Path(str(result["log"])).read_text(errors="replace")
    tail = "\n".join(line for line in log.splitlines() if not line.startswith("INFO: Instrumenting"))[-3000:]
    assert result["findings"] == 0, f"{result}\n{tail}"
    assert int(result["execs"]) > 0 and int(result["cov"]) > 100, f"{result}\n{tail}"
