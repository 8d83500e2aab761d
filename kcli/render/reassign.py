"""Output of `kcli reassign-partitions`: kafka-reassign-partitions.sh's exact lines, JSON, rich tables.

Pure functions of the result values in kcli.ops.reassign (plus the live progress view for --wait).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kcli.ops import log_dirs
from kcli.ops.reassign.json_format import format_reassignment
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition, join_ints, sort_key
from kcli.ops.reassign.verify import PartitionState, Status

if TYPE_CHECKING:
    from rich.console import RenderableType

    from kcli.env import Env
    from kcli.ops.reassign.generate import GeneratePlan
    from kcli.ops.reassign.stats import PlanStats
    from kcli.workflows.reassign.execute import ExecutePrepared, ExecuteResult
    from kcli.workflows.reassign.progress import PartitionProgress, WaitResult
    from kcli.workflows.reassign.verify import CancelReport, ThrottleCleanup, VerifyReport

SAVE_FOR_ROLLBACK = "Save this to use as the --reassignment-json-file option during rollback"
THROTTLE_WARNING = (
    "Warning: You must run --verify periodically, until the reassignment completes, to ensure the throttle "
    "is removed."
)


def _plural(word: str, n: int) -> str:
    return word if n == 1 else word + "s"


def _partitions(parts: Iterable[TopicPartition]) -> str:
    return ",".join(str(tp) for tp in parts)


def human_bytes(n: int | None) -> str:
    return "unknown size" if n is None else log_dirs.human_bytes(n)


# --- generate -------------------------------------------------------------------------------------


def stats_line(plan: GeneratePlan) -> str:
    """One line on what the plan costs (kcli addition, printed after the original's blocks)."""
    s = plan.stats
    return (
        f"Plan ({plan.strategy.value}{', rack-aware' if plan.rack_aware else ''}): moves {s.replicas_moved} "
        f"{_plural('replica', s.replicas_moved)} ({human_bytes(s.bytes_moved)}) in {s.partitions_changed} of "
        f"{s.partitions} partitions, changes {s.leaders_changed} {_plural('leader', s.leaders_changed)}"
        f"{_load_after(s)}"
    )


def _load_after(s: PlanStats) -> str:
    """What each target broker holds after the plan: one count, or a min-max range when they differ."""
    targets = [b for b in s.brokers if b.in_target]
    if not targets:
        return ""

    def amount(values: list[int], word: str) -> str:
        low, high = min(values), max(values)
        return f"{low} {_plural(word, low)}" if low == high else f"{low}-{high} {word}s"

    replicas = amount([b.replicas_after for b in targets], "replica")
    leaders = amount([b.leaders_after for b in targets], "leader")
    who = (
        "the one target broker holds"
        if len(targets) == 1
        else f"each of the {len(targets)} target brokers holds"
    )
    return f"; after it, {who} {replicas} and {leaders} of these partitions"


def generate_text(plan: GeneratePlan) -> Iterator[str]:
    """The original's two blocks; the minimal-movement strategy adds its cost line."""
    yield "Current partition replica assignment"
    yield format_reassignment(plan.current, plan.current_log_dirs)
    yield ""
    yield "Proposed partition reassignment configuration"
    yield format_reassignment(plan.proposed, plan.proposed_log_dirs)
    if plan.strategy.value != "original":
        yield ""
        yield stats_line(plan)


def _assignment_json(assignment: Mapping[TopicPartition, tuple[int, ...]]) -> dict[str, Any]:
    return {
        "version": 1,
        "partitions": [
            {"topic": tp.topic, "partition": tp.partition, "replicas": list(r), "log_dirs": ["any"] * len(r)}
            for tp, r in sorted(assignment.items(), key=lambda kv: sort_key(kv[0]))
        ],
    }


def stats_json(s: PlanStats) -> dict[str, Any]:
    return {
        "partitions": s.partitions,
        "partitions_changed": s.partitions_changed,
        "replicas_moved": s.replicas_moved,
        "bytes_moved": s.bytes_moved,
        "leaders_changed": s.leaders_changed,
        "replica_spread": s.replica_spread,
        "leader_spread": s.leader_spread,
        "brokers": [
            {
                "broker": b.broker_id,
                "rack": b.rack,
                "replicas_before": b.replicas_before,
                "replicas_after": b.replicas_after,
                "leaders_before": b.leaders_before,
                "leaders_after": b.leaders_after,
            }
            for b in s.brokers
        ],
    }


def generate_json(plan: GeneratePlan) -> dict[str, Any]:
    current = _assignment_json(plan.current)
    for entry in current["partitions"]:
        dirs = plan.current_log_dirs.get(TopicPartition(entry["topic"], entry["partition"]))
        if dirs:
            entry["log_dirs"] = list(dirs)
    proposed = _assignment_json(plan.proposed)
    for entry in proposed["partitions"]:
        dirs = plan.proposed_log_dirs.get(TopicPartition(entry["topic"], entry["partition"]))
        if dirs:
            entry["log_dirs"] = list(dirs)
    return {
        "strategy": plan.strategy.value,
        "rack_aware": plan.rack_aware,
        "current": current,
        "proposed": proposed,
        "stats": stats_json(plan.stats),
    }


def generate_table(plan: GeneratePlan) -> RenderableType:
    from rich.table import Table

    table = Table(title=stats_line(plan), title_justify="left")
    for column in ("Broker", "Rack", "Replicas before", "Replicas after", "Leaders before", "Leaders after"):
        table.add_column(column, justify="left" if column == "Rack" else "right")
    for b in plan.stats.brokers:
        table.add_row(
            str(b.broker_id),
            b.rack or "-",
            str(b.replicas_before),
            str(b.replicas_after),
            str(b.leaders_before),
            str(b.leaders_after),
        )
    return table


# --- execute --------------------------------------------------------------------------------------


def execute_current_text(prepared: ExecutePrepared, rollback_path: str | None) -> Iterator[str]:
    """The block printed before anything changes: the rollback JSON, and where it was saved."""
    yield "Current partition replica assignment"
    yield ""
    yield prepared.rollback_json
    yield ""
    yield SAVE_FOR_ROLLBACK
    if rollback_path is not None:
        yield f"Rollback file written to {rollback_path}"


def moving_line(tp: TopicPartition, broker: int, path: str) -> str:
    """Kafka's executeMoves line for one accepted AlterReplicaLogDirs (its trailing space included)."""
    return f"Successfully started moving log directory to {path} for replica {tp} with broker {broker} "


def execute_result_text(result: ExecuteResult) -> Iterator[str]:
    """Throttle lines, then the start result, then log-dir moves, as the original prints them."""
    throttle = result.prepared.throttle
    if throttle.interbroker_rate is not None or throttle.log_dir_rate is not None:
        yield THROTTLE_WARNING
    if throttle.interbroker_rate is not None:
        yield f"The inter-broker throttle limit was set to {throttle.interbroker_rate} B/s"
    if throttle.log_dir_rate is not None:
        yield f"The replica-alter-dir throttle limit was set to {throttle.log_dir_rate} B/s"
    if result.errors:
        yield "Error reassigning partition(s):"
        for tp in sorted(result.errors, key=sort_key):
            yield f"{tp}: {result.errors[tp]}"
    if result.started:
        word = "reassignment" if len(result.started) == 1 else "reassignments"
        yield f"Successfully started partition {word} for {_partitions(result.started)}"
    yield from (moving_line(tp, broker, path) for tp, broker, path in result.log_dir_started)
    for (tp, broker), message in sorted(
        result.log_dir_errors.items(), key=lambda kv: (sort_key(kv[0][0]), kv[0][1])
    ):
        yield f"Error moving log directory for replica {tp} with broker {broker}: {message}"
    if result.log_dir_timed_out:
        yield "Timed out before log directory move(s) could be started for: " + ",".join(
            f"{tp}-{b}" for tp, b in result.log_dir_timed_out
        )


def execute_json(
    result: ExecuteResult, wait: WaitResult | None = None, cleanup: ThrottleCleanup | None = None
) -> dict[str, Any]:
    prepared = result.prepared
    out: dict[str, Any] = {
        "rollback_file": result.rollback_path,
        "current": _assignment_json(prepared.current),
        "throttle": {
            "inter_broker_rate": prepared.throttle.interbroker_rate,
            "log_dir_rate": prepared.throttle.log_dir_rate,
            "topics": {t: dict(c) for t, c in prepared.throttle.topic_configs.items()},
            "brokers": {str(b): dict(c) for b, c in prepared.throttle.broker_configs.items()},
        },
        "started": [str(tp) for tp in result.started],
        "errors": {str(tp): m for tp, m in sorted(result.errors.items(), key=lambda kv: sort_key(kv[0]))},
        "log_dir_moves_started": [
            {"partition": str(tp), "broker": b, "log_dir": d} for tp, b, d in result.log_dir_started
        ],
        "log_dir_moves_timed_out": [f"{tp}-{b}" for tp, b in result.log_dir_timed_out],
    }
    for entry, tp in zip(out["current"]["partitions"], sorted(prepared.current, key=sort_key), strict=True):
        dirs = prepared.current_log_dirs.get(tp)
        if dirs:
            entry["log_dirs"] = list(dirs)
    if wait is not None:
        out["wait"] = wait_json(wait, cleanup)
    return out


def wait_text(wait: WaitResult, cleanup: ThrottleCleanup | None = None) -> Iterator[str]:
    """After --wait: the final state of each partition (or what was still moving at the timeout),
    then what became of the throttles: --verify's clearing lines, or why they stay."""
    if wait.timed_out:
        if wait.pending:
            yield "Timed out waiting for the reassignment of: " + _partitions(wait.pending)
        else:
            yield "Timed out waiting for the log-dir moves of: " + ",".join(
                f"{m.partition}-{m.broker}" for m in wait.pending_log_dirs
            )
        return
    yield from (_state_line(s) for s in wait.states)
    yield from (m.line for m in wait.log_dirs)
    if cleanup is None:
        return
    if cleanup.kept_because is not None:
        yield (
            f"Throttles left in place ({cleanup.kept_because}): "
            "--verify removes them once no reassignment is running"
        )
        return
    yield from clearing_lines(cleanup.cleared_brokers, cleanup.cleared_topics)


def cleanup_error_line(cleanup: ThrottleCleanup) -> str:
    """The one stderr line of a --wait whose partitions moved but whose throttles stay."""
    return (
        f"Error: the reassignment is done, but clearing its throttles failed ({'; '.join(cleanup.errors)}); "
        "run --verify with the same file to clear them"
    )


def _cleanup_json(cleanup: ThrottleCleanup | None) -> dict[str, Any] | None:
    if cleanup is None:
        return None
    return {
        "cleared": {"brokers": list(cleanup.cleared_brokers), "topics": list(cleanup.cleared_topics)},
        "kept_because": cleanup.kept_because,
        "errors": list(cleanup.errors),
    }


def wait_json(wait: WaitResult, cleanup: ThrottleCleanup | None = None) -> dict[str, Any]:
    return {
        "throttles": _cleanup_json(cleanup),
        "timed_out": wait.timed_out,
        "pending": [str(tp) for tp in wait.pending],
        "partitions": [
            {
                "partition": str(p.partition),
                "done": p.done,
                "fraction": round(p.fraction, 4),
                "bytes_done": p.bytes_done,
                "bytes_total": p.bytes_total,
            }
            for p in wait.progress
        ],
        "states": [_state_json(s) for s in wait.states],
        "log_dir_moves": _log_dir_moves_json(wait.log_dirs),
    }


class ProgressView:
    """Live per-partition progress bars on stderr (bytes copied to the new replicas, or replicas).

    Off a terminal (a CI log, a pipe) there are no bars: one plain line each time another partition
    finishes, so the log shows the reassignment advancing without drawing characters.
    """

    MAX_ROWS = 40  # beyond this, one bar for the whole reassignment

    def __init__(self, env: Env, partitions: Sequence[TopicPartition], throttle: int = -1) -> None:
        import time

        from kcli.ops.reassign.eta import EtaClock

        self._env = env
        self._total = len(partitions)
        self._done_reported = 0
        self._clock = EtaClock(throttle=throttle)
        self._now = time.monotonic
        self._live = env.stderr_isatty
        if not self._live:
            return
        from rich.progress import BarColumn, Progress, TaskProgressColumn, TextColumn, TimeElapsedColumn

        from kcli.render import console

        self._progress = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            TaskProgressColumn(),
            TextColumn("{task.fields[detail]}"),
            TimeElapsedColumn(),
            console=console(env, stderr=True),
            transient=False,
        )
        self._tasks: dict[TopicPartition, Any] = {}
        self._overall: Any = None
        if len(partitions) <= self.MAX_ROWS:
            for tp in partitions:
                self._tasks[tp] = self._progress.add_task(str(tp), total=1000, detail="")
        else:
            self._overall = self._progress.add_task(f"{len(partitions)} partitions", total=1000, detail="")
        self._eta_task = self._progress.add_task("left", total=None, detail="")
        self._progress.start()

    def eta_text(self, progress: Sequence[PartitionProgress]) -> str:
        """`1.2 GiB left, ETA 2m05s at 10.0 MiB/s` (the throttle's bound until copying is seen)."""
        from kcli.ops.reassign.eta import duration_text

        pending = [p for p in progress if not p.done]
        receivers = len({b for p in pending for b in p.adding})
        left = sum(max(0, p.bytes_total - p.bytes_done) for p in pending)
        copied = sum(p.bytes_done for p in progress)
        eta = self._clock.observe(self._now(), copied, left, receivers)
        if not pending or not any(p.bytes_total for p in pending):
            return ""
        if eta.seconds is None or eta.rate is None:
            return f"{human_bytes(left)} left"
        bound = " (the throttle's bound)" if eta.from_throttle else ""
        return f"{human_bytes(left)} left, ETA {duration_text(eta.seconds)} at {human_bytes(int(eta.rate))}/s{bound}"

    def update(self, progress: Sequence[PartitionProgress]) -> None:
        eta = self.eta_text(progress)
        if not self._live:
            self._plain(progress, eta)
            return
        self._progress.update(self._eta_task, detail=eta)
        for p in progress:
            task = self._tasks.get(p.partition)
            if task is None:
                continue
            if p.done:
                detail = "done"
            elif p.bytes_total:
                detail = f"{human_bytes(p.bytes_done)} / {human_bytes(p.bytes_total)}"
            else:
                detail = f"adding {join_ints(p.adding)}"
            self._progress.update(task, completed=int(p.fraction * 1000), detail=detail)
        if self._overall is not None and progress:
            done = sum(1 for p in progress if p.done)
            fraction = sum(p.fraction for p in progress) / len(progress)
            self._progress.update(self._overall, completed=int(fraction * 1000), detail=f"{done} done")

    def _plain(self, progress: Sequence[PartitionProgress], eta: str) -> None:
        done = sum(1 for p in progress if p.done)
        if done > self._done_reported:
            self._done_reported = done
            tail = f"; {eta}" if eta else ""
            self._env.err(f"Reassignment progress: {done} of {self._total} partition(s) done{tail}.")

    def close(self) -> None:
        if self._live:
            self._progress.stop()


