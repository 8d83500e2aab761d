"""One corpus case, run by Kafka's tool and by kcli on the same cluster state, and judged.

For each case and Kafka release: run the case's setup; read the state; run Kafka's tool; read the
state; undo; run kcli on the same line; read the state; undo; check the state is back where it
started (waiting for it: metadata and registrations take a moment); then compare
(tests/kafka_diff/compare.py). A case passes when the two runs differ in exactly the aspects its
declared differences name; a `not_yet` difference makes it an expected failure, and a declared
difference that no longer shows fails the case.

Lines are Kafka tool lines (`bin/kafka-*.sh ...`), or, for the cases that need a node gone
(tests/kafka_diff/test_destructive.py), `sandbox stop-node N`, `sandbox start-node N` and
`sandbox registered N` (wait until node N is registered again, as a restarted node does).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.conftest import invoke
from tests.kafka_diff import compare, normalize
from tests.kafka_diff.conftest import Target
from tests.kafka_diff.corpus import Case

SETTLE_S = 0.3  # metadata reaches every broker within this on a local cluster
RESTORE_DEADLINE_S = 60.0  # for the undo to show: re-registrations, reassignments


def run_line(target: Target, line: str, files: Path, why: str) -> None:
    """A setup, undo or cleanup line: a sandbox action, or a Kafka tool line that must succeed."""
    words = line.split()
    if words[:1] == ["sandbox"]:
        action, node_id = words[1], int(words[2])
        if action == "stop-node":
            target.kafka.stop_node(node_id)
        elif action == "start-node":
            target.kafka.start_node(node_id)
        elif action == "registered":
            wait_registered(target, node_id, files)
        else:
            raise ValueError(f"unknown sandbox action in the corpus: {line}")
        return
    done = target.kafka_tool(line, files)
    assert done.code == 0, f"{why} failed: {line}\n{done.stdout}{done.stderr}"


def wait_registered(target: Target, node_id: int, files: Path) -> None:
    """Until DescribeCluster lists the node again (brokers with fenced ones, or controllers)."""
    controller = node_id in target.kafka.controller_ids
    line = (
        "bin/kafka-cluster.sh list-endpoints --bootstrap-controller localhost:9093"
        if controller
        else "bin/kafka-cluster.sh list-endpoints --bootstrap-server localhost:9092 --include-fenced-brokers"
    )
    deadline = time.monotonic() + RESTORE_DEADLINE_S
    while time.monotonic() < deadline:
        listed = target.kafka_tool(line, files)
        if any(row.split()[:1] == [str(node_id)] for row in listed.stdout.splitlines()):
            return
        time.sleep(0.5)
    pytest.fail(f"node {node_id} did not register again within {RESTORE_DEADLINE_S:.0f} s")


def settle(target: Target, case: Case, files: Path) -> None:
    """Wait for what a command started to finish: reassignments, and metadata reaching every broker.

    A case that reads no state and undoes nothing changes nothing: no wait.
    """
    if not case.state and not case.undo:
        return
    time.sleep(SETTLE_S)
    if case.tool != "reassign-partitions" and not any("reassign" in line for line in case.undo):
        return
    deadline = time.monotonic() + RESTORE_DEADLINE_S
    while time.monotonic() < deadline:
        listed = target.kafka_tool(
            "bin/kafka-reassign-partitions.sh --bootstrap-server localhost:9092 --list", files
        )
        if "No partition reassignments found." in listed.stdout:
            return
        time.sleep(0.5)
    pytest.fail(f"a reassignment was still running after {RESTORE_DEADLINE_S:.0f} s")


def state(target: Target, case: Case, files: Path) -> str | None:
    """What the case's state lines print (normalized), or None for a case that changes nothing."""
    if not case.state:
        return None
    parts = []
    for line in case.state:
        done = target.kafka_tool(line, files)
        tool = Case("", line, "").tool
        parts.append(
            f"$ {line}\n[{done.code}]\n{normalize.state(tool, done.stdout)}{done.stderr.strip()[:200]}"
        )
    return "\n".join(parts)


def undo(target: Target, case: Case, files: Path) -> None:
    for line in case.undo:
        run_line(target, line, files, "undo")
    if case.undo:
        settle(target, case, files)


def asynchronous(case: Case) -> bool:
    """Whether the case's undo takes effect some time after it returns (nodes restarting, replicas moving)."""
    return any(line.startswith("sandbox ") or "reassign" in line for line in case.undo)


def restored(target: Target, case: Case, files: Path, before: str | None) -> str | None:
    """The state after the last undo, waited for until it equals `before` (or the deadline passes)."""
    deadline = time.monotonic() + RESTORE_DEADLINE_S
    while True:
        after = state(target, case, files)
        if after == before or not case.restorable or time.monotonic() > deadline:
            return after
        time.sleep(1.0)


def check(target: Target, case: Case, version: str, files: Path) -> None:
    """Run `case` with both tools on `target` and judge the differences (see the module docstring)."""
    target.prepare(case)
    for name, text in case.files.items():
        (files / name).write_text(text, encoding="utf-8")
    for line in case.setup:
        run_line(target, line, files, "setup")
    try:
        if case.setup:
            settle(target, case, files)
        argv = target.substitute(case.line, files, case)
        before = state(target, case, files)

        ran = target.tools.run(case.tool, argv)
        kafka = compare.Outcome(ran.code, ran.stdout, ran.stderr)
        settle(target, case, files)
        state_kafka = state(target, case, files)
        undo(target, case, files)
        if asynchronous(case):  # a synchronous undo shows at once; a wrong one fails the final check
            restored(target, case, files, before)

        result = invoke(case.tool, *argv)
        kcli = compare.Outcome(result.code, result.stdout, result.stderr)
        settle(target, case, files)
        state_kcli = state(target, case, files)
        undo(target, case, files)
        after = restored(target, case, files, before)
    finally:
        for line in case.cleanup:
            run_line(target, line, files, "cleanup")
    if case.restorable:
        assert after == before, (
            f"the undo lines did not restore the state:\nbefore:\n{before}\nafter:\n{after}"
        )

    found = compare.differing_aspects(
        case.tool, kafka, kcli, state_kafka, state_kcli, help_requested="--help" in argv
    )
    expected = case.expected(version)
    declared = {aspect for difference in expected for aspect in difference.aspects}
    report = (
        f"\n$ {' '.join(argv)}\n--- Kafka {version} (exit {kafka.code})\n{kafka.stdout}{kafka.stderr}"
        f"\n--- kcli (exit {kcli.code})\n{kcli.stdout}{kcli.stderr}"
    )
    unexpected = {aspect: how for aspect, how in found.items() if aspect not in declared}
    stale = declared - set(found)
    assert not unexpected, f"kcli differs from Kafka's tool: {unexpected}{report}"
    assert not stale, f"declared differences no longer found ({sorted(stale)}): update the corpus{report}"
    pending = [difference.reason for difference in expected if difference.not_yet]
    if pending:
        pytest.xfail("; ".join(pending))
