"""The reassignment actions as async workflows over the Admin client (the CLI runs one of them).

Each workflow reads what it needs, validates before changing anything (a KcliError, exit 1, when
the cluster refutes the request), then changes the cluster and returns a result value for
kcli.render.reassign. Wire calls live in kcli.client.api.{topics,reassign,log_dirs} and
kcli.client.api.configs.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.client.errors import code_of
from kcli.errors import KcliError
from kcli.ops.reassign.generate import GeneratePlan, Strategy, generate, select_brokers
from kcli.ops.reassign.json_format import ReassignmentFile, format_reassignment
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition, sort_key
from kcli.ops.reassign.throttle import (
    BROKER_THROTTLE_KEYS,
    TOPIC_THROTTLE_KEYS,
    ThrottlePlan,
    clear_targets,
    throttle_plan,
)
from kcli.ops.reassign.validate import check_against_cluster
from kcli.ops.reassign.verify import (
    LogDirMoveState,
    PartitionState,
    ReplicaDirState,
    Status,
    VerifyResult,
    cancellable,
    in_flight,
    log_dir_states,
    partition_states,
)

REPLICA_NOT_AVAILABLE = code_of("REPLICA_NOT_AVAILABLE")

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.log_dirs import BrokerLogDirs

EXISTING_REASSIGNMENT = (
    "Cannot execute because there is an existing partition assignment.  Use --additional to override "
    "this and create a new partition assignment in addition to the existing one. The --additional flag "
    "can also be used to change the throttle by resubmitting the current reassignment."
)


# --- shared reads ---------------------------------------------------------------------------------


async def _log_dirs_quietly(
    admin: Admin, brokers: Sequence[int], partitions: Sequence[TopicPartition]
) -> Mapping[int, BrokerLogDirs | KcliError]:
    """DescribeLogDirs where possible: sizes and dirs are extras, a failure must not stop a plan."""
    from kcli.client.api.log_dirs import describe_log_dirs

    if not brokers or not partitions:
        return {}
    try:
        return await describe_log_dirs(admin, brokers, partitions)
    except KcliError as error:
        return dict.fromkeys(brokers, error)


def _missing_topics(missing: Sequence[str]) -> None:
    if missing:
        raise KcliError(
            f"Topic {missing[0]} not found." + (f" (also {', '.join(missing[1:])})" if missing[1:] else "")
        )


# --- generate -------------------------------------------------------------------------------------


async def do_generate(
    admin: Admin,
    *,
    topics: Sequence[str],
    broker_list: Sequence[int],
    strategy: Strategy,
    disable_rack_aware: bool,
    seed: int | None,
) -> GeneratePlan:
    """--generate: read the topics' replicas and the brokers' racks and log dirs, then plan."""
    from kcli.client.api.log_dirs import partition_sizes, replica_log_dirs
    from kcli.client.api.topics import describe_assignments

    described = await describe_assignments(admin, topics)
    _missing_topics(described.missing)
    brokers = select_brokers(broker_list, described.racks)
    current = described.replicas
    hosting = sorted({b for r in current.values() for b in r if b in described.racks})
    dirs = await _log_dirs_quietly(admin, hosting, sorted(current, key=sort_key))
    sizes = partition_sizes(dirs) if any(not isinstance(v, KcliError) for v in dirs.values()) else None
    return generate(
        current=current,
        brokers=brokers,
        strategy=strategy,
        disable_rack_aware=disable_rack_aware,
        seed=seed,
        sizes=sizes,
        current_log_dirs=replica_log_dirs(dirs, current),
    )


# --- execute --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ExecutePrepared:
    """Everything read and checked before --execute changes anything."""

    current: dict[TopicPartition, tuple[int, ...]]
    current_log_dirs: dict[TopicPartition, tuple[str, ...]]
    throttle: ThrottlePlan

    @property
    def rollback_json(self) -> str:
        return format_reassignment(self.current, self.current_log_dirs)


@dataclass(frozen=True, slots=True, kw_only=True)
class ExecuteResult:
    prepared: ExecutePrepared
    rollback_path: str | None
    started: tuple[TopicPartition, ...]
    errors: Mapping[TopicPartition, str]
    log_dir_started: tuple[tuple[TopicPartition, int, str], ...] = ()
    log_dir_timed_out: tuple[tuple[TopicPartition, int], ...] = ()
    log_dir_errors: Mapping[tuple[TopicPartition, int], str] = field(default_factory=dict)


def write_rollback(path: Path, text: str) -> None:
    """Write the rollback file atomically; any failure stops --execute before it changes anything."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(text + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise KcliError(
            f"could not write the rollback file {path}: {error.strerror or error}; nothing was changed",
            hint="choose another --rollback-file",
        ) from None


