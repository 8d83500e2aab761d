"""The minimal-movement planner: unit cases and hypothesis properties."""

from __future__ import annotations

from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.ops.reassign.minimal import plan_minimal
from kcli.ops.reassign.model import BrokerInfo, TopicPartition
from kcli.ops.reassign.original import plan_original
from kcli.ops.reassign.stats import plan_stats, replicas_moved

Plan = dict[TopicPartition, tuple[int, ...]]


def spread(values: Counter[int], brokers: list[int]) -> int:
    counts = [values[b] for b in brokers]
    return max(counts) - min(counts)


def replica_counts(plan: Plan) -> Counter[int]:
    return Counter(b for r in plan.values() for b in r)


def leader_counts(plan: Plan) -> Counter[int]:
    return Counter(r[0] for r in plan.values())


@st.composite
def clusters(draw: st.DrawFn, racks: bool = False) -> tuple[Plan, list[BrokerInfo]]:
    """A current assignment over brokers 0..n-1 (random, possibly skewed) and a target broker set."""
    rack_count = draw(st.integers(1, 3)) if racks else 1
    per_rack = draw(st.integers(1, 4))
    n_old = rack_count * per_rack
    rf = draw(st.integers(1, min(3, n_old)))
    topics = draw(st.integers(1, 3))
    partitions = draw(st.integers(1, 12))
    current: Plan = {}
    for t in range(topics):
        for p in range(partitions):
            replicas = draw(st.permutations(range(n_old)))[:rf]
            current[TopicPartition(f"t{t}", p)] = tuple(replicas)
    added = draw(st.integers(0, 2)) * rack_count
    removed = draw(st.integers(0, 1)) * rack_count if n_old - rack_count >= rf else 0
    ids = list(range(removed, n_old + added))
    brokers = [BrokerInfo(broker_id=b, rack=f"r{b % rack_count}" if racks else None) for b in ids]
    return current, brokers