# --- verify ---------------------------------------------------------------------------------------


def _state_line(s: PartitionState) -> str:
    if s.status is Status.COMPLETE:
        return f"Reassignment of partition {s.partition} is completed."
    if s.status is Status.IN_PROGRESS:
        return f"Reassignment of partition {s.partition} is still in progress."
    return (
        f"There is no active reassignment of partition {s.partition}, but replica set is "
        f"{join_ints(s.current)} rather than {join_ints(s.target)}."
    )


def _state_json(s: PartitionState) -> dict[str, Any]:
    return {
        "partition": str(s.partition),
        "topic": s.partition.topic,
        "partition_index": s.partition.partition,
        "status": s.status.value,
        "replicas": list(s.current),
        "target": list(s.target),
    }


def clearing_lines(brokers: Sequence[int], topics: Sequence[str]) -> Iterator[str]:
    if brokers:
        yield f"Clearing broker-level throttles on {_plural('broker', len(brokers))} {join_ints(list(brokers))}"
    if topics:
        yield f"Clearing topic-level throttles on {_plural('topic', len(topics))} {','.join(topics)}"


def verify_text(report: VerifyReport) -> Iterator[str]:
    yield "Status of partition reassignment:"
    for s in report.result.states:
        yield _state_line(s)
    if report.log_dirs:
        yield from (m.line for m in report.log_dirs)
    else:
        yield ""  # the original prints its (empty) log-dir block as an empty line
    yield from clearing_lines(report.result.cleared_brokers, report.result.cleared_topics)
    for line in report.clear_errors:
        yield f"Error clearing throttles: {line}"


