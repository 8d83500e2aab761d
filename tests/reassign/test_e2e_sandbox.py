"""kcli reassign-partitions end to end on the sandbox, checked with kafka-python as an independent peer.

The sandbox copies a partition's records to each new replica at the throttled rate, so the bytes
filled in (tests/dataplane/filling.py) and a throttle decide how long a reassignment takes.
"""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import pytest

from kcli.ops.reassign.model import TopicPartition
from tests.conftest import CliResult, invoke
from tests.dataplane.filling import fill
from tests.polling import wait_for
from tests.reassign.peer import broker_configs, create_topic, replicas_of, topic_configs

pytestmark = pytest.mark.sandbox

THROTTLE_KEYS_TOPIC = {"leader.replication.throttled.replicas", "follower.replication.throttled.replicas"}
THROTTLE_KEYS_BROKER = {"leader.replication.throttled.rate", "follower.replication.throttled.rate"}


def plan_file(tmp_path: Path, name: str, topic: str, placement: list[list[int]]) -> str:
    path = tmp_path / name
    path.write_text(
        json.dumps(
            {
                "version": 1,
                "partitions": [
                    {"topic": topic, "partition": p, "replicas": r} for p, r in enumerate(placement)
                ],
            }
        )
    )
    return str(path)


def reassign(bootstrap: str, *args: str) -> CliResult:
    return invoke("reassign-partitions", "--bootstrap-server", bootstrap, *args)


def test_generate_execute_watch_verify_removes_throttles(sandbox: Any, tmp_path: Path) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "rs-flow", [[1, 2]] * 6)
    fill(sandbox, "rs-flow", range(6), 2_000)
    topics = tmp_path / "topics.json"
    topics.write_text('{"version":1,"topics":[{"topic":"rs-flow"}]}')

    generated = reassign(
        b, "--generate", "--topics-to-move-json-file", str(topics), "--broker-list", "1,2,3",
        "--strategy", "minimal-movement", "-o", "json",
    )  # fmt: skip
    assert generated.code == 0, generated.stderr
    plan = generated.json
    assert plan["stats"]["replicas_moved"] == 4  # 12 replicas over 3 brokers: broker 3 takes 4
    assert plan["stats"]["bytes_moved"] > 0  # sizes from DescribeLogDirs
    assert plan["stats"]["replica_spread"] == 0
    proposed = tmp_path / "proposed.json"
    proposed.write_text(json.dumps(plan["proposed"]))

    rollback = tmp_path / "rollback.json"
    executed = reassign(
        b, "--execute", "--reassignment-json-file", str(proposed), "--throttle", "50000000",
        "--rollback-file", str(rollback), "--wait", "--timeout", "60000",
    )  # fmt: skip
    assert executed.code == 0, executed.stderr
    lines = executed.lines
    assert lines[0] == "Current partition replica assignment"
    assert lines[4] == "Save this to use as the --reassignment-json-file option during rollback"
    assert lines[5] == f"Rollback file written to {rollback}"
    assert json.loads(lines[2]) == json.loads(rollback.read_text())
    assert "The inter-broker throttle limit was set to 50000000 B/s" in lines
    assert any(line.startswith("Successfully started partition reassignments for rs-flow-") for line in lines)
    assert lines[-8:-2] == [f"Reassignment of partition rs-flow-{p} is completed." for p in range(6)]
    # Off a terminal: plain progress lines on stderr, no bar characters in the log.
    assert "Reassignment progress: 6 of 6 partition(s) done." in executed.stderr.splitlines()
    assert "\u2501" not in executed.stderr and "%" not in executed.stderr

    # Done: --wait removed the throttles as --verify would, and said so.
    assert lines[-2:] == [
        "Clearing broker-level throttles on brokers 1,2,3",
        "Clearing topic-level throttles on topic rs-flow",
    ]
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-flow"))
    for broker in (1, 2, 3):
        assert not THROTTLE_KEYS_BROKER & set(broker_configs(b, broker))

    verified = reassign(b, "--verify", "--reassignment-json-file", str(proposed))
    assert verified.code == 0, verified.stderr
    assert verified.lines[0] == "Status of partition reassignment:"
    assert verified.lines[1:7] == [f"Reassignment of partition rs-flow-{p} is completed." for p in range(6)]
    assert verified.lines[7] == ""
    assert verified.lines[8].startswith("Clearing broker-level throttles on brokers ")
    assert verified.lines[9] == "Clearing topic-level throttles on topic rs-flow"
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-flow"))
    for broker in (1, 2, 3):
        assert not THROTTLE_KEYS_BROKER & set(broker_configs(b, broker))
    after = replicas_of(b, "rs-flow")
    assert {p: tuple(r) for p, r in after.items()} == {
        e["partition"]: tuple(e["replicas"]) for e in plan["proposed"]["partitions"]
    }