async def do_execute(
    admin: Admin,
    file: ReassignmentFile,
    *,
    additional: bool,
    interbroker_throttle: int,
    log_dir_throttle: int,
    timeout_ms: int,
    allow_replication_factor_change: bool,
    checkpoint: Callable[[ExecutePrepared], str | None],
) -> ExecuteResult:
    """--execute: validate, checkpoint (the rollback file), throttle, start, then start log-dir moves.

    `checkpoint` runs after every check and before the first change; if it raises, nothing changed.
    """
    from kcli.client.api.log_dirs import replica_log_dirs
    from kcli.client.api.reassign import alter_reassignments, list_reassignments
    from kcli.client.api.topics import describe_assignments

    described = await describe_assignments(admin, file.topics)
    ongoing = await list_reassignments(admin)
    # While a partition moves, its replica list holds the leaving replicas too: its replication
    # factor is that of the running reassignment's target.
    settled = {tp: (ongoing[tp].target if tp in ongoing else r) for tp, r in described.replicas.items()}
    check_against_cluster(
        file,
        brokers=described.racks,
        current=settled,
        allow_replication_factor_change=allow_replication_factor_change,
    )
    if ongoing and not additional:
        raise KcliError(EXISTING_REASSIGNMENT)
    targets = file.targets
    current = {tp: described.replicas[tp] for tp in sorted(targets, key=sort_key)}
    hosting = sorted({b for r in current.values() for b in r})
    dirs = await _log_dirs_quietly(admin, hosting, list(current))
    prepared = ExecutePrepared(
        current=current,
        current_log_dirs=replica_log_dirs(dirs, current),
        throttle=throttle_plan(
            entries=file.entries,
            current=described.replicas,
            ongoing=ongoing.values(),
            interbroker_rate=interbroker_throttle,
            log_dir_rate=log_dir_throttle,
        ),
    )
    rollback_path = checkpoint(prepared)
    if not prepared.throttle.empty:
        await set_throttles(admin, prepared.throttle)
    results = await alter_reassignments(
        admin, targets, allow_replication_factor_change=allow_replication_factor_change
    )
    errors = {tp: err.line() for tp, err in results.items() if err is not None}
    started = tuple(tp for tp in sorted(targets, key=sort_key) if tp not in errors)
    moves = {
        (e.partition, b): d
        for e in file.entries
        if e.log_dirs is not None
        for b, d in zip(e.replicas, e.log_dirs, strict=True)
        if d != "any"
    }
    if moves:
        moves = await _needed_log_dir_moves(admin, moves)
    accepted: tuple[tuple[TopicPartition, int, str], ...] = ()
    timed_out: tuple[tuple[TopicPartition, int], ...] = ()
    move_errors: dict[tuple[TopicPartition, int], str] = {}
    if moves and not errors:
        accepted, timed_out, move_errors = await _start_log_dir_moves(admin, moves, timeout_ms)
    return ExecuteResult(
        prepared=prepared,
        rollback_path=rollback_path,
        started=started,
        errors=errors,
        log_dir_started=accepted,
        log_dir_timed_out=timed_out,
        log_dir_errors=move_errors,
    )


