"""Produce and consume throughput of Kafka's Java client against the emulator, beside the same client
against real Kafka 4.4.0 in the same run (records/s).

The client is tests/dataplane/java/ClientPeer.java (kafka-clients 3.9 of the test extra): for each
codec it produces RECORDS records of VALUE_BYTES with acks=all and idempotence on, round-robin over
PARTITIONS partitions of a topic with three replicas, then reads them all back from the beginning;
the figures are its own produce and consume seconds (JVM start excluded, measured inside the
process). Both clusters have one controller and three brokers on loopback; real Kafka runs from the
distribution scripts/kafka-dist.sh assembles (~/.cache/kcli/kafka/kafka-4.4.0), with a small heap.

    python benchmarks/bench_dataplane.py [--records 50000] [--codecs none,lz4]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _create(bootstrap: str, names: list[str], partitions: int) -> None:
    from kafka.admin import KafkaAdminClient, NewTopic

    client = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30_000)
    try:
        client.create_topics([NewTopic(name, partitions, 3) for name in names])
    finally:
        client.close()


def _measure(label: str, bootstrap: str, classes: Path, args: argparse.Namespace) -> list[dict[str, object]]:
    from tests.dataplane.java import run_client

    names = [f"bench-{codec}" for codec in args.codecs]
    _create(bootstrap, names, args.partitions)
    topics = [(name, args.partitions, codec) for name, codec in zip(names, args.codecs, strict=True)]
    rows = run_client(classes, bootstrap, topics, records=args.records, value_bytes=args.value_bytes)
    for row in rows:
        row["cluster"] = label
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=50_000)
    parser.add_argument("--value-bytes", type=int, default=100)
    parser.add_argument("--partitions", type=int, default=3)
    parser.add_argument("--codecs", type=lambda text: text.split(","), default=["none", "lz4", "zstd"])
    parser.add_argument("--kafka-home", type=Path, default=Path.home() / ".cache/kcli/kafka/kafka-4.4.0")
    parser.add_argument(
        "--real-bootstrap", help="a running real Kafka 4.4.0 cluster's brokers (else one is started)"
    )
    args = parser.parse_args()
    os.environ.setdefault("KAFKA_HEAP_OPTS", "-Xms256m -Xmx512m")

    from kcli.sandbox.emulator.handle import Sandbox
    from kcli.sandbox.kafka.handle import KafkaSandbox
    from tests.dataplane.java import compile_client

    work = Path(tempfile.mkdtemp(prefix="kcli-bench-dataplane-"))
    classes = compile_client(work / "classes")
    rows: list[dict[str, object]] = []
    with Sandbox(directory=work / "emulator", controllers=1, brokers=3) as sandbox:
        rows += _measure("emulator", sandbox.bootstrap_servers, classes, args)
    if args.real_bootstrap:
        rows += _measure("kafka 4.4.0", args.real_bootstrap, classes, args)
    else:
        with KafkaSandbox(args.kafka_home, work / "kafka", controllers=1, brokers=3) as kafka:
            rows += _measure("kafka 4.4.0", kafka.bootstrap_servers, classes, args)
    print(f"{args.records} records of {args.value_bytes} B, {args.partitions} partitions x 3 replicas, "
          "acks=all, idempotent; Java client (kafka-clients 3.9)")  # fmt: skip
    print(
        f"{'cluster':<12} {'codec':<6} {'produce rec/s':>14} {'consume rec/s':>14} {'acked':>7} {'read':>7}"
    )
    for row in rows:
        produce = args.records / float(row["produce_seconds"])  # type: ignore[arg-type]
        consume = args.records / float(row["consume_seconds"])  # type: ignore[arg-type]
        print(f"{row['cluster']!s:<12} {row['codec']!s:<6} {produce:>14,.0f} {consume:>14,.0f} "
              f"{row['acked']!s:>7} {row['consumed']!s:>7}")  # fmt: skip


if __name__ == "__main__":
    main()
