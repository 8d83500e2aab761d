"""docs/runbooks/move-replicas-between-log-dirs.md: a broker's replicas of a topic moved to one of its disks."""

from __future__ import annotations

from tests.runbooks.book import Book, Context, in_sync, no_throttles
from tests.runbooks.books.common import create_topic, plan_of

book = Book("move-replicas-between-log-dirs.md")
TOPIC = "metrics"
PARTITIONS = 4


def _placement(ctx: Context) -> list[list[int]]:
    """Every partition has a replica on the broker; the others spread over the rest."""
    brokers = ctx.ids("BROKERS")
    broker, others = brokers[0], brokers[1:]
    return [
        [broker, others[p % len(others)]] if p % 2 else [others[p % len(others)], broker]
        for p in range(PARTITIONS)
    ]


def _dirs(ctx: Context) -> dict[int, str | None]:
    return ctx.reader.log_dirs(TOPIC, ctx.int_var("BROKER"), PARTITIONS)


@book.setup
def _(ctx: Context) -> dict[str, str]:
    broker = ctx.ids("BROKERS")[0]
    create_topic(ctx, TOPIC, _placement(ctx))
    log_dirs = ctx.reader.configs("BROKER", str(broker))["log.dirs"]["value"].split(",")
    assert len(log_dirs) >= 2, f"broker {broker} has one log dir: {log_dirs}"
    where = ctx.reader.log_dirs(TOPIC, broker, PARTITIONS)
    # the dir that holds the fewest of the topic's replicas now: something has to move
    target = min(log_dirs, key=lambda d: (sum(1 for v in where.values() if v == d), d))
    assert any(v != target for v in where.values())
    return {"TOPIC": TOPIC, "BROKER": str(broker), "TO_DIR": target}


@book.check("See the broker's log dirs")
def _(ctx: Context) -> None:
    log_dirs = ctx.reader.configs("BROKER", ctx.var("BROKER"))["log.dirs"]["value"].split(",")
    assert ctx.var("TO_DIR") in log_dirs
    assert any(d != ctx.var("TO_DIR") for d in _dirs(ctx).values()), "nothing is left to move"


@book.check("Plan the move")
def _(ctx: Context) -> None:
    document = (ctx.work / "move.json").read_text()
    plan = plan_of(ctx.work / "move.json")
    current = ctx.reader.replicas(TOPIC)
    assert plan == {(TOPIC, p): r for p, r in current.items()}, (
        f"the plan moves replicas between brokers: {plan}"
    )
    import json

    broker, target = ctx.int_var("BROKER"), ctx.var("TO_DIR")
    for entry in json.loads(document)["partitions"]:
        placed = dict(zip(entry["replicas"], entry["log_dirs"], strict=True))
        assert placed[broker] == target and all(d == "any" for b, d in placed.items() if b != broker), entry


@book.check("Execute under a log-dir throttle and wait")
def _(ctx: Context) -> None:
    target = ctx.var("TO_DIR")
    dirs = _dirs(ctx)
    assert all(d == target for d in dirs.values()), (
        f"replicas of {TOPIC} on broker {ctx.var('BROKER')}: {dirs}"
    )
    futures = ctx.reader.admin.call(
        "describeReplicaLogDirs",
        replicas=[
            {"topic": TOPIC, "partition": p, "broker": ctx.int_var("BROKER")} for p in range(PARTITIONS)
        ],
    )
    left = [key for key, info in futures.items() if info.get("ok", {}).get("futureDir")]
    assert not left, f"copies still running: {left}"
    assert ctx.reader.replicas(TOPIC) == dict(enumerate(_placement(ctx)))
    in_sync(ctx.reader, [TOPIC])
    no_throttles(ctx.reader, ctx.ids("BROKERS"), [TOPIC])


@book.check("Verify")
def _(ctx: Context) -> None:
    assert all(d == ctx.var("TO_DIR") for d in _dirs(ctx).values())
    in_sync(ctx.reader, [TOPIC])