async def _needed_log_dir_moves(
    admin: Admin, moves: Mapping[tuple[TopicPartition, int], str]
) -> dict[tuple[TopicPartition, int], str]:
    """Drop moves that change nothing: the replica is already in that dir, or it is the broker's only dir.

    A rollback file carries each replica's real log dir (as Kafka 4.2 writes it); re-applying it must
    not ask brokers to move replicas where they already are.
    """
    from kcli.client.api.log_dirs import BrokerLogDirs

    brokers = sorted({b for _, b in moves})
    reports = await _log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in moves}, key=sort_key))
    needed: dict[tuple[TopicPartition, int], str] = {}
    for (tp, b), path in moves.items():
        report = reports.get(b)
        if isinstance(report, BrokerLogDirs):
            current = [d.log_dir for d in report.replicas.get(tp, []) if not d.is_future]
            if current == [path] or report.live_dirs == (path,):
                continue
        needed[(tp, b)] = path
    return needed


async def _start_log_dir_moves(
    admin: Admin, moves: Mapping[tuple[TopicPartition, int], str], timeout_ms: int
) -> tuple[
    tuple[tuple[TopicPartition, int, str], ...],
    tuple[tuple[TopicPartition, int], ...],
    dict[tuple[TopicPartition, int], str],
]:
    """AlterReplicaLogDirs every 100 ms until each move is accepted or --timeout passes."""
    from kcli.client.api.log_dirs import alter_replica_log_dirs

    pending = dict(moves)
    accepted: list[tuple[TopicPartition, int, str]] = []
    errors: dict[tuple[TopicPartition, int], str] = {}
    deadline = time.monotonic() + timeout_ms / 1000
    while pending:
        by_broker: dict[int, dict[TopicPartition, str]] = {}
        for (tp, b), d in pending.items():
            by_broker.setdefault(b, {})[tp] = d
        for broker, wanted in by_broker.items():
            try:
                results = await alter_replica_log_dirs(admin, broker, wanted)
            except KcliError as error:
                for tp in wanted:
                    errors[(tp, broker)] = error.line()
                    pending.pop((tp, broker), None)
                continue
            for tp, err in results.items():
                key = (tp, broker)
                if key not in pending:
                    continue
                if err is None:
                    accepted.append((tp, broker, pending.pop(key)))
                elif err.code != REPLICA_NOT_AVAILABLE:
                    errors[key] = err.line()
                    pending.pop(key)
        if not pending or time.monotonic() >= deadline:
            break
        await asyncio.sleep(0.1)
    return tuple(accepted), tuple(sorted(pending, key=lambda k: (sort_key(k[0]), k[1]))), errors


# --- throttles ------------------------------------------------------------------------------------


async def set_throttles(admin: Admin, plan: ThrottlePlan) -> None:
    """SET the plan's topic and broker configs; any failure stops --execute before it starts moving."""
    from kcli.kafka import ConfigOp
    from kcli.ops.config_spec import ConfigChange, ConfigChanges

    topic = {
        t: ConfigChanges(changes=tuple(ConfigChange(key=k, op=ConfigOp.SET, value=v) for k, v in c.items()))
        for t, c in plan.topic_configs.items()
    }
    broker = {
        b: ConfigChanges(changes=tuple(ConfigChange(key=k, op=ConfigOp.SET, value=v) for k, v in c.items()))
        for b, c in plan.broker_configs.items()
    }
    failures = await alter_configs(admin, topic, broker)
    if failures:
        raise KcliError(
            "could not set the replication throttles: "
            + "; ".join(failures)
            + "; no reassignment was started"
        )


async def clear_throttles(admin: Admin, brokers: Sequence[int], topics: Sequence[str]) -> list[str]:
    """DELETE the throttle configs on `brokers` and `topics`; the failures, one line each."""
    from kcli.kafka import ConfigOp
    from kcli.ops.config_spec import ConfigChange, ConfigChanges

    topic_changes = ConfigChanges(
        changes=tuple(ConfigChange(key=k, op=ConfigOp.DELETE) for k in TOPIC_THROTTLE_KEYS)
    )
    broker_changes = ConfigChanges(
        changes=tuple(ConfigChange(key=k, op=ConfigOp.DELETE) for k in BROKER_THROTTLE_KEYS)
    )
    return await alter_configs(
        admin, dict.fromkeys(topics, topic_changes), dict.fromkeys(brokers, broker_changes)
    )


