"""Benchmark `kcli configs --describe --entity-type topics`: 10,000 topics in batched requests.

A sandbox cluster (3 controllers, N brokers) is started with the topics; the benchmark then runs
the same operation `kcli configs --describe` runs (list the topics with Metadata, then describe
every topic's configs with synonyms) and counts the requests sent per API. The point: the configs
of all topics come in one batched DescribeConfigs request per broker, not one request per topic.
Then the whole command, `kcli configs --describe --entity-type topics --all` (text and -o json), runs
as a process several times: median wall and CPU (user+sys) time. Figures go through
benchmarks/figures.py (requests per API, wall, CPU, each with its target).

    python benchmarks/bench_configs.py [--topics 10000] [--brokers 3] [--repeat 3] [--controllers]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path


async def describe_all(
    bootstrap: str, *, controllers: bool, topics: list[str] | None
) -> tuple[float, dict[str, int], int]:
    from kcli.client.admin import Admin
    from kcli.client.api.wire import CallStats
    from kcli.client.config import resolve_client_config
    from kcli.ops.config_spec import Entity, EntityType, Selection
    from kcli.workflows import configs as config_run

    config = resolve_client_config(
        bootstrap_server=None if controllers else bootstrap,
        bootstrap_controller=bootstrap if controllers else None,
        command_config=None,
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=lambda line: print(line, file=sys.stderr),
    )
    if topics is None:
        entities: tuple[Entity, ...] = (
            Entity(type=EntityType.TOPICS),
        )  # every topic: Metadata, then describe
    else:
        entities = tuple(Entity(type=EntityType.TOPICS, name=t) for t in topics)
    selection = Selection(types=(EntityType.TOPICS,), entities=entities)
    stats = CallStats()
    async with Admin(config) as admin:
        start = time.perf_counter()
        result = await config_run.describe(admin, selection, describe_all=True, stats=stats)
        elapsed = time.perf_counter() - start
    failed = result.failed
    described = len(result.resources) - failed
    if failed:
        print(f"  {failed} resource(s) failed", file=sys.stderr)
    return elapsed, dict(stats.requests), described


def cli_run(bootstrap: str, *extra: str) -> tuple[float, float, int]:
    """One `kcli configs --describe --entity-type topics --all` process: (wall s, CPU s user+sys, stdout bytes)."""
    import resource
    import subprocess

    script = Path(sys.executable).with_name("kcli")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "kcli"]
    command += [
        "configs",
        "--bootstrap-server",
        bootstrap,
        "--describe",
        "--entity-type",
        "topics",
        "--all",
        *extra,
    ]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(
            f"kcli configs failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}"
        )
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, len(done.stdout)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--brokers", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from benchmarks.figures import record
    from kcli.sandbox.emulator.handle import Sandbox

    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        with Sandbox(
            directory=Path(directory), controllers=3, brokers=args.brokers, topics=args.topics, partitions=1
        ) as sb:
            print(
                f"sandbox with {args.topics} topics on {args.brokers} brokers up in {time.perf_counter() - started:.1f} s"
            )
            worst_ratio = 0.0
            counts: dict[str, dict[str, int]] = {}
            for label, bootstrap, controllers in (
                ("--bootstrap-server", sb.bootstrap_servers, False),
                ("--bootstrap-controller", sb.bootstrap_controllers, True),
            ):
                names = None
                if controllers:  # controllers cannot list topics (KIP-919): name them, as an operator would
                    names = [f"sandbox-topic-{i:05d}" for i in range(args.topics)]
                for run in range(args.repeat):
                    elapsed, requests, described = asyncio.run(
                        describe_all(bootstrap, controllers=controllers, topics=names)
                    )
                    counts[label] = requests
                    per_topic = requests.get("DescribeConfigs", 0) / max(described, 1)
                    worst_ratio = max(worst_ratio, per_topic)
                    shown = ", ".join(f"{k}={v}" for k, v in sorted(requests.items()))
                    print(
                        f"{label} run {run + 1}: described {described} topics in {elapsed:.2f} s (in process); "
                        f"requests: {shown} (total {sum(requests.values())})"
                    )
            runs = {
                fmt: [cli_run(sb.bootstrap_servers, *extra) for _ in range(args.repeat)]
                for fmt, extra in (("text", ()), ("json", ("-o", "json")))
            }
    shape = f"{args.topics} topics, {args.brokers} brokers"
    for label, requests in counts.items():
        for api in ("Metadata", "DescribeConfigs"):
            if api in requests or api == "DescribeConfigs":
                nodes = args.brokers if label == "--bootstrap-server" else 3
                bound = 1 if api == "Metadata" else nodes
                record(
                    f"configs describe ({shape}) {label}: {api} requests",
                    requests.get(api, 0),
                    "requests",
                    target=f"<= {bound}",
                )
    for fmt, measured in runs.items():
        wall = statistics.median(m[0] for m in measured)
        cpu = statistics.median(m[1] for m in measured)
        size = measured[0][2]
        print(f"kcli configs --describe --all -o {fmt}: {size / 1e6:.1f} MB of output")
        record(f"kcli configs --describe --all -o {fmt} ({shape}): wall", wall, "s", target="< 5")
        record(f"kcli configs --describe --all -o {fmt} ({shape}): CPU user+sys", cpu, "s", target="< 2")
    target = args.brokers + 3
    ok = worst_ratio * args.topics <= target
    print(
        f"DescribeConfigs requests per topic: {worst_ratio:.6f} -> {'OK' if ok else 'TOO MANY'} (at most one per node)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
