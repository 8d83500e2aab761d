"""Benchmark `kcli spark audit` end to end: whole commands, from process start to exit, session start included.

    python benchmarks/bench_spark.py                     # 3 rounds; the 1,000,000-partition fleet once per round
    python benchmarks/bench_spark.py --rounds 5 --large-rounds 1 --master 'local[2]'
    python benchmarks/bench_spark.py --no-large          # only the small audit and its baseline

Each round runs, one after the other, as separate processes:
- the baseline: a bare SparkSession on local[*] (start, one tiny job, stop), as a user would write it;
- `kcli spark audit --bootstrap-server B --fail-on high` against a 3-broker sandbox with 4 topics of 3
  partitions (collected live, then audited);
- `kcli spark audit -i FLEET --master local[2]` over a synthetic fleet of 1,000,000 partitions in 50
  clusters (written once, before the rounds, and not timed).
Every process is waited for with its JVM, so the wall and CPU times (user+sys of the process tree)
cover everything a user pays. Per run it prints wall, CPU, the load average around it and, for the
audits, the Spark jobs/stages/tasks they ran; then the medians, the ratio of the small audit to the
bare session, and the targets: small audit <= 1.5x the bare session, the large one <= 90 s.
The machine should be quiet: the load average is printed so noisy figures can be recognised.

`--before DIR` also runs the small audit once per round with an earlier kcli source tree (DIR holds
its `kcli` package, e.g. `git archive REV kcli | tar -x -C DIR`), with Spark's event log on so its
jobs, stages and tasks are counted by Spark itself, as a before/after figure measured in the same run
(its CPU time is not comparable: a kcli that does not wait for its JVM leaves the JVM's CPU uncounted).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.figures import record  # noqa: E402

SMALL_RATIO_TARGET = 1.5
LARGE_TARGET_SECONDS = 90.0
RUN_TIMEOUT_S = 1800
# The baseline, as a user would write it; it waits for its JVM to exit, as kcli does, so its CPU and
# wall time are counted the same way.
BARE_SESSION = """
from pyspark.sql import SparkSession
from pyspark.core.context import SparkContext
spark = SparkSession.builder.master({master!r}).getOrCreate()
spark.range(10).count()
spark.stop()
gateway = SparkContext._gateway
gateway.shutdown()
gateway.proc.stdin.close()
gateway.proc.wait()
"""


@dataclass(frozen=True)
class Run:
    name: str
    wall_s: float
    cpu_s: float
    load_before: float
    load_after: float
    spark: dict[str, Any] | None = None


def timed(
    name: str,
    argv: list[str],
    *,
    env: dict[str, str] | None = None,
    expect: tuple[int, ...] = (0,),
    cwd: Path | None = None,
) -> Run:
    """Run one whole command as its own process; wall and CPU time of its process tree."""
    load_before = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(
        argv, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, env={**os.environ, **(env or {})}, cwd=cwd
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in expect:
        raise SystemExit(f"{name} exited {done.returncode}:\n{done.stderr[-3000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    spark = None
    if done.stdout.strip().startswith("{"):
        spark = json.loads(done.stdout).get("spark")
    return Run(name, wall, cpu, load_before, os.getloadavg()[0], spark)


def event_log_counts(directory: Path) -> dict[str, int]:
    """Jobs, stages and tasks Spark logged in its event logs under `directory` (then emptied)."""
    counts = {"jobs": 0, "stages": 0, "tasks": 0}
    events = {"SparkListenerJobStart": "jobs", "SparkListenerStageCompleted": "stages", "SparkListenerTaskEnd": "tasks"}
    for log in sorted(directory.rglob("*"), reverse=True):
        if log.is_file():
            for line in log.read_text(encoding="utf-8").splitlines():
                kind = events.get(json.loads(line)["Event"])
                if kind:
                    counts[kind] += 1
            log.unlink()
        else:
            log.rmdir()
    return counts


def show(run: Run) -> None:
    work = ""
    if run.spark:
        work = f"  spark: {run.spark['jobs']} jobs, {run.spark['stages']} stages, {run.spark['tasks']} tasks"
    print(
        f"  {run.name:<34} wall {run.wall_s:6.1f} s  cpu {run.cpu_s:6.1f} s  "
        f"load {run.load_before:4.1f} -> {run.load_after:4.1f}{work}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds of bare session + small audit")
    parser.add_argument("--large-rounds", type=int, default=1, help="large audits (one per round, at most)")
    parser.add_argument("--no-large", action="store_true", help="skip the 1,000,000-partition fleet")
    parser.add_argument("--partitions", type=int, default=1_000_000)
    parser.add_argument("--clusters", type=int, default=50)
    parser.add_argument("--master", default="local[2]", help="master of the large audit")
    parser.add_argument("--before", type=Path, help="an earlier kcli source tree to run the small audit with")
    parser.add_argument("--keep", type=Path, help="write the fleet here instead of a temporary directory")
    args = parser.parse_args(argv)

    from kcli.audit.synthetic import FleetSpec, generate_fleet
    from kcli.sandbox.emulator.handle import Sandbox

    kcli = [sys.executable, "-m", "kcli"]
    quiet = {"NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start", flush=True)
    with tempfile.TemporaryDirectory(prefix="kcli-bench-spark-") as scratch:
        root = args.keep or Path(scratch)
        fleet = root / "fleet"
        if not args.no_large and not (fleet / "clusters").is_dir():
            began = time.perf_counter()
            generate_fleet(fleet, FleetSpec(clusters=args.clusters, partitions=args.partitions))
            print(f"generated {args.partitions:,} partitions in {args.clusters} clusters "
                  f"({time.perf_counter() - began:.1f} s, not timed below)", flush=True)  # fmt: skip
        bare: list[Run] = []
        small: list[Run] = []
        large: list[Run] = []
        before: list[Run] = []
        before_env = _before_env(args.before, root) if args.before else {}
        with Sandbox(directory=root / "sandbox", brokers=3, controllers=3, topics=4, partitions=3) as sandbox:
            small_argv = [*kcli, "spark", "audit", "--bootstrap-server", sandbox.bootstrap_servers,
                          "--fail-on", "high", "-o", "json"]  # fmt: skip
            large_argv = [*kcli, "spark", "audit", "-i", str(fleet), "--master", args.master, "-o", "json"]
            for number in range(1, args.rounds + 1):
                print(f"round {number}/{args.rounds}", flush=True)
                bare.append(
                    timed("bare SparkSession", [sys.executable, "-c", BARE_SESSION.format(master="local[*]")])
                )
                show(bare[-1])
                small.append(timed("audit 3 brokers / 12 partitions", small_argv, env=quiet))
                show(small[-1])
                if args.before:
                    before.append(timed("same audit, earlier kcli", small_argv, env=before_env, expect=(0, 1),
                                         cwd=args.before))  # fmt: skip
                    before[-1] = _with_event_log_counts(before[-1], Path(before_env["KCLI_BENCH_EVENTS"]))
                    show(before[-1])
                if not args.no_large and len(large) < args.large_rounds:
                    name = f"audit {args.partitions:,} partitions / {args.clusters}"
                    large.append(timed(name, large_argv, env=quiet))
                    show(large[-1])
    return report(args, bare, small, large, before)


def _before_env(tree: Path, root: Path) -> dict[str, str]:
    """The environment that runs an earlier kcli tree with Spark's event log on."""
    conf, events = root / "before-conf", root / "before-events"
    conf.mkdir(exist_ok=True)
    events.mkdir(exist_ok=True)
    (conf / "spark-defaults.conf").write_text(
        f"spark.eventLog.enabled true\nspark.eventLog.compress false\nspark.eventLog.rolling.enabled false\nspark.eventLog.dir {events.resolve().as_uri()}\n", encoding="utf-8"
    )
    return {"PYTHONPATH": str(tree.resolve()), "SPARK_CONF_DIR": str(conf), "KCLI_BENCH_EVENTS": str(events),
            "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}  # fmt: skip


def _with_event_log_counts(run: Run, events: Path) -> Run:
    return Run(run.name, run.wall_s, run.cpu_s, run.load_before, run.load_after, event_log_counts(events))


def report(
    args: argparse.Namespace, bare: list[Run], small: list[Run], large: list[Run], before: list[Run]
) -> int:
    bare_wall = statistics.median(run.wall_s for run in bare)
    small_wall = statistics.median(run.wall_s for run in small)
    ratio = small_wall / bare_wall
    cpu_ratio = statistics.median(run.cpu_s for run in small) / statistics.median(run.cpu_s for run in bare)
    loads = [run.load_before for run in (*bare, *small, *large, *before)]
    print(f"medians over {len(small)} rounds (load average {min(loads):.1f}-{max(loads):.1f}):", flush=True)
    record("bare SparkSession end to end (local[*])", round(bare_wall, 1), "s")
    record("audit 3 brokers / 12 partitions end to end (local[*])", round(small_wall, 1), "s",
           baseline=round(bare_wall, 1), baseline_name="bare SparkSession")  # fmt: skip
    record("audit 3 brokers / 12 partitions / bare session (wall)", round(ratio, 2), "x",
           target=f"<= {SMALL_RATIO_TARGET}")  # fmt: skip
    record("audit 3 brokers / 12 partitions / bare session (CPU)", round(cpu_ratio, 2), "x")
    tasks = statistics.median(run.spark["tasks"] for run in small if run.spark)
    record("audit 3 brokers / 12 partitions: Spark tasks", tasks, "tasks")
    ok = ratio <= SMALL_RATIO_TARGET
    if before:
        before_wall = statistics.median(run.wall_s for run in before)
        before_tasks = statistics.median(run.spark["tasks"] for run in before if run.spark)
        record("audit 3 brokers / 12 partitions end to end, earlier kcli (local[*], event log on)",
               round(before_wall, 1), "s", baseline=round(bare_wall, 1), baseline_name="bare SparkSession")  # fmt: skip
        record("audit 3 brokers / 12 partitions: Spark tasks, earlier kcli", before_tasks, "tasks",
               baseline=tasks, baseline_name="tasks now")  # fmt: skip
    if large:
        large_wall = statistics.median(run.wall_s for run in large)
        record(f"audit {args.partitions:,} partitions / {args.clusters} clusters end to end ({args.master})",
               round(large_wall, 1), "s", target=f"<= {LARGE_TARGET_SECONDS:.0f}",
               baseline=round(bare_wall, 1), baseline_name="bare SparkSession")  # fmt: skip
        large_tasks = statistics.median(run.spark["tasks"] for run in large if run.spark)
        record(f"audit {args.partitions:,} partitions / {args.clusters} clusters: Spark tasks", large_tasks, "tasks")
        ok = ok and large_wall <= LARGE_TARGET_SECONDS
    if max(loads) > (os.cpu_count() or 1):
        print("NOTE: the machine was busy (load average above its core count): the figures are noisy")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