async def alter_configs(
    admin: Admin, topics: Mapping[str, object], brokers: Mapping[int, object]
) -> list[str]:
    """IncrementalAlterConfigs for topic and broker resources; returns failure lines.

    With brokers, kcli.client.api.configs routes each broker resource to its broker. With
    --bootstrap-controller every resource goes to the active controller in one request, since the
    controller quorum does not list the brokers as nodes.
    """
    from kcli.client.api.configs import incremental_alter_configs
    from kcli.kafka import EndpointType
    from kcli.ops.config_spec import ConfigChanges, Entity, EntityType

    items: list[tuple[Entity, ConfigChanges]] = []
    for t, c in topics.items():
        assert isinstance(c, ConfigChanges)
        items.append((Entity(type=EntityType.TOPICS, name=t), c))
    for b, c in brokers.items():
        assert isinstance(c, ConfigChanges)
        items.append((Entity(type=EntityType.BROKERS, name=str(b)), c))
    if not items:
        return []
    if admin.endpoint_type is EndpointType.CONTROLLERS:
        from kcli.client.api.reassign import alter_configs_on_controller

        results = await alter_configs_on_controller(admin, items)
    else:
        results = await incremental_alter_configs(admin, items, validate_only=False)
    return [
        f"{entity.label}: {err.line()}"
        for (entity, _), err in zip(items, results, strict=True)
        if err is not None
    ]


# --- verify / cancel / list -----------------------------------------------------------------------


async def _current_of(admin: Admin, file: ReassignmentFile) -> dict[TopicPartition, tuple[int, ...]]:
    from kcli.client.api.topics import describe_assignments

    described = await describe_assignments(admin, file.topics)
    for tp in sorted(file.targets, key=sort_key):
        if tp not in described.replicas:
            raise KcliError(f"Unable to find partition: {tp}")
    return described.replicas


async def _log_dir_moves(admin: Admin, file: ReassignmentFile) -> tuple[LogDirMoveState, ...]:
    wanted = {
        (e.partition, b): d
        for e in file.entries
        if e.log_dirs is not None
        for b, d in zip(e.replicas, e.log_dirs, strict=True)
        if d != "any"
    }
    if not wanted:
        return ()
    from kcli.client.api.log_dirs import BrokerLogDirs

    brokers = sorted({b for _, b in wanted})
    reports = await _log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in wanted}, key=sort_key))
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


async def do_verify(admin: Admin, file: ReassignmentFile, *, preserve_throttles: bool) -> VerifyReport:
    """--verify: each partition's state; throttles removed once nothing is moving anywhere."""
    from kcli.client.api.reassign import list_reassignments

    ongoing = await list_reassignments(admin)
    current = await _current_of(admin, file)
    states = partition_states(file.targets, current=current, ongoing=ongoing)
    moves = await _log_dir_moves(admin, file)
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
    reports = await _log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in wanted}, key=sort_key))
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


# --- watching progress (--execute --wait) ---------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionProgress:
    """How far one partition's reassignment has come: bytes copied to its new replicas, or replicas."""

    partition: TopicPartition
    target: tuple[int, ...]
    adding: tuple[int, ...]
    done: bool
    bytes_done: int
    bytes_total: int  # 0 when sizes are unknown: progress is then counted in replicas

    @property
    def fraction(self) -> float:
        if self.done:
            return 1.0
        if self.bytes_total > 0:
            return min(1.0, self.bytes_done / self.bytes_total)
        return (len(self.target) - len(self.adding)) / max(1, len(self.target))


@dataclass(frozen=True, slots=True, kw_only=True)
class WaitResult:
    progress: tuple[PartitionProgress, ...]
    timed_out: bool
    states: tuple[PartitionState, ...] = ()

    @property
    def pending(self) -> tuple[TopicPartition, ...]:
        return tuple(p.partition for p in self.progress if not p.done)


