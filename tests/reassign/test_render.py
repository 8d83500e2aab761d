"""The original tool's lines, compared exactly."""

from __future__ import annotations

import io

from kcli.env import Env
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition
from kcli.ops.reassign.verify import PartitionState, Status, VerifyResult
from kcli.render.reassign import (
    ProgressView,
    cancel_json,
    cancel_text,
    clearing_lines,
    list_text,
    verify_text,
)
from kcli.workflows.reassign.progress import PartitionProgress
from kcli.workflows.reassign.verify import CancelReport, VerifyReport

A0, A1, B2 = TopicPartition("a", 0), TopicPartition("a", 1), TopicPartition("b", 2)


def test_list_lines() -> None:
    ongoing = {
        B2: OngoingReassignment(partition=B2, replicas=(1, 2)),
        A0: OngoingReassignment(partition=A0, replicas=(3, 2, 1), adding=(3,), removing=(1,)),
    }
    assert list(list_text(ongoing)) == [
        "Current partition reassignments:",
        "a-0: replicas: 3,2,1. adding: 3. removing: 1.",
        "b-2: replicas: 1,2.",
    ]
    assert list(list_text({})) == ["No partition reassignments found."]


def test_verify_lines() -> None:
    states = (
        PartitionState(partition=A0, current=(1, 2), target=(1, 2), status=Status.COMPLETE),
        PartitionState(partition=A1, current=(1, 2), target=(1, 3), status=Status.FAILED),
        PartitionState(partition=B2, current=(1, 2, 3), target=(1, 3), status=Status.IN_PROGRESS),
    )
    report = VerifyReport(
        result=VerifyResult(states=states, any_ongoing=False, cleared_brokers=(1, 2), cleared_topics=("a",)),
        log_dirs=(),
    )
    assert list(verify_text(report)) == [
        "Status of partition reassignment:",
        "Reassignment of partition a-0 is completed.",
        "There is no active reassignment of partition a-1, but replica set is 1,2 rather than 1,3.",
        "Reassignment of partition b-2 is still in progress.",
        "",
        "Clearing broker-level throttles on brokers 1,2",
        "Clearing topic-level throttles on topic a",
    ]


def test_clearing_singular_and_plural() -> None:
    assert list(clearing_lines([7], ["x", "y"])) == [
        "Clearing broker-level throttles on broker 7",
        "Clearing topic-level throttles on topics x,y",
    ]


def test_cancel_lines() -> None:
    report = CancelReport(cancelled=(A0, A1), errors={}, restored={}, log_dir_checked=True)
    assert list(cancel_text(report)) == [
        "Successfully cancelled partition reassignments for: a-0,a-1",
        "None of the specified partition moves are active.",
    ]
    one = CancelReport(cancelled=(A0,), errors={}, restored={}, log_dir_checked=False)
    assert list(cancel_text(one)) == ["Successfully cancelled partition reassignment for: a-0"]
    failed = CancelReport(cancelled=(), errors={A1: "boom"}, restored={}, log_dir_checked=False)
    assert list(cancel_text(failed)) == ["Error cancelling partition reassignment for:", "a-1: boom"]
    none = CancelReport(cancelled=(), errors={}, restored={}, log_dir_checked=False)
    assert list(cancel_text(none)) == ["None of the specified partition reassignments are active."]


def test_cancelled_log_dir_moves_print_kafkas_execute_moves_lines() -> None:
    """Kafka cancels a log-dir move by moving the replica to its current dir (executeMoves' lines)."""
    report = CancelReport(
        cancelled=(),
        errors={},
        restored={},
        log_dir_checked=True,
        log_dir_cancelled=((A0, 1, "/data/d1"), (A1, 3, "/data/d2")),
    )
    assert list(cancel_text(report)) == [
        "None of the specified partition reassignments are active.",
        "Successfully started moving log directory to /data/d1 for replica a-0 with broker 1 ",
        "Successfully started moving log directory to /data/d2 for replica a-1 with broker 3 ",
    ]
    assert cancel_json(report)["log_dir_moves_cancelled"] == ["a-0-1", "a-1-3"]


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def _progress(done: bool) -> PartitionProgress:
    return PartitionProgress(
        partition=A0, target=(1, 2), adding=(2,), done=done, bytes_done=5, bytes_total=10
    )


def test_progress_off_a_terminal_is_plain_lines() -> None:
    err = _Stream(tty=False)
    view = ProgressView(Env(stderr=err), [A0, A1])
    view.update([_progress(False)])
    view.update([_progress(True)])
    view.update([_progress(True)])  # no change: no repeated line
    view.close()
    assert err.getvalue().splitlines() == ["Reassignment progress: 1 of 2 partition(s) done."]


def test_progress_on_a_terminal_draws_bars() -> None:
    err = _Stream(tty=True)
    view = ProgressView(Env(stderr=err, environ={"COLUMNS": "100"}), [A0])
    view.update([_progress(True)])
    view.close()
    assert "a-0" in err.getvalue() and "100%" in err.getvalue() and "done" in err.getvalue()


def test_progress_says_how_much_is_left_and_when_it_ends() -> None:
    """Issue 35: --wait shows an ETA from the bytes left and the throttle."""
    err = _Stream(tty=False)
    view = ProgressView(Env(stderr=err), [A0, A1], throttle=1024)
    moving = PartitionProgress(
        partition=A1, target=(1, 2), adding=(2,), done=False, bytes_done=0, bytes_total=4096
    )
    view.update([_progress(True), moving])
    assert err.getvalue().splitlines() == [
        "Reassignment progress: 1 of 2 partition(s) done; 4.0 KiB left, ETA 4s at 1.0 KiB/s (the throttle's bound)."
    ]
