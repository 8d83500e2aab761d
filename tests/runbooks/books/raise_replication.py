"""docs/runbooks/raise-replication-factor.md: a one-replica topic gets three, its leaders kept."""

from __future__ import annotations

from tests.runbooks.book import Book, Context, in_sync, no_throttles
from tests.runbooks.books.common import create_topic, plan_of

book = Book("raise-replication-factor.md")
TOPIC = "audit-log"
REPLICATION_FACTOR = 3


def _leaders_before(ctx: Context) -> dict[int, int]:
    brokers = ctx.ids("BROKERS")
    return {p: brokers[p % len(brokers)] for p in range(3)}


@book.setup
def _(ctx: Context) -> dict[str, str]:
    create_topic(ctx, TOPIC, [[leader] for leader in _leaders_before(ctx).values()])
    return {"TOPIC": TOPIC, "REPLICATION_FACTOR": str(REPLICATION_FACTOR)}


@book.check("See the topic's replicas")
def _(ctx: Context) -> None:
    replicas = ctx.reader.replicas(TOPIC)
    assert replicas == {p: [leader] for p, leader in _leaders_before(ctx).items()}, replicas
    in_sync(ctx.reader, [TOPIC])


@book.check("Plan the new replicas")
def _(ctx: Context) -> None:
    plan = plan_of(ctx.work / "raise.json")
    for p, leader in _leaders_before(ctx).items():
        replicas = plan[(TOPIC, p)]
        assert len(set(replicas)) == len(replicas) == REPLICATION_FACTOR, f"{TOPIC}-{p}: {replicas}"
        assert replicas[0] == leader, f"{TOPIC}-{p}: {replicas} does not keep {leader} first"
        assert set(replicas) <= set(ctx.ids("BROKERS"))
    assert ctx.reader.replicas(TOPIC) == {p: [leader] for p, leader in _leaders_before(ctx).items()}


def _raised(ctx: Context) -> None:
    plan = plan_of(ctx.work / "raise.json")
    reader = ctx.reader

    def done() -> None:
        assert not reader.reassignments(), f"reassignments still running: {reader.reassignments()}"
        assert reader.replicas(TOPIC) == {p: r for (_, p), r in plan.items()}
        in_sync(reader, [TOPIC])

    ctx.eventually(done, what=f"{TOPIC} at replication factor {REPLICATION_FACTOR}, in sync")
    leaders = {p["partition"]: p["leader"] for p in reader.partitions(TOPIC)[TOPIC]}
    assert leaders == _leaders_before(ctx), f"leaders moved: {leaders}"
    no_throttles(reader, ctx.ids("BROKERS"), [TOPIC])


@book.check("Execute and wait")
def _(ctx: Context) -> None:
    _raised(ctx)


@book.check("Confirm the topic's new replication factor")
def _(ctx: Context) -> None:
    _raised(ctx)