def _log_dir_moves_json(moves: Any) -> list[dict[str, Any]]:
    return [
        {
            "partition": str(m.partition),
            "broker": m.broker,
            "log_dir": m.target,
            "done": m.done,
            "status": m.line,
        }
        for m in moves
    ]


def verify_json(report: VerifyReport) -> dict[str, Any]:
    r = report.result
    return {
        "complete": r.all_complete,
        "any_reassignment_running": r.any_ongoing,
        "partitions": [_state_json(s) for s in r.states],
        "log_dir_moves": _log_dir_moves_json(report.log_dirs),
        "throttles_cleared": {"brokers": list(r.cleared_brokers), "topics": list(r.cleared_topics)},
        "clear_errors": list(report.clear_errors),
    }


def verify_table(report: VerifyReport) -> RenderableType:
    from rich.table import Table

    table = Table()
    for column in ("Partition", "Status", "Replicas", "Target"):
        table.add_column(column)
    for s in report.result.states:
        table.add_row(
            str(s.partition), s.status.value.replace("_", " "), join_ints(s.current), join_ints(s.target)
        )
    return table


# --- cancel / list --------------------------------------------------------------------------------


def cancel_text(report: CancelReport) -> Iterator[str]:
    if report.errors:
        yield f"Error cancelling partition {_plural('reassignment', len(report.errors))} for:"
        for tp in sorted(report.errors, key=sort_key):
            yield f"{tp}: {report.errors[tp]}"
    if report.cancelled:
        yield (
            f"Successfully cancelled partition {_plural('reassignment', len(report.cancelled))} "
            f"for: {_partitions(report.cancelled)}"
        )
    elif not report.errors:
        yield "None of the specified partition reassignments are active."
    if report.log_dir_checked:
        # Kafka cancels a move by starting one back to the current dir (executeMoves), printing its lines.
        if report.log_dir_cancelled:
            yield from (moving_line(tp, broker, path) for tp, broker, path in report.log_dir_cancelled)
        else:
            yield "None of the specified partition moves are active."
    yield from clearing_lines(report.cleared_brokers, report.cleared_topics)
    for line in report.clear_errors:
        yield f"Error clearing throttles: {line}"


