"""Benchmark `kcli spark audit`: a synthetic fleet audited with the built-in rules.

    python benchmarks/bench_spark.py                       # 50 clusters: 100k, 300k, 1M partitions
    python benchmarks/bench_spark.py --sizes 1000000 --master 'local[2]' --keep /tmp/fleet

Per size it prints the time of each stage (generate, load, check rules, run rules, write findings,
summary) and the total audit time; one Spark session serves every size, so its start-up is printed
once. The target: 1,000,000 partitions in 50 clusters audited in under 3 minutes with local[2].
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from kcli.audit.job import AuditRequest, run_audit, spark_session
from kcli.audit.rules import load_builtin_rules
from kcli.audit.synthetic import FleetSpec, generate_fleet

TARGET_SECONDS = 180.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100000,300000,1000000", help="total partitions, comma separated")
    parser.add_argument("--clusters", type=int, default=50)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--conf", action="append", default=[], help="extra Spark conf k=v")
    parser.add_argument("--keep", type=Path, help="write the fleets and findings here instead of a temp dir")
    parser.add_argument("--json", action="store_true", help="print the results as one JSON document")
    parser.add_argument(
        "--no-warmup", action="store_true", help="skip the small unmeasured audit that warms the JVM up first"
    )
    args = parser.parse_args(argv)
    sizes = [int(size) for size in args.sizes.split(",")]
    conf = dict(pair.split("=", 1) for pair in args.conf)
    rules = load_builtin_rules()
    results = []
    with tempfile.TemporaryDirectory(prefix="kcli-bench-") as scratch:
        root = args.keep or Path(scratch)
        started = time.monotonic()
        with spark_session(args.master, conf) as spark:
            session_seconds = time.monotonic() - started
            print(f"spark session ({args.master}): {session_seconds:.1f}s", file=sys.stderr)
            if not args.no_warmup:
                # The first audit in a JVM pays for class loading and JIT compilation; keep that out of
                # the scaling figures.
                began = time.monotonic()
                warm = root / "fleet-warmup"
                generate_fleet(warm, FleetSpec(clusters=5, partitions=5000))
                run_audit(spark, AuditRequest(inputs=(warm,), rules=rules, out=root / "findings-warmup"))
                print(f"warm-up audit (5,000 partitions): {time.monotonic() - began:.1f}s", file=sys.stderr)
            for size in sizes:
                fleet = root / f"fleet-{size}"
                began = time.monotonic()
                generate_fleet(fleet, FleetSpec(clusters=args.clusters, partitions=size))
                generate_seconds = time.monotonic() - began
                request = AuditRequest(
                    inputs=(fleet,), rules=rules, out=root / f"findings-{size}", master=args.master
                )
                began = time.monotonic()
                result = run_audit(spark, request)
                audit_seconds = time.monotonic() - began
                row = {
                    "partitions": result.partitions,
                    "clusters": result.clusters,
                    "findings": result.total,
                    "generate_s": round(generate_seconds, 1),
                    "stages_s": {stage: round(seconds, 1) for stage, seconds in result.stage_seconds.items()},
                    "audit_s": round(audit_seconds, 1),
                }
                results.append(row)
                stages = "  ".join(
                    f"{stage} {seconds:.1f}s" for stage, seconds in result.stage_seconds.items()
                )
                print(
                    f"{result.partitions:>9,} partitions / {result.clusters} clusters: audit {audit_seconds:.1f}s "
                    f"({stages}); {result.total} findings; generate {generate_seconds:.1f}s",
                    file=sys.stderr,
                )
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.figures import record

    print(f"load average {os.getloadavg()[0]:.1f} (the machine is shared)", file=sys.stderr)
    baseline = results[0]
    for row in results:
        record(
            f"audit {row['partitions']:,} partitions / {row['clusters']} clusters ({args.master})",
            row["audit_s"],
            "s",
            target=f"< {TARGET_SECONDS:.0f}" if row["partitions"] >= 1_000_000 else None,
            baseline=baseline["audit_s"] if row is not baseline else None,
            baseline_name=f"audit of {baseline['partitions']:,} partitions" if row is not baseline else None,
        )
    if args.json:
        print(
            json.dumps(
                {"master": args.master, "session_s": round(session_seconds, 1), "runs": results}, indent=2
            )
        )
    largest = results[-1]
    if largest["partitions"] >= 1_000_000 and largest["audit_s"] > TARGET_SECONDS:
        print(f"SLOWER than the {TARGET_SECONDS:.0f}s target", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
