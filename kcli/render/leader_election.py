"""Output of `kcli leader-election`: kafka-leader-election.sh's lines, JSON, and the --dry-run report."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from kcli.ops.leader_election import ElectionReport, ElectionType, LeaderState
from kcli.ops.reassign.model import TopicPartition


def text_lines(report: ElectionReport) -> list[str]:
    return report.lines()


def json_value(report: ElectionReport) -> dict[str, Any]:
    from kcli.ops.java_errors import exception_class

    def name(tp: TopicPartition) -> dict[str, Any]:
        return {"topic": tp.topic, "partition": tp.partition}

    return {
        "election_type": report.kind.name,
        "elected": [name(tp) for tp in sorted(report.succeeded)],
        "not_needed": [name(tp) for tp in sorted(report.not_needed)],
        "failed": [
            {**name(o.partition), "error": exception_class(o.error_code), "message": o.message}
            for o in sorted(report.failed, key=lambda o: o.partition)
        ],
    }


def _ids(ids: tuple[int, ...]) -> str:
    return ",".join(map(str, ids))


def report_lines(found: tuple[list[LeaderState], list[TopicPartition], ElectionType]) -> Iterator[str]:
    """--dry-run: the partitions the election is about; nothing is elected."""
    states, missing, kind = found
    for tp in missing:
        yield f"Partition {tp}: no such partition (an election would fail for it)"
    if kind is ElectionType.UNCLEAN:
        if not states:
            yield "Dry run: every partition of the scope has a leader; an unclean election would change nothing."
        for s in states:
            yield f"Partition {s.partition}: no leader\tReplicas: {_ids(s.replicas)}\tIsr: {_ids(s.isr)}"
        return
    electable = sum(1 for s in states if s.electable)
    if not states:
        yield "Dry run: every partition of the scope is led by its preferred replica; nothing to elect."
        return
    yield (
        f"Dry run: {len(states)} partition(s) led by another replica than their preferred one; "
        f"a preferred election would move {electable} of them (the others' preferred replica is not in sync)."
    )
    for s in states:
        leader = "none" if s.leader < 0 else str(s.leader)
        state = "electable" if s.electable else "preferred replica not in sync"
        yield f"Partition {s.partition}\tLeader: {leader}\tPreferred: {s.preferred}\tIsr: {_ids(s.isr)}\t({state})"


def report_json(found: tuple[list[LeaderState], list[TopicPartition], ElectionType]) -> dict[str, Any]:
    states, missing, kind = found
    return {
        "dry_run": True,
        "election_type": kind.name,
        "partitions": [
            {
                "topic": s.partition.topic,
                "partition": s.partition.partition,
                "leader": None if s.leader < 0 else s.leader,
                "preferred": s.preferred,
                "isr": list(s.isr),
                "electable": s.electable if kind is ElectionType.PREFERRED else None,
            }
            for s in states
        ],
        "missing": [{"topic": tp.topic, "partition": tp.partition} for tp in missing],
    }


def after_move_json(report: ElectionReport | None) -> dict[str, Any]:
    """The preferred election that ends `reassign-partitions --execute --wait`, for its JSON."""
    return {} if report is None else {"preferred_election": json_value(report)}


def after_move_error(report: ElectionReport) -> str:
    return f"Error: {len(report.failed)} replica(s) could not be elected (the reassignment itself is done)"