def cancel_json(report: CancelReport) -> dict[str, Any]:
    return {
        "cancelled": [str(tp) for tp in report.cancelled],
        "restored": {
            str(tp): list(r) for tp, r in sorted(report.restored.items(), key=lambda kv: sort_key(kv[0]))
        },
        "errors": {str(tp): m for tp, m in report.errors.items()},
        "log_dir_moves_cancelled": [f"{tp}-{b}" for tp, b, _ in report.log_dir_cancelled],
        "throttles_cleared": {"brokers": list(report.cleared_brokers), "topics": list(report.cleared_topics)},
        "clear_errors": list(report.clear_errors),
    }


def list_text(ongoing: Mapping[TopicPartition, OngoingReassignment]) -> Iterator[str]:
    if not ongoing:
        yield "No partition reassignments found."
        return
    yield "Current partition reassignments:"
    for tp in sorted(ongoing, key=sort_key):
        r = ongoing[tp]
        line = f"{tp}: replicas: {join_ints(r.replicas)}."
        if r.adding:
            line += f" adding: {join_ints(r.adding)}."
        if r.removing:
            line += f" removing: {join_ints(r.removing)}."
        yield line


def list_json(ongoing: Mapping[TopicPartition, OngoingReassignment]) -> dict[str, Any]:
    return {
        "reassignments": [
            {
                "topic": tp.topic,
                "partition": tp.partition,
                "replicas": list(r.replicas),
                "adding": list(r.adding),
                "removing": list(r.removing),
            }
            for tp, r in sorted(ongoing.items(), key=lambda kv: sort_key(kv[0]))
        ]
    }


