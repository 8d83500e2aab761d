"""docs/runbooks/fix-advertised-listener.md: the runner misroutes a broker; the runbook finds and fixes it.

The fault: on the emulator `kcli sandbox misroute`; on real Kafka an advertised.listeners line naming
another broker's endpoint in the node's overrides.properties, applied by a restart. What each broker
advertises is read through the Java AdminClient.
"""

from __future__ import annotations

from tests.runbooks.book import Book, Context, in_sync
from tests.runbooks.cluster import kcli

book = Book("fix-advertised-listener.md")


def _roles(ctx: Context) -> tuple[int, int]:
    """(the broker made to advertise wrongly, the broker whose endpoint it advertises)."""
    brokers = ctx.ids("BROKERS")
    return brokers[-2], brokers[-1]


def _advertised(ctx: Context) -> dict[int, tuple[str, int]]:
    return {n["id"]: (n["host"], n["port"]) for n in ctx.reopen_reader().cluster()["nodes"]}


@book.setup
def _(ctx: Context) -> dict[str, str]:
    faulty, victim = _roles(ctx)
    directory = str(ctx.cluster.directory)
    if ctx.real:
        port = next(n["port"] for n in ctx.cluster.status()["nodes"] if n["id"] == victim)
        overrides = ctx.cluster.directory / str(faulty) / "overrides.properties"
        listener = "SASL_SSL"  # the broker listener is named after its protocol (the runbooks use sasl_ssl)
        overrides.write_text(f"advertised.listeners={listener}://127.0.0.1:{port}\n", encoding="utf-8")
        kcli("sandbox", "stop-node", str(faulty), "--dir", directory)
        kcli("sandbox", "start-node", str(faulty), "--dir", directory)
    else:
        kcli("sandbox", "misroute", str(faulty), "--as", str(victim), "--dir", directory)

    def misrouted() -> None:
        seen = _advertised(ctx)
        assert seen.get(faulty) == seen.get(victim), f"broker {faulty} is not misrouted: {seen}"

    ctx.eventually(misrouted, what=f"broker {faulty} advertising broker {victim}'s endpoint")
    return {}


@book.check("Run the doctor")
def _(ctx: Context) -> None:
    faulty, victim = _roles(ctx)
    seen = _advertised(ctx)
    assert seen[faulty] == seen[victim], "the fault went away by itself"


@book.check("Name the broker and see what it advertises")
def _(ctx: Context) -> None:
    faulty, _ = _roles(ctx)
    assert ctx.var("BROKER") == str(faulty), (
        f"the runbook named broker {ctx.var('BROKER')}, the fault is on {faulty}"
    )


@book.check("Put the right advertised.listeners back and restart the broker")
def _(ctx: Context) -> None:
    listening = {
        n["id"]: n["port"]
        for n in ctx.cluster.status()["nodes"]
        if n["role"] != "controller" and n["running"]
    }

    def fixed() -> None:
        seen = _advertised(ctx)
        assert {b: port for b, (_, port) in seen.items()} == listening, (
            f"advertised {seen}, the brokers listen on {listening}"
        )

    ctx.eventually(fixed, what="every broker advertising its own endpoint")
    reader = ctx.reader
    ctx.eventually(lambda: in_sync(reader, reader.topics()), what="every partition in sync")


@book.check("Run the doctor again")
def _(ctx: Context) -> None:
    seen = _advertised(ctx)
    assert len(set(seen.values())) == len(seen), f"brokers share an endpoint: {seen}"
