"""Interrupting a command that leaves work running in the cluster says what it leaves.

Ctrl-C during `reassign-partitions --execute --throttle --wait` printed only "Interrupted." while
the move and its throttles stayed on the cluster; SIGTERM and SIGHUP ended it silently. Each now
ends with one line: the move goes on, the throttles stay to protect the cluster, --verify removes
them once it is done, --cancel stops it. The reassignment is real (the sandbox copies a partition
at the throttled rate), and the signal is sent to the kcli process as a terminal or a service
manager would send it.
"""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcli.processes import signal_child
from tests.conftest import invoke


@pytest.fixture(scope="module")
def moving_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Two brokers (one controller) and one topic whose one replica can move between them."""
    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path_factory.mktemp("moving")
    # records, so that a move copies bytes (at 1000 B/s: minutes) and is still on when interrupted
    with Sandbox(
        directory=directory / "sandbox", controllers=1, brokers=2, topics=1, records_per_partition=500
    ) as sb:
        (topic,) = invoke("topics", "-b", sb.bootstrap_servers, "--list").lines
        plan = directory / "one.json"
        plan.write_text(
            json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": [1]}]})
        )
        single = invoke(
            "reassign-partitions", "-b", sb.bootstrap_servers, "--execute", "--reassignment-json-file", str(plan),
            "--allow-replication-factor-change", "--wait", "--rollback-file", str(directory / "rollback.json"),
        )  # fmt: skip
        assert single.code == 0, single.stderr
        yield sb


def _start_wait(sb: Any, tmp_path: Path) -> tuple[subprocess.Popen[str], Path, str]:
    """`--execute --throttle 1000 --wait` moving the replica to the other broker: hours at that rate."""
    (topic,) = invoke("topics", "-b", sb.bootstrap_servers, "--list").lines
    describe = invoke("topics", "-b", sb.bootstrap_servers, "--describe", "--topic", topic)
    replicas = next(line for line in describe.lines if "Replicas:" in line).split("Replicas:")[1].split()[0]
    target = [2] if replicas == "1" else [1]
    plan = tmp_path / "move.json"
    plan.write_text(
        json.dumps({"version": 1, "partitions": [{"topic": topic, "partition": 0, "replicas": target}]})
    )
    rollback = tmp_path / "rollback.json"
    environ = {**os.environ, "NO_COLOR": "1", "KCLI_CONFIG": "/nonexistent/kcli.toml"}
    process = subprocess.Popen(
        [
            sys.executable, "-m", "kcli", "reassign-partitions", "-b", sb.bootstrap_servers, "--execute",
            "--reassignment-json-file", str(plan), "--throttle", "1000", "--wait", "--rollback-file", str(rollback),
        ],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environ,
    )  # fmt: skip
    return process, plan, topic


def _wait_for_progress(process: subprocess.Popen[str]) -> str:
    """Read stdout until the move has started (the execute lines are out), within a deadline."""
    assert process.stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout or ()], daemon=True).start()
    seen = ""
    deadline = time.monotonic() + 60
    while "Successfully started partition reassignment" not in seen:
        remaining = deadline - time.monotonic()
        assert remaining > 0, f"no start within 60 s: {seen!r}"
        try:
            seen += lines.get(timeout=remaining)
        except queue.Empty:
            continue
    time.sleep(0.5)  # into the wait itself
    return seen


@pytest.mark.parametrize(
    ("signum", "code"),
    [(signal.SIGINT, 130), (signal.SIGTERM, 128 + signal.SIGTERM), (signal.SIGHUP, 128 + signal.SIGHUP)],
    ids=["Ctrl-C", "SIGTERM", "SIGHUP"],
)
def test_an_interrupted_wait_says_the_move_goes_on_and_how_to_finish_it(
    moving_cluster: Any, tmp_path: Path, signum: int, code: int
) -> None:
    process, plan, topic = _start_wait(moving_cluster, tmp_path)
    bootstrap = moving_cluster.bootstrap_servers
    try:
        _wait_for_progress(process)
        assert signal_child(process, signum)
        _out, err = process.communicate(timeout=60)
        assert process.returncode == code
        assert err.splitlines()[-1] == (
            "Interrupted: the reassignment of 1 partition goes on in the cluster; its throttles stay, to protect "
            f"the cluster, until it is done. `kcli reassign-partitions --verify --reassignment-json-file {plan}` "
            "(with the same connection options) removes them once it is done; `--cancel` with that file stops "
            f"it, and {tmp_path / 'rollback.json'} puts the replicas back"
        )
        # what the line says is so: the move is still on and the throttles are in place
        listed = invoke("reassign-partitions", "-b", bootstrap, "--list")
        assert f"{topic}-0" in listed.stdout, listed.stdout
        configs = invoke("configs", "-b", bootstrap, "--describe", "--topic", topic)
        assert "leader.replication.throttled.replicas" in configs.stdout
    finally:
        if process.poll() is None:
            signal_child(process, signal.SIGKILL)
            process.wait(timeout=30)
        # and --cancel, as the line says, stops it (the next case starts from where this one did)
        cancelled = invoke(
            "reassign-partitions", "-b", bootstrap, "--cancel", "--reassignment-json-file", str(plan)
        )
        assert cancelled.code == 0, cancelled.stderr
