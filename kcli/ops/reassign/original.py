"""The original replica assignment (Kafka's AdminUtils.assignReplicasToBrokers), made repeatable.

Kafka's --generate picks a random start index and replica shift per topic; here they come from a
`random.Random` that callers may seed (--seed), so the same input and seed give the same plan.

Behavior (as AdminUtils):
- brokers are taken in id order (rack-unaware) or in rack-alternated order (rack-aware: racks sorted,
  one broker from each rack in turn, brokers within a rack in id order);
- partition p's first replica is broker[(p + start) % n]; followers are spaced by a shift that grows
  by one every n partitions;
- rack-aware: a follower skips brokers whose rack already holds a replica of the partition (unless
  every rack does) and brokers already holding one (unless every broker does).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from kcli.errors import KcliError
from kcli.ops.reassign.model import Assignment, BrokerInfo, TopicPartition, sort_key


def _replica_index(first: int, shift: int, index: int, n: int) -> int:
    return (first + 1 + (shift + index) % (n - 1)) % n


def _first_and_shift(
    partitions: int, n: int, rng: random.Random | None, fixed_start: int | None
) -> Iterator[tuple[int, int]]:
    """For each partition in turn, the index of its first replica among `n` brokers and the shift of
    the others, which grows each time the partitions wrap around. The start and the first shift are
    AdminUtils' fixedStartIndex (tests) or two random draws."""
    if fixed_start is not None:
        start = shift = fixed_start
    else:
        rng = rng or random.Random()
        start = rng.randrange(n)
        shift = rng.randrange(n)
    for p in range(partitions):
        if p > 0 and p % n == 0:
            shift += 1
        yield (p + start) % n, shift


def assign_rack_unaware(
    partitions: int,
    replication_factor: int,
    broker_ids: Sequence[int],
    rng: random.Random | None = None,
    *,
    fixed_start: int | None = None,
) -> list[list[int]]:
    """AdminUtils.assignReplicasToBrokersRackUnaware for partitions 0..partitions-1."""
    brokers = sorted(broker_ids)
    n = len(brokers)
    result: list[list[int]] = []
    for first, shift in _first_and_shift(partitions, n, rng, fixed_start):
        replicas = [brokers[first]]
        for j in range(replication_factor - 1):
            replicas.append(brokers[_replica_index(first, shift, j, n)])
        result.append(replicas)
    return result


def rack_alternated(brokers: Sequence[BrokerInfo]) -> list[int]:
    """AdminUtils.getRackAlternatedBrokerList: one broker from each (sorted) rack in turn."""
    by_rack: dict[str, list[int]] = {}
    for b in brokers:
        by_rack.setdefault(b.rack or "", []).append(b.broker_id)
    racks = sorted(by_rack)
    queues = {r: sorted(ids) for r, ids in by_rack.items()}
    positions = dict.fromkeys(racks, 0)
    result: list[int] = []
    rack_index = 0
    while len(result) < len(brokers):
        rack = racks[rack_index]
        if positions[rack] < len(queues[rack]):
            result.append(queues[rack][positions[rack]])
            positions[rack] += 1
        rack_index = (rack_index + 1) % len(racks)
    return result


def assign_rack_aware(
    partitions: int,
    replication_factor: int,
    brokers: Sequence[BrokerInfo],
    rng: random.Random | None = None,
    *,
    fixed_start: int | None = None,
) -> list[list[int]]:
    """AdminUtils.assignReplicasToBrokersRackAware for partitions 0..partitions-1."""
    rack_of = {b.broker_id: b.rack or "" for b in brokers}
    num_racks = len(set(rack_of.values()))
    arranged = rack_alternated(brokers)
    n = len(arranged)
    result: list[list[int]] = []
    for first, shift in _first_and_shift(partitions, n, rng, fixed_start):
        leader = arranged[first]
        replicas = [leader]
        racks_used = {rack_of[leader]}
        used = {leader}
        k = 0
        for _ in range(replication_factor - 1):
            while True:
                broker = arranged[_replica_index(first, shift * num_racks, k, n)]
                rack = rack_of[broker]
                k += 1
                if (rack not in racks_used or len(racks_used) == num_racks) and (
                    broker not in used or len(used) == n
                ):
                    replicas.append(broker)
                    racks_used.add(rack)
                    used.add(broker)
                    break
        result.append(replicas)
    return result


def resolve_rack_awareness(brokers: Sequence[BrokerInfo], *, disable_rack_aware: bool) -> bool:
    """Whether to place rack-aware; some-but-not-all racks is refused as the original does."""
    if disable_rack_aware:
        return False
    with_rack = sum(1 for b in brokers if b.rack is not None)
    if 0 < with_rack < len(brokers):
        raise KcliError(
            "Not all brokers have rack information. Add --disable-rack-aware in command line to make "
            "replica assignment without rack information."
        )
    return with_rack == len(brokers) and with_rack > 0


def check_replication_factor(replication_factor: int, broker_count: int) -> None:
    if replication_factor <= 0:
        raise KcliError("Replication factor must be larger than 0.")
    if replication_factor > broker_count:
        raise KcliError(
            f"The target replication factor of {replication_factor} cannot be reached because only "
            f"{broker_count} broker(s) are registered."
        )


def plan_original(
    current: Assignment,
    brokers: Sequence[BrokerInfo],
    *,
    rack_aware: bool,
    seed: int | None = None,
) -> dict[TopicPartition, tuple[int, ...]]:
    """The original --generate: every topic re-placed from scratch, topic RF from its first partition."""
    if not brokers:
        raise KcliError("No brokers to assign replicas to (the --broker-list names no live broker)")
    rng = random.Random(seed)
    by_topic: dict[str, list[TopicPartition]] = {}
    for tp in sorted(current, key=sort_key):
        by_topic.setdefault(tp.topic, []).append(tp)
    proposed: dict[TopicPartition, tuple[int, ...]] = {}
    ids = [b.broker_id for b in brokers]
    for topic in sorted(by_topic):
        parts = by_topic[topic]
        rf = len(current[parts[0]])
        check_replication_factor(rf, len(brokers))
        count = max(tp.partition for tp in parts) + 1
        if rack_aware:
            placed = assign_rack_aware(count, rf, brokers, rng)
        else:
            placed = assign_rack_unaware(count, rf, ids, rng)
        for tp in parts:
            proposed[tp] = tuple(placed[tp.partition])
    return proposed


def rack_map(brokers: Sequence[BrokerInfo]) -> Mapping[int, str | None]:
    return {b.broker_id: b.rack for b in brokers}
