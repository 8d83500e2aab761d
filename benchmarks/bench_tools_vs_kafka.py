"""kcli's networked tools beside Kafka's own on the same real cluster: whole processes, medians, peak memory.

    python benchmarks/bench_tools_vs_kafka.py [--runs N]

A Kafka 4.4.0 cluster (one controller, three brokers, PLAINTEXT with the StandardAuthorizer, 20
topics of 6 partitions, a committed, an aborted and an open transaction of confluent-kafka producers,
one client-metrics subscription) is started by the sandbox's real-Kafka engine, and for
delegation-tokens one SASL node with delegation.token.secret.key; each invocation below runs
as `bin/kafka-*.sh ...` (Kafka 4.4.0's tools, their scripts' JVM options; the JVM command such a script
runs for the tools scripts/kafka-dist.sh writes none of) and as `kcli ...` with
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
TRANSACTIONS = ("tx-committed", "tx-aborted", "tx-open")  # made by confluent-kafka producers first


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
        ("transactions list", "kafka-transactions", [*b, "list"]),
        ("transactions describe", "kafka-transactions", [*b, "describe", "--transactional-id", "tx-committed"]),
        (
            "transactions describe-producers",
            "kafka-transactions",
            [*b, "describe-producers", "--topic", "sandbox-topic-00000", "--partition", "0"],
        ),
        ("transactions find-hanging --broker-id 1", "kafka-transactions", [*b, "find-hanging", "--broker-id", "1"]),
        ("client-metrics --describe", "kafka-client-metrics", [*b, "--describe"]),
        ("broker-api-versions", "kafka-broker-api-versions", b),
    ]  # fmt: skip


def kafka_command(home: Path, tool: str) -> list[str]:
    """Kafka's bin/TOOL.sh, or for the tools scripts/kafka-dist.sh writes no script of, the JVM command such a
    script runs (the tools' heap, GC and log4j settings, the main class of tests/kafka_diff/tools.py)."""
    import os

    script = home / "bin" / f"{tool}.sh"
    if script.exists():
        return [str(script)]
    from tests.kafka_diff.tools import MAIN_CLASSES

    heap = os.environ.get("KAFKA_HEAP_OPTS", "-Xmx256M").split()
    return [
        "java", *heap, "-XX:+UseG1GC", "-XX:MaxGCPauseMillis=20",
        f"-Dlog4j2.configurationFile={home / 'config' / 'tools-log4j2.properties'}",
        "-cp", f"{home / 'libs'}/*", MAIN_CLASSES[tool.removeprefix("kafka-")],
    ]  # fmt: skip


def make_transactions(bootstrap: str, settings: dict[str, str] | None = None) -> None:
    """A committed, an aborted and an open transaction on sandbox-topic-00000 (confluent-kafka producers)."""
    from confluent_kafka import Producer

    for transactional_id in TRANSACTIONS:
        producer = Producer(
            {"bootstrap.servers": bootstrap, "transactional.id": transactional_id, **(settings or {})}
        )
        producer.init_transactions(60)
        producer.begin_transaction()
        for index in range(PARTITIONS):
            producer.produce("sandbox-topic-00000", value=b"v", partition=index)
        producer.flush(60)
        if transactional_id == "tx-committed":
            producer.commit_transaction(60)
        elif transactional_id == "tx-aborted":
            producer.abort_transaction(60)


def token_invocations(home: Path, root: Path, runs: int) -> None:
    """delegation-tokens --describe: a SASL node with delegation.token.secret.key (one token to describe)."""
    from kcli.sandbox.kafka.handle import KafkaSandbox

    with KafkaSandbox(
        home, root / "tokens", controllers=1, brokers=1, combined=True, security="sasl_plaintext",
        server_config={"delegation.token.secret.key": "bench-secret"},
    ) as kafka:  # fmt: skip
        config = kafka.command_config()
        b = ["--bootstrap-server", kafka.bootstrap_servers, "--command-config", str(config)]
        tool = kafka_command(home, "kafka-delegation-tokens")
        _run([*tool, *b, "--create", "--max-life-time-period", "-1", "--renewer-principal", "User:alice"])
        arguments = [*b, "--describe", "--owner-principal", "User:admin"]
        kcli_argv = [sys.executable, "-m", "kcli", "delegation-tokens", *arguments]
        compare("delegation-tokens --describe", [*tool, *arguments], kcli_argv, runs)


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
            make_transactions(kafka.bootstrap_servers)
            metrics = kafka_command(home, "kafka-client-metrics")
            _run([*metrics, "--bootstrap-server", kafka.bootstrap_servers, "--alter", "--name", "basic",
                  "--metrics", "org.apache.kafka.producer.", "--interval", "5000"])  # fmt: skip
            for what, tool, arguments in invocations(kafka.bootstrap_servers, root):
                kafka_argv = [*kafka_command(home, tool), *arguments]
                kcli_argv = [sys.executable, "-m", "kcli", tool.removeprefix("kafka-"), *arguments]
                compare(what, kafka_argv, kcli_argv, args.runs)
        token_invocations(home, root, args.runs)


def _run(argv: list[str]) -> None:
    import subprocess

    subprocess.run(argv, check=True, capture_output=True, timeout=180)


if __name__ == "__main__":
    main()
