"""A runbook's test: what the runner prepares before it, and the check of the state after each step.

Checks are keyed by the runbook's step headings: a step added, removed or renamed in the Markdown
without its check (or a check whose step is gone) fails the runner before anything runs.

    book = Book("add-brokers.md")

    @book.setup
    def _(ctx: Context) -> dict[str, str]:      # variables the runbook expects beyond the common ones
        ...

    @book.check("Start the new broker")
    def _(ctx: Context) -> None:                # assert on ctx.reader (the Java AdminClient), never kcli
        ...
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from tests.peers.java.peer import JavaError
from tests.runbooks.cluster import Engine, SandboxCluster
from tests.runbooks.reader import Reader

T = TypeVar("T")
Check = Callable[["Context"], None]
Setup = Callable[["Context"], dict[str, str]]


@dataclass(slots=True, kw_only=True)
class Context:
    """What a setup or a check sees: the engine, the cluster, the independent reader, the runbook's variables."""

    engine: Engine
    cluster: SandboxCluster
    work: Path  # the runbook's working directory (its files: plan.json, rollback.json, ...)
    kafka_home: Path  # Kafka's distribution: its tools are independent readers too
    open_reader: Callable[[], Reader]
    variables: dict[str, str] = field(default_factory=dict)  # as the last step left them
    _reader: Reader | None = None

    @property
    def reader(self) -> Reader:
        if self._reader is None:
            self._reader = self.open_reader()
        return self._reader

    def reopen_reader(self) -> Reader:
        """A reader bootstrapped from the brokers the cluster has now (after nodes came or went)."""
        self.close()
        return self.reader

    def close(self) -> None:
        if self._reader is not None:
            self._reader.close()
            self._reader = None

    @property
    def real(self) -> bool:
        return self.engine.name == "kafka"

    def var(self, name: str) -> str:
        try:
            return self.variables[name]
        except KeyError:
            raise AssertionError(f"the runbook left no variable ${name}") from None

    def int_var(self, name: str) -> int:
        return int(self.var(name))

    def ids(self, name: str) -> list[int]:
        """A comma-separated id list variable ($BROKERS) as ints."""
        return [int(x) for x in self.var(name).split(",") if x]

    @staticmethod
    def eventually(probe: Callable[[], T], *, what: str, timeout: float = 90.0, interval: float = 1.0) -> T:
        """Poll `probe` until it returns without AssertionError; at the deadline, fail with its last error.

        For state that converges after the step's commands return (an ISR refilling, a leader
        elected): the runbook's promise is that it gets there.
        """
        deadline = time.monotonic() + timeout
        while True:
            try:
                return probe()
            except (AssertionError, JavaError) as error:  # the reader's call may time out meanwhile
                if time.monotonic() >= deadline:
                    raise AssertionError(f"{what}: not within {timeout:.0f} s: {error}") from None
            time.sleep(interval)


class Book:
    """The runner's side of one runbook: its setup and one check per step, in the runbook's order."""

    def __init__(self, file: str) -> None:
        self.file = file
        self.checks: dict[str, Check] = {}
        self._setup: Setup | None = None

    def setup(self, function: Setup) -> Setup:
        self._setup = function
        return function

    def check(self, heading: str) -> Callable[[Check], Check]:
        def register(function: Check) -> Check:
            if heading in self.checks:
                raise ValueError(f"{self.file}: two checks for step {heading!r}")
            self.checks[heading] = function
            return function

        return register

    def prepare(self, ctx: Context) -> dict[str, str]:
        return self._setup(ctx) if self._setup is not None else {}


LOG_DIR_THROTTLE = "replica.alter.log.dirs.io.max.bytes.per.second"


def no_throttles(reader: Reader, brokers: list[int], topics: list[str]) -> None:
    """No replication throttle left on `brokers` or `topics` (a forgotten one slows every later recovery)."""
    left: dict[str, Any] = {}
    for broker in brokers:
        configs = reader.dynamic_configs("BROKER", str(broker))
        keys = [k for k in configs if "throttled" in k or k == LOG_DIR_THROTTLE]
        if keys:
            left[f"broker {broker}"] = keys
    for topic in topics:
        keys = [k for k in reader.dynamic_configs("TOPIC", topic) if "throttled" in k]
        if keys:
            left[f"topic {topic}"] = keys
    assert not left, f"throttles left behind: {left}"


def in_sync(reader: Reader, topics: list[str]) -> None:
    """Every partition of `topics` has a leader among its replicas and its whole replica set in sync."""
    for topic, partitions in reader.partitions(*topics).items():
        for p in partitions:
            where = f"{topic}-{p['partition']}"
            assert p["leader"] in p["replicas"], (
                f"{where}: leader {p['leader']} not among replicas {p['replicas']}"
            )
            assert sorted(p["isr"]) == sorted(p["replicas"]), (
                f"{where}: ISR {p['isr']} of replicas {p['replicas']}"
            )
