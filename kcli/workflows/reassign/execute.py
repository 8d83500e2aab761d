"""--execute: validate against the cluster, save the rollback file, throttle, then reassign."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.client.errors import code_of
from kcli.errors import KcliError
from kcli.ops.reassign.json_format import ReassignmentFile, format_reassignment
from kcli.ops.reassign.model import TopicPartition, sort_key
from kcli.ops.reassign.throttle import ThrottlePlan, throttle_plan
from kcli.ops.reassign.validate import check_against_cluster
from kcli.workflows.reassign.reads import log_dirs_quietly
from kcli.workflows.reassign.throttles import set_throttles

REPLICA_NOT_AVAILABLE = code_of("REPLICA_NOT_AVAILABLE")

if TYPE_CHECKING:
    from kcli.client.admin import Admin


EXISTING_REASSIGNMENT = (
    "Cannot execute because there is an existing partition assignment.  Use --additional to override "
    "this and create a new partition assignment in addition to the existing one. The --additional flag "
    "can also be used to change the throttle by resubmitting the current reassignment."
)


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


def default_rollback_path(environ: Mapping[str, str]) -> Path:
    """$XDG_STATE_HOME/kcli/rollback/reassignment-rollback-<time>.json (~/.local/state when unset)."""
    import time

    from kcli.writes import WriteFailed, make_directories

    base = environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    folder = Path(base) / "kcli" / "rollback"
    try:
        make_directories(folder, what="the rollback directory")
    except WriteFailed as failed:
        raise KcliError(f"{failed.message}; nothing was changed", hint="give --rollback-file") from None
    return folder / time.strftime(f"reassignment-rollback-%Y%m%d-%H%M%S-{os.getpid()}.json")


def write_rollback(path: Path, text: str) -> None:
    """Write the rollback file atomically; any failure stops --execute before it changes anything."""
    from kcli.writes import WriteFailed, write_file

    try:
        write_file(path, text + "\n", what="the rollback file")
    except WriteFailed as failed:
        raise KcliError(
            f"{failed.message}; nothing was changed on the cluster",
            hint=failed.hint or "choose another --rollback-file",
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
    dirs = await log_dirs_quietly(admin, hosting, list(current))
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
    moves = file.log_dir_moves
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
    reports = await log_dirs_quietly(admin, brokers, sorted({tp for tp, _ in moves}, key=sort_key))
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
