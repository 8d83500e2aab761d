"""kcli consumer-groups --describe beside Kafka's kafka-consumer-groups.sh on the same real cluster: whole processes.

    python benchmarks/bench_group_tools.py [--runs N] [--partitions P] [--groups G] [--records R]

A Kafka 4.4.0 cluster (one controller, three brokers, PLAINTEXT, loopback, the sandbox's small node
heap) is started by the sandbox's real-Kafka engine. Setup, not measured, all through librdkafka
(confluent-kafka), a client as applications run it:
- one topic of P partitions (default 1,000; one replica each, spread over the brokers), R records
  written to each (default 100);
- group `bench-big` with an offset committed on every one of the P partitions (lag 0 to 9);
- G - 1 more groups (default 1,000 in all), each with offsets committed on 3 of the partitions (lag R/2).
The offsets are committed by AlterConsumerGroupOffsets (OffsetCommit with no generation, as a
standalone consumer's commit is): the groups are Empty with committed offsets, what a stopped
application leaves behind, and they are spread over the coordinators of __consumer_offsets.
Then, one fresh process per run (`--runs`, default 9), Kafka's and kcli's runs interleaved, under
/usr/bin/time (benchmarks/bench_vs_kafka.py's `compare`: median wall, Kafka's as the baseline, peak RSS):
- `consumer-groups --describe --group bench-big` (P rows);
- `consumer-groups --describe --all-groups` (G groups, P + 3(G - 1) rows).
Before each is timed, both tools' outputs are checked to hold the same rows (as sets of lines: Kafka's
tool prints groups and partitions in HashMap order) and as many as were committed. The cluster is
stopped on exit, on Ctrl-C and on SIGTERM.
"""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn, TypeVar

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO))

from benchmarks.bench_vs_kafka import NEWEST, compare, kafka_dist  # noqa: E402

TOPIC, BIG_GROUP = "bench-groups", "bench-big"
SMALL_GROUP_PARTITIONS = 3
LINE = "kafka-consumer-groups.sh / kcli consumer-groups --bootstrap-server B"  # B: the 3 brokers
DEADLINE_S = 600.0
T = TypeVar("T")


def _make_topic(bootstrap: str, partitions: int, records: int) -> None:
    """The topic, a leader for every partition, and `records` records in each (flushed, acknowledged)."""
    from confluent_kafka import KafkaException, Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 0})
    admin.create_topics([NewTopic(TOPIC, partitions, 1)], request_timeout=120)[TOPIC].result(timeout=180)
    deadline = time.monotonic() + DEADLINE_S
    while time.monotonic() < deadline:
        try:
            described = admin.list_topics(TOPIC, timeout=30).topics[TOPIC]
        except KafkaException:
            described = None
        if described is not None and described.error is None:
            led = sum(1 for p in described.partitions.values() if p.leader >= 0)
            if led == partitions:
                break
        time.sleep(1)
    else:
        raise SystemExit(
            f"{TOPIC}'s {partitions:,} partitions did not all get a leader within {DEADLINE_S:.0f} s"
        )
    failed: list[str] = []
    producer = Producer({"bootstrap.servers": bootstrap, "linger.ms": 20, "acks": "all", "log_level": 0})

    def delivered(error: Any, _message: Any) -> None:
        if error is not None:
            failed.append(str(error))

    for partition in range(partitions):
        for index in range(records):
            producer.produce(TOPIC, value=b"record %d" % index, partition=partition, on_delivery=delivered)
            producer.poll(0)
    if producer.flush(DEADLINE_S) or failed:
        raise SystemExit(
            f"producing the benchmark's records failed: {failed[:1] or 'not all delivered in time'}"
        )


def _commit_groups(bootstrap: str, partitions: int, groups: int, records: int) -> dict[str, int]:
    """The committed offsets of the module doc; returns the partitions committed, by group."""
    from confluent_kafka import ConsumerGroupTopicPartitions, TopicPartition
    from confluent_kafka.admin import AdminClient

    wanted = {BIG_GROUP: [TopicPartition(TOPIC, p, records - p % 10) for p in range(partitions)]}
    for index in range(groups - 1):
        first = index * SMALL_GROUP_PARTITIONS
        wanted[f"bench-group-{index:04d}"] = [
            TopicPartition(TOPIC, (first + k) % partitions, records // 2)
            for k in range(SMALL_GROUP_PARTITIONS)
        ]
    admin = AdminClient({"bootstrap.servers": bootstrap, "log_level": 0})
    left, deadline = dict(wanted), time.monotonic() + DEADLINE_S
    while left:  # a coordinator still loading its partition of __consumer_offsets answers "retry"
        if time.monotonic() > deadline:
            raise SystemExit(f"{len(left):,} groups' offsets were not committed within {DEADLINE_S:.0f} s")
        pending = {}
        for group, offsets in left.items():  # one group per call (librdkafka's limit); all in flight
            request = [ConsumerGroupTopicPartitions(group, offsets)]
            pending.update(admin.alter_consumer_group_offsets(request, request_timeout=120))
        retry = {}
        for group, future in pending.items():
            errors = _commit_errors(future)
            if any(not _retriable(error) for error in errors):
                raise SystemExit(f"committing {group}'s offsets failed: {errors[0]}")
            if errors:
                retry[group] = left[group]
        left = retry
        time.sleep(1 if left else 0)
    return {group: len(offsets) for group, offsets in wanted.items()}


def _retriable(error: Any) -> bool:
    """What a consumer's commit retries: librdkafka's retriable errors and a coordinator moving or loading."""
    from confluent_kafka import KafkaError

    moving = (
        KafkaError.NOT_COORDINATOR,
        KafkaError.COORDINATOR_NOT_AVAILABLE,
        KafkaError.COORDINATOR_LOAD_IN_PROGRESS,
    )
    return bool(error.retriable()) or error.code() in moving


def _commit_errors(future: Any) -> list[Any]:
    """The KafkaErrors of one group's commit: of the whole request, or of its partitions."""
    from confluent_kafka import KafkaException

    try:
        result = future.result(timeout=DEADLINE_S)
    except KafkaException as error:
        return [error.args[0]]
    return [tp.error for tp in result.topic_partitions if tp.error is not None]


def _rows(argv: list[str]) -> Counter[tuple[str, ...]]:
    """Every non-blank line of a tool's output, split into its columns (the padding is each tool's own)."""
    done = subprocess.run(argv, capture_output=True, text=True, timeout=DEADLINE_S, check=False)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv[:4])} ... exited {done.returncode}: {done.stderr[-800:]}")
    return Counter(tuple(line.split()) for line in done.stdout.splitlines() if line.strip())


