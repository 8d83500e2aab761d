"""kcli's networked tools beside Kafka's own on the same real cluster: whole processes, medians, peak memory.

    python benchmarks/bench_tools_vs_kafka.py [--runs N]

A Kafka 4.4.0 cluster (one controller, three brokers, PLAINTEXT with the StandardAuthorizer, 20
topics of 6 partitions) is started by the sandbox's real-Kafka engine; each invocation below runs
as `bin/kafka-*.sh ...` (Kafka 4.4.0's tools, their scripts' JVM options) and as `kcli ...` with
the program name replaced, one fresh process per run (`--runs`, default 5), under /usr/bin/time
(benchmarks/bench_vs_kafka.py's `compare`: median wall, Kafka's as the baseline, peak RSS).
Both tools' output is checked to be non-empty and their exit to be 0 (a run that failed would
have done less work).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_vs_kafka import NEWEST, compare, kafka_dist  # noqa: E402

TOPICS, PARTITIONS = 20, 6


def invocations(bootstrap: str, files: Path) -> list[tuple[str, str, list[str]]]:
    """(what, tool script, arguments) of each invocation, as a runbook would write it."""
    topics_file = files / "topics.json"
    topics_file.write_text(
        json.dumps(
            {"version": 1, "topics": [{"topic": "sandbox-topic-00000"}, {"topic": "sandbox-topic-00001"}]}
        )
    )
    b = ["--bootstrap-server", bootstrap]
    return [
        ("cluster-id", "kafka-cluster", ["cluster-id", *b]),
        ("features describe", "kafka-features", [*b, "describe"]),
        ("metadata-quorum describe --status", "kafka-metadata-quorum", [*b, "describe", "--status"]),
        ("metadata-quorum describe --replication", "kafka-metadata-quorum", [*b, "describe", "--replication"]),
        ("configs --describe of broker 1", "kafka-configs", [*b, "--describe", "--entity-type", "brokers", "--entity-name", "1"]),
        ("configs --describe of every topic", "kafka-configs", [*b, "--describe", "--entity-type", "topics"]),
        ("acls --list", "kafka-acls", [*b, "--list"]),
        ("topics --describe", "kafka-topics", [*b, "--describe"]),
        (
            "reassign-partitions --generate",
            "kafka-reassign-partitions",
            [*b, "--topics-to-move-json-file", str(topics_file), "--broker-list", "1,2,3", "--generate"],
        ),
    ]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_dist(NEWEST)
    with tempfile.TemporaryDirectory(prefix="kcli-bench-tools-") as work:
        root = Path(work)
        with KafkaSandbox(
            home,
            root / "cluster",
            controllers=1,
            brokers=3,
            authorizer=True,
            topics=TOPICS,
            partitions=PARTITIONS,
        ) as kafka:
            acl = [str(home / "bin" / "kafka-acls.sh"), "--bootstrap-server", kafka.bootstrap_servers]
            # a few ACLs to list (what kcli's own run would add too)
            for topic in ("sandbox-topic-00000", "sandbox-topic-00001"):
                _run(
                    [
                        *acl,
                        "--add",
                        "--allow-principal",
                        "User:alice",
                        "--operation",
                        "Read",
                        "--topic",
                        topic,
                    ]
                )
            for what, tool, arguments in invocations(kafka.bootstrap_servers, root):
                kafka_argv = [str(home / "bin" / f"{tool}.sh"), *arguments]
                kcli_argv = [sys.executable, "-m", "kcli", tool.removeprefix("kafka-"), *arguments]
                compare(what, kafka_argv, kcli_argv, args.runs)


def _run(argv: list[str]) -> None:
    import subprocess

    subprocess.run(argv, check=True, capture_output=True, timeout=180)


if __name__ == "__main__":
    main()