def test_wait_with_preserve_throttles_leaves_them_for_verify(sandbox: Any, tmp_path: Path) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "rs-preserve", [[1, 2], [2, 1]])
    plan = plan_file(tmp_path, "plan.json", "rs-preserve", [[2, 3], [3, 1]])
    executed = reassign(
        b, "--execute", "--reassignment-json-file", plan, "--throttle", "50000000", "--wait",
        "--preserve-throttles", "--rollback-file", str(tmp_path / "rb.json"), "-o", "json",
    )  # fmt: skip
    assert executed.code == 0, executed.stderr
    assert executed.json["wait"]["throttles"] == {
        "cleared": {"brokers": [], "topics": []},
        "kept_because": "--preserve-throttles",
        "errors": [],
    }
    assert set(topic_configs(b, "rs-preserve")) >= THROTTLE_KEYS_TOPIC
    assert set(broker_configs(b, 3)) >= THROTTLE_KEYS_BROKER
    verified = reassign(b, "--verify", "--reassignment-json-file", plan)
    assert verified.code == 0, verified.stderr
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-preserve"))
    assert not THROTTLE_KEYS_BROKER & set(broker_configs(b, 3))

    refused = reassign(b, "--execute", "--reassignment-json-file", plan, "--preserve-throttles")
    assert refused.code == 2
    assert "--preserve-throttles with --execute needs --wait" in refused.stderr


def test_wait_keeps_the_throttles_while_another_reassignment_runs(sandbox: Any, tmp_path: Path) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "rs-slow", [[1, 2]])
    fill(sandbox, "rs-slow", [0], 5_000)
    create_topic(b, "rs-quick", [[1, 2]])
    slow = plan_file(tmp_path, "slow.json", "rs-slow", [[3, 2]])
    started = reassign(b, "--execute", "--reassignment-json-file", slow, "--throttle", "10000",
                       "--rollback-file", str(tmp_path / "rb-slow.json"))  # fmt: skip
    assert started.code == 0, started.stderr
    try:
        # a new order only: nothing to copy. The same rate, since the rates are per broker and
        # a higher one would speed the slow move up.
        quick = plan_file(tmp_path, "quick.json", "rs-quick", [[2, 1]])
        executed = reassign(b, "--execute", "--reassignment-json-file", quick, "--additional",
                            "--throttle", "10000", "--wait", "--rollback-file", str(tmp_path / "rb.json"))  # fmt: skip
        assert executed.code == 0, executed.stderr
        assert executed.lines[-1] == (
            "Throttles left in place (1 partition reassignment(s) still running in the cluster): "
            "--verify removes them once no reassignment is running"
        )
        assert set(topic_configs(b, "rs-slow")) >= THROTTLE_KEYS_TOPIC
    finally:
        cancelled = reassign(b, "--cancel", "--reassignment-json-file", slow)
    assert cancelled.code == 0, cancelled.stderr


def test_progress_is_reported_while_copying(sandbox: Any, tmp_path: Path) -> None:
    """watch() sees partial progress (bytes from DescribeLogDirs) before the end."""
    from kcli.cli.connection_options import ConnectionArgs, client_config
    from kcli.client.admin import Admin
    from kcli.env import Env
    from kcli.workflows.reassign.progress import PartitionProgress, watch

    b = sandbox.bootstrap_servers
    create_topic(b, "rs-progress", [[1, 2], [2, 1]])
    fill(sandbox, "rs-progress", [0, 1], 40_000)  # about 5 MB a partition: ~5 s at 1 MB/s, even under load
    target = [[2, 3], [3, 1]]
    plan = plan_file(tmp_path, "plan.json", "rs-progress", target)
    started = reassign(b, "--execute", "--reassignment-json-file", plan, "--throttle", "1000000",
                       "--rollback-file", str(tmp_path / "rb.json"))  # fmt: skip
    assert started.code == 0, started.stderr
    seen: list[tuple[PartitionProgress, ...]] = []
    config = client_config(ConnectionArgs(bootstrap_server=b), Env(environ={"KCLI_CONFIG": "/nonexistent"}))

    async def go() -> Any:
        async with Admin(config) as admin:
            targets = {TopicPartition("rs-progress", p): tuple(r) for p, r in enumerate(target)}
            return await watch(admin, targets, timeout_ms=60000, on_progress=seen.append, interval_s=0.2)

    result = asyncio.run(go())
    assert not result.timed_out
    assert all(p.done for p in result.progress)
    partial = [p for snapshot in seen for p in snapshot if not p.done and p.bytes_total > 0]
    assert partial, "no snapshot caught a partition mid-copy"
    assert any(0 < p.fraction < 1 for p in partial)
    reassign(b, "--verify", "--reassignment-json-file", plan)