async def poll_progress(
    admin: Admin, targets: Mapping[TopicPartition, tuple[int, ...]]
) -> tuple[PartitionProgress, ...]:
    """One look at the reassignments of `targets`: ListPartitionReassignments, then DescribeLogDirs."""
    from kcli.client.api.log_dirs import BrokerLogDirs
    from kcli.client.api.reassign import list_reassignments

    parts = sorted(targets, key=sort_key)
    ongoing = await list_reassignments(admin, parts)
    brokers = sorted({b for r in ongoing.values() for b in r.replicas})
    reports = await _log_dirs_quietly(admin, brokers, sorted(ongoing, key=sort_key)) if ongoing else {}

    def size(broker: int, tp: TopicPartition) -> int | None:
        report = reports.get(broker)
        if not isinstance(report, BrokerLogDirs):
            return None
        sizes = [d.size for d in report.replicas.get(tp, []) if not d.is_future]
        return max(sizes) if sizes else 0

    out: list[PartitionProgress] = []
    for tp in parts:
        r = ongoing.get(tp)
        if r is None:
            out.append(
                PartitionProgress(
                    partition=tp, target=targets[tp], adding=(), done=True, bytes_done=0, bytes_total=0
                )
            )
            continue
        sources = [s for s in (size(b, tp) for b in r.replicas if b not in r.adding) if s is not None]
        total = max(sources, default=0)
        copied = [size(b, tp) for b in r.adding]
        known = total > 0 and all(c is not None for c in copied)
        out.append(
            PartitionProgress(
                partition=tp,
                target=r.target,
                adding=r.adding,
                done=False,
                bytes_done=sum(min(c or 0, total) for c in copied) if known else 0,
                bytes_total=total * len(r.adding) if known else 0,
            )
        )
    return tuple(out)


async def watch(
    admin: Admin,
    targets: Mapping[TopicPartition, tuple[int, ...]],
    *,
    timeout_ms: int,
    on_progress: Callable[[tuple[PartitionProgress, ...]], None],
    interval_s: float = 0.5,
) -> WaitResult:
    """Poll until every partition of `targets` is done or `timeout_ms` passes.

    A poll that fails on the network (a broker or controller restarting, a rebootstrap) is skipped,
    not fatal: the loop keeps going until the deadline.
    """
    from kcli.client.errors import ConnectionFailed, KafkaError, RequestTimedOut

    deadline = time.monotonic() + timeout_ms / 1000
    last: tuple[PartitionProgress, ...] = tuple(
        PartitionProgress(partition=tp, target=t, adding=t, done=False, bytes_done=0, bytes_total=0)
        for tp, t in sorted(targets.items(), key=lambda kv: sort_key(kv[0]))
    )
    while True:
        try:
            last = await poll_progress(admin, targets)
            on_progress(last)
        except (ConnectionFailed, RequestTimedOut, KafkaError):
            pass
        if all(p.done for p in last):
            break
        if time.monotonic() + interval_s >= deadline:
            return WaitResult(progress=last, timed_out=True)
        await asyncio.sleep(interval_s)
    try:
        current = await _current_of(admin, _file_of(targets))
    except (ConnectionFailed, RequestTimedOut, KafkaError):
        return WaitResult(progress=last, timed_out=False)  # done; the final read failed: no state lines
    states = partition_states(targets, current=current, ongoing={})
    return WaitResult(progress=last, timed_out=False, states=states)


def _file_of(targets: Mapping[TopicPartition, tuple[int, ...]]) -> ReassignmentFile:
    from kcli.ops.reassign.json_format import ReassignmentEntry

    return ReassignmentFile(
        entries=tuple(ReassignmentEntry(partition=tp, replicas=r) for tp, r in targets.items())
    )


__all__ = [
    "CancelReport",
    "ExecutePrepared",
    "ExecuteResult",
    "PartitionProgress",
    "Status",
    "VerifyReport",
    "WaitResult",
    "do_cancel",
    "do_execute",
    "do_generate",
    "do_list",
    "do_verify",
    "watch",
    "write_rollback",
]
