"""kill -9 of real Kafka nodes while kcli changes the cluster.

`reassign-partitions --execute --wait`, a run of `configs --alter` and a run of `acls --add` go on in
child processes while a thread kills the active controller (or a broker) once the reassignment has
started. Afterwards every change kcli reported as done is read back by kafka-python; a change it
did not report may or may not be there, but it said so in one line. Nothing hangs past its deadline
(the test's timeout is the deadline), and the reassignment's rollback file puts every replica back.
A misrouted broker on a SASL listener closes the module (KIP-1242 after login).
"""

from __future__ import annotations

import json
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import NEWEST, kafka_home
from tests.polling import wait_for
from tests.realcluster.conftest import RealCluster, cluster_of
from tests.realcluster.peers import kcli_process, peer_producer, topic_configs

pytestmark = [pytest.mark.realcluster, pytest.mark.realkafka, pytest.mark.slow]

CHANGES = 6  # configs --alter and acls --add runs during each fault
PROCESS_TIMEOUT_S = 240.0


@pytest.fixture(scope="module")
def faulty(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """3 controllers (so the quorum survives one) and 2 brokers, SASL_PLAINTEXT, the authorizer."""
    from kcli.sandbox.kafka.handle import KafkaSandbox

    with KafkaSandbox(
        kafka_home(NEWEST),
        tmp_path_factory.mktemp("faulty-kafka"),
        controllers=3,
        brokers=2,
        security="sasl_plaintext",
        authorizer=True,
    ) as kafka:
        yield kafka


@pytest.fixture
def peer(faulty: Any) -> Iterator[Any]:
    admin = cluster_of(faulty).peer_admin()
    try:
        yield admin
    finally:
        admin.close()


@dataclass
class Run:
    """One kcli child process: its arguments, and how it ended."""

    args: tuple[str, ...]
    code: int | None = None
    stdout: str = ""
    stderr: str = ""


@dataclass
class Changes:
    """What ran during a fault."""

    reassign: Run
    configs: list[tuple[str, str, Run]] = field(default_factory=list)  # topic, value, run
    acls: list[tuple[str, Run]] = field(default_factory=list)  # principal, run
    errors: list[BaseException] = field(default_factory=list)


def _finish(process: Any, run: Run) -> Run:
    run.stdout, run.stderr = process.communicate(timeout=PROCESS_TIMEOUT_S)
    run.code = process.returncode
    return run


def _one_error_line(run: Run) -> None:
    """A failed kcli run: exit 1, one `Error:` line, no traceback."""
    assert run.code == 1, (run.args, run.code, run.stdout, run.stderr)
    errors = [line for line in run.stderr.splitlines() if line.startswith("Error: ")]
    assert len(errors) == 1 and "Traceback" not in run.stderr, run.stderr


def _assignment(admin: Any, topic: str) -> dict[int, list[int]]:
    (described,) = admin.describe_topics([topic])
    return {p["partition_index"]: list(p["replica_nodes"]) for p in described["partitions"]}


def _acl_principals(admin: Any, topic: str) -> set[str]:
    from kafka.admin import (
        ACLFilter,
        ACLOperation,
        ACLPermissionType,
        ACLResourcePatternType,
        ResourcePatternFilter,
        ResourceType,
    )

    acls, error = admin.describe_acls(
        ACLFilter(
            principal=None,
            host=None,
            operation=ACLOperation.ANY,
            permission_type=ACLPermissionType.ANY,
            resource_pattern=ResourcePatternFilter(ResourceType.TOPIC, topic, ACLResourcePatternType.LITERAL),
        )
    )
    assert error.errno == 0, error
    return {acl.principal for acl in acls}


def _during(
    kafka: Any, cluster: RealCluster, peer: Any, tmp_path: Path, fault: Callable[[], None]
) -> tuple[Changes, str, dict[int, list[int]], Path]:
    """Start the reassignment, the config and the ACL runs; call `fault` once the reassignment started."""
    first, second = kafka.broker_ids
    from kafka.admin import NewTopic

    tag = uuid.uuid4().hex[:6]
    moved, target = f"kcli-fault-move-{tag}", f"kcli-fault-configs-{tag}"
    topics = [f"{target}-{n}" for n in range(CHANGES)]
    peer.create_topics(
        [NewTopic(moved, -1, -1, replica_assignments={0: [first], 1: [second]})]
        + [NewTopic(t, 1, 1) for t in topics]
    )
    wait_for(lambda: set(topics) <= set(peer.list_topics()), timeout=30, interval=0.3, what="the fault's topics")
    producer = peer_producer(kafka.bootstrap_servers, cluster.command_config)
    try:
        for n in range(96):
            producer.send(moved, b"x" * 32768, partition=n % 2)
        producer.flush(timeout=120)
    finally:
        producer.close()
    before = _assignment(peer, moved)
    plan = tmp_path / "plan.json"
    plan.write_text(json.dumps({"version": 1, "partitions": [
        {"topic": moved, "partition": 0, "replicas": [second]},
        {"topic": moved, "partition": 1, "replicas": [first]},
    ]}))  # fmt: skip
    rollback = tmp_path / "rollback.json"
    config = ["--bootstrap-server", kafka.bootstrap_servers, "--command-config", str(cluster.command_config)]
    reassign_args = (
        "reassign-partitions", *config, "--execute", "--reassignment-json-file", str(plan), "--wait",
        "--throttle", "1000000", "--timeout", "150000", "--rollback-file", str(rollback),
    )  # fmt: skip
    changes = Changes(reassign=Run(reassign_args))
    reassigning = kcli_process(*reassign_args)
    started = threading.Event()

    def watch_reassignment() -> None:
        assert reassigning.stdout is not None
        lines = []
        for line in reassigning.stdout:
            lines.append(line)
            if line.startswith("Successfully started partition reassignment"):
                started.set()
        changes.reassign.stdout = "".join(lines)

    def run_configs() -> None:
        for n, topic in enumerate(topics):
            value = str(3600000 + n)
            args = ("configs", *config, "--alter", "--topic", topic, "--add-config", f"retention.ms={value}")
            run = Run(args)
            process = kcli_process(*args)
            changes.configs.append((topic, value, _finish(process, run)))

    def run_acls() -> None:
        for n in range(CHANGES):
            principal = f"User:fault-{tag}-{n}"
            args = ("acls", *config, "--add", "--allow-principal", principal, "--operation", "Read", "--topic", moved)
            run = Run(args)
            changes.acls.append((principal, _finish(kcli_process(*args), run)))

    def inject() -> None:
        try:
            assert started.wait(timeout=PROCESS_TIMEOUT_S), "the reassignment never started"
            fault()
        except BaseException as error:  # reported by the test thread
            changes.errors.append(error)

    reader = threading.Thread(target=watch_reassignment)
    workers = [threading.Thread(target=run_configs), threading.Thread(target=run_acls), threading.Thread(target=inject)]
    reader.start()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=2 * PROCESS_TIMEOUT_S)
    reassigning.wait(timeout=PROCESS_TIMEOUT_S)
    reader.join(timeout=30)
    assert reassigning.stderr is not None
    changes.reassign.stderr = reassigning.stderr.read()
    changes.reassign.code = reassigning.returncode
    assert not changes.errors, changes.errors
    return changes, moved, before, rollback


