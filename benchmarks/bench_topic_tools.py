"""kcli log-dirs and kcli topics --create beside Kafka's own tools on the same real cluster: whole processes.

    python benchmarks/bench_topic_tools.py [--runs N] [--partitions P] [--topics T] [--kafka-topics K]

A Kafka 4.4.0 cluster (one controller, three brokers, PLAINTEXT) is started by the sandbox's
real-Kafka engine and given P partitions (default 10,000: 100 topics of P/100 partitions, one replica
each, spread over the brokers), made through kcli's client in batches (setup, not measured). Then:
- `log-dirs --describe` of every broker: bin/kafka-log-dirs.sh and kcli, one fresh process per run
  (`--runs`, default 5), under /usr/bin/time (benchmarks/bench_vs_kafka.py's `compare`: median wall,
  Kafka's as the baseline, peak RSS); both outputs checked to be the same JSON line;
- `topics --create` of T new topics (default 1,000; 3 partitions each), one process per topic as a
  runbook loop would run it: kcli creates T, Kafka's tool K (default T; its JVM start is the cost,
  so a smaller K gives the same median), each median per topic and the total for all T.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_vs_kafka import NEWEST, compare, kafka_dist, timed  # noqa: E402
from benchmarks.figures import record  # noqa: E402

BATCH = 50  # topics per CreateTopics of the setup


async def _fill(bootstrap: str, partitions: int) -> None:
    """100 topics of partitions/100 partitions each (one replica), and wait for every leader."""
    from kcli.client.admin import Admin
    from kcli.client.api.topics import create_topic_specs
    from kcli.client.config import resolve_client_config
    from kcli.ops.topic_command import NewTopic
    from kcli.workflows.partitions import every_partition

    per_topic = max(1, partitions // 100)
    names = [f"bench-{i:03d}" for i in range(100)]
    config = resolve_client_config(
        bootstrap_server=bootstrap,
        bootstrap_controller=None,
        command_config=None,
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=print,
    )
    async with Admin(config) as admin:
        for start in range(0, len(names), BATCH):
            specs = [
                NewTopic(name=n, partitions=per_topic, replication_factor=1)
                for n in names[start : start + BATCH]
            ]
            for created in await create_topic_specs(admin, specs, timeout_ms=120_000):
                if created.error is not None and created.error.name != "TOPIC_ALREADY_EXISTS":
                    raise SystemExit(f"could not create {created.name}: {created.error.line()}")
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline:
            _, rows = await every_partition(admin)
            leaders = {r["leader"] for r in rows if r["topic"].startswith("bench-") and r["leader"] >= 0}
            led = sum(1 for r in rows if r["topic"].startswith("bench-") and r["leader"] >= 0)
            # and every broker made its logs: a leader in the metadata comes before the log on disk,
            # and both tools must describe the same replicas
            if led >= per_topic * len(names) and await _replicas_on_disk(admin, leaders) >= led:
                return
            await asyncio.sleep(2)
    raise SystemExit("the benchmark's partitions did not all get a leader and a log within 600 s")


async def _replicas_on_disk(admin: Any, brokers: set[int]) -> int:
    from kcli.client.api.log_dirs import BrokerLogDirs, describe_log_dirs

    described = await describe_log_dirs(admin, sorted(brokers))
    return sum(
        1
        for report in described.values()
        if isinstance(report, BrokerLogDirs)
        for tp in report.replicas
        if tp.topic.startswith("bench-")
    )


def _log_dirs(home: Path, bootstrap: str, runs: int, partitions: int) -> None:
    kafka = [str(home / "bin" / "kafka-log-dirs.sh"), "--bootstrap-server", bootstrap, "--describe"]
    kcli = [sys.executable, "-m", "kcli", "log-dirs", "--bootstrap-server", bootstrap, "--describe"]
    _same_output(kafka, kcli)
    compare(f"log-dirs --describe ({partitions:,} partitions)", kafka, kcli, runs, speed_target=">= 10")


def _same_output(kafka: list[str], kcli: list[str]) -> None:
    """Both tools report the same brokers, dirs and replicas: the figures compare the same work.

    Compared as sets: with this many partitions, a HashMap bucket holds 9+ TopicPartitions of one
    hash (bench-0Yz partition p and bench-0Wz partition q share one when Y + p == W + q), Java turns
    it into a tree and breaks the ties by identity hash codes, so Kafka's own line orders them
    differently from one JVM to the next (kcli.ops.java_order does not replay that; nothing could)."""
    import json
    import subprocess

    def content(argv: list[str]) -> Any:
        line = subprocess.run(
            argv, capture_output=True, text=True, timeout=300, check=True
        ).stdout.splitlines()[-1]
        return sorted(
            (
                b["broker"],
                d["logDir"],
                d["error"],
                sorted(json.dumps(p, sort_keys=True) for p in d["partitions"]),
            )
            for b in json.loads(line)["brokers"]
            for d in b["logDirs"]
        )

    theirs, ours = content(kafka), content(kcli)
    if theirs != ours:
        only = [row[:2] for row in theirs if row not in ours][:3], [row[:2] for row in ours if row not in theirs][:3]
        raise SystemExit(
            f"kcli's log-dirs JSON reports other replicas than Kafka's on this cluster: dirs that differ, "
            f"by Kafka's tool {only[0]}, by kcli {only[1]}"
        )


def _creates(home: Path, bootstrap: str, topics: int, kafka_topics: int) -> None:
    def create(tool: list[str], name: str) -> float:
        wall, _, _, code = timed(
            [*tool, "--bootstrap-server", bootstrap, "--create", "--topic", name, "--partitions", "3"]
        )
        if code != 0:
            raise SystemExit(f"{tool[-1]}: creating {name} failed")
        return wall

    kafka_tool = [str(home / "bin" / "kafka-topics.sh")]
    kcli_tool = [sys.executable, "-m", "kcli", "topics"]
    kafka_walls = [create(kafka_tool, f"kafka-new-{i:04d}") for i in range(kafka_topics)]
    kcli_walls = [create(kcli_tool, f"kcli-new-{i:04d}") for i in range(topics)]
    kafka_median, kcli_median = statistics.median(kafka_walls), statistics.median(kcli_walls)
    what = f"topics --create, one process per topic ({topics:,} topics by kcli, {kafka_topics:,} by Kafka's tool)"
    record(f"{what}: Kafka's tool (median wall per topic)", kafka_median, "s")
    record(
        f"{what}: kcli (median wall per topic)",
        kcli_median,
        "s",
        baseline=kafka_median,
        baseline_name="Kafka's tool",
    )
    record(f"{what}: speed-up over Kafka's tool (wall)", kafka_median / kcli_median, "x", target=">= 10")
    record(f"topics --create of {topics:,} topics: kcli (total wall)", sum(kcli_walls), "s")
    record(
        f"topics --create of {topics:,} topics: Kafka's tool (total wall, {kafka_topics:,} measured, "
        "scaled by the median)",
        sum(kafka_walls) + kafka_median * (topics - kafka_topics),
        "s",
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--partitions", type=int, default=10_000)
    parser.add_argument("--topics", type=int, default=1000)
    parser.add_argument("--kafka-topics", type=int, default=None)
    args = parser.parse_args()
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_dist(NEWEST)
    with tempfile.TemporaryDirectory(prefix="kcli-bench-topic-tools-") as work:
        server: dict[str, Any] = {"auto.leader.rebalance.enable": "false"}
        with KafkaSandbox(
            home, Path(work) / "cluster", controllers=1, brokers=3, server_config=server
        ) as kafka:
            asyncio.run(_fill(kafka.bootstrap_servers, args.partitions))
            _log_dirs(home, kafka.bootstrap_servers, args.runs, args.partitions)
            _creates(home, kafka.bootstrap_servers, args.topics, args.kafka_topics or args.topics)


if __name__ == "__main__":
    main()
