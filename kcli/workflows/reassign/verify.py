"""--verify, --cancel and --list: each partition's state; cancelling restores the originals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.ops.reassign.json_format import ReassignmentFile
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition, sort_key
from kcli.ops.reassign.throttle import clear_targets
from kcli.ops.reassign.verify import (
    LogDirMoveState,
    ReplicaDirState,
    VerifyResult,
    cancellable,
    in_flight,
    log_dir_states,
    partition_states,
)
from kcli.workflows.reassign.reads import current_replicas, log_dirs_quietly
from kcli.workflows.reassign.throttles import clear_throttles

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def log_dir_move_states(admin: Admin, file: ReassignmentFile) -> tuple[LogDirMoveState, ...]:
    """Where each replica the file places in a named log dir is, as --verify reports it."""
    wanted = file.log_dir_moves
    if not wanted:
        return ()
    from kcli.client.api.log_dirs import BrokerLogDirs

    brokers = sorted({b for _, b in wanted})
    reports = await log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in wanted}, key=sort_key))
    observed: dict[tuple[TopicPartition, int], ReplicaDirState] = {}
    for tp, b in wanted:
        report = reports.get(b)
        if not isinstance(report, BrokerLogDirs):
            continue
        dirs = report.replicas.get(tp, [])
        current = next((d.log_dir for d in dirs if not d.is_future), None)
        future = next((d.log_dir for d in dirs if d.is_future), None)
        observed[(tp, b)] = ReplicaDirState(
            current=current, future=future, broker_has_offline_dir=bool(report.offline_dirs)
        )
    return log_dir_states(wanted, observed)


@dataclass(frozen=True, slots=True, kw_only=True)
class VerifyReport:
    result: VerifyResult
    log_dirs: tuple[LogDirMoveState, ...]
    clear_errors: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ThrottleCleanup:
    """What --execute --wait did with the throttles it set once its partitions were done."""

    cleared_brokers: tuple[int, ...] = ()
    cleared_topics: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()
    kept_because: str | None = None  # why they stay (--preserve-throttles, other moves running)


async def remove_throttles_when_done(admin: Admin, file: ReassignmentFile) -> ThrottleCleanup:
    """After --execute --wait: remove the throttles as --verify does, unless something still moves.

    The rates are per broker and shared by every running reassignment, so, as Kafka's --verify,
    they stay while any reassignment in the cluster or any log-dir move of the file is running.
    """
    from kcli.client.api.reassign import list_reassignments

    ongoing = await list_reassignments(admin)
    if ongoing:
        return ThrottleCleanup(
            kept_because=f"{len(ongoing)} partition reassignment(s) still running in the cluster"
        )
    if in_flight(await log_dir_move_states(admin, file)):
        return ThrottleCleanup(kept_because="log-dir moves of the file are still running")
    brokers, topics = clear_targets(cluster_brokers=admin.nodes, file_entries=file.entries)
    errors = await clear_throttles(admin, brokers, topics)
    return ThrottleCleanup(cleared_brokers=tuple(brokers), cleared_topics=tuple(topics), errors=tuple(errors))


async def do_verify(admin: Admin, file: ReassignmentFile, *, preserve_throttles: bool) -> VerifyReport:
    """--verify: each partition's state; throttles removed once nothing is moving anywhere."""
    from kcli.client.api.reassign import list_reassignments

    ongoing = await list_reassignments(admin)
    current = await current_replicas(admin, file)
    states = partition_states(file.targets, current=current, ongoing=ongoing)
    moves = await log_dir_move_states(admin, file)
    result = VerifyResult(states=states, any_ongoing=bool(ongoing))
    errors: list[str] = []
    if not ongoing and not in_flight(moves) and not preserve_throttles:
        brokers, topics = clear_targets(cluster_brokers=admin.nodes, file_entries=file.entries)
        errors = await clear_throttles(admin, brokers, topics)
        result = VerifyResult(
            states=states, any_ongoing=False, cleared_brokers=tuple(brokers), cleared_topics=tuple(topics)
        )
    return VerifyReport(result=result, log_dirs=moves, clear_errors=tuple(errors))