def test_cancel_mid_way_restores_the_replicas(sandbox: Any, tmp_path: Path) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "rs-cancel", [[1, 2], [2, 1], [1, 2]])
    fill(sandbox, "rs-cancel", range(3), 3_000)
    before = replicas_of(b, "rs-cancel")
    plan = plan_file(tmp_path, "plan.json", "rs-cancel", [[3, 2], [3, 1], [1, 3]])
    started = reassign(b, "--execute", "--reassignment-json-file", plan, "--throttle", "10000",
                       "--rollback-file", str(tmp_path / "rb.json"), "--wait", "--timeout", "1500")  # fmt: skip
    assert started.code == 1, started.stderr  # --wait is bounded by --timeout; the move goes on
    assert (
        started.lines[-1] == "Timed out waiting for the reassignment of: rs-cancel-0,rs-cancel-1,rs-cancel-2"
    )
    assert set(topic_configs(b, "rs-cancel")) >= THROTTLE_KEYS_TOPIC

    listed = invoke("reassign-partitions", "--bootstrap-controller", sandbox.bootstrap_controllers, "--list")
    assert listed.code == 0, listed.stderr
    assert "rs-cancel-0: replicas: 3,2,1. adding: 3. removing: 1." in listed.lines

    try:
        other = plan_file(tmp_path, "other.json", "rs-cancel", [[2, 1], [1, 2], [2, 1]])
        refused = reassign(
            b, "--execute", "--reassignment-json-file", other, "--rollback-file", str(tmp_path / "rb2.json")
        )
        assert refused.code == 1
        assert (
            "Cannot execute because there is an existing partition assignment.  Use --additional"
            in refused.stderr
        )
        assert not (tmp_path / "rb2.json").exists()

        verify = reassign(b, "--verify", "--reassignment-json-file", plan)
        assert "Reassignment of partition rs-cancel-1 is still in progress." in verify.lines
        assert not any(line.startswith("Clearing") for line in verify.lines)  # still moving: throttles stay
    except BaseException:
        invoke("reassign-partitions", "-b", b, "--cancel", "--reassignment-json-file", plan)
        raise

    cancelled = invoke(
        "reassign-partitions", "--bootstrap-controller", sandbox.bootstrap_controllers,
        "--cancel", "--reassignment-json-file", plan, "-o", "json",
    )  # fmt: skip
    assert cancelled.code == 0, cancelled.stderr
    assert cancelled.json["cancelled"] == ["rs-cancel-0", "rs-cancel-1", "rs-cancel-2"]
    after = replicas_of(b, "rs-cancel")
    assert {p: set(r) for p, r in after.items()} == {p: set(r) for p, r in before.items()}
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-cancel"))
    again = invoke(
        "reassign-partitions",
        "-C",
        sandbox.bootstrap_controllers,
        "--cancel",
        "--reassignment-json-file",
        plan,
    )
    assert again.lines[0] == "None of the specified partition reassignments are active."