def _check(kafka: Any, cluster: RealCluster, peer: Any, changes: Changes, moved: str, before: dict[int, list[int]], rollback: Path) -> None:
    first, second = kafka.broker_ids
    run = changes.reassign
    if run.code == 0:
        # done at the controller; a broker's metadata (what kafka-python reads) follows a moment later
        wait_for(
            lambda: _assignment(peer, moved) == {0: [second], 1: [first]}, timeout=30, interval=0.5,
            what="the reassignment kcli reported done",
        )  # fmt: skip
    else:
        _one_error_line(run)
    assert len(changes.configs) == CHANGES and len(changes.acls) == CHANGES
    for topic, value, config_run in changes.configs:
        if config_run.code == 0:
            assert topic_configs(peer, topic)["retention.ms"] == value, config_run.args
        else:
            _one_error_line(config_run)
    principals = _acl_principals(peer, moved)
    for principal, acl_run in changes.acls:
        if acl_run.code == 0:
            assert principal in principals, acl_run.stdout
        else:
            _one_error_line(acl_run)
    # the rollback file, written before anything changed, puts every replica back
    assert {p["partition"]: p["replicas"] for p in json.loads(rollback.read_text())["partitions"]} == before
    back = invoke(
        "reassign-partitions", *cluster.broker_args(), "--execute", "--reassignment-json-file", str(rollback),
        "--wait", "--timeout", "150000", "--additional", "--rollback-file", str(rollback.with_name("again.json")),
    )  # fmt: skip
    assert back.code == 0, back.stdout + back.stderr
    wait_for(lambda: _assignment(peer, moved) == before, timeout=30, interval=0.5, what="the rollback applied")