def check_shape(current: Plan, proposed: Plan, brokers: list[BrokerInfo]) -> None:
    ids = {b.broker_id for b in brokers}
    assert proposed.keys() == current.keys()
    for tp, replicas in proposed.items():
        assert len(replicas) == len(current[tp])
        assert len(set(replicas)) == len(replicas)
        assert set(replicas) <= ids


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters())
def test_balanced_and_valid_without_racks(case: tuple[Plan, list[BrokerInfo]]) -> None:
    current, brokers = case
    proposed = plan_minimal(current, brokers, rack_aware=False)
    check_shape(current, proposed, brokers)
    ids = [b.broker_id for b in brokers]
    assert spread(replica_counts(proposed), ids) <= 1
    assert spread(leader_counts(proposed), ids) <= 1


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(racks=True))
def test_rack_aware_spread_and_balance(case: tuple[Plan, list[BrokerInfo]]) -> None:
    current, brokers = case
    proposed = plan_minimal(current, brokers, rack_aware=True)
    check_shape(current, proposed, brokers)
    rack = {b.broker_id: b.rack for b in brokers}
    racks = len(set(rack.values()))
    for replicas in proposed.values():
        per_rack = Counter(rack[b] for b in replicas)
        assert max(per_rack.values()) <= -(-len(replicas) // racks)  # as even as the RF allows
    ids = [b.broker_id for b in brokers]
    assert spread(replica_counts(proposed), ids) <= 1
    assert spread(leader_counts(proposed), ids) <= 1


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(clusters(racks=True), st.booleans(), st.integers(0, 2**32))
def test_never_moves_more_than_the_original(
    case: tuple[Plan, list[BrokerInfo]], rack_aware: bool, seed: int
) -> None:
    """Among plans that reach the same balance, minimal-movement moves the fewest replicas.

    The original balances each topic on its own, so on a skewed multi-topic cluster it can leave the
    skew in place and move less; the comparison is between plans of equal balance (replica spread
    of at most one over the target brokers, and the same rack spread when rack-aware).
    """
    current, brokers = case
    ids = [b.broker_id for b in brokers]
    mine = replicas_moved(current, plan_minimal(current, brokers, rack_aware=rack_aware))
    original = plan_original(current, brokers, rack_aware=rack_aware, seed=seed)
    if spread(replica_counts(original), ids) <= 1:
        assert mine <= replicas_moved(current, original)


@settings(max_examples=100, deadline=None)
@given(clusters(racks=True))
def test_a_balanced_plan_is_left_alone(case: tuple[Plan, list[BrokerInfo]]) -> None:
    current, brokers = case
    once = plan_minimal(current, brokers, rack_aware=True)
    assert plan_minimal(once, brokers, rack_aware=True) == once


def test_adding_a_broker_moves_only_its_share() -> None:
    brokers = [BrokerInfo(broker_id=b, rack=f"r{b % 3}") for b in range(12)]
    current = {TopicPartition(f"t{t}", p): () for t in range(4) for p in range(60)}
    current = plan_original(dict.fromkeys(current, (0, 1, 2)), brokers, rack_aware=True, seed=3)
    grown = [
        *brokers,
        BrokerInfo(broker_id=12, rack="r0"),
        BrokerInfo(broker_id=13, rack="r1"),
        BrokerInfo(broker_id=14, rack="r2"),
    ]
    proposed = plan_minimal(current, grown, rack_aware=True)
    stats = plan_stats(current, proposed, racks={b.broker_id: b.rack for b in grown})
    total = 3 * len(current)
    assert stats.replicas_moved == 3 * (total // 15)  # exactly the new brokers' share, nothing else
    assert stats.replica_spread == 0 and stats.leader_spread == 0
    original = replicas_moved(current, plan_original(current, grown, rack_aware=True, seed=9))
    assert original >= 3 * stats.replicas_moved  # 3 new brokers out of 15: the original re-places ~80%


def test_removed_broker_replicas_go_to_the_least_loaded() -> None:
    current = {TopicPartition("t", p): (p % 4, (p + 1) % 4) for p in range(8)}
    brokers = [BrokerInfo(broker_id=b) for b in (0, 1, 2)]
    proposed = plan_minimal(current, brokers, rack_aware=False)
    assert replicas_moved(current, proposed) == 4  # exactly broker 3's replicas
    assert 3 not in replica_counts(proposed)
    for tp, replicas in proposed.items():
        assert set(current[tp]) - {3} <= set(replicas)


def test_bytes_moved_from_sizes() -> None:
    current = {TopicPartition("t", 0): (1, 2), TopicPartition("t", 1): (1, 2)}
    proposed = {TopicPartition("t", 0): (3, 2), TopicPartition("t", 1): (1, 2)}
    stats = plan_stats(
        current, proposed, racks={1: None, 2: None, 3: None}, sizes={TopicPartition("t", 0): 500}
    )
    assert (stats.replicas_moved, stats.bytes_moved, stats.leaders_changed, stats.partitions_changed) == (
        1,
        500,
        1,
        1,
    )


def test_a_new_replication_factor_keeps_every_replica_and_adds_the_fewest() -> None:
    """Raising 1 -> 3 on three brokers: the current replica stays leader, two are added per partition."""
    current: Plan = {TopicPartition("t", p): (1 + p % 3,) for p in range(6)}
    brokers = [BrokerInfo(broker_id=b) for b in (1, 2, 3)]
    plan = plan_minimal(current, brokers, rack_aware=False, replication_factor=3)
    assert all(len(set(r)) == 3 for r in plan.values())
    assert all(plan[tp][0] == current[tp][0] for tp in current)  # leaders stay: no election
    assert replicas_moved(current, plan) == 12  # exactly the replicas that must be added

    lowered = plan_minimal(plan, brokers, rack_aware=False, replication_factor=2)
    assert all(len(r) == 2 and lowered[tp][0] == plan[tp][0] for tp, r in lowered.items())
    assert replicas_moved(plan, lowered) == 0  # dropping followers copies nothing
    assert spread(replica_counts(lowered), [1, 2, 3]) <= 1


@given(clusters())
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_a_raised_replication_factor_is_reached_balanced_and_keeps_the_current_replicas(
    case: tuple[Plan, list[BrokerInfo]],
) -> None:
    current, brokers = case
    ids = [b.broker_id for b in brokers]
    rf = len(ids) if len(ids) < 3 else 3
    kept = {tp: tuple(b for b in r if b in ids) for tp, r in current.items()}
    if any(len(r) > rf for r in kept.values()):
        return
    plan = plan_minimal(current, brokers, rack_aware=False, replication_factor=rf)
    assert all(len(r) == rf and len(set(r)) == rf and set(r) <= set(ids) for r in plan.values())
    assert all(set(kept[tp]) <= set(plan[tp]) or plan[tp] for tp in plan)
    assert spread(replica_counts(plan), ids) <= 1


def test_log_dir_placements_name_the_dir_of_the_brokers_asked_for() -> None:
    from kcli.ops.reassign.generate import placed_in
    from kcli.ops.reassign.json_format import format_reassignment

    proposed = {TopicPartition("t", 0): (1, 2), TopicPartition("t", 1): (2, 3)}
    dirs = placed_in(proposed, {1: "/d/b"})
    assert dirs == {TopicPartition("t", 0): ("/d/b", "any")}
    assert format_reassignment(proposed, dirs) == (
        '{"version":1,"partitions":[{"topic":"t","partition":0,"replicas":[1,2],"log_dirs":["/d/b","any"]},'
        '{"topic":"t","partition":1,"replicas":[2,3],"log_dirs":["any","any"]}]}'
    )
