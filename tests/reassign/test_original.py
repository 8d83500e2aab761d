"""The original placement algorithm: Kafka's fixed-start expectations, seeds, rack rules."""

from __future__ import annotations

from collections import Counter

import pytest

from kcli.errors import KcliError
from kcli.ops.reassign.model import BrokerInfo, TopicPartition
from kcli.ops.reassign.original import (
    assign_rack_aware,
    assign_rack_unaware,
    plan_original,
    rack_alternated,
    resolve_rack_awareness,
)

RACKS = {0: "rack1", 1: "rack3", 2: "rack3", 3: "rack2", 4: "rack2", 5: "rack1"}


def test_rack_unaware_fixed_start_matches_kafka() -> None:
    # AdminUtils' documented example (5 brokers, 10 partitions, RF 3, start index 0).
    assert assign_rack_unaware(10, 3, range(5), fixed_start=0) == [
        [0, 1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 0], [4, 0, 1],
        [0, 2, 3], [1, 3, 4], [2, 4, 0], [3, 0, 1], [4, 1, 2],
    ]  # fmt: skip


def test_rack_alternated_list_and_assignment_match_kafka() -> None:
    brokers = [BrokerInfo(broker_id=b, rack=r) for b, r in RACKS.items()]
    assert rack_alternated(brokers) == [0, 3, 1, 5, 4, 2]
    assert assign_rack_aware(7, 3, brokers, fixed_start=0) == [
        [0, 3, 1], [3, 1, 5], [1, 5, 4], [5, 4, 2], [4, 2, 0], [2, 0, 3], [0, 4, 2],
    ]  # fmt: skip


def test_seed_makes_generate_repeatable() -> None:
    current = {TopicPartition(t, p): (1, 2) for t in ("a", "b") for p in range(20)}
    brokers = [BrokerInfo(broker_id=b) for b in range(1, 6)]
    first = plan_original(current, brokers, rack_aware=False, seed=42)
    assert first == plan_original(current, brokers, rack_aware=False, seed=42)
    assert any(plan_original(current, brokers, rack_aware=False, seed=s) != first for s in range(43, 48))


def test_rack_aware_spreads_every_partition_over_racks() -> None:
    brokers = [BrokerInfo(broker_id=b, rack=f"r{b % 3}") for b in range(9)]
    current = {TopicPartition("t", p): (0, 1, 2) for p in range(90)}
    proposed = plan_original(current, brokers, rack_aware=True, seed=1)
    assert all(len({b % 3 for b in r}) == 3 for r in proposed.values())
    counts = Counter(b for r in proposed.values() for b in r)
    assert max(counts.values()) - min(counts.values()) <= 1


def test_partial_racks_refused_unless_disabled() -> None:
    brokers = [BrokerInfo(broker_id=1, rack="a"), BrokerInfo(broker_id=2)]
    with pytest.raises(KcliError, match="Not all brokers have rack information"):
        resolve_rack_awareness(brokers, disable_rack_aware=False)
    assert resolve_rack_awareness(brokers, disable_rack_aware=True) is False


def test_replication_factor_larger_than_brokers() -> None:
    with pytest.raises(
        KcliError,
        match=r"The target replication factor of 3 cannot be reached because only 2 broker\(s\) are registered\.",
    ):
        plan_original(
            {TopicPartition("t", 0): (1, 2, 3)},
            [BrokerInfo(broker_id=1), BrokerInfo(broker_id=2)],
            rack_aware=False,
        )