@pytest.mark.timeout(900)
def test_kill_9_of_the_active_controller_during_changes(faulty: Any, peer: Any, tmp_path: Path) -> None:
    cluster = cluster_of(faulty)
    killed: list[int] = []

    def kill_active_controller() -> None:
        active = faulty.active_controller_id
        faulty.kill_node(active)
        killed.append(active)

    try:
        changes, moved, before, rollback = _during(faulty, cluster, peer, tmp_path, kill_active_controller)
        assert killed, "no controller was killed"
        _check(faulty, cluster, peer, changes, moved, before, rollback)
        assert faulty.active_controller_id != killed[0]
    finally:
        for node in killed:
            faulty.start_node(node)


@pytest.mark.timeout(900)
def test_kill_9_of_a_broker_during_changes(faulty: Any, peer: Any, tmp_path: Path) -> None:
    cluster = cluster_of(faulty)
    victim = faulty.broker_ids[1]
    killed: list[int] = []

    def kill_then_restart_a_broker() -> None:
        faulty.kill_node(victim)
        killed.append(victim)
        time.sleep(3)
        faulty.start_node(victim)
        killed.remove(victim)

    try:
        changes, moved, before, rollback = _during(faulty, cluster, peer, tmp_path, kill_then_restart_a_broker)
        _check(faulty, cluster, peer, changes, moved, before, rollback)
    finally:
        for node in killed:
            faulty.start_node(node)


def test_a_misrouted_broker_on_a_sasl_listener_is_named(faulty: Any, peer: Any) -> None:
    """A SASL listener answers ApiVersions before login without checking KIP-1242's ClusterId/NodeId:
    kcli asks again after login, when the broker does check, and names the misrouted node."""
    from tests.realcluster.test_cluster_changes import _advertise

    cluster = cluster_of(faulty)
    first, second = faulty.broker_ids
    # the module's last test: the cluster is stopped afterwards, misrouted or not
    _advertise(faulty, second, faulty.port_of(first))
    altered = invoke("configs", *cluster.broker_args(), "--alter", "--broker", str(second), "--add-config", "log.cleaner.backoff.ms=15009")
    assert altered.code == 1
    assert f"node {second} (127.0.0.1:{faulty.port_of(first)}) is misrouted" in altered.stderr
    doctor = invoke("cluster", "doctor", *cluster.broker_args(), "-o", "json")
    assert doctor.code == 1
    mismatch = [f for f in doctor.json["findings"] if f["check"] == "node-id-mismatch"]
    assert [f["subject"] for f in mismatch] == [f"broker {second} at 127.0.0.1:{faulty.port_of(first)}"], doctor.json
    assert "api_versions_v5_after_login" in {e["identity"]["method"] for e in doctor.json["endpoints"] if e["identity"]}
