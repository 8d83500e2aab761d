"""Balancing bytes as well as counts: the minimal-movement planner's last placement pass.

Counts alone leave a broker that took a share of small partitions nearly empty on disk and one
that kept the big ones full. With the partitions' sizes (DescribeLogDirs), this pass swaps
replicas between the fullest and the emptiest broker (of one rack, when racks are kept apart), so
every broker keeps its replica count while bytes even out.

Behavior:
- a swap moves replica p from the fullest broker H to the emptiest L and q from L to H, each
  onto a broker not already holding its partition; it helps when size(p) - size(q) lies strictly
  between 0 and the two brokers' byte gap, most when it is half the gap;
- swaps that move no more replicas than the plan already does come first (a replica the plan
  moved onto L can go back where it was): only when the gap is still above TOLERANCE of the mean
  are swaps that add replica moves taken;
- it stops when no swap narrows a gap, or after MAX_SWAPS; counts and rack spread never change.
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence

from kcli.ops.reassign.model import TopicPartition

TOLERANCE = 0.1  # of the mean bytes per broker: closer than this, no replica is moved for bytes
MAX_SWAPS = 500
_CANDIDATES = 256  # replicas of the fullest broker tried per swap (the largest first)


def balance_bytes(
    slots: dict[TopicPartition, list[int]],
    current: Mapping[TopicPartition, Sequence[int]],
    groups: Sequence[Sequence[int]],
    sizes: Mapping[TopicPartition, int],
) -> int:
    """Swap replicas within each group of brokers (all brokers, or one rack's) until their bytes are
    even; `slots` is changed in place. Returns the number of swaps made."""
    swaps = 0
    for group in groups:
        if len(group) < 2:
            continue
        swaps += _balance_group(slots, current, list(group), sizes)
    return swaps


def _balance_group(
    slots: dict[TopicPartition, list[int]],
    current: Mapping[TopicPartition, Sequence[int]],
    brokers: list[int],
    sizes: Mapping[TopicPartition, int],
) -> int:
    members = set(brokers)
    held: dict[int, set[TopicPartition]] = {b: set() for b in brokers}
    load: dict[int, int] = dict.fromkeys(brokers, 0)
    for tp, replicas in slots.items():
        for b in replicas:
            if b in members:
                held[b].add(tp)
                load[b] += sizes.get(tp, 0)
    total = sum(load.values())
    if total <= 0:
        return 0
    mean = total / len(brokers)
    swaps = 0
    while swaps < MAX_SWAPS:
        heavy = max(brokers, key=lambda b: (load[b], -b))
        light = min(brokers, key=lambda b: (load[b], b))
        gap = load[heavy] - load[light]
        if gap <= 0:
            break
        allow_new_moves = gap > TOLERANCE * mean
        best = _best_swap(held, current, sizes, heavy, light, gap, allow_new_moves)
        if best is None:
            break
        p, q = best
        _move(slots, p, heavy, light)
        _move(slots, q, light, heavy)
        held[heavy].remove(p)
        held[light].add(p)
        held[light].remove(q)
        held[heavy].add(q)
        d = sizes.get(p, 0) - sizes.get(q, 0)
        load[heavy] -= d
        load[light] += d
        swaps += 1
    return swaps


def _move(slots: dict[TopicPartition, list[int]], tp: TopicPartition, source: int, to: int) -> None:
    replicas = slots[tp]
    replicas[replicas.index(source)] = to


def _added_moves(
    current: Mapping[TopicPartition, Sequence[int]], tp: TopicPartition, source: int, to: int
) -> int:
    """How many more replicas the plan copies when tp's replica goes from `source` to `to`."""
    before = current.get(tp, ())
    return (to not in before) - (source not in before)


def _best_swap(
    held: dict[int, set[TopicPartition]],
    current: Mapping[TopicPartition, Sequence[int]],
    sizes: Mapping[TopicPartition, int],
    heavy: int,
    light: int,
    gap: int,
    allow_new_moves: bool,
) -> tuple[TopicPartition, TopicPartition] | None:
    """The swap (p from heavy, q from light) closest to half the gap, fewest added moves first."""
    lights = sorted(
        (sizes.get(q, 0), q) for q in held[light] if q not in held[heavy]
    )  # q may go to heavy only if heavy lacks its partition
    light_sizes = [s for s, _ in lights]
    heavies = sorted(((sizes.get(p, 0), p) for p in held[heavy] if p not in held[light]), reverse=True)[
        :_CANDIDATES
    ]
    best: tuple[int, float, TopicPartition, TopicPartition] | None = None
    half = gap / 2
    for size_p, p in heavies:
        wanted = size_p - half  # size(q) for d == gap / 2
        at = bisect.bisect_left(light_sizes, wanted)
        for index in range(max(0, at - 2), min(len(lights), at + 2)):
            size_q, q = lights[index]
            d = size_p - size_q
            if not 0 < d < gap or p == q:
                continue
            added = _added_moves(current, p, heavy, light) + _added_moves(current, q, light, heavy)
            if added > 0 and not allow_new_moves:
                continue
            key = (max(added, 0), abs(d - half), p, q)
            if best is None or key[:2] < best[:2]:
                best = key
    return None if best is None else (best[2], best[3])