def test_rollback_file_restores_the_original_state(sandbox: Any, tmp_path: Path) -> None:
    b = sandbox.bootstrap_servers
    create_topic(b, "rs-rollback", [[1, 2], [2, 3], [3, 1]])
    before = replicas_of(b, "rs-rollback")
    plan = plan_file(tmp_path, "plan.json", "rs-rollback", [[3, 1], [1, 2], [2, 3]])
    state = tmp_path / "state"
    done = invoke(
        "reassign-partitions", "-b", b, "--execute", "--reassignment-json-file", plan, "--wait",
        environ={"XDG_STATE_HOME": str(state)},
    )  # fmt: skip
    assert done.code == 0, done.stderr
    (rollback,) = (state / "kcli" / "rollback").iterdir()  # the default place, printed on stdout
    assert f"Rollback file written to {rollback}" in done.lines
    assert replicas_of(b, "rs-rollback") == {0: [3, 1], 1: [1, 2], 2: [2, 3]}
    back = reassign(b, "--execute", "--reassignment-json-file", str(rollback),
                    "--rollback-file", str(tmp_path / "rollback2.json"), "--wait", "-o", "json")  # fmt: skip
    assert back.code == 0, back.stderr
    assert back.json["rollback_file"] == str(tmp_path / "rollback2.json")
    assert back.json["started"] == ["rs-rollback-0", "rs-rollback-1", "rs-rollback-2"]
    assert back.json["wait"]["timed_out"] is False
    assert [s["status"] for s in back.json["wait"]["states"]] == ["complete"] * 3
    assert replicas_of(b, "rs-rollback") == before


def test_controller_failover_during_execute_converges(fresh_sandbox: Any, tmp_path: Path) -> None:
    sb = fresh_sandbox
    b = sb.bootstrap_servers
    create_topic(b, "rs-failover", [[1, 2], [2, 1], [1, 2], [2, 1]])
    fill(sb, "rs-failover", range(4), 30_000)  # about 4 MB a partition: a second or so at 4 MB/s
    target = [[3, 2], [3, 1], [1, 3], [2, 3]]
    plan = plan_file(tmp_path, "plan.json", "rs-failover", target)
    box: dict[str, CliResult] = {}

    def execute() -> None:
        box["result"] = reassign(b, "--execute", "--reassignment-json-file", plan, "--throttle", "4000000",
                                 "--rollback-file", str(tmp_path / "rb.json"), "--wait", "--timeout", "90000")  # fmt: skip

    worker = threading.Thread(target=execute)
    worker.start()
    # Fail over once the reassignment is under way on the controller, not after a guessed delay.
    wait_for(
        lambda: sb.run(_moving("rs-failover")), timeout=30, what="the reassignment of rs-failover started"
    )
    old = sb.active_controller_id
    new = sb.failover()
    assert new != old
    worker.join(120)
    assert not worker.is_alive()
    result = box["result"]
    assert result.code == 0, result.stderr
    assert result.lines[-6:-2] == [
        f"Reassignment of partition rs-failover-{p} is completed." for p in range(4)
    ]
    assert result.lines[-1] == "Clearing topic-level throttles on topic rs-failover"
    assert replicas_of(b, "rs-failover") == dict(enumerate(target))
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-failover"))


def _moving(topic: str) -> Any:
    def check(cluster: Any) -> bool:
        found = cluster.image.topic(topic)
        return found is not None and any(p.adding_replicas for p in found.partitions.values())

    return check


@pytest.mark.parametrize(
    ("placement", "message"),
    [
        ([[1, 4]], "Unknown broker id 4"),
        ([[1, 2, 3]], "would change replication factor from 2 to 3"),
        ([[1, 2], [2, 3], [3, 1], [1, 2]], "Unable to find partition: rs-bad-3"),
    ],
)
def test_bad_input_is_refused_before_any_change(
    sandbox: Any, tmp_path: Path, placement: list[list[int]], message: str
) -> None:
    b = sandbox.bootstrap_servers
    if "rs-bad" not in replicas_of_all(b):
        create_topic(b, "rs-bad", [[1, 2], [2, 3], [3, 1]])
    before = replicas_of(b, "rs-bad")
    plan = plan_file(tmp_path, "plan.json", "rs-bad", placement)
    rollback = tmp_path / "rollback.json"
    result = reassign(b, "--execute", "--reassignment-json-file", plan, "--throttle", "1000",
                      "--rollback-file", str(rollback))  # fmt: skip
    assert result.code == 1  # the cluster refutes the file: a runtime error, as the original exits 1
    assert message in result.stderr and result.stderr.count("\n") == 1
    assert result.stdout == ""
    assert not rollback.exists()
    assert replicas_of(b, "rs-bad") == before
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-bad"))


def replicas_of_all(bootstrap: str) -> set[str]:
    from tests.reassign.peer import peer_admin

    with peer_admin(bootstrap) as admin:
        return set(admin.list_topics())


