"""What a plan costs and what it achieves: replicas and bytes moved, leader changes, spread."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import chain

from kcli.ops.reassign.model import Assignment, TopicPartition


@dataclass(frozen=True, slots=True, kw_only=True)
class BrokerLoad:
    """Replica and leader counts on one broker, before and after a plan."""

    broker_id: int
    rack: str | None
    replicas_before: int
    replicas_after: int
    leaders_before: int
    leaders_after: int
    in_target: bool = True  # one of the brokers the plan places replicas on


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanStats:
    """The cost of a plan: replicas that must be copied, their bytes, and leadership changes."""

    partitions: int
    partitions_changed: int
    replicas_moved: int
    bytes_moved: int | None  # None when no log-dir sizes were available
    leaders_changed: int
    brokers: tuple[BrokerLoad, ...]

    @property
    def replica_spread(self) -> int:
        """max - min replicas per broker after the plan."""
        after = [b.replicas_after for b in self.brokers if b.in_target]
        return max(after) - min(after) if after else 0

    @property
    def leader_spread(self) -> int:
        after = [b.leaders_after for b in self.brokers if b.in_target]
        return max(after) - min(after) if after else 0


def replicas_moved(current: Assignment, proposed: Assignment) -> int:
    """Replicas in `proposed` that are not already in place (each is a full copy of its partition)."""
    moved = 0
    for tp, replicas in proposed.items():
        before = current.get(tp, ())
        if replicas != before:
            moved += sum(1 for b in replicas if b not in before)
    return moved


def plan_stats(
    current: Assignment,
    proposed: Assignment,
    *,
    racks: Mapping[int, str | None],
    sizes: Mapping[TopicPartition, int] | None = None,
) -> PlanStats:
    """Statistics of moving from `current` to `proposed`; `sizes` are partition sizes in bytes."""
    moved = 0
    moved_bytes = 0
    changed = 0
    leaders_changed = 0
    empty: tuple[int, ...] = ()
    befores = [current.get(tp, empty) for tp in proposed]
    for (tp, replicas), before in zip(proposed.items(), befores, strict=True):
        if replicas == before:
            continue
        changed += 1
        if not before or not replicas or before[0] != replicas[0]:
            leaders_changed += 1
        new = len(replicas) - len(set(replicas).intersection(before))
        moved += new
        if sizes is not None and new:
            moved_bytes += new * sizes.get(tp, 0)
    before_r = Counter(chain.from_iterable(befores))
    after_r = Counter(chain.from_iterable(proposed.values()))
    before_l = Counter(b[0] for b in befores if b)
    after_l = Counter(r[0] for r in proposed.values() if r)
    brokers = sorted(set(racks) | set(before_r) | set(after_r))
    loads = tuple(
        BrokerLoad(
            broker_id=b,
            rack=racks.get(b),
            replicas_before=before_r[b],
            replicas_after=after_r[b],
            leaders_before=before_l[b],
            leaders_after=after_l[b],
            in_target=b in racks,
        )
        for b in brokers
    )
    return PlanStats(
        partitions=len(proposed),
        partitions_changed=changed,
        replicas_moved=moved,
        bytes_moved=moved_bytes if sizes is not None else None,
        leaders_changed=leaders_changed,
        brokers=loads,
    )