def list_table(ongoing: Mapping[TopicPartition, OngoingReassignment]) -> RenderableType:
    from rich.table import Table

    table = Table(title="Current partition reassignments" if ongoing else "No partition reassignments found.")
    for column in ("Partition", "Replicas", "Adding", "Removing"):
        table.add_column(column)
    for tp in sorted(ongoing, key=sort_key):
        r = ongoing[tp]
        table.add_row(
            str(tp), join_ints(r.replicas), join_ints(r.adding) or "-", join_ints(r.removing) or "-"
        )
    return table


def interrupted_wait_note(partitions: int, throttled: bool, source: str, rollback: str) -> str:
    """What an interrupted `--execute --wait` leaves: the move goes on in the cluster (and its
    throttles stay, to protect the cluster, until --verify finds it done and removes them)."""
    moving = (
        f"the reassignment of {partitions} partition{'s' if partitions != 1 else ''} goes on in the cluster"
    )
    kept = "; its throttles stay, to protect the cluster, until it is done" if throttled else ""
    verify = "removes them once it is done" if throttled else "tells when it is done"
    return (
        f"{moving}{kept}. `kcli reassign-partitions --verify --reassignment-json-file {source}` (with the same "
        f"connection options) {verify}; `--cancel` with that file stops it, and {rollback} puts the replicas back"
    )