def test_generate_unknown_topic_and_controller_only_actions(sandbox: Any, tmp_path: Path) -> None:
    topics = tmp_path / "topics.json"
    topics.write_text('{"version":1,"topics":[{"topic":"rs-no-such-topic"}]}')
    result = reassign(
        sandbox.bootstrap_servers,
        "--generate",
        "--topics-to-move-json-file",
        str(topics),
        "--broker-list",
        "1,2",
    )
    assert result.code == 1
    assert result.stderr.strip() == "Error: Topic rs-no-such-topic not found."
    listed = invoke("reassign-partitions", "-C", sandbox.bootstrap_controllers, "--list", "-o", "json")
    assert listed.code == 0, listed.stderr
    assert isinstance(listed.json["reassignments"], list)


def test_wait_whose_throttles_cannot_be_cleared_says_so_in_one_error_line(sandbox: Any, tmp_path: Path) -> None:
    """The partitions moved, then the brokers refused to drop the throttles: exit 1 with one `Error:`
    line on stderr naming what is left and what to run (--verify), not a line among the results."""
    from kcli.sandbox.emulator.context import ZERO

    async def refuse_deletes(ctx: Any, request: Any) -> Any:
        if not any(op.config_operation == 1 for r in request.resources for op in r.configs):
            return None  # setting the throttles goes through
        return ctx.r(
            "IncrementalAlterConfigsResponse",
            throttle_time=ZERO,
            responses=tuple(
                ctx.r(
                    "AlterConfigsResourceResponse",
                    error_code=44,  # POLICY_VIOLATION
                    error_message="throttles stay (a test's policy)",
                    resource_type=r.resource_type,
                    resource_name=r.resource_name,
                )
                for r in request.resources
            ),
        )

    b = sandbox.bootstrap_servers
    create_topic(b, "rs-stuck-throttles", [[1, 2]])
    plan = plan_file(tmp_path, "plan.json", "rs-stuck-throttles", [[2, 3]])
    sandbox.control(44, refuse_deletes)
    try:
        executed = reassign(
            b, "--execute", "--reassignment-json-file", plan, "--throttle", "50000000", "--wait",
            "--rollback-file", str(tmp_path / "rb.json"),
        )  # fmt: skip
    finally:
        sandbox.control(44, None)
    assert executed.code == 1
    assert "Reassignment of partition rs-stuck-throttles-0 is completed." in executed.lines
    errors = [line for line in executed.stderr.splitlines() if line.startswith("Error")]
    assert len(errors) == 1 and errors[0].startswith(
        "Error: the reassignment is done, but clearing its throttles failed ("
    ), executed.stderr
    assert errors[0].endswith("); run --verify with the same file to clear them")
    assert "broker 3: POLICY_VIOLATION: throttles stay (a test's policy)" in errors[0]
    assert set(topic_configs(b, "rs-stuck-throttles")) >= THROTTLE_KEYS_TOPIC
    verified = reassign(b, "--verify", "--reassignment-json-file", plan)
    assert verified.code == 0, verified.stderr
    assert not THROTTLE_KEYS_TOPIC & set(topic_configs(b, "rs-stuck-throttles"))


def test_wait_reads_the_replicas_until_the_brokers_metadata_catches_up(sandbox: Any, tmp_path: Path) -> None:
    """The controller says no reassignment is running before the brokers' Metadata shows the target
    (a real cluster's brokers follow its log a moment later): --wait reads again until the replicas
    are the targets, instead of reporting 'replica set is 3,1 rather than 3' for a move that completed.
    Here ListPartitionReassignments answers 'none' at once while the sandbox still copies."""
    from kcli.sandbox.emulator.context import ZERO

    async def nothing_running(ctx: Any, request: Any) -> Any:
        return ctx.r(
            "ListPartitionReassignmentsResponse", throttle_time=ZERO, error_code=0, error_message=None, topics=()
        )

    b = sandbox.bootstrap_servers
    create_topic(b, "rs-lagging", [[1]])
    plan = plan_file(tmp_path, "plan.json", "rs-lagging", [[3]])
    sandbox.control(46, nothing_running)
    try:
        executed = reassign(
            b, "--execute", "--reassignment-json-file", plan, "--throttle", "2000000", "--wait",
            "--preserve-throttles", "--rollback-file", str(tmp_path / "rb.json"),
        )  # fmt: skip
    finally:
        sandbox.control(46, None)
    assert executed.code == 0, executed.stderr
    assert "Reassignment of partition rs-lagging-0 is completed." in executed.lines, executed.stdout
    assert replicas_of(b, "rs-lagging") == {0: [3]}
    reassign(b, "--verify", "--reassignment-json-file", plan)
