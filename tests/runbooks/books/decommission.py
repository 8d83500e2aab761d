"""docs/runbooks/decommission-broker.md: a broker drained of every replica, stopped and unregistered.

The last check reads the registered brokers with Kafka's own kafka-cluster.sh (the Java AdminClient
lists no fenced broker).
"""

from __future__ import annotations

from tests.kafka_tools import kafka_tool
from tests.runbooks.book import Book, Context, in_sync, no_throttles
from tests.runbooks.books.common import plan_of

book = Book("decommission-broker.md")


@book.setup
def _(ctx: Context) -> dict[str, str]:
    brokers = ctx.ids("BROKERS")
    broker = brokers[0]
    remaining = [b for b in brokers if b != broker]
    highest = max(len(p["replicas"]) for parts in ctx.reader.all_partitions().values() for p in parts)
    assert len(remaining) >= highest, f"{remaining} cannot hold replication factor {highest}"
    return {"BROKER": str(broker), "REMAINING": ",".join(map(str, remaining))}


def _on_broker(ctx: Context) -> list[str]:
    broker = ctx.int_var("BROKER")
    return [
        f"{topic}-{p['partition']}"
        for topic, parts in ctx.reader.all_partitions().items()
        for p in parts
        if broker in p["replicas"] or p["leader"] == broker
    ]


@book.check("List every topic")
def _(ctx: Context) -> None:
    import json

    named = [t["topic"] for t in json.loads((ctx.work / "topics.json").read_text())["topics"]]
    assert sorted(named) == sorted(ctx.reader.topics()), f"topics.json names {named}"


@book.check("Plan the drain")
def _(ctx: Context) -> None:
    broker = ctx.int_var("BROKER")
    plan = plan_of(ctx.work / "drain.json")
    current = {
        (t, p["partition"]): p["replicas"] for t, parts in ctx.reader.all_partitions().items() for p in parts
    }
    assert set(plan) == set(current), "drain.json does not cover every partition"
    for tp, replicas in plan.items():
        assert broker not in replicas, f"{tp} keeps a replica on {broker}: {replicas}"
        assert len(replicas) == len(current[tp]), (
            f"{tp}: replication factor {len(current[tp])} -> {len(replicas)}"
        )
    assert _on_broker(ctx), "the broker held nothing to drain"


@book.check("Execute under a throttle and wait")
def _(ctx: Context) -> None:
    plan = plan_of(ctx.work / "drain.json")
    reader = ctx.reader

    def drained() -> None:
        assert not reader.reassignments(), f"reassignments still running: {reader.reassignments()}"
        current = {
            (t, p["partition"]): p["replicas"] for t, parts in reader.all_partitions().items() for p in parts
        }
        assert current == plan, "the replicas differ from drain.json"
        in_sync(reader, reader.topics())

    ctx.eventually(drained, what="the drain done and in sync")
    no_throttles(reader, ctx.ids("BROKERS"), ctx.reader.topics())


@book.check("Make sure the broker holds and leads nothing")
def _(ctx: Context) -> None:
    left = _on_broker(ctx)
    assert not left, f"partitions still on broker {ctx.var('BROKER')}: {left}"


@book.check("Stop the broker")
def _(ctx: Context) -> None:
    broker = ctx.int_var("BROKER")
    node = next(n for n in ctx.cluster.status()["nodes"] if n["id"] == broker)
    assert not node["running"], f"broker {broker} still runs"
    reader = ctx.reopen_reader()
    assert broker not in [n["id"] for n in reader.cluster()["nodes"]], f"broker {broker} is still live"
    in_sync(reader, reader.topics())


@book.check("Unregister it")
def _(ctx: Context) -> None:
    broker = ctx.int_var("BROKER")
    listed = kafka_tool(
        ctx.kafka_home, "kafka-cluster.sh", "list-endpoints", "--bootstrap-server", ctx.var("B"),
        "--command-config", str(ctx.cluster.command_config), "--include-fenced-brokers",
    ).stdout  # fmt: skip
    ids = [line.split()[0] for line in listed.splitlines()[1:] if line.strip()]
    assert str(broker) not in ids, f"kafka-cluster.sh still lists broker {broker}:\n{listed}"
    assert ids, f"kafka-cluster.sh lists no broker:\n{listed}"