@dataclass(frozen=True, slots=True, kw_only=True)
class CancelReport:
    cancelled: tuple[TopicPartition, ...]
    errors: Mapping[TopicPartition, str]
    restored: Mapping[TopicPartition, tuple[int, ...]]  # replicas after cancelling (the originals)
    cleared_brokers: tuple[int, ...] = ()
    cleared_topics: tuple[str, ...] = ()
    clear_errors: tuple[str, ...] = ()
    log_dir_checked: bool = False  # False with --bootstrap-controller (no DescribeLogDirs there)
    # (partition, broker, current dir): moves sent back to the dir the replica is in, as Kafka does
    log_dir_cancelled: tuple[tuple[TopicPartition, int, str], ...] = ()


async def do_cancel(admin: Admin, file: ReassignmentFile, *, preserve_throttles: bool) -> CancelReport:
    """--cancel: cancel the file's running reassignments (the controller restores the original replicas)."""
    from kcli.client.api.reassign import alter_reassignments, list_reassignments
    from kcli.kafka import EndpointType

    targets = sorted(file.targets, key=sort_key)
    ongoing = await list_reassignments(admin, targets)
    chosen = cancellable(targets, ongoing)
    errors: dict[TopicPartition, str] = {}
    if chosen:
        results = await alter_reassignments(
            admin, dict.fromkeys(chosen, None), allow_replication_factor_change=True
        )
        errors = {tp: err.line() for tp, err in results.items() if err is not None}
    restored = {
        tp: tuple(b for b in ongoing[tp].replicas if b not in ongoing[tp].adding)
        for tp in chosen
        if tp not in errors
    }
    log_dir_checked = admin.endpoint_type is EndpointType.BROKERS
    log_dir_cancelled: list[tuple[TopicPartition, int, str]] = []
    if log_dir_checked:
        log_dir_cancelled = await _cancel_log_dir_moves(admin, file)
    cleared_b: list[int] = []
    cleared_t: list[str] = []
    clear_errors: list[str] = []
    if not preserve_throttles:
        cluster = admin.nodes if log_dir_checked else ()
        extra = {b for r in ongoing.values() for b in r.replicas}
        cleared_b, cleared_t = clear_targets(cluster_brokers=[*cluster, *extra], file_entries=file.entries)
        clear_errors = await clear_throttles(admin, cleared_b, cleared_t)
    return CancelReport(
        cancelled=tuple(tp for tp in chosen if tp not in errors),
        errors=errors,
        restored=restored,
        cleared_brokers=tuple(cleared_b),
        cleared_topics=tuple(cleared_t),
        clear_errors=tuple(clear_errors),
        log_dir_checked=log_dir_checked,
        log_dir_cancelled=tuple(log_dir_cancelled),
    )


async def _cancel_log_dir_moves(
    admin: Admin, file: ReassignmentFile
) -> list[tuple[TopicPartition, int, str]]:
    """Re-point running intra-broker moves of the file's replicas at their current dir (partition, broker, dir)."""
    from kcli.client.api.log_dirs import BrokerLogDirs, alter_replica_log_dirs

    wanted = {(e.partition, b) for e in file.entries if e.has_log_dir_moves() for b in e.replicas}
    if not wanted:
        return []
    brokers = sorted({b for _, b in wanted})
    reports = await log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in wanted}, key=sort_key))
    cancelled: list[tuple[TopicPartition, int, str]] = []
    for b in brokers:
        report = reports.get(b)
        if not isinstance(report, BrokerLogDirs):
            continue
        back: dict[TopicPartition, str] = {}
        for tp, dirs in report.replicas.items():
            if (tp, b) in wanted and any(d.is_future for d in dirs):
                current = next((d.log_dir for d in dirs if not d.is_future), None)
                if current is not None:
                    back[tp] = current
        if back:
            results = await alter_replica_log_dirs(admin, b, back)
            cancelled.extend((tp, b, back[tp]) for tp, err in results.items() if err is None)
    return sorted(cancelled, key=lambda k: (sort_key(k[0]), k[1]))


async def do_list(admin: Admin) -> dict[TopicPartition, OngoingReassignment]:
    """--list: every ongoing reassignment."""
    from kcli.client.api.reassign import list_reassignments

    return await list_reassignments(admin)
