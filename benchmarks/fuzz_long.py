"""Coverage-guided fuzzing (atheris/libFuzzer) of the response decoder, the metadata reader and the
emulator's request decoder, each target in a child process.

    python benchmarks/fuzz_long.py                      # 60 s per target
    python benchmarks/fuzz_long.py --seconds 600        # longer
    python benchmarks/fuzz_long.py --target metadata    # one target
    python benchmarks/fuzz_long.py --update-corpus      # keep new interesting inputs in tests/fuzz/corpus

tests/fuzz/test_fuzz_coverage_guided.py runs the same targets for a few seconds each in CI (`run`).

Targets:
- responses: a first byte picks one of tests/fuzz/seeds.RESPONSES (schema, version); the rest is a
  response frame given to the client's decoding path (Connection._decode). Allowed outcome: a value
  or ProtocolError.
- metadata: a first byte picks segment or snapshot, and whether batch CRCs are recomputed (so damage
  reaches record decoding); the rest is a file for kcli.metadata.reader.read_file, with and without
  --skip-corrupt, then built into an image and dumped as the CLI does. Allowed outcome: entries or
  DecodeError.
- requests: two first bytes pick one of the request versions the emulator serves
  (tests/fuzz/seeds.request_kinds); the rest is a request frame given to the emulator's decoding
  (kcli.sandbox.emulator.server.decode). Allowed outcome: a request or FrameError.

Each target runs in its own process (libFuzzer with -rss_limit_mb and -timeout), so a crash, an
abort in native code, a hang or an allocation past the limit is counted as a finding (the input is
kept under the work directory) instead of ending the run. Seeds come from tests/fuzz/corpus. Prints,
per target: executions, seconds, executions per second, corpus size, findings.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

CORPUS = ROOT / "tests" / "fuzz" / "corpus"
TARGETS = ("responses", "metadata", "requests")
RSS_LIMIT_MB = 1024
TIMEOUT_S = 5


# ---- the children: one libFuzzer target each -------------------------------------------------------


def _responses_target() -> object:
    from pathlib import Path as _Path

    from kcli.client.config import resolve_client_config
    from kcli.client.connection import Connection
    from kcli.client.endpoints import Endpoint
    from kcli.client.errors import ProtocolError
    from tests.fuzz import seeds

    config = resolve_client_config(
        bootstrap_server="127.0.0.1:9092",
        bootstrap_controller=None,
        command_config=None,
        profile=None,
        environ={},
        config_file=_Path("/nonexistent/kcli.toml"),
        warn=lambda message: None,
    )
    connection = Connection(
        endpoint=Endpoint(host="127.0.0.1", port=9092),
        node_id=1,
        config=config,
        _reader=None,  # type: ignore[arg-type]
        _writer=None,  # type: ignore[arg-type]
    )
    kinds = [
        (name, version, seeds.response_class(name, version), seeds.header_flexible(name, version))
        for name, version in seeds.RESPONSES
    ]

    def one(data: bytes) -> None:
        if not data:
            return
        name, version, cls, flexible = kinds[data[0] % len(kinds)]
        with contextlib.suppress(ProtocolError):
            connection._decode(data[1:], cls, flexible, f"{name} v{version}")

    return one


def _metadata_target() -> object:
    from kcli.metadata.dump import DumpSink
    from kcli.metadata.image import ImageBuilder, ImageSink
    from kcli.metadata.read_model import DecodeError, ReadStats
    from kcli.metadata.reader import FileReader, read_file
    from tests.fuzz import seeds

    work = Path(tempfile.mkdtemp(prefix="kcli-fuzz-md-"))
    names = ("00000000000000000000.log", "00000000000000000004-0000000001.checkpoint")
    lines: list[str] = []
    # built once, as in a long-lived process: their tables of fast handlers are what is fuzzed
    sinks = (ImageSink(ImageBuilder(), snapshot=False), DumpSink(lines, lines.clear, json=True))

    def one(data: bytes) -> None:
        if not data:
            return
        flags, body = data[0], data[1:]
        if flags & 2:
            body = seeds.fix_crcs(body)
        path = work / names[flags & 1]
        path.write_bytes(body)
        for skip in (False, True):
            try:
                for _entry in read_file(path, skip_corrupt=skip):
                    pass
            except DecodeError:
                pass
            # the fast paths the CLI takes: the image's layouts and the dump's
            for sink in sinks:
                lines.clear()
                with contextlib.suppress(DecodeError):
                    FileReader(path=path, stats=ReadStats(), skip_corrupt=skip, skip_noop=True).scan(sink)

    return one


def _requests_target() -> object:
    from kcli.sandbox.emulator.server import decode
    from kcli.sandbox.emulator.wire import FrameError
    from tests.fuzz import seeds

    kinds = seeds.request_kinds()

    def one(data: bytes) -> None:
        if len(data) < 2:
            return
        name, key, version = kinds[int.from_bytes(data[:2], "big") % len(kinds)]
        with contextlib.suppress(FrameError):
            decode(name, key, version, data[2:])

    return one


def _warm(target: str) -> None:
    """Import, under instrumentation, the modules a target's decoding reaches (kcli imports some
    only on first use): the length walks of its classes, the generated metadata decoders."""
    import importlib

    from kcli.bounds import walker
    from tests.fuzz import seeds

    if target == "responses":
        for name, version in seeds.RESPONSES:
            walker(seeds.response_class(name, version))
    elif target == "requests":
        from kcli.client.protocol import api_versions_v5

        for name, _key, version in seeds.request_kinds():
            cls = api_versions_v5.ApiVersionsRequest if (name, version) == ("api_versions", 5) else None
            walker(cls or seeds.request_class(name, version))
    else:
        from kcli.metadata.records import CONTROL_RECORD_CLASSES, METADATA_RECORD_CLASSES

        for cls in [*METADATA_RECORD_CLASSES.values(), *CONTROL_RECORD_CLASSES.values()]:
            walker(cls)
        for module in ("decoders", "renderers"):
            importlib.import_module(f"kcli.metadata.generated.{module}")


def child(target: str, libfuzzer_args: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["kcli"]):
        one = {"responses": _responses_target, "metadata": _metadata_target, "requests": _requests_target}[
            target
        ]()
        _warm(target)
    atheris.Setup([sys.argv[0], *libfuzzer_args], one)  # type: ignore[arg-type]
    atheris.Fuzz()


# ---- the parent: seeds, runs, summary --------------------------------------------------------------


def _seed(target: str, into: Path) -> int:
    """Write the seeds of `target` in the child's input format; returns how many."""
    from tests.fuzz import seeds

    into.mkdir(parents=True, exist_ok=True)
    count = 0
    if target == "responses":
        index = {pair: i for i, pair in enumerate(seeds.RESPONSES)}
        for name, version, data in seeds.response_corpus():
            (into / f"seed-{count}").write_bytes(bytes([index[(name, version)]]) + data)
            count += 1
    elif target == "requests":
        kinds = {(name, version): i for i, (name, _key, version) in enumerate(seeds.request_kinds())}
        for name, version, data in seeds.request_corpus():
            (into / f"seed-{count}").write_bytes(kinds[(name, version)].to_bytes(2, "big") + data)
            count += 1
    else:
        for path in sorted((CORPUS / "metadata").iterdir()):
            kind = 1 if path.name.endswith(".checkpoint") else 0
            for crc in (0, 2):
                (into / f"seed-{count}").write_bytes(bytes([kind | crc]) + path.read_bytes())
                count += 1
    for kept in (
        sorted((CORPUS / f"{target}-found").glob("*")) if (CORPUS / f"{target}-found").exists() else []
    ):
        shutil.copy(kept, into / f"kept-{kept.name}")
        count += 1
    return count


