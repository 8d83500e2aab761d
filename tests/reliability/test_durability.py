"""Nothing acknowledged is lost: 200 concurrent config alters under repeated controller failover.

The scenario of the durability report: a sandbox process with 200 topics (`kcli sandbox up
--detach`), 200 `configs --alter` writes, 8 at a time, each on its own topic with its own value,
while `sandbox failover` runs every 0.4 s. Most writes run kcli's own alter path in this process
(the code `kcli configs --alter` runs after parsing, each with a fresh client that bootstraps);
every 25th is a real `kcli configs --alter` process. Then the sandbox is stopped (`sandbox down`, or
`kill -9` while writes are still in flight) and reopened on the same directory without flags.

Checked afterwards: every acknowledged value is in the replayed image, and exactly once in every
voter's log; every node's log has contiguous, strictly increasing offsets, monotonic epochs and a
leader-epoch-checkpoint that agrees with its batches; all replicas hold the same records. The logs
are read with kio's batch reader and an independent ConfigRecord decoder (tests/reliability/
logcheck.py) and again with kcli.metadata's reader. The counts go to the JUnit report as the
`durability` property (docs/guarantees.md shows them).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import kill_child
from kcli.processes import send as send_signal
from tests.reliability.logcheck import kcli_configs, read_node_log

pytestmark = pytest.mark.sandbox

TOPICS = 200
WRITES = 200
CONCURRENCY = 8
FAILOVER_EVERY_S = 0.4
CLI_EVERY = 25  # every 25th write is a real `kcli configs --alter` process
KILL_AFTER = 120  # the kill -9 variant kills the sandbox once this many writes are acknowledged
MIN_FAILOVERS = 3  # ... and at least this many failovers have happened (on a fast machine writes outrun them)
KEY = "retention.ms"
VOTERS = (101, 102, 103)
DEADLINE_S = 120.0


def topic(index: int) -> str:
    return f"sandbox-topic-{index:05d}"


def value(index: int) -> str:
    return str(86_400_000 + index)


def kcli(*args: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "kcli", *args], capture_output=True, text=True, timeout=timeout, check=False
    )


def up(directory: Path, *flags: str) -> dict[str, Any]:
    result = kcli("sandbox", "up", "--dir", str(directory), "--detach", *flags, "-o", "json")
    assert result.returncode == 0, result.stderr
    status: dict[str, Any] = json.loads(result.stdout)
    return status


def down(directory: Path) -> None:
    result = kcli("sandbox", "down", "--dir", str(directory))
    assert result.returncode == 0, result.stderr


@dataclass
class Run:
    """What the writers saw."""

    acknowledged: set[int] = field(default_factory=set)
    failed: dict[int, str] = field(default_factory=dict)
    cancelled: set[int] = field(default_factory=set)
    failovers: int = 0
    through_cli: int = 0


async def _alter_in_process(bootstrap: str, index: int) -> str | None:
    """kcli's alter path for one topic; None when acknowledged, else the error."""
    from kcli.client.admin import Admin
    from kcli.client.config import config_from_properties
    from kcli.errors import KcliError
    from kcli.ops.config_spec import EntityFlags, build_changes, resolve_selection
    from kcli.workflows import configs as config_run

    config = config_from_properties({"bootstrap.servers": bootstrap}, warn=lambda _line: None)
    selection = resolve_selection(
        EntityFlags(entity_types=["topics"], entity_names=[topic(index)]), alter=True
    )
    changes = build_changes(add_config=f"{KEY}={value(index)}", add_config_file=None, delete_config=())
    try:
        async with Admin(config) as admin:
            outcome = await config_run.alter(admin, selection, changes, dry_run=False)
    except KcliError as error:
        return error.line()
    return None if outcome.error is None else str(outcome.error)


async def _alter_process(bootstrap: str, index: int, processes: set[Any]) -> str | None:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "kcli",
        "configs",
        "-b",
        bootstrap,
        "--alter",
        "--entity-type",
        "topics",
        "--entity-name",
        topic(index),
        "--add-config",
        f"{KEY}={value(index)}",
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    processes.add(process)
    try:
        _out, err = await process.communicate()
    finally:
        processes.discard(process)
    return None if process.returncode == 0 else err.decode(errors="replace").strip()


async def write_under_failover(directory: Path, bootstrap: str, *, kill_after: int | None = None) -> Run:
    """WRITES alters, CONCURRENCY at a time, while the active controller fails over every FAILOVER_EVERY_S.

    With `kill_after`, the sandbox process gets SIGKILL once that many writes are acknowledged;
    the writes still running are cancelled (not acknowledged).
    """
    from kcli.sandbox.emulator.control import SandboxControlError, read_info, send

    info = read_info(directory)
    run = Run()
    gate = asyncio.Semaphore(CONCURRENCY)
    processes: set[Any] = set()
    killed = asyncio.Event()
    stop = asyncio.Event()

    async def one(index: int) -> None:
        async with gate:
            if killed.is_set():
                run.cancelled.add(index)
                return
            through_cli = index % CLI_EVERY == 0
            run.through_cli += through_cli
            alter: Callable[[], Awaitable[str | None]] = (
                (lambda: _alter_process(bootstrap, index, processes))
                if through_cli
                else (lambda: _alter_in_process(bootstrap, index))
            )
            try:
                error = await alter()
            except asyncio.CancelledError:
                run.cancelled.add(index)
                raise
            if error is None and not killed.is_set():
                run.acknowledged.add(index)
                if (
                    kill_after is not None
                    and len(run.acknowledged) >= kill_after
                    and run.failovers >= MIN_FAILOVERS
                ):
                    send_signal(info.process, signal.SIGKILL)
                    killed.set()
            elif error is not None:
                run.failed[index] = error

    async def failovers() -> None:
        while not stop.is_set() and not killed.is_set():
            try:
                await asyncio.to_thread(send, info, "failover")
            except SandboxControlError:
                if killed.is_set():
                    return
                raise
            run.failovers += 1
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), FAILOVER_EVERY_S)

    switcher = asyncio.create_task(failovers())
    writers = [asyncio.create_task(one(index)) for index in range(WRITES)]

    async def cancel_after_kill() -> None:
        await killed.wait()
        for process in list(processes):
            kill_child(process)
        for task in writers:
            task.cancel()

    reaper = asyncio.create_task(cancel_after_kill())
    await asyncio.wait_for(asyncio.gather(*writers, return_exceptions=True), DEADLINE_S)
    stop.set()
    reaper.cancel()
    await switcher
    return run


