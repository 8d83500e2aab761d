"""docs/runbooks/replace-controller.md: the active controller replaced by a new one, the quorum kept.

The quorum is read through the Java AdminClient (DescribeMetadataQuorum, through the brokers). Runs
last: afterwards the nodes' controller.quorum.bootstrap.servers still name the stopped controller.
"""

from __future__ import annotations

from typing import Any

from tests.runbooks.book import Book, Context
from tests.runbooks.books.common import create_topic

book = Book("replace-controller.md")


def _quorum(ctx: Context) -> dict[str, Any]:
    quorum: dict[str, Any] = ctx.reader.quorum()
    return quorum


def _voters(quorum: dict[str, Any]) -> set[int]:
    return {v["replicaId"] for v in quorum["voters"]}


@book.setup
def _(ctx: Context) -> dict[str, str]:
    quorum = _quorum(ctx)
    old = quorum["leaderId"]  # the hardest one to replace: it leads
    controllers = ctx.ids("CONTROLLERS")
    return {"OLD_CONTROLLER": str(old), "NEW_CONTROLLER": str(max(controllers) + 1)}


@book.check("Look at the quorum")
def _(ctx: Context) -> None:
    quorum = _quorum(ctx)
    assert ctx.int_var("OLD_CONTROLLER") in _voters(quorum)
    assert quorum["leaderId"] >= 0


@book.check("Start the new controller as an observer")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_CONTROLLER")

    def observing() -> None:
        quorum = _quorum(ctx)
        assert new in {o["replicaId"] for o in quorum["observers"]}, (
            f"{new} is no observer: {quorum['observers']}"
        )
        assert new not in _voters(quorum)

    ctx.eventually(observing, what=f"controller {new} fetching as an observer")


@book.check("Make it a voter")
def _(ctx: Context) -> None:
    new = ctx.int_var("NEW_CONTROLLER")

    def voting() -> None:
        quorum = _quorum(ctx)
        assert new in _voters(quorum), f"voters {_voters(quorum)}"
        caught_up = {v["replicaId"]: v["logEndOffset"] >= quorum["highWatermark"] for v in quorum["voters"]}
        assert caught_up[new], f"controller {new} has not caught up: {quorum['voters']}"

    ctx.eventually(voting, what=f"controller {new} a voter, caught up")


@book.check("Remove the old controller from the quorum")
def _(ctx: Context) -> None:
    old, new = ctx.int_var("OLD_CONTROLLER"), ctx.int_var("NEW_CONTROLLER")

    def removed() -> None:
        quorum = _quorum(ctx)
        assert old not in _voters(quorum) and new in _voters(quorum), f"voters {_voters(quorum)}"
        assert quorum["leaderId"] in _voters(quorum), f"leader {quorum['leaderId']} is not a voter"

    ctx.eventually(removed, what=f"controller {old} out of the voters")


@book.check("Stop the old controller")
def _(ctx: Context) -> None:
    old = ctx.int_var("OLD_CONTROLLER")
    node = next(n for n in ctx.cluster.status()["nodes"] if n["id"] == old)
    assert not node["running"], f"controller {old} still runs"
    brokers = set(ctx.ids("BROKERS"))

    def serving() -> None:
        quorum = _quorum(ctx)
        assert quorum["leaderId"] in _voters(quorum) and old not in _voters(quorum)
        live = {n["id"] for n in ctx.reopen_reader().cluster()["nodes"]}
        assert brokers <= live, f"brokers fenced after the stop: {sorted(brokers - live)}"

    ctx.eventually(serving, what="the quorum led and every broker live")


@book.check("Check the quorum from the brokers")
def _(ctx: Context) -> None:
    quorum = _quorum(ctx)
    assert ctx.int_var("NEW_CONTROLLER") in _voters(quorum)
    assert ctx.int_var("OLD_CONTROLLER") not in _voters(quorum)
    # the new quorum commits: a topic created now exists
    create_topic(ctx, "after-controller-change", [[b] for b in ctx.ids("BROKERS")[:1]])
