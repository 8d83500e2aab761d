"""How long kcli takes to refuse damaged input: the timing figures of the fuzz tests, which only check
outcomes (tests/fuzz: a value or a DecodeError/ProtocolError, never more).

    python benchmarks/bench_damaged.py [--cases N]

Damage as the tests apply it (tests/fuzz/seeds.py): truncation, int32 and varint lengths forged to
2 GiB and beyond, bogus tagged fields, flipped bytes, garbage, on the response corpus and on the
metadata corpus (with batch CRCs recomputed, so damage reaches record decoding). Figures: the slowest
and the median input, and the whole set of every int32/varint position of the small response seeds
forged to 2 GiB (the test that checks peak memory).
"""

from __future__ import annotations

import argparse
import contextlib
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.figures import record


def _damage(rng: random.Random, data: bytes) -> bytes:
    from tests.fuzz import seeds

    position = rng.randint(0, len(data))
    kind = rng.choice(["truncate", "int32", "uvarint", "tags", "flip", "garbage"])
    if kind == "truncate":
        return data[:position]
    if kind == "int32":
        return seeds.forge_int32(data, position, rng.choice(seeds.FORGED_INT32))
    if kind == "uvarint":
        return seeds.forge_uvarint(data, position, rng.choice(seeds.FORGED_UVARINTS))
    if kind == "tags":
        return seeds.bogus_tags(data, position, rng.randint(0, 2**31), rng.randint(0, 2**31))
    if kind == "flip" and data:
        index = min(position, len(data) - 1)
        return data[:index] + bytes([data[index] ^ rng.randint(1, 255)]) + data[index + 1 :]
    return data[:position] + rng.randbytes(rng.randint(0, 64))


def _timed(function: object, cases: list[object]) -> list[float]:
    out = []
    for case in cases:
        started = time.perf_counter()
        function(case)  # type: ignore[operator]
        out.append(time.perf_counter() - started)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=2000)
    options = parser.parse_args()
    from kcli.client.errors import ProtocolError
    from kcli.metadata.read_model import DecodeError
    from kcli.metadata.reader import read_file
    from tests.fuzz import seeds
    from tests.fuzz.test_fuzz_responses import decode

    rng = random.Random(30)
    corpus = seeds.response_corpus()
    responses = [
        (name, version, _damage(rng, data)) for name, version, data in rng.choices(corpus, k=options.cases)
    ]

    def one_response(case: tuple[str, int, bytes]) -> None:
        with contextlib.suppress(ProtocolError):
            decode(*case)

    _timed(one_response, corpus)  # type: ignore[arg-type]  # first use: imports, generated walks
    times = _timed(one_response, responses)  # type: ignore[arg-type]
    record("damaged responses: slowest input", max(times), "s", target="< 1")
    record("damaged responses: median input", statistics.median(times) * 1e3, "ms")

    work = Path(tempfile.mkdtemp(prefix="kcli-bench-damaged-"))
    files = sorted((seeds.CORPUS / "metadata").iterdir())
    paths = []
    for index in range(options.cases // 4):
        source = rng.choice(files)
        data = _damage(rng, source.read_bytes())
        path = work / f"{index}-{source.name}"
        path.write_bytes(seeds.fix_crcs(data) if rng.random() < 0.5 else data)
        paths.append(path)

    def one_file(path: Path) -> None:
        for skip in (False, True):
            with contextlib.suppress(DecodeError):
                for _entry in read_file(path, skip_corrupt=skip):
                    pass

    _timed(one_file, files)  # type: ignore[arg-type]
    times = _timed(one_file, paths)  # type: ignore[arg-type]
    record("damaged metadata files: slowest input", max(times), "s", target="< 1")
    record("damaged metadata files: median input", statistics.median(times) * 1e3, "ms")

    forged = []
    for name, version, data in corpus:
        if len(data) > 600:
            continue
        for position in range(len(data)):
            for value in (0x7FFFFFFF, -(2**31)):
                forged.append((name, version, seeds.forge_int32(data, position, value)))
            forged.append((name, version, seeds.forge_uvarint(data, position, seeds.FORGED_UVARINTS[0])))
    started = time.perf_counter()
    _timed(one_response, forged)  # type: ignore[arg-type]
    record(
        f"{len(forged)} responses with a length forged to 2 GiB: all refused or read",
        time.perf_counter() - started,
        "s",
        target="< 20",
    )


if __name__ == "__main__":
    main()