def with_own_peak_rss(argv: list[str]) -> list[str]:
    """`argv` run by a shell that forks it. Linux hands a process's peak RSS to a child it forks and
    execs, and libFuzzer reads that peak as its own usage: started from a large parent (a long
    pytest session) the child would pass its memory limit before its first input. Forked by a
    small shell (the `exit` keeps sh from exec'ing in place) it starts with the shell's peak."""
    return ["sh", "-c", '"$@"; exit $?', "fuzz", *argv]


def run(target: str, seconds: int, work: Path) -> dict[str, float | int | str]:
    """Fuzz `target` for `seconds` in a child process; its figures (executions, coverage: libFuzzer's
    `cov` edges and `ft` features, corpus, findings: inputs that crashed, aborted, hung or passed
    the memory limit, kept under `work/<target>/findings`)."""
    corpus, findings = work / target / "corpus", work / target / "findings"
    seeded = _seed(target, corpus)
    findings.mkdir(parents=True, exist_ok=True)
    args = [
        str(corpus),
        f"-max_total_time={seconds}",
        f"-rss_limit_mb={RSS_LIMIT_MB}",
        f"-timeout={TIMEOUT_S}",
        f"-artifact_prefix={findings}/",
        "-print_final_stats=1",
        "-max_len=65536",
    ]
    started = time.perf_counter()
    child_process = subprocess.Popen(
        with_own_peak_rss([sys.executable, __file__, "--child", target, "--", *args]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
    )
    try:  # start-up (instrumenting kcli, the seeds) takes up to minutes on a busy host
        out, err = child_process.communicate(timeout=seconds + 600)
    except subprocess.TimeoutExpired:
        from kcli.processes import kill_child

        kill_child(child_process, group=True)
        out, err = child_process.communicate()
    elapsed = time.perf_counter() - started
    log = out + err
    (work / f"{target}.log").write_text(log)
    runs = re.findall(r"stat::number_of_executed_units:\s+(\d+)", log) or re.findall(r"Done (\d+) runs", log)
    execs = int(runs[-1]) if runs else 0
    if not execs:  # a finding ends libFuzzer early: take the last status line
        status = re.findall(r"#(\d+)\s", log)
        execs = int(status[-1]) if status else 0
    found = sorted(p.name for p in findings.iterdir())
    coverage = re.findall(r"cov: (\d+) ft: (\d+)", log)
    rates = re.findall(r"stat::average_exec_per_sec:\s+(\d+)", log)
    return {
        "target": target,
        "execs": execs,
        "cov": int(coverage[-1][0]) if coverage else 0,
        "ft": int(coverage[-1][1]) if coverage else 0,
        "seconds": round(elapsed, 1),
        "execs_per_s": int(rates[-1]) if rates else (round(execs / elapsed) if elapsed else 0),
        "seeds": seeded,
        "corpus": len(list(corpus.iterdir())),
        "findings": len(found),
        "exit": child_process.returncode,
        "first_finding": found[0] if found else "",
        "log": str(work / f"{target}.log"),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=60, help="fuzzing time per target")
    parser.add_argument("--target", choices=[*TARGETS, "all"], default="all")
    parser.add_argument("--update-corpus", action="store_true", help="keep new inputs in tests/fuzz/corpus")
    parser.add_argument("--child", choices=TARGETS, help=argparse.SUPPRESS)
    options, rest = parser.parse_known_args(argv)
    if options.child:
        child(options.child, [a for a in rest if a != "--"])
        return 0
    from benchmarks.figures import record

    work = Path(tempfile.mkdtemp(prefix="kcli-fuzz-long-"))
    targets = TARGETS if options.target == "all" else (options.target,)
    results = [run(target, options.seconds, work) for target in targets]
    print(
        f"{'target':<10} {'execs':>10} {'seconds':>8} {'execs/s':>8} {'cov':>6} {'ft':>6} {'seeds':>6} "
        f"{'corpus':>7} {'findings':>9}"
    )
    for r in results:
        print(
            f"{r['target']:<10} {r['execs']:>10} {r['seconds']:>8} {r['execs_per_s']:>8} {r['cov']:>6} {r['ft']:>6} "
            f"{r['seeds']:>6} {r['corpus']:>7} {r['findings']:>9}"
        )
        record(f"fuzz {r['target']}: coverage (libFuzzer edges)", float(r["cov"]), "edges")
        record(f"fuzz {r['target']}: executions per second", float(r["execs_per_s"]), "execs/s")
        record(f"fuzz {r['target']}: findings", float(r["findings"]), "inputs", target="<= 0")
        if r["findings"]:
            print(f"  first finding: {work / str(r['target']) / 'findings' / str(r['first_finding'])}")
        print(f"  libFuzzer log: {r['log']}")
    if options.update_corpus:
        for target in targets:
            keep = CORPUS / f"{target}-found"
            keep.mkdir(exist_ok=True)
            for path in (work / target / "corpus").iterdir():
                if not path.name.startswith(("seed-", "kept-")) and path.stat().st_size <= 4096:
                    shutil.copy(path, keep / path.name)
            print(f"kept {len(list(keep.iterdir()))} inputs in {keep}")
    return 1 if any(r["findings"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
