"""The same `kcli sandbox` commands on both engines: the emulator and real Kafka nodes, of one shape.

Every test runs once per engine (the `engine_sandbox` fixture). What both engines can do is checked
the same way on each; a fault only one of them can do is done by it and refused by the other with
one line and exit 2 (NotSupported through the engine interface), nothing changed.
"""

from __future__ import annotations

import time
from typing import Any

from tests.polish.test_json_output import assert_valid
from tests.polling import wait_for

NODES = [(1, "broker"), (2, "broker"), (3, "broker"), (101, "controller"), (102, "controller"), (103, "controller")]
TEXT = {"emulator": "an emulated KRaft cluster, not Kafka", "kafka": "real nodes"}


def _status(engine: Any) -> dict[str, Any]:
    return assert_valid("sandbox status", engine.sandbox("status", "-o", "json"))


def _fenced(engine: Any) -> dict[int, bool]:
    listed = engine.kcli("cluster", "list-endpoints", "--include-fenced-brokers", "-o", "json")
    assert listed.code == 0, listed.stderr
    return {node["id"]: node["fenced"] for node in listed.json["nodes"]}


def _one_line(result: Any) -> str:
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("Error: "), result.stderr
    return str(result.stderr)


def test_status_shows_the_same_cluster_either_way(engine_sandbox: Any) -> None:
    status = _status(engine_sandbox)
    assert status["engine"] == engine_sandbox.engine
    assert [(n["id"], n["role"], n["running"]) for n in status["nodes"]] == [(*node, True) for node in NODES]
    assert status["active_controller_id"] in (101, 102, 103)
    assert status["security"] == "sasl_ssl"
    lines = engine_sandbox.sandbox("status").stdout.splitlines()
    assert lines[0].startswith(f"Sandbox cluster {status['cluster_id']} (") and TEXT[engine_sandbox.engine] in lines[0]
    assert lines[-2:] == [
        f"bootstrap.servers={status['bootstrap_servers']}",
        f"bootstrap.controllers={status['bootstrap_controllers']}",
    ]


def test_a_stopped_broker_is_fenced_and_a_started_one_rejoins(engine_sandbox: Any) -> None:
    stopped = engine_sandbox.sandbox("stop-node", "3", "-o", "json")
    try:
        assert stopped.code == 0, stopped.stderr
        assert {n["id"]: n["running"] for n in stopped.json["nodes"]}[3] is False
        wait_for(lambda: _fenced(engine_sandbox).get(3), timeout=60, interval=0.5, what="broker 3 fenced")
        again = engine_sandbox.sandbox("stop-node", "3")
        assert again.code == 1 and "node 3 is already stopped" in _one_line(again)
    finally:
        started = engine_sandbox.sandbox("start-node", "3")
    assert (started.code, started.stdout) == (0, "Node 3 started.\n"), started.stderr
    assert wait_for(
        lambda: _fenced(engine_sandbox) == {1: False, 2: False, 3: False}, timeout=60, interval=0.5, what="unfenced"
    )
    assert all(n["running"] for n in _status(engine_sandbox)["nodes"])


def test_a_running_broker_unregistered_stays_out_until_it_restarts(engine_sandbox: Any) -> None:
    """As Kafka 4.4 does: `cluster unregister` of a live broker removes it (it keeps running and
    fetching metadata, but does not register again by itself); restarted, it registers anew."""
    gone = engine_sandbox.kcli("cluster", "unregister", "--id", "3")
    try:
        assert (gone.code, gone.stdout) == (0, "Broker 3 is no longer registered.\n"), gone.stderr
        time.sleep(5)  # several heartbeat intervals: a broker that re-registered would be back by now
        assert set(_fenced(engine_sandbox)) == {1, 2}
        assert all(n["running"] for n in _status(engine_sandbox)["nodes"])
    finally:
        # a Kafka broker the controller no longer knows waits out its controlled shutdown (60 s):
        # killed, it is back as soon; the emulator's nodes are stopped (they share one process)
        engine_sandbox.sandbox("kill-node" if engine_sandbox.engine == "kafka" else "stop-node", "3")
        started = engine_sandbox.sandbox("start-node", "3")
    assert started.code == 0, started.stderr
    assert wait_for(
        lambda: _fenced(engine_sandbox) == {1: False, 2: False, 3: False}, timeout=60, interval=0.5, what="back"
    )


def test_kill_node_on_real_kafka_and_the_emulators_answer(engine_sandbox: Any) -> None:
    killed = engine_sandbox.sandbox("kill-node", "2")
    if engine_sandbox.engine == "emulator":
        assert killed.code == 2  # its nodes share one process: nothing was killed
        line = _one_line(killed)
        assert "kill-node needs real Kafka nodes" in line and "stop the node with: kcli sandbox stop-node 2" in line
        assert all(n["running"] for n in _status(engine_sandbox)["nodes"])
        return
    try:
        assert (killed.code, killed.stdout) == (0, "Node 2 killed.\n"), killed.stderr
        # a broker gone without a word is fenced once its session times out, as Kafka does
        wait_for(lambda: _fenced(engine_sandbox).get(2), timeout=60, interval=0.5, what="broker 2 fenced")
    finally:
        started = engine_sandbox.sandbox("start-node", "2")
    assert started.code == 0, started.stderr
    assert wait_for(lambda: not any(_fenced(engine_sandbox).values()), timeout=60, interval=0.5, what="unfenced")


def test_failover_makes_another_controller_active(engine_sandbox: Any) -> None:
    before = _status(engine_sandbox)["active_controller_id"]
    moved = engine_sandbox.sandbox("failover", "-o", "json")
    assert moved.code == 0, moved.stderr
    active = moved.json["active_controller_id"]
    assert active in (101, 102, 103) and active != before
    status = _status(engine_sandbox)
    assert status["active_controller_id"] == active
    assert all(n["running"] for n in status["nodes"])  # real Kafka: the old leader was started again


def test_misroute_and_delay_are_the_emulators_alone(engine_sandbox: Any) -> None:
    misrouted = engine_sandbox.sandbox("misroute", "1")
    delayed = engine_sandbox.sandbox("delay", "1", "5")
    if engine_sandbox.engine == "kafka":
        for command, result in (("misroute", misrouted), ("delay", delayed)):
            assert result.code == 2
            assert f"`sandbox {command}` is a fault only the emulator can fake" in _one_line(result)
        assert {(n["advertises"], n["delay_ms"]) for n in _status(engine_sandbox)["nodes"]} == {(None, 0)}
        return
    try:
        assert misrouted.stdout == "Node 1 now advertises the endpoint of node 2.\n", misrouted.stderr
        assert delayed.stdout == "Node 1 responses delayed by 5 ms.\n", delayed.stderr
        node = next(n for n in _status(engine_sandbox)["nodes"] if n["id"] == 1)
        assert (node["advertises"], node["delay_ms"]) == (2, 5)
    finally:
        ended = engine_sandbox.sandbox("misroute", "1", "--as", "1")
        undelayed = engine_sandbox.sandbox("delay", "1", "0")
    assert ended.stdout == "Node 1 advertises its own endpoint again (no longer misrouted).\n"
    assert undelayed.code == 0
    assert {(n["advertises"], n["delay_ms"]) for n in _status(engine_sandbox)["nodes"]} == {(None, 0)}
