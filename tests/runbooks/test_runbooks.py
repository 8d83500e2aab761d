"""Every runbook of docs/runbooks, replayed on the emulator and on real Kafka, checked after each step.

The runner reads the Markdown itself: a runbook's text is what runs, so a changed runbook is tested as
it now reads. Its ```sh blocks run in bash (set -euo pipefail, kcli on PATH) in the order they are
written; after each step the book's check for that heading reads the cluster through the Java
AdminClient (tests/runbooks/reader.py). A failure names the runbook, the step and the engine.

The runbooks of one engine share one cluster and run in BOOKS order, each leaving the cluster as the
next expects (tests/runbooks/books/__init__.py says what each leaves).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.fixtures_kafka import NEWEST, kafka_home
from tests.peers.java.peer import JavaError
from tests.runbooks.book import Book, Context
from tests.runbooks.books import BOOKS
from tests.runbooks.cluster import SandboxCluster
from tests.runbooks.markdown import Runbook, parse
from tests.runbooks.reader import Reader
from tests.runbooks.shell import Shell

RUNBOOKS = Path(__file__).resolve().parents[2] / "docs" / "runbooks"


def steps_match(runbook: Runbook, book: Book) -> None:
    """The book checks exactly the runbook's steps, in order (a step without its check fails here)."""
    headings = [s.heading for s in runbook.steps]
    checked = list(book.checks)
    if headings != checked:
        missing = [h for h in headings if h not in checked]
        stale = [h for h in checked if h not in headings]
        raise AssertionError(
            f"{runbook.name}: the steps and tests/runbooks/books checks differ: steps without a check "
            f"{missing}, checks without a step {stale}" + ("" if missing or stale else " (order differs)")
        )


@pytest.mark.parametrize("book", BOOKS, ids=[b.file.removesuffix(".md") for b in BOOKS])
def test_runbook(
    book: Book,
    runbook_cluster: SandboxCluster,
    runbook_peer: Any,
    tmp_path: Path,
    record_property: Any,
) -> None:
    runbook = parse(RUNBOOKS / book.file)
    steps_match(runbook, book)
    engine = runbook_cluster.engine
    where = f"on {engine.label}"

    def open_reader() -> Reader:
        status = runbook_cluster.status()
        return Reader(runbook_peer, status["bootstrap_servers"], runbook_cluster.client_properties())

    ctx = Context(
        engine=engine,
        cluster=runbook_cluster,
        work=tmp_path / "work",
        kafka_home=kafka_home(NEWEST),
        open_reader=open_reader,
    )
    try:
        ctx.variables = runbook_cluster.variables()
        variables = {**ctx.variables, **book.prepare(ctx)}
        ctx.variables = dict(variables)
        shell = Shell(ctx.work, variables)
        timings: list[str] = []
        for step in runbook.steps:
            label = f"{runbook.name}, step {step.number} '{step.heading}' {where}"
            run = shell.run(step)
            timings.append(f"{step.number}:{run.seconds:.1f}s")
            if run.code != 0:
                pytest.fail(f"{label}: exit {run.code}\n{run.tail()}", pytrace=False)
            ctx.variables = shell.variables()
            try:
                book.checks[step.heading](ctx)
            except (AssertionError, JavaError) as error:
                pytest.fail(f"{label}: the check failed: {error}\n{run.tail()}", pytrace=False)
        record_property("step_seconds", " ".join(timings))
    finally:
        ctx.close()
