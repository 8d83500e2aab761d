"""kcli's networked tools beside Kafka's own on the same real clusters: whole processes, medians, peak memory.

    python benchmarks/bench_tools_vs_kafka.py [--runs N] [--security plaintext,sasl_ssl]

For each security protocol (both by default) a Kafka 4.4.0 cluster (one controller, three brokers,
the StandardAuthorizer, 20 topics of 6 partitions) is started by the sandbox's real-Kafka engine: a
PLAINTEXT one and a SASL_SSL one (SASL/PLAIN over TLS, the sandbox's CA, every tool given the same
--command-config file). Setup, not measured: two ACLs, a committed, an aborted and an open
transaction of confluent-kafka producers, a consumer group with committed offsets and no members
(300 records produced, 100 consumed and committed by a confluent-kafka consumer, as an application
that stopped leaves it), one client-metrics subscription and, on SASL_SSL, one delegation token.
Each invocation below runs as `bin/kafka-*.sh ...` (Kafka 4.4.0's tools, their scripts' JVM options;
the JVM command such a script runs for the tools scripts/kafka-dist.sh writes none of) and as the
`kcli` program beside this interpreter with the same arguments, one fresh process per run (`--runs`,
default 9), interleaved, under /usr/bin/time (benchmarks/bench_vs_kafka.py's `compare`: median wall,
Kafka's as the baseline, peak RSS; the target is 10x). Both tools' output is checked to be non-empty
and their exit to be 0 (a run that failed would have done less work).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_vs_kafka import NEWEST, compare, kafka_dist, kcli_command  # noqa: E402

TOPICS, PARTITIONS = 20, 6
TRANSACTIONS = ("tx-committed", "tx-aborted", "tx-open")  # made by confluent-kafka producers first
GROUP, GROUP_TOPIC = "bench-group", "sandbox-topic-00001"  # a group with committed offsets, no members
SECURITIES = ("plaintext", "sasl_ssl")


def invocations(bootstrap: str, files: Path, connection: list[str]) -> list[tuple[str, str, list[str]]]:
    """(what, tool script, arguments) of each invocation, as a runbook would write it."""
    topics_file = files / "topics.json"
    topics_file.write_text(
        json.dumps(
            {"version": 1, "topics": [{"topic": "sandbox-topic-00000"}, {"topic": "sandbox-topic-00001"}]}
        )
    )
    b = ["--bootstrap-server", bootstrap, *connection]
    return [
        ("cluster-id", "kafka-cluster", ["cluster-id", *b]),
        ("features describe", "kafka-features", [*b, "describe"]),
        ("metadata-quorum describe --status", "kafka-metadata-quorum", [*b, "describe", "--status"]),
        ("metadata-quorum describe --replication", "kafka-metadata-quorum", [*b, "describe", "--replication"]),
        ("configs --describe of broker 1", "kafka-configs", [*b, "--describe", "--entity-type", "brokers", "--entity-name", "1"]),
        ("configs --describe of every topic", "kafka-configs", [*b, "--describe", "--entity-type", "topics"]),
        ("acls --list", "kafka-acls", [*b, "--list"]),
        ("topics --list", "kafka-topics", [*b, "--list"]),
        ("topics --describe", "kafka-topics", [*b, "--describe"]),
        (
            "reassign-partitions --generate",
            "kafka-reassign-partitions",
            [*b, "--topics-to-move-json-file", str(topics_file), "--broker-list", "1,2,3", "--generate"],
        ),
        ("consumer-groups --list", "kafka-consumer-groups", [*b, "--list"]),
        ("consumer-groups --describe --group", "kafka-consumer-groups", [*b, "--describe", "--group", GROUP]),
        ("consumer-groups --describe --state", "kafka-consumer-groups", [*b, "--describe", "--group", GROUP, "--state"]),
        (
            "consumer-groups --reset-offsets --dry-run",
            "kafka-consumer-groups",
            [*b, "--reset-offsets", "--group", GROUP, "--topic", GROUP_TOPIC, "--to-earliest", "--dry-run"],
        ),
        ("groups --list", "kafka-groups", [*b, "--list"]),
        ("get-offsets --topic", "kafka-get-offsets", [*b, "--topic", GROUP_TOPIC]),
        ("log-dirs --describe", "kafka-log-dirs", [*b, "--describe"]),
        (
            "leader-election --election-type preferred",
            "kafka-leader-election",
            [*b, "--election-type", "preferred", "--topic", "sandbox-topic-00000", "--partition", "0"],
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


def make_transactions(bootstrap: str, settings: dict[str, Any]) -> None:
    """A committed, an aborted and an open transaction on sandbox-topic-00000 (confluent-kafka producers)."""
    from confluent_kafka import Producer

    for transactional_id in TRANSACTIONS:
        producer = Producer(
            {"bootstrap.servers": bootstrap, "transactional.id": transactional_id, **settings}
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


def make_group(bootstrap: str, settings: dict[str, Any]) -> None:
    """GROUP: 300 records on GROUP_TOPIC, 100 of them consumed and committed, then the consumer leaves."""
    import time

    from confluent_kafka import Consumer, Producer

    producer = Producer({"bootstrap.servers": bootstrap, **settings})
    for index in range(300):
        producer.produce(GROUP_TOPIC, value=b"record %d" % index, partition=index % PARTITIONS)
    if producer.flush(60):
        raise SystemExit("the group's records were not all written in 60 s")
    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": GROUP, "auto.offset.reset": "earliest",
         "enable.auto.commit": False, **settings}
    )  # fmt: skip
    consumer.subscribe([GROUP_TOPIC])
    consumed, deadline = 0, time.monotonic() + 60
    while consumed < 100 and time.monotonic() < deadline:
        message = consumer.poll(1.0)
        if message is not None and message.error() is None:
            consumed += 1
    if consumed < 100:
        raise SystemExit(f"the group's consumer read {consumed} of 100 records in 60 s")
    consumer.commit(asynchronous=False)
    consumer.close()


def setup(home: Path, kafka: Any, connection: list[str], sasl: bool) -> None:
    """What the invocations read: ACLs, transactions, a group, a client-metrics subscription, a token."""
    from tests.kafka_diff.librdkafka import librdkafka_settings

    b = ["--bootstrap-server", kafka.bootstrap_servers, *connection]
    for topic in ("sandbox-topic-00000", "sandbox-topic-00001"):
        _run([*kafka_command(home, "kafka-acls"), *b, "--add", "--allow-principal", "User:alice",
              "--operation", "Read", "--topic", topic])  # fmt: skip
    settings = librdkafka_settings(kafka.client_settings())
    make_transactions(kafka.bootstrap_servers, settings)
    make_group(kafka.bootstrap_servers, settings)
    _run([*kafka_command(home, "kafka-client-metrics"), *b, "--alter", "--name", "basic",
          "--metrics", "org.apache.kafka.producer.", "--interval", "5000"])  # fmt: skip
    if sasl:
        _run([*kafka_command(home, "kafka-delegation-tokens"), *b, "--create",
              "--max-life-time-period", "-1", "--renewer-principal", "User:alice"])  # fmt: skip


def bench_cluster(home: Path, root: Path, security: str, runs: int) -> None:
    from kcli.sandbox.kafka.handle import KafkaSandbox

    sasl = security != "plaintext"
    with KafkaSandbox(
        home, root / security, controllers=1, brokers=3, authorizer=True, topics=TOPICS,
        partitions=PARTITIONS, security=security,
        server_config={"delegation.token.secret.key": "bench-secret"} if sasl else None,
    ) as kafka:  # fmt: skip
        connection = ["--command-config", str(kafka.command_config())] if sasl else []
        setup(home, kafka, connection, sasl)
        rows = invocations(kafka.bootstrap_servers, root, connection)
        if sasl:
            b = ["--bootstrap-server", kafka.bootstrap_servers, *connection]
            rows.append(("delegation-tokens --describe", "kafka-delegation-tokens",
                         [*b, "--describe", "--owner-principal", "User:admin"]))  # fmt: skip
        label = security.upper()
        for what, tool, arguments in rows:
            kafka_argv = [*kafka_command(home, tool), *arguments]
            kcli_argv = [*kcli_command(), tool.removeprefix("kafka-"), *arguments]
            compare(f"{label} {what}", kafka_argv, kcli_argv, runs, speed_target=">= 10")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument(
        "--security", default=",".join(SECURITIES), help="comma-separated: plaintext, sasl_ssl"
    )
    args = parser.parse_args()
    securities = [name.strip().lower() for name in args.security.split(",") if name.strip()]
    unknown = sorted(set(securities) - set(SECURITIES))
    if unknown:
        parser.error(f"unknown --security {', '.join(unknown)}: choose from {', '.join(SECURITIES)}")
    home = kafka_dist(NEWEST)
    with tempfile.TemporaryDirectory(prefix="kcli-bench-tools-") as work:
        for security in securities:
            bench_cluster(home, Path(work), security, args.runs)


def _run(argv: list[str]) -> None:
    import subprocess

    subprocess.run(argv, check=True, capture_output=True, timeout=180)


if __name__ == "__main__":
    main()