def _same_rows(what: str, kafka: list[str], kcli: list[str], committed: dict[str, int]) -> None:
    """Both tools print the same lines, and a row for every committed offset: the figures compare the same work."""
    theirs, ours = _rows(kafka), _rows(kcli)
    if theirs != ours:
        only = list((theirs - ours).elements())[:3], list((ours - theirs).elements())[:3]
        raise SystemExit(
            f"{what}: kcli's output differs from Kafka's tool's on this cluster: lines only Kafka's tool "
            f"printed {only[0]}, only kcli {only[1]}"
        )
    rows = sum(1 for line in theirs.elements() if len(line) > 1 and line[0] in committed and line[1] == TOPIC)
    if rows != sum(committed.values()):
        raise SystemExit(
            f"{what}: Kafka's tool printed {rows:,} offset rows, {sum(committed.values()):,} were committed"
        )


def _describe(home: Path, bootstrap: str, runs: int, committed: dict[str, int]) -> None:
    tool = [str(home / "bin" / "kafka-consumer-groups.sh")]
    kcli = [sys.executable, "-m", "kcli", "consumer-groups"]
    partitions = committed[BIG_GROUP]
    cases = [
        (
            f"{LINE} --describe --group {BIG_GROUP} (one group over {partitions:,} partitions)",
            ["--bootstrap-server", bootstrap, "--describe", "--group", BIG_GROUP],
            {BIG_GROUP: partitions},
        ),
        (
            f"{LINE} --describe --all-groups ({len(committed):,} groups, "
            f"{sum(committed.values()):,} partitions' offsets)",
            ["--bootstrap-server", bootstrap, "--describe", "--all-groups"],
            committed,
        ),
    ]
    for what, arguments, expected in cases:
        _same_rows(what, [*tool, *arguments], [*kcli, *arguments], expected)
        compare(what, [*tool, *arguments], [*kcli, *arguments], runs, speed_target=">= 10")


def _setup(what: str, step: Callable[..., T], *args: Any) -> T:
    started = time.monotonic()
    done = step(*args)
    print(f"setup: {what} ({time.monotonic() - started:.1f} s)", flush=True)
    return done


def _stop_on_sigterm() -> None:
    def stop(signum: int, _frame: Any) -> NoReturn:
        raise SystemExit(128 + signum)  # unwinds through KafkaSandbox's `with`, which stops the nodes

    signal.signal(signal.SIGTERM, stop)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--partitions", type=int, default=1000)
    parser.add_argument("--groups", type=int, default=1000, help="groups in all, the big one included")
    parser.add_argument("--records", type=int, default=100, help="records per partition")
    args = parser.parse_args()
    if args.records < 10 or args.groups < 1 or args.partitions < 1:
        parser.error("needs --records >= 10 (the committed offsets), --groups >= 1 and --partitions >= 1")
    _stop_on_sigterm()
    from kcli.sandbox.kafka.handle import KafkaSandbox

    home = kafka_dist(NEWEST)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="kcli-bench-group-tools-") as work:
        server = {"auto.leader.rebalance.enable": "false"}
        try:
            with KafkaSandbox(
                home, Path(work) / "cluster", controllers=1, brokers=3, server_config=server
            ) as kafka:
                print(f"setup: the cluster ({time.monotonic() - started:.1f} s)", flush=True)
                bootstrap = kafka.bootstrap_servers
                _setup(f"{TOPIC}: {args.partitions:,} partitions, {args.records} records each", _make_topic,
                       bootstrap, args.partitions, args.records)  # fmt: skip
                committed = _setup(f"{args.groups:,} groups' offsets", _commit_groups,
                                   bootstrap, args.partitions, args.groups, args.records)  # fmt: skip
                _describe(home, bootstrap, args.runs, committed)
        except KeyboardInterrupt:
            raise SystemExit(
                "interrupted: the benchmark's Kafka nodes are stopped and its files removed"
            ) from None


if __name__ == "__main__":
    main()
