"""Replication throttles for a reassignment, computed as kafka-reassign-partitions.sh does.

Behavior (ReassignPartitionsCommand.calculateProposedMoveMap and friends):
- a partition's sources are its current replicas, or, while a reassignment of it is running, that
  reassignment's replicas minus the ones being added; destinations are the target replicas that are
  not sources (a running reassignment's adding replicas when the file does not name it);
- topic config `leader.replication.throttled.replicas` = `partition:broker` for every source,
  `follower.replication.throttled.replicas` = `partition:broker` for every destination, each list
  sorted as strings (Java TreeSet) and joined by commas;
- broker configs `leader.replication.throttled.rate` and `follower.replication.throttled.rate` = the
  --throttle rate on every source or destination broker;
- `replica.alter.log.dirs.io.max.bytes.per.second` = the --replica-alter-log-dirs-throttle rate on
  brokers that have a replica moving to a named log dir.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from kcli.ops.reassign.json_format import ReassignmentEntry, log_dir_moves
from kcli.ops.reassign.model import Assignment, OngoingReassignment, TopicPartition

LEADER_THROTTLED_REPLICAS = "leader.replication.throttled.replicas"
FOLLOWER_THROTTLED_REPLICAS = "follower.replication.throttled.replicas"
LEADER_THROTTLED_RATE = "leader.replication.throttled.rate"
FOLLOWER_THROTTLED_RATE = "follower.replication.throttled.rate"
LOG_DIR_THROTTLED_RATE = "replica.alter.log.dirs.io.max.bytes.per.second"

TOPIC_THROTTLE_KEYS = (LEADER_THROTTLED_REPLICAS, FOLLOWER_THROTTLED_REPLICAS)
BROKER_THROTTLE_KEYS = (LEADER_THROTTLED_RATE, FOLLOWER_THROTTLED_RATE, LOG_DIR_THROTTLED_RATE)


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionMove:
    sources: frozenset[int]
    destinations: frozenset[int]


@dataclass(frozen=True, slots=True, kw_only=True)
class ThrottlePlan:
    """Config values to SET: per topic and per broker (empty when no throttle was asked for)."""

    topic_configs: Mapping[str, Mapping[str, str]]
    broker_configs: Mapping[int, Mapping[str, str]]
    interbroker_rate: int | None
    log_dir_rate: int | None

    @property
    def empty(self) -> bool:
        return not self.topic_configs and not self.broker_configs


def move_map(
    ongoing: Iterable[OngoingReassignment],
    proposed: Assignment,
    current: Assignment,
) -> dict[str, dict[int, PartitionMove]]:
    """calculateProposedMoveMap: every running move plus every proposed one, by topic and partition."""
    moves: dict[str, dict[int, PartitionMove]] = {}
    for r in ongoing:
        sources = frozenset(b for b in r.replicas if b not in r.adding)
        moves.setdefault(r.partition.topic, {})[r.partition.partition] = PartitionMove(
            sources=sources, destinations=frozenset(r.adding)
        )
    for tp, replicas in proposed.items():
        topic_moves = moves.setdefault(tp.topic, {})
        running = topic_moves.get(tp.partition)
        sources = running.sources if running is not None else frozenset(current.get(tp, ()))
        topic_moves[tp.partition] = PartitionMove(
            sources=sources, destinations=frozenset(b for b in replicas if b not in sources)
        )
    return moves


def leader_throttles(moves: Mapping[str, Mapping[int, PartitionMove]]) -> dict[str, str]:
    """Per topic, `partition:broker` of every source (calculateLeaderThrottles)."""
    return {
        topic: ",".join(sorted(f"{p}:{b}" for p, m in parts.items() for b in m.sources))
        for topic, parts in moves.items()
    }


def follower_throttles(moves: Mapping[str, Mapping[int, PartitionMove]]) -> dict[str, str]:
    """Per topic, `partition:broker` of every destination that is not a source (calculateFollowerThrottles).

    A topic whose partitions only reorder their replicas gets an empty list, set as such, as Kafka does.
    """
    return {
        topic: ",".join(
            sorted(f"{p}:{b}" for p, m in parts.items() for b in m.destinations if b not in m.sources)
        )
        for topic, parts in moves.items()
    }


def reassigning_brokers(moves: Mapping[str, Mapping[int, PartitionMove]]) -> set[int]:
    brokers: set[int] = set()
    for parts in moves.values():
        for m in parts.values():
            brokers |= m.sources
            brokers |= m.destinations
    return brokers


def log_dir_moving_brokers(entries: Iterable[ReassignmentEntry]) -> set[int]:
    return {broker for _, broker in log_dir_moves(entries)}


def throttle_plan(
    *,
    entries: Iterable[ReassignmentEntry],
    current: Mapping[TopicPartition, tuple[int, ...]],
    ongoing: Iterable[OngoingReassignment],
    interbroker_rate: int,
    log_dir_rate: int,
) -> ThrottlePlan:
    """The configs --execute sets for `--throttle interbroker_rate` / `--replica-alter-log-dirs-throttle`.

    A negative rate means no throttle of that kind (the original's -1 default).
    """
    entries = list(entries)
    topic_configs: dict[str, dict[str, str]] = {}
    broker_configs: dict[int, dict[str, str]] = {}
    if interbroker_rate >= 0:
        proposed = {e.partition: e.replicas for e in entries}
        moves = move_map(ongoing, proposed, current)
        for topic, value in leader_throttles(moves).items():
            topic_configs.setdefault(topic, {})[LEADER_THROTTLED_REPLICAS] = value
        for topic, value in follower_throttles(moves).items():
            topic_configs.setdefault(topic, {})[FOLLOWER_THROTTLED_REPLICAS] = value
        for b in reassigning_brokers(moves):
            broker_configs.setdefault(b, {}).update(
                {LEADER_THROTTLED_RATE: str(interbroker_rate), FOLLOWER_THROTTLED_RATE: str(interbroker_rate)}
            )
    if log_dir_rate >= 0:
        for b in log_dir_moving_brokers(entries):
            broker_configs.setdefault(b, {})[LOG_DIR_THROTTLED_RATE] = str(log_dir_rate)
    return ThrottlePlan(
        topic_configs={t: dict(sorted(c.items())) for t, c in sorted(topic_configs.items())},
        broker_configs={b: dict(sorted(c.items())) for b, c in sorted(broker_configs.items())},
        interbroker_rate=interbroker_rate if interbroker_rate >= 0 else None,
        log_dir_rate=log_dir_rate if log_dir_rate >= 0 else None,
    )


def clear_targets(
    *, cluster_brokers: Iterable[int], file_entries: Iterable[ReassignmentEntry]
) -> tuple[list[int], list[str]]:
    """Brokers and topics whose throttles --verify/--cancel delete: all brokers plus the file's, its topics."""
    entries = list(file_entries)
    brokers = set(cluster_brokers)
    for e in entries:
        brokers.update(e.replicas)
    topics = sorted({e.partition.topic for e in entries})
    return sorted(brokers), topics
