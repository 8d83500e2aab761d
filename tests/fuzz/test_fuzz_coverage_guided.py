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


def test_the_fuzzer_does_not_inherit_its_parent_s_peak_memory() -> None:
    """A 600 MB parent (as a long test session is) starts the child: libFuzzer reads ru_maxrss as its
    usage, so the child must report its own peak, well under the 1024 MB limit, not the parent's."""
    import subprocess
    import sys

    peak = "import resource; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)"
    parent = (
        "import subprocess, sys\n"
        "from benchmarks.fuzz_long import with_own_peak_rss\n"
        "ballast = bytearray(600 << 20)\n"
        "ballast[::4096] = b'x' * len(ballast[::4096])\n"
        "plain = subprocess.run([sys.executable, '-c', sys.argv[1]], capture_output=True, text=True)\n"
        "own = subprocess.run(with_own_peak_rss([sys.executable, '-c', sys.argv[1]]), capture_output=True, text=True)\n"
        "print(plain.stdout.strip(), own.stdout.strip())\n"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", parent, peak],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
        check=True,
    )
    plain, own = map(int, done.stdout.split())
    assert plain >= 600, "this kernel does not hand the peak on: the test shows nothing"
    assert own < 200, f"the fuzzer's child starts with a peak of {own} MB"