def _wait_dead(pid: int) -> None:
    from kcli.processes import ProcessRecord, is_running

    process = ProcessRecord(pid=pid)
    deadline = time.monotonic() + 10
    while is_running(process) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not is_running(process)


async def _described(bootstrap: str) -> dict[str, str | None]:
    """topic -> its retention.ms as the reopened sandbox reports it (None when not set)."""
    from kcli.client.admin import Admin
    from kcli.client.api.configs import describe_configs
    from kcli.client.config import config_from_properties
    from kcli.ops.config_spec import EntityFlags, resolve_selection

    config = config_from_properties({"bootstrap.servers": bootstrap}, warn=lambda _line: None)
    selection = resolve_selection(
        EntityFlags(entity_types=["topics"], entity_names=[topic(i) for i in range(TOPICS)]), alter=False
    )
    async with Admin(config) as admin:
        found = await describe_configs(admin, list(selection.entities))
    out: dict[str, str | None] = {}
    for resource in found:
        assert resource.error is None, resource.error
        dynamic = {e.name: e.value for e in resource.shown(describe_all=False)}  # what --describe lists
        out[resource.entity.name or ""] = dynamic.get(KEY)
    return out


def check_logs(directory: Path, run: Run) -> dict[str, Any]:
    """Every node's log: invariants, each acknowledged value once per voter, replicas identical."""
    logs = {int(d.parent.name): d for d in directory.glob("*/__cluster_metadata-0")}
    assert set(VOTERS) <= set(logs)
    figures: dict[str, Any] = {}
    reference = None
    for node_id, log_dir in sorted(logs.items()):
        node = read_node_log(log_dir)
        assert node.problems == [], (node_id, node.problems)
        assert kcli_configs(log_dir) == node.configs, f"kcli's reader and kio's disagree on node {node_id}"
        values = node.values_of(KEY)
        found = 0
        for index in sorted(run.acknowledged):
            seen = values.get(topic(index), [])
            assert seen.count(value(index)) == 1, (node_id, topic(index), seen)
            found += 1
        for name, seen in values.items():
            assert len(seen) == len(set(seen)), (node_id, name, seen)  # no record twice
        if reference is None:
            reference = (node.batches, node.configs)
        assert (node.batches, node.configs) == reference, (
            f"node {node_id} holds other records than the others"
        )
        if node_id in VOTERS:
            figures[f"found in the log of voter {node_id}"] = found
    return figures


def _scenario(directory: Path, *, kill: bool) -> dict[str, Any]:
    status = up(directory, "--topics", str(TOPICS), "--base-port", "0")
    run = asyncio.run(
        write_under_failover(directory, status["bootstrap_servers"], kill_after=KILL_AFTER if kill else None)
    )
    if kill:
        _wait_dead(status["pid"])
        assert len(run.acknowledged) >= KILL_AFTER
    else:
        assert run.failed == {} and len(run.acknowledged) == WRITES
        down(directory)
    assert run.failovers >= MIN_FAILOVERS
    reopened = up(directory)  # no flags: the saved settings (free ports, 3+3 nodes) come back
    described = asyncio.run(_described(reopened["bootstrap_servers"]))
    down(directory)
    missing = [topic(i) for i in sorted(run.acknowledged) if described.get(topic(i)) != value(i)]
    assert missing == [], f"{len(missing)} acknowledged writes lost: {missing[:10]}"
    figures = {
        "writes": WRITES,
        "through the kcli process": run.through_cli,
        "failovers": run.failovers,
        "acknowledged": len(run.acknowledged),
        "not acknowledged": WRITES - len(run.acknowledged),
        "found in the reopened image": sum(
            1 for i in run.acknowledged if described.get(topic(i)) == value(i)
        ),
    }
    figures.update(check_logs(directory, run))
    return figures


def test_acknowledged_writes_survive_failover_and_restart(tmp_path: Path, record_property: Any) -> None:
    figures = _scenario(tmp_path / "sb", kill=False)
    record_property("durability", json.dumps({"variant": "down + up", **figures}))
    print(figures)


def test_acknowledged_writes_survive_kill_9_under_failover(tmp_path: Path, record_property: Any) -> None:
    figures = _scenario(tmp_path / "sb", kill=True)
    record_property("durability", json.dumps({"variant": "kill -9 + up", **figures}))
    print(figures)
