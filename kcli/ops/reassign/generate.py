"""--generate: the current assignment of the chosen topics and a proposed one, with its cost."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from kcli.errors import KcliError
from kcli.ops.reassign.minimal import plan_minimal
from kcli.ops.reassign.model import Assignment, BrokerInfo, TopicPartition
from kcli.ops.reassign.original import plan_original, resolve_rack_awareness
from kcli.ops.reassign.stats import PlanStats, plan_stats


class Strategy(StrEnum):
    ORIGINAL = "original"
    MINIMAL_MOVEMENT = "minimal-movement"


@dataclass(frozen=True, slots=True, kw_only=True)
class GeneratePlan:
    """What --generate prints: both assignments, the current log dirs, and the plan's cost."""

    strategy: Strategy
    rack_aware: bool
    current: Mapping[TopicPartition, tuple[int, ...]]
    current_log_dirs: Mapping[TopicPartition, tuple[str, ...]]
    proposed: Mapping[TopicPartition, tuple[int, ...]]
    stats: PlanStats
    # --log-dir: the proposed log dir of each replica of the partitions it places ("any" elsewhere)
    proposed_log_dirs: Mapping[TopicPartition, tuple[str, ...]] = field(default_factory=dict)


def select_brokers(broker_list: Sequence[int], cluster: Mapping[int, str | None]) -> list[BrokerInfo]:
    """The --broker-list brokers that exist (the original silently drops the others)."""
    chosen = [BrokerInfo(broker_id=b, rack=cluster[b]) for b in broker_list if b in cluster]
    if not chosen:
        raise KcliError(
            f"None of the brokers in --broker-list ({','.join(map(str, broker_list))}) exist; "
            f"the cluster's brokers are {','.join(map(str, sorted(cluster)))}"
        )
    return sorted(chosen, key=lambda b: b.broker_id)


def generate(
    *,
    current: Assignment,
    brokers: Sequence[BrokerInfo],
    strategy: Strategy,
    disable_rack_aware: bool,
    seed: int | None,
    sizes: Mapping[TopicPartition, int] | None = None,
    current_log_dirs: Mapping[TopicPartition, tuple[str, ...]] | None = None,
    replication_factor: int | None = None,
    log_dirs: Mapping[int, str] | None = None,
) -> GeneratePlan:
    """Plan with the chosen strategy; nothing here touches the cluster.

    `replication_factor` (minimal-movement only) changes every partition's replica count;
    `log_dirs` (broker -> dir) keeps every replica on its broker and places those brokers' replicas
    in those log dirs: a move between the disks of a broker, never between brokers.
    """
    rack_aware = resolve_rack_awareness(brokers, disable_rack_aware=disable_rack_aware)
    if log_dirs:
        outside = sorted({b for r in current.values() for b in r} - {b.broker_id for b in brokers})
        if outside:
            raise KcliError(
                f"--log-dir keeps every replica on its broker, but brokers {','.join(map(str, outside))} "
                "holding replicas of these topics are not in --broker-list"
            )
        proposed: dict[TopicPartition, tuple[int, ...]] = dict(current)
    elif strategy is Strategy.MINIMAL_MOVEMENT:
        proposed = plan_minimal(
            current, brokers, rack_aware=rack_aware, replication_factor=replication_factor, sizes=sizes
        )
    elif replication_factor is not None:
        raise KcliError("--replication-factor needs --strategy minimal-movement")
    else:
        proposed = plan_original(current, brokers, rack_aware=rack_aware, seed=seed)
    racks = {b.broker_id: b.rack for b in brokers}
    return GeneratePlan(
        strategy=strategy,
        rack_aware=rack_aware,
        current=current,
        current_log_dirs=current_log_dirs or {},
        proposed=proposed,
        stats=plan_stats(current, proposed, racks=racks, sizes=sizes),
        proposed_log_dirs=placed_in(proposed, log_dirs or {}),
    )


def placed_in(
    proposed: Mapping[TopicPartition, tuple[int, ...]], log_dirs: Mapping[int, str]
) -> dict[TopicPartition, tuple[str, ...]]:
    """The log_dirs of each proposed partition with a replica on a broker of `log_dirs`."""
    return {
        tp: tuple(log_dirs.get(b, "any") for b in replicas)
        for tp, replicas in proposed.items()
        if any(b in log_dirs for b in replicas)
    }
