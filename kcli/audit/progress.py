"""What the Spark job is doing, from Spark's status tracker: a live line on a terminal, and counts.

Every job of one audit runs in its own job group, so the jobs, stages and tasks it ran can be
counted afterwards (the figures `-o json` reports and the benchmark prints).
"""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

POLL_SECONDS = 0.25


@dataclass(frozen=True, slots=True, kw_only=True)
class SparkWork:
    """Spark work done for one audit: where, and the jobs, stages and tasks run (skipped stages excluded)."""

    master: str
    jobs: int
    stages: int
    tasks: int


class JobGroup:
    """Tags every Spark job started from this thread until `close`, and counts them."""

    def __init__(self, spark: Any, description: str) -> None:
        self._context = spark.sparkContext
        self.name = f"kcli-audit-{uuid.uuid4().hex[:12]}"
        self._context.setJobGroup(self.name, description)

    def counts(self) -> SparkWork:
        tracker = self._context.statusTracker()
        jobs = tracker.getJobIdsForGroup(self.name)
        stages: set[int] = set()
        for job in jobs:
            info = tracker.getJobInfo(job)
            if info is not None:
                stages.update(info.stageIds)
        tasks = 0
        ran = 0
        for stage in stages:
            info = tracker.getStageInfo(stage)
            if info is not None and info.numCompletedTasks + info.numFailedTasks:
                tasks += info.numCompletedTasks + info.numFailedTasks
                ran += 1
        return SparkWork(master=str(self._context.master), jobs=len(jobs), stages=ran, tasks=tasks)

    def close(self) -> None:
        self._context.setLocalProperty("spark.jobGroup.id", None)
        self._context.setLocalProperty("spark.job.description", None)


class LiveProgress:
    """A transient status line on stderr: the audit's phase and the running stages' tasks.

    Polls the status tracker from a thread; used only when stderr is a terminal.
    """

    def __init__(self, spark: Any, console: Any) -> None:
        self._tracker = spark.sparkContext.statusTracker()
        self._console = console
        self._phase = "starting"
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._status: Any = None

    def phase(self, text: str) -> None:
        self._phase = text

    def __enter__(self) -> LiveProgress:
        self._status = self._console.status(self._phase, spinner="dots")
        self._status.__enter__()
        self._thread = threading.Thread(target=self._run, name="kcli-spark-progress", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._status.__exit__(None, None, None)

    def _run(self) -> None:
        while not self._stop.wait(POLL_SECONDS):
            try:
                line = describe(self._phase, self._tracker)
            except Exception:  # the JVM is going away: nothing to show
                return
            self._status.update(line)


def describe(phase: str, tracker: Any) -> str:
    """`running rules: 3 stages, tasks 12/40` from the tracker's active stages."""
    done = total = 0
    active = tracker.getActiveStageIds()
    for stage in active:
        info = tracker.getStageInfo(stage)
        if info is not None:
            done += info.numCompletedTasks
            total += info.numTasks
    if not active:
        return phase
    return f"{phase}: {len(active)} stage{'s' if len(active) != 1 else ''}, tasks {done}/{total}"


Say = Callable[[str], None]
