"""Benchmark of `kcli reassign-partitions --generate` planning: speed and replicas moved.

Input: a balanced, rack-aware cluster of 100 brokers (3 racks) holding 100 topics x 1,000
partitions at replication factor 3 (placed by the original algorithm), and one broker added
(--broker-list of 101 brokers). For each strategy it times what --generate does after reading the
cluster: plan, compute the statistics, and format both JSON blocks; then it reports the replicas
each plan moves. Targets: under 2 s per strategy; minimal-movement moving >= 5x fewer replicas.

    python benchmarks/bench_reassign.py [--partitions 100000] [--brokers 100] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from kcli.ops.reassign.generate import Strategy, generate
from kcli.ops.reassign.json_format import format_reassignment
from kcli.ops.reassign.model import BrokerInfo, TopicPartition
from kcli.ops.reassign.original import plan_original

TARGET_SECONDS = 2.0
TARGET_RATIO = 5.0


def cluster(
    partitions: int, brokers: int, racks: int
) -> tuple[dict[TopicPartition, tuple[int, ...]], list[BrokerInfo]]:
    per_topic = 1000
    infos = [BrokerInfo(broker_id=b, rack=f"rack-{b % racks}") for b in range(brokers)]
    names = {
        TopicPartition(f"topic-{p // per_topic:04d}", p % per_topic): (0, 1, 2) for p in range(partitions)
    }
    current = plan_original(names, infos, rack_aware=True, seed=2024)
    return current, infos


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--partitions", type=int, default=100_000)
    parser.add_argument("--brokers", type=int, default=100)
    parser.add_argument("--racks", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", action="store_true", help="print the results as one JSON object")
    args = parser.parse_args(argv)

    current, brokers = cluster(args.partitions, args.brokers, args.racks)
    grown = [*brokers, BrokerInfo(broker_id=args.brokers, rack=f"rack-{args.brokers % args.racks}")]
    results: dict[str, dict[str, float | int]] = {}
    for strategy in (Strategy.ORIGINAL, Strategy.MINIMAL_MOVEMENT):
        best = float("inf")
        best_cpu = float("inf")
        for run in range(args.repeat):
            start = time.perf_counter()
            start_cpu = time.process_time()
            plan = generate(
                current=current, brokers=grown, strategy=strategy, disable_rack_aware=False, seed=run
            )
            format_reassignment(plan.current)
            format_reassignment(plan.proposed)
            best = min(best, time.perf_counter() - start)
            best_cpu = min(best_cpu, time.process_time() - start_cpu)
        results[strategy.value] = {
            "seconds": round(best, 3),
            "cpu_seconds": round(best_cpu, 3),
            "replicas_moved": plan.stats.replicas_moved,
            "leaders_changed": plan.stats.leaders_changed,
            "replica_spread": plan.stats.replica_spread,
            "leader_spread": plan.stats.leader_spread,
        }
    _record(args, results)
    original = results["original"]["replicas_moved"]
    minimal = results["minimal-movement"]["replicas_moved"]
    ratio = original / max(1, minimal)
    ok = all(r["seconds"] < TARGET_SECONDS for r in results.values()) and ratio >= TARGET_RATIO
    if args.json:
        print(
            json.dumps(
                {
                    "partitions": args.partitions,
                    "brokers": args.brokers + 1,
                    "results": results,
                    "ratio": round(ratio, 1),
                    "ok": ok,
                }
            )
        )
    else:
        print(
            f"--generate, {args.partitions} partitions (RF 3) over {args.brokers} brokers + 1 added, {args.racks} racks"
        )
        for name, r in results.items():
            print(
                f"  {name:17s} {r['seconds']:.3f} s (cpu {r['cpu_seconds']:.3f} s)  replicas moved {r['replicas_moved']:>7}  "
                f"leaders changed {r['leaders_changed']:>6}  spread: replicas {r['replica_spread']}, leaders {r['leader_spread']}"
            )
        print(
            f"  minimal-movement moves {ratio:.1f}x fewer replicas (target >= {TARGET_RATIO:.0f}x); "
            f"time target < {TARGET_SECONDS:.0f} s: {'met' if ok else 'NOT met'}"
        )
    return 0 if ok else 1


def _record(args: argparse.Namespace, results: dict[str, dict[str, float | int]]) -> None:
    """The figures for benchmarks/run.py (and a FIGURE line each)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from benchmarks.figures import record

    shape = f"{args.partitions} partitions, {args.brokers}+1 brokers"
    for name, r in results.items():
        record(
            f"reassign --generate ({name}), {shape}", float(r["seconds"]), "s", target=f"< {TARGET_SECONDS:g}"
        )
    original = float(results["original"]["replicas_moved"])
    minimal = float(results["minimal-movement"]["replicas_moved"])
    record(f"reassign replicas moved (original), one broker added, {shape}", original, "replicas")
    record(
        f"reassign replicas moved (minimal-movement), one broker added, {shape}",
        minimal,
        "replicas",
        baseline=original,
        baseline_name="original",
    )
    record(
        "reassign: original moves / minimal-movement moves",
        original / max(1.0, minimal),
        "x",
        target=f">= {TARGET_RATIO:g}",
    )


if __name__ == "__main__":
    sys.exit(main())
