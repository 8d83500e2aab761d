"""docs/runbooks/upgrade-features.md: a rolling restart, then every feature raised to the release's levels.

The levels a release means come from Kafka's own `kafka-features.sh version-mapping`, not from kcli.
"""

from __future__ import annotations

import re

from tests.kafka_tools import kafka_tool
from tests.runbooks.book import Book, Context, in_sync
from tests.runbooks.cluster import RELEASE_BEFORE

book = Book("upgrade-features.md")
MAPPING = re.compile(r"^([a-z.]+)=(\d+)")


def target_release() -> str:
    """The newest production release kcli knows (what the runbook upgrades to): `4.2`."""
    from kcli.ops.features import load_catalog

    catalog = load_catalog()
    name = catalog.release_name(catalog.latest_production_metadata_level) or ""
    return name.split("-")[0]


def kafka_mapping(ctx: Context, release: str) -> dict[str, int]:
    """feature -> level of `release`, as Kafka's kafka-features.sh version-mapping prints them."""
    done = kafka_tool(ctx.kafka_home, "kafka-features.sh", "version-mapping", "--release-version", release)
    levels = {m.group(1): int(m.group(2)) for m in map(MAPPING.match, done.stdout.splitlines()) if m}
    assert "metadata.version" in levels, f"kafka-features.sh version-mapping printed {done.stdout!r}"
    return levels


def metadata_level(ctx: Context) -> int:
    return ctx.reader.finalized_features()["metadata.version"]


@book.setup
def _(ctx: Context) -> dict[str, str]:
    release = target_release()
    ctx.variables["RELEASE"] = release
    return {"RELEASE": release}


@book.check("See where the cluster stands")
def _(ctx: Context) -> None:
    before = kafka_mapping(ctx, RELEASE_BEFORE)["metadata.version"]
    assert metadata_level(ctx) == before, (
        f"metadata.version is {metadata_level(ctx)}, not {RELEASE_BEFORE}'s {before}"
    )


@book.check("Restart every node on the new release, one at a time")
def _(ctx: Context) -> None:
    stopped = [n["id"] for n in ctx.cluster.status()["nodes"] if not n["running"]]
    assert not stopped, f"nodes not running after the rolling restart: {stopped}"
    reader = ctx.reopen_reader()
    quorum = reader.quorum()
    assert quorum["leaderId"] >= 0, f"the quorum has no leader: {quorum}"
    ctx.eventually(lambda: in_sync(reader, reader.topics()), what="every partition in sync")
    assert metadata_level(ctx) == kafka_mapping(ctx, RELEASE_BEFORE)["metadata.version"]


@book.check("Dry-run the upgrade")
def _(ctx: Context) -> None:
    before = kafka_mapping(ctx, RELEASE_BEFORE)["metadata.version"]
    assert metadata_level(ctx) == before, "the dry run changed metadata.version"


def _at_release(ctx: Context) -> None:
    wanted = kafka_mapping(ctx, ctx.var("RELEASE"))
    finalized = ctx.reader.finalized_features()
    got = {name: finalized.get(name, 0) for name in wanted}
    assert got == wanted, (
        f"finalized levels {got}, Kafka's version-mapping for {ctx.var('RELEASE')}: {wanted}"
    )


@book.check("Upgrade the features")
def _(ctx: Context) -> None:
    _at_release(ctx)


@book.check("Check that every node agrees")
def _(ctx: Context) -> None:
    _at_release(ctx)
    quorum = ctx.reader.quorum()
    lagging = [v["replicaId"] for v in quorum["voters"] if v["logEndOffset"] < quorum["highWatermark"]]
    assert not lagging, f"controllers behind the committed metadata: {lagging}"
