"""docs/runbooks/rebalance-after-adding-brokers.md: a new broker takes its share of the bytes, not only of
the replicas; throttled copy with --wait; every moved partition led by its preferred replica after.

The topics' sizes are what the brokers report (DescribeLogDirs, read here through the Java
AdminClient): on real Kafka the records written by the setup, on the emulator its stable simulated
sizes (1-9 MiB a partition; it writes no records yet).
"""

from __future__ import annotations

import subprocess
from collections import Counter

from tests.runbooks.book import Book, Context, in_sync, no_throttles
from tests.runbooks.books.common import create_topic, plan_of

book = Book("rebalance-after-adding-brokers.md")
TOPICS = ("rebalance-big", "rebalance-small")
RECORDS = {"rebalance-big": 3000, "rebalance-small": 60}  # of 1000 bytes: a tenfold difference in size
PARTITIONS = 6


@book.setup
def _(ctx: Context) -> dict[str, str]:
    brokers = ctx.ids("BROKERS")
    for topic in TOPICS:
        placement = [[brokers[p % len(brokers)], brokers[(p + 1) % len(brokers)]] for p in range(PARTITIONS)]
        create_topic(ctx, topic, placement)
        if ctx.real:
            _produce(ctx, topic, RECORDS[topic])
    return {"TOPICS": ",".join(TOPICS), "NEW_BROKER": str(max(brokers) + 1)}


def _produce(ctx: Context, topic: str, records: int) -> None:
    """Records written by Kafka's own producer (kafka-producer-perf-test), as an application writes them."""
    done = subprocess.run(
        [
            "java", "-Xmx256M", "-cp", f"{ctx.kafka_home / 'libs'}/*",
            f"-Dlog4j2.configurationFile={ctx.kafka_home / 'config' / 'tools-log4j2.properties'}",
            "org.apache.kafka.tools.ProducerPerformance", "--bootstrap-server", ctx.var("B"),
            "--command-config", str(ctx.cluster.command_config), "--topic", topic,
            "--num-records", str(records), "--record-size", "1000", "--throughput", "-1",
        ],
        capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    assert done.returncode == 0, f"could not write records to {topic}: {done.stderr[-2000:]}"


def _sizes(ctx: Context, brokers: list[int]) -> dict[tuple[str, int], int]:
    """Each partition of TOPICS: the size of its largest current replica, as the brokers report it."""
    answer = ctx.reader.admin.call("describeLogDirs", brokers=brokers)
    sizes: dict[tuple[str, int], int] = {}
    for broker in brokers:
        dirs = answer[str(broker)]
        assert "ok" in dirs, f"describeLogDirs of broker {broker}: {dirs}"
        for d in dirs["ok"].values():
            for name, info in d["replicas"].items():
                topic, _, partition = name.rpartition("-")
                if topic in TOPICS and not info["isFuture"]:
                    key = (topic, int(partition))
                    sizes[key] = max(sizes.get(key, 0), int(info["size"]))
    return sizes


def _bytes_by_broker(
    placement: dict[tuple[str, int], list[int]], sizes: dict[tuple[str, int], int]
) -> Counter[int]:
    load: Counter[int] = Counter()
    for key, replicas in placement.items():
        for b in replicas:
            load[b] += sizes.get(key, 0)
    return load


@book.check("Start the new broker and see where the bytes are")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    reader = ctx.reopen_reader()
    assert new in [n["id"] for n in reader.cluster()["nodes"]], f"broker {new} is not among the live brokers"
    for topic in TOPICS:
        held = [p for p, r in reader.replicas(topic).items() if new in r]
        assert not held, f"the new broker already holds {topic} partitions {held}"
    rows = [
        line.split("│")[1].strip()
        for line in (ctx.work / "before.txt").read_text().splitlines()
        if "│" in line
    ]
    assert str(new) in rows, f"before.txt has no row for broker {new}: {rows}"


@book.check("Plan a move that balances bytes and counts")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    brokers = [*ctx.ids("BROKERS"), new]
    plan = plan_of(ctx.work / "plan.json")
    current = {(t, p): r for t in TOPICS for p, r in ctx.reader.replicas(t).items()}
    assert set(plan) == set(current), f"the plan covers {sorted(plan)}"
    for key, replicas in plan.items():
        assert len(replicas) == len(current[key]), f"{key}: replication factor changes to {replicas}"
    counts = Counter(b for r in plan.values() for b in r)
    assert set(counts) <= set(brokers) and max(counts.values()) - min(counts[b] for b in brokers) <= 1, counts
    sizes = _sizes(ctx, ctx.ids("BROKERS"))
    load = _bytes_by_broker(plan, sizes)
    mean = sum(load.values()) / len(brokers)
    assert load[new] >= 0.5 * mean, (
        f"the new broker would hold {load[new]} of a mean {mean:.0f} bytes: {load}"
    )
    assert max(load.values()) - min(load[b] for b in brokers) <= 0.1 * mean + max(sizes.values()), load
    assert ctx.reader.replicas(TOPICS[0]) == {p: r for (t, p), r in current.items() if t == TOPICS[0]}


@book.check("Copy under a throttle, wait, elect the preferred leaders")
def _(ctx: Context) -> None:
    plan = plan_of(ctx.work / "plan.json")
    reader = ctx.reader

    def done() -> None:
        assert not reader.reassignments(), f"reassignments still running: {reader.reassignments()}"
        for topic in TOPICS:
            replicas = reader.replicas(topic)
            assert {p: r for (t, p), r in plan.items() if t == topic} == replicas, f"{topic}: {replicas}"
        in_sync(reader, list(TOPICS))
        leaders = {
            (t, p["partition"]): p["leader"] for t, ps in reader.partitions(*TOPICS).items() for p in ps
        }
        off = {k: leader for k, leader in leaders.items() if leader != plan[k][0]}
        assert not off, f"partitions not led by their preferred replica: {off}"

    ctx.eventually(done, what="the move done, in sync, each partition led by its preferred replica")
    no_throttles(reader, [*ctx.ids("BROKERS"), ctx.int_var("NEW_BROKER")], list(TOPICS))


@book.check("See the bytes and leaders now")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    brokers = [*ctx.ids("BROKERS"), new]
    sizes = _sizes(ctx, brokers)
    held = _bytes_by_broker({(t, p): r for t in TOPICS for p, r in ctx.reader.replicas(t).items()}, sizes)
    assert held[new] >= 0.5 * sum(held.values()) / len(brokers), f"the new broker holds {held[new]}: {held}"
    assert "nothing to elect" in (ctx.work / "leaders.txt").read_text()
