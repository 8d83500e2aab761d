"""`kcli sandbox --kafka-home`: real Kafka nodes started, reopened and stopped through kcli's own commands."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.fixtures_kafka import NEWEST, OLDEST, kafka_home

pytestmark = [pytest.mark.realkafka, pytest.mark.slow]


def _pids(directory: Path) -> list[int]:
    state = json.loads((directory / "sandbox.json").read_text())
    return [node["pid"] for node in state["nodes"] if node["pid"] is not None]


def _alive(pid: int) -> bool:
    try:
        return b"kafka.Kafka" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


@pytest.fixture
def cli_sandbox(tmp_path: Path) -> Iterator[Path]:
    """A directory for `sandbox up --kafka-home`; every node it started is stopped afterwards."""
    directory = tmp_path / "sb"
    yield directory
    if (directory / "sandbox.json").exists():
        invoke("sandbox", "down", "--dir", str(directory))


def test_up_status_down_and_reopen_through_the_cli(cli_sandbox: Path) -> None:
    home = kafka_home(NEWEST)
    up = invoke(
        "sandbox", "up", "--kafka-home", str(home), "--dir", str(cli_sandbox),
        "--controllers", "1", "--brokers", "2", "--topics", "2", "--partitions", "2", "--racks", "r1,r2",
        "--detach", "--base-port", "0",
    )  # fmt: skip
    assert up.code == 0, up.stderr
    assert f"(Apache Kafka {NEWEST}, real nodes)" in up.stdout
    assert "Formatted nodes 1, 2, 101 with Kafka 4.4.0's StorageTool" in up.stderr
    state = json.loads((cli_sandbox / "sandbox.json").read_text())
    assert state["engine"] == "kafka"
    brokers, controllers = state["bootstrap_servers"], state["bootstrap_controllers"]
    pids = _pids(cli_sandbox)
    assert len(pids) == 3 and all(_alive(pid) for pid in pids)

    by_broker = invoke("cluster-id", "--bootstrap-server", brokers)
    by_controller = invoke("cluster-id", "--bootstrap-controller", controllers)
    assert by_broker.stdout == by_controller.stdout == f"Cluster ID: {state['cluster_id']}\n"
    endpoints = invoke("cluster", "list-endpoints", "--bootstrap-server", brokers, "-o", "json")
    assert [(n["id"], n["rack"]) for n in endpoints.json["nodes"]] == [(1, "r1"), (2, "r2")]

    from tests.polish.test_json_output import assert_valid

    status = assert_valid(
        "sandbox status", invoke("sandbox", "status", "--dir", str(cli_sandbox), "-o", "json")
    )
    assert {n["id"]: n["running"] for n in status["nodes"]} == {1: True, 2: True, 101: True}
    assert status["active_controller_id"] == 101
    assert status["topics"] == 2
    # faults on real nodes: tests/sandbox/test_engines.py (both engines, the session's cluster)

    pids = _pids(cli_sandbox)
    down = invoke("sandbox", "down", "--dir", str(cli_sandbox))
    assert down.code == 0, down.stderr
    assert down.stdout.startswith(f"Sandbox {state['cluster_id']} in ")
    assert not any(_alive(pid) for pid in pids)
    assert not (cli_sandbox / "sandbox.json").exists()

    # reopening starts the same cluster on the same ports, with its topics
    again = invoke("sandbox", "up", "--dir", str(cli_sandbox), "--detach", "-o", "json")
    assert again.code == 0, again.stderr
    assert again.json["cluster_id"] == state["cluster_id"]
    assert again.json["bootstrap_servers"] == brokers
    assert again.json["topics"] == 2


def test_usage_errors_name_the_engine(tmp_path: Path, sandbox: Any) -> None:
    missing = invoke("sandbox", "up", "--kafka-home", str(tmp_path / "nowhere"), "--dir", str(tmp_path / "a"))
    assert missing.code == 2
    assert "is not a Kafka distribution: it has no libs/ directory" in missing.stderr
    assert not (tmp_path / "a").exists()

    combined = invoke("sandbox", "up", "--combined", "--dir", str(tmp_path / "b"))
    assert combined.code == 2
    assert "--combined needs --kafka-home" in combined.stderr

    emulated = sandbox.directory
    kill = invoke("sandbox", "kill-node", "1", "--dir", str(emulated))
    assert kill.code == 2
    assert "kill-node needs real Kafka nodes" in kill.stderr
    reopen = invoke(
        "sandbox", "up", "--kafka-home", str(kafka_home(NEWEST)), "--dir", str(emulated), "--detach"
    )
    assert reopen.code == 2
    assert "holds an emulated sandbox" in reopen.stderr


def test_a_failed_start_leaves_no_jvm_and_no_directory(tmp_path: Path) -> None:
    import socket

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        # the controller's port (after the broker's) is in use: Kafka's node cannot bind it
        failed = invoke(
            "sandbox", "up", "--kafka-home", str(kafka_home(NEWEST)), "--dir", str(tmp_path / "c"),
            "--controllers", "1", "--brokers", "1", "--base-port", str(port - 1), "--detach",
        )  # fmt: skip
    assert failed.code == 1
    assert failed.stderr.count("\nError: ") + failed.stderr.startswith("Error: ") == 1
    assert "exited while starting" in failed.stderr
    assert not (tmp_path / "c").exists()


def test_the_oldest_release_runs_as_one_combined_node(real_kafka_oldest: Any) -> None:
    assert real_kafka_oldest.kafka_version == OLDEST
    assert real_kafka_oldest.broker_ids == real_kafka_oldest.controller_ids == (1,)
    by_broker = invoke("cluster-id", "--bootstrap-server", real_kafka_oldest.bootstrap_servers)
    by_controller = invoke("cluster-id", "--bootstrap-controller", real_kafka_oldest.bootstrap_controllers)
    assert by_broker.code == by_controller.code == 0
    assert by_broker.stdout == by_controller.stdout == f"Cluster ID: {real_kafka_oldest.cluster_id}\n"
    status = real_kafka_oldest.status()
    assert [(n["id"], n["role"], n["running"]) for n in status["nodes"]] == [(1, "combined", True)]


def _broker_config(bootstrap: str, broker: int, key: str) -> tuple[str, str]:
    described = invoke(
        "configs", "--bootstrap-server", bootstrap, "--describe", "--entity-type", "brokers",
        "--entity-name", str(broker), "--all", "-o", "json",
    )  # fmt: skip
    assert described.code == 0, described.stderr
    (entity,) = described.json["resources"]
    entry = next(e for e in entity["configs"] if e["name"] == key)
    return entry["value"], entry["source"]


def test_server_config_node_overrides_and_add_node(cli_sandbox: Path) -> None:
    up = invoke(
        "sandbox", "up", "--kafka-home", str(kafka_home(NEWEST)), "--dir", str(cli_sandbox),
        "--controllers", "1", "--brokers", "1", "--server-config", "log.retention.hours=5", "--base-port", "0",
        "--detach", "-o", "json",
    )  # fmt: skip
    assert up.code == 0, up.stderr
    bootstrap = up.json["bootstrap_servers"]
    assert _broker_config(bootstrap, 1, "log.retention.hours") == ("5", "STATIC_BROKER_CONFIG")

    added = invoke("sandbox", "add-node", "--dir", str(cli_sandbox), "-o", "json")
    assert added.code == 0, added.stderr
    assert (added.json["node_id"], added.json["role"]) == (2, "broker")
    assert _broker_config(bootstrap, 2, "log.retention.hours") == ("5", "STATIC_BROKER_CONFIG")

    # a node's own setting, in its overrides.properties, wins from its next start on
    (cli_sandbox / "2" / "overrides.properties").write_text("log.retention.hours=7\n")
    assert invoke("sandbox", "stop-node", "2", "--dir", str(cli_sandbox)).code == 0
    assert invoke("sandbox", "start-node", "2", "--dir", str(cli_sandbox)).code == 0
    assert _broker_config(bootstrap, 2, "log.retention.hours") == ("7", "STATIC_BROKER_CONFIG")
    assert _broker_config(bootstrap, 1, "log.retention.hours") == ("5", "STATIC_BROKER_CONFIG")

    controller = invoke("sandbox", "add-node", "--controller", "--dir", str(cli_sandbox), "-o", "json")
    assert controller.code == 0, controller.stderr
    assert controller.json["node_id"] == 102
    controllers = controller.json["status"]["bootstrap_controllers"]
    joined = invoke(
        "metadata-quorum", "--bootstrap-controller", controllers, "add-controller",
        "--command-config", controller.json["config"],
    )  # fmt: skip
    assert joined.code == 0, joined.stderr
    quorum = invoke(
        "metadata-quorum", "--bootstrap-controller", controllers, "describe", "--status", "-o", "json"
    )
    assert sorted(v["id"] for v in quorum.json["voters"]) == [101, 102]
