"""docs/runbooks/add-brokers.md: a new broker takes a share of a topic's replicas, throttled, no throttle left."""

from __future__ import annotations

import json

from tests.runbooks.book import Book, Context, in_sync, no_throttles
from tests.runbooks.books.common import create_topic, plan_of

book = Book("add-brokers.md")
TOPIC = "clicks"


@book.setup
def _(ctx: Context) -> dict[str, str]:
    brokers = ctx.ids("BROKERS")
    # six partitions, two replicas each, spread over the brokers there are
    placement = [[brokers[p % len(brokers)], brokers[(p + 1) % len(brokers)]] for p in range(6)]
    create_topic(ctx, TOPIC, placement)
    return {"TOPIC": TOPIC, "NEW_BROKER": str(max(brokers) + 1)}


@book.check("Start the new broker")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    reader = ctx.reopen_reader()
    assert new in [n["id"] for n in reader.cluster()["nodes"]], f"broker {new} is not among the live brokers"
    held = [p for p, r in reader.replicas(TOPIC).items() if new in r]
    assert not held, f"the new broker already holds partitions {held}"


@book.check("Plan the move with minimal movement")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    plan = plan_of(ctx.work / "plan.json")
    current = ctx.reader.replicas(TOPIC)
    assert set(plan) == {(TOPIC, p) for p in current}, f"the plan covers {sorted(plan)}"
    moved_to = set()
    for (_, p), replicas in plan.items():
        assert len(replicas) == len(current[p]), f"{TOPIC}-{p}: replication factor changes to {replicas}"
        moved_to |= set(replicas) - set(current[p])
    assert moved_to == {new}, f"replicas move to {sorted(moved_to)}, not only to the new broker {new}"


@book.check("Execute under a throttle and wait")
def _(ctx: Context) -> None:
    plan = plan_of(ctx.work / "plan.json")
    reader = ctx.reader

    def done() -> None:
        assert not reader.reassignments(), f"reassignments still running: {reader.reassignments()}"
        replicas = reader.replicas(TOPIC)
        assert {p: replicas[p] for (_, p) in plan} == {p: r for (_, p), r in plan.items()}, (
            f"replicas {replicas} differ from the plan {plan}"
        )
        in_sync(reader, [TOPIC])

    ctx.eventually(done, what="the reassignment done and in sync")
    rollback = json.loads((ctx.work / "rollback.json").read_text())
    assert {(e["topic"], e["partition"]) for e in rollback["partitions"]} == set(plan)
    no_throttles(reader, [*ctx.ids("BROKERS"), ctx.int_var("NEW_BROKER")], [TOPIC])


@book.check("Verify")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_BROKER")
    replicas = ctx.reader.replicas(TOPIC)
    in_sync(ctx.reader, [TOPIC])
    share = sum(1 for r in replicas.values() if new in r)
    total = sum(len(r) for r in replicas.values())
    brokers = len(ctx.ids("BROKERS")) + 1
    assert share >= total // brokers, f"the new broker holds {share} of {total} replicas"


@book.check("Make sure no throttle is left")
def _(ctx: Context) -> None:
    no_throttles(ctx.reader, [*ctx.ids("BROKERS"), ctx.int_var("NEW_BROKER")], [TOPIC])
