"""Benchmark `kcli configs --describe --entity-type topics`: 10,000 topics in batched requests.

A sandbox cluster (3 controllers, N brokers) is started with the topics; the benchmark then runs
the same operation `kcli configs --describe` runs (list the topics with Metadata, then describe
every topic's configs with synonyms) and counts the requests sent per API. The point: the configs
of all topics come in one batched DescribeConfigs request per broker, not one request per topic.

    python benchmarks/bench_configs.py [--topics 10000] [--brokers 3] [--repeat 3] [--controllers]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path


async def describe_all(
    bootstrap: str, *, controllers: bool, topics: list[str] | None
) -> tuple[float, dict[str, int], int]:
    from kcli.client.admin import Admin
    from kcli.client.api.configs import CallStats
    from kcli.client.config import resolve_client_config
    from kcli.ops import config_run
    from kcli.ops.config_spec import Entity, EntityType, Selection

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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--brokers", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    from kcli.sandbox import Sandbox

    with tempfile.TemporaryDirectory() as directory:
        started = time.perf_counter()
        with Sandbox(
            directory=Path(directory), controllers=3, brokers=args.brokers, topics=args.topics, partitions=1
        ) as sb:
            print(
                f"sandbox with {args.topics} topics on {args.brokers} brokers up in {time.perf_counter() - started:.1f} s"
            )
            worst_ratio = 0.0
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
                    per_topic = requests.get("DescribeConfigs", 0) / max(described, 1)
                    worst_ratio = max(worst_ratio, per_topic)
                    shown = ", ".join(f"{k}={v}" for k, v in sorted(requests.items()))
                    print(
                        f"{label} run {run + 1}: described {described} topics in {elapsed:.2f} s; "
                        f"requests: {shown} (total {sum(requests.values())})"
                    )
    target = args.brokers + 3
    ok = worst_ratio * args.topics <= target
    print(
        f"DescribeConfigs requests per topic: {worst_ratio:.6f} -> {'OK' if ok else 'TOO MANY'} (at most one per node)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
