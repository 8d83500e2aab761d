"""`kcli sandbox add-node` on the emulator: a broker that takes replicas, a controller that add-controller makes a voter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


@pytest.fixture
def emulated(tmp_path: Path) -> Iterator[Path]:
    directory = tmp_path / "sb"
    up = invoke("sandbox", "up", "--dir", str(directory), "--detach", "--base-port", "0", "--topics", "1")
    assert up.code == 0, up.stderr
    yield directory
    invoke("sandbox", "down", "--dir", str(directory))


def test_a_new_broker_registers_and_can_take_replicas(emulated: Path) -> None:
    added = invoke("sandbox", "add-node", "--dir", str(emulated), "-o", "json")
    assert added.code == 0, added.stderr
    assert (added.json["node_id"], added.json["role"], added.json["config"]) == (4, "broker", None)
    bootstrap = added.json["status"]["bootstrap_servers"]
    listed = invoke("cluster", "list-endpoints", "--bootstrap-server", bootstrap, "-o", "json")
    assert [n["id"] for n in listed.json["nodes"]] == [1, 2, 3, 4]
    plan = emulated / "plan.json"
    plan.write_text(
        '{"version":1,"partitions":[{"topic":"sandbox-topic-00000","partition":0,"replicas":[4,1,2]}]}'
    )
    moved = invoke(
        "reassign-partitions", "--bootstrap-server", bootstrap, "--execute", "--wait",
        "--reassignment-json-file", str(plan), "--rollback-file", str(emulated / "rollback.json"),
    )  # fmt: skip
    assert moved.code == 0, moved.stderr
    verified = invoke(
        "reassign-partitions",
        "--bootstrap-server",
        bootstrap,
        "--verify",
        "--reassignment-json-file",
        str(plan),
    )
    assert "Reassignment of partition sandbox-topic-00000-0 is completed." in verified.stdout

    taken = invoke("sandbox", "add-node", "--id", "4", "--dir", str(emulated))
    assert taken.code == 1
    assert "node 4 already exists" in taken.stderr


def test_a_new_controller_joins_the_quorum_through_add_controller(emulated: Path) -> None:
    added = invoke("sandbox", "add-node", "--controller", "--dir", str(emulated))
    assert added.code == 0, added.stderr
    assert added.stdout.startswith("Controller 104 started on 127.0.0.1:")
    config = added.stdout.rsplit("--command-config ", 1)[1].strip()
    assert Path(config) == emulated / "104" / "server.properties"
    status = invoke("sandbox", "status", "--dir", str(emulated), "-o", "json").json
    controllers = status["bootstrap_controllers"]
    joined = invoke(
        "metadata-quorum", "--bootstrap-controller", controllers, "add-controller", "--command-config", config
    )
    assert joined.code == 0, joined.stderr
    quorum = invoke(
        "metadata-quorum", "--bootstrap-controller", controllers, "describe", "--status", "-o", "json"
    )
    assert sorted(v["id"] for v in quorum.json["voters"]) == [101, 102, 103, 104]


def test_server_config_is_for_real_kafka_only(tmp_path: Path) -> None:
    refused = invoke("sandbox", "up", "--dir", str(tmp_path / "sb"), "--server-config", "num.io.threads=4")
    assert refused.code == 2
    assert "--server-config needs --kafka-home" in refused.stderr
