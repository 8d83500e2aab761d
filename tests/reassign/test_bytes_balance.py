"""The minimal-movement planner with partition sizes: bytes balanced as well as counts (issue 35, item 7)."""

from __future__ import annotations

import random
from collections import Counter

from kcli.ops.reassign.minimal import plan_minimal
from kcli.ops.reassign.model import BrokerInfo
from kcli.ops.reassign.model import TopicPartition as TP
from kcli.ops.reassign.stats import plan_stats


def _bytes(plan: dict[TP, tuple[int, ...]], sizes: dict[TP, int]) -> Counter[int]:
    load: Counter[int] = Counter()
    for tp, replicas in plan.items():
        for b in replicas:
            load[b] += sizes[tp]
    return load


def test_a_new_broker_takes_a_fair_share_of_the_bytes_not_only_of_the_replicas() -> None:
    current = {TP("t", 0): (1,), TP("t", 1): (1,), TP("t", 2): (1,), TP("t", 3): (1,)}
    sizes = {TP("t", 0): 100, TP("t", 1): 100, TP("t", 2): 1, TP("t", 3): 1}
    brokers = [BrokerInfo(broker_id=1), BrokerInfo(broker_id=2)]
    by_count = plan_minimal(current, brokers, rack_aware=False)
    by_bytes = plan_minimal(current, brokers, rack_aware=False, sizes=sizes)
    assert Counter(b for r in by_bytes.values() for b in r) == {1: 2, 2: 2}
    assert _bytes(by_bytes, sizes) == {1: 101, 2: 101}
    assert _bytes(by_count, sizes)[2] in (2, 200)  # counts alone: both small or both big moved
    racks = {1: None, 2: None}
    assert plan_stats(current, by_bytes, racks=racks).replicas_moved == 2  # no more moves than by count


def test_bytes_even_out_with_few_extra_moves_on_a_grown_cluster() -> None:
    rng = random.Random(3)
    current = {TP(f"t{i % 20}", i // 20): tuple((i + k) % 6 + 1 for k in range(3)) for i in range(3000)}
    sizes = {tp: int(rng.lognormvariate(17, 1.5)) for tp in current}
    brokers = [BrokerInfo(broker_id=b) for b in range(1, 10)]
    racks = {b.broker_id: None for b in brokers}
    by_count = plan_minimal(current, brokers, rack_aware=False)
    by_bytes = plan_minimal(current, brokers, rack_aware=False, sizes=sizes)
    counts, byte_stats = (
        plan_stats(current, by_count, racks=racks),
        plan_stats(current, by_bytes, racks=racks),
    )
    assert byte_stats.replica_spread == counts.replica_spread == 0
    assert byte_stats.replicas_moved <= counts.replicas_moved * 1.01
    load = _bytes(by_bytes, sizes)
    mean = sum(load.values()) / len(load)
    assert max(abs(v - mean) for v in load.values()) <= 0.1 * mean
    before = _bytes(by_count, sizes)
    assert max(before.values()) - min(before.values()) > max(load.values()) - min(load.values())


def test_racks_keep_their_spread() -> None:
    rng = random.Random(5)
    current = {TP("r", p): (1 + p % 2, 3 + p % 2) for p in range(40)}  # racks a (1, 2) and b (3, 4)
    sizes = {tp: rng.randrange(1, 10_000) for tp in current}
    brokers = [BrokerInfo(broker_id=b, rack="a" if b in (1, 2, 5) else "b") for b in range(1, 7)]
    plan = plan_minimal(current, brokers, rack_aware=True, sizes=sizes)
    rack = {b.broker_id: b.rack for b in brokers}
    assert all(sorted(rack[b] or "" for b in r) == ["a", "b"] for r in plan.values())
    assert (
        Counter(b for r in plan.values() for b in r).most_common()[0][1]
        - min(Counter(b for r in plan.values() for b in r).values())
        <= 1
    )


def test_without_sizes_the_plan_is_the_count_plan() -> None:
    current = {TP("t", p): (1 + p % 3,) for p in range(9)}
    brokers = [BrokerInfo(broker_id=b) for b in range(1, 5)]
    assert plan_minimal(current, brokers, rack_aware=False, sizes={}) == plan_minimal(
        current, brokers, rack_aware=False
    )
