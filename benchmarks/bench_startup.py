"""Cold-start benchmark: every kcli command's --help, `kcli cluster-id` and `kcli cluster api-versions`
against a loopback tansu, next to `python -c pass` and kafka-python's own CLI (`kafka-python admin --help`)
in the same run.

Each command runs as a fresh process several times; the median wall time is reported with the
ratio to a bare interpreter start in the same run, and the ten most expensive imports
(`python -X importtime`) of each kcli command. Targets: --help < 0.15 s, cluster-id and api-versions < 0.2 s.
Output is piped, so help is rendered plain, as it is for scripts (rich panels only on a terminal).

    python benchmarks/bench_startup.py [--runs 9] [--json] [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGETS_S = {"kcli --help": 0.15, "kcli cluster-id": 0.2, "kcli cluster api-versions": 0.2}
COMMANDS = (
    "cluster-id",
    "cluster",
    "configs",
    "acls",
    "features",
    "metadata-quorum",
    "metadata-shell",
    "reassign-partitions",
    "sandbox",
    "spark",
    "profile",
)
CLIENT_ONLY = """
import asyncio, sys
sys.modules["hypothesis"] = None  # as kcli's console entry point does (see kcli.cli.entry)
from kcli.client.admin import Admin
from kcli.client.config import config_from_properties

async def main() -> None:
    config = config_from_properties({"bootstrap.servers": sys.argv[1]}, warn=print)
    async with Admin(config) as admin:
        print(f"Cluster ID: {admin.cluster_id}")

asyncio.run(main())
"""


def kcli_command() -> list[str]:
    """The installed console script next to this interpreter, else `python -m kcli`."""
    script = Path(sys.executable).with_name("kcli")
    if script.exists():
        return [str(script)]
    found = shutil.which("kcli")
    return [found] if found else [sys.executable, "-m", "kcli"]


def time_runs(argv: list[str], runs: int, env: dict[str, str]) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU (user + system) seconds of `runs` fresh processes, after one warm-up run.

    CPU time is reported too because wall time on a shared machine mostly measures the neighbours.
    """
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.PIPE, "timeout": 60, "check": False}
    subprocess.run(argv, env=env, **quiet)  # type: ignore[call-overload]
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(argv, env=env, **quiet)  # type: ignore[call-overload]
        wall.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
        if done.returncode != 0:
            raise SystemExit(
                f"{' '.join(argv)} failed ({done.returncode}): {done.stderr.decode(errors='replace')}"
            )
    return wall, cpu


def import_top(args: list[str], env: dict[str, str], count: int = 10) -> list[tuple[str, int, int]]:
    """(module, self µs, cumulative µs) of the `count` imports with the largest cumulative time."""
    code = "import sys; sys.argv = ['kcli'] + sys.argv[1:]; from kcli.cli.entry import console; console()"
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", code, *args],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        timeout=60,
        check=False,
    )
    rows: list[tuple[str, int, int]] = []
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        _, self_us, cumulative_us, name = (
            part.strip() for part in line.replace("import time:", "|", 1).split("|")
        )
        rows.append((name, int(self_us), int(cumulative_us)))
    rows.sort(key=lambda row: row[2], reverse=True)
    return rows[:count]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    options = parser.parse_args()

    sys.path.insert(0, str(ROOT))
    from tests.fixtures_tansu import run_tansu

    kcli = kcli_command()
    results: dict[str, dict[str, float]] = {}
    imports: dict[str, list[tuple[str, int, int]]] = {}
    with tempfile.TemporaryDirectory(prefix="kcli-bench-") as directory, run_tansu(Path(directory)) as broker:
        # Measure as installed programs run: with byte-code caching (kept out of the source tree).
        env = {**os.environ, "PYTHONPYCACHEPREFIX": str(Path(directory) / "pycache")}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env.pop("KCLI_DEBUG", None)
        cases = {
            "python -c pass": [sys.executable, "-c", "pass"],
            "kcli --help": [*kcli, "--help"],
            "kcli cluster-id": [*kcli, "cluster-id", "--bootstrap-server", broker.bootstrap],
            # Every API the node offers, with kcli's versions and header versions beside them.
            "kcli cluster api-versions": [*kcli, "cluster", "api-versions", "--bootstrap-server", broker.bootstrap],
            # The same work without the CLI framework: shows what the client layer itself costs.
            "client layer only": [sys.executable, "-c", CLIENT_ONLY, broker.bootstrap],
            **{f"kcli {name} --help": [*kcli, name, "--help"] for name in COMMANDS},
        }
        kafka_python = Path(sys.executable).with_name("kafka-python")
        if kafka_python.exists():
            cases["kafka-python admin --help"] = [str(kafka_python), "admin", "--help"]
        for label, argv in cases.items():
            wall, cpu = time_runs(argv, options.runs, env)
            results[label] = {
                "median_s": statistics.median(wall),
                "min_s": min(wall),
                "max_s": max(wall),
                "cpu_median_s": statistics.median(cpu),
            }
        imports["kcli --help"] = import_top(["--help"], env)
        imports["kcli cluster-id"] = import_top(["cluster-id", "--bootstrap-server", broker.bootstrap], env)

    baseline = results["python -c pass"]["median_s"]
    for figures in results.values():
        figures["ratio_to_python"] = figures["median_s"] / baseline if baseline else 0.0
    missed = [label for label, target in TARGETS_S.items() if results[label]["median_s"] >= target]

    if options.json:
        print(
            json.dumps(
                {
                    "runs": options.runs,
                    "results": results,
                    "targets_s": TARGETS_S,
                    "missed": missed,
                    "imports": imports,
                },
                indent=2,
            )
        )
    else:
        print(
            f"cold start, {options.runs} runs each: wall median / min / max, CPU median, ratio to `python -c pass`"
        )
        print(f"  (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
        for label, figures in results.items():
            target = TARGETS_S.get(label)
            verdict = (
                ""
                if target is None
                else (f"  target < {target:.2f} s: " + ("MISSED" if label in missed else "ok"))
            )
            print(
                f"  {label:<18} {figures['median_s']:.3f} s / {figures['min_s']:.3f} / {figures['max_s']:.3f}"
                f"  cpu {figures['cpu_median_s']:.3f} s  x{figures['ratio_to_python']:.1f}{verdict}"
            )
        for label, rows in imports.items():
            print(f"\nimport time top 10 for `{label}` (cumulative ms, self ms):")
            for name, self_us, cumulative_us in rows:
                print(f"  {cumulative_us / 1000:8.1f} {self_us / 1000:8.1f}  {name}")
    _record(results)
    return 1 if options.check and missed else 0


def _record(results: dict[str, dict[str, float]]) -> None:
    """Hand every figure to benchmarks/run.py (benchmarks/figures.py)."""
    from benchmarks.figures import record

    baseline = results["python -c pass"]["median_s"]
    for label, figures in results.items():
        if label == "python -c pass":
            continue
        target = TARGETS_S.get(label) or (
            0.15 if label.endswith("--help") and label.startswith("kcli") else None
        )
        record(
            f"cold start: {label} (median wall)",
            figures["median_s"],
            "s",
            target=f"< {target}" if target else None,
            baseline=baseline,
            baseline_name="python -c pass",
        )
    if "kafka-python admin --help" in results:
        kafka_python = results["kafka-python admin --help"]["median_s"]
        record(
            "cold start: kcli --help vs kafka-python admin --help",
            results["kcli --help"]["median_s"],
            "s",
            baseline=kafka_python,
            baseline_name="kafka-python admin --help",
        )


if __name__ == "__main__":
    sys.exit(main())
