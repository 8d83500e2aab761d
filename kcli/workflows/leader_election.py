"""`kcli leader-election`: one ElectLeaders, or (--dry-run) the partitions it would be about.

Behavior: the election is kafka-leader-election's (kcli.client.api.elect_leaders). --dry-run reads
every partition's leader, replicas and ISR (Metadata) and reports those of the scope led by another
replica than their preferred one (or, for unclean elections, without a leader), without electing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from kcli.ops.leader_election import ElectionReport, ElectionType, LeaderState, off_preferred
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.workflows.reassign.progress import WaitResult


async def elect(
    admin: Admin, kind: ElectionType, partitions: Sequence[TopicPartition] | None
) -> ElectionReport:
    from kcli.client.api.elect_leaders import elect_leaders

    return await elect_leaders(admin, kind, partitions)


async def leadership(admin: Admin, partitions: Sequence[TopicPartition] | None) -> list[LeaderState]:
    """Each partition's leader, replicas and ISR (of `partitions`, or of every topic)."""
    from kcli.workflows.partitions import every_partition

    _, rows = await every_partition(admin)
    wanted = None if partitions is None else set(partitions)
    return [
        LeaderState(
            partition=TopicPartition(r["topic"], r["partition"]),
            leader=r["leader"],
            replicas=tuple(r["replicas"]),
            isr=tuple(r["isr"]),
        )
        for r in rows
        if wanted is None or TopicPartition(r["topic"], r["partition"]) in wanted
    ]


async def report(
    admin: Admin, kind: ElectionType, partitions: Sequence[TopicPartition] | None
) -> tuple[list[LeaderState], list[TopicPartition]]:
    """--dry-run: the partitions of the scope an election of `kind` is about, and those of the
    scope the cluster does not have."""
    states = await leadership(admin, partitions)
    known = {s.partition for s in states}
    missing = [tp for tp in partitions or () if tp not in known]
    return off_preferred(states, kind), missing


async def elect_after_move(admin: Admin, waited: WaitResult | None) -> ElectionReport | None:
    """After `reassign-partitions --execute --wait`: a preferred election of the partitions moved, so
    each is led by the first replica of its new assignment (--no-elect skips it); none when the wait
    did not finish."""
    if waited is None or waited.timed_out or not waited.done_partitions:
        return None
    moved = sorted(waited.done_partitions, key=lambda tp: (tp.topic, tp.partition))
    return await elect(admin, ElectionType.PREFERRED, moved)
