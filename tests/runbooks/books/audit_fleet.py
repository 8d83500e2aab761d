"""docs/runbooks/audit-fleet.md: the findings of `kcli spark audit` match the cluster as Java reads it.

The runner plants a topic below the replication floor and one with min.insync.replicas=2; every
topic's replication factor and min.insync.replicas are read through the Java AdminClient and must
give exactly the findings of the two rules (their parameters: kcli/audit/rules/builtin.toml).
"""

from __future__ import annotations

import json

from tests.runbooks.book import Book, Context
from tests.runbooks.books.common import create_topic

book = Book("audit-fleet.md")
FLOOR = 3  # replication-factor-below-floor's `floor`
MIN_ISR = 2  # min-isr-below-2


@book.setup
def _(ctx: Context) -> dict[str, str]:
    brokers = ctx.ids("BROKERS")
    create_topic(ctx, "scratch", [[brokers[0]]])
    create_topic(ctx, "payments", [brokers[:3]] * 2, configs={"min.insync.replicas": str(MIN_ISR)})
    return {}


def _findings(ctx: Context) -> list[dict[str, str]]:
    path = ctx.work / "findings" / "findings.jsonl"
    assert path.exists(), "no findings/findings.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _expected(ctx: Context) -> dict[str, set[str]]:
    reader = ctx.reader
    partitions = reader.all_partitions()
    below_floor = {t for t, parts in partitions.items() if min(len(p["replicas"]) for p in parts) < FLOOR}
    low_isr = {
        t for t in partitions if int(reader.configs("TOPIC", t)["min.insync.replicas"]["value"]) < MIN_ISR
    }
    return {"replication-factor-below-floor": below_floor, "min-isr-below-2": low_isr}


@book.check("Collect a snapshot of each cluster")
def _(ctx: Context) -> None:
    cluster_id = ctx.reader.cluster()["clusterId"]
    files = [p for p in (ctx.work / "snapshots").rglob("*") if p.is_file()]
    assert any(f"cluster_id={cluster_id}" in str(p) for p in files), (
        f"no snapshot of cluster {cluster_id}: {files}"
    )


@book.check("Audit the snapshots and fail on high findings")
def _(ctx: Context) -> None:
    findings = _findings(ctx)
    high = [f for f in findings if f["severity"] == "high"]
    summary = (ctx.work / "audit.txt").read_text()
    assert high, "the planted topic below the replication floor gave no high finding"
    assert "high" in summary
    warnings = ctx.work / "findings" / "warnings.jsonl"
    assert not warnings.exists() or not warnings.read_text().strip(), warnings.read_text()


@book.check("Read the findings")
def _(ctx: Context) -> None:
    cluster_id = ctx.reader.cluster()["clusterId"]
    findings = _findings(ctx)
    for rule, topics in _expected(ctx).items():
        found = {
            f["resource"].removeprefix("topic:")
            for f in findings
            if f["rule_id"] == rule and f["cluster_id"] == cluster_id
        }
        assert found == topics, f"{rule}: findings for {sorted(found)}, the cluster has {sorted(topics)}"
    assert "scratch" in _expected(ctx)["replication-factor-below-floor"]
    assert "payments" not in _expected(ctx)["min-isr-below-2"]
