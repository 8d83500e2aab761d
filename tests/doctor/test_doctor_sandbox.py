"""kcli cluster doctor end to end on the sandbox: a healthy cluster, and a misrouted endpoint (KIP-1242)."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.sandbox


def test_healthy_sandbox_checks_every_endpoint(kcli: Any, sandbox: Any) -> None:
    result = kcli(
        "cluster",
        "doctor",
        "-b",
        sandbox.bootstrap_servers,
        "-C",
        sandbox.bootstrap_controllers,
        "-o",
        "json",
    )
    assert result.code == 0, result.stdout + result.stderr
    report = result.json
    assert report["healthy"] is True and report["cluster_id"] == sandbox.cluster_id
    probed = {(e["role"], e["node_id"]) for e in report["endpoints"] if e["role"] != "bootstrap"}
    assert probed == {("broker", b) for b in sandbox.broker_ids} | {
        ("controller", c) for c in sandbox.controller_ids
    }
    assert all(e["ok"] for e in report["endpoints"])
    # brokers check ApiVersions v5's ids; controllers never do (as in Kafka 4.4): they are asked for
    # their own broker config resource
    method = {"broker": "api_versions_v5", "controller": "describe_configs"}
    assert all(
        e["identity"]
        == {"method": method[e["role"]], "verified": True, "actual_node_id": e["node_id"], "detail": None}
        for e in report["endpoints"]
        if e["role"] != "bootstrap"
    ), report["endpoints"]
    assert not [f for f in report["findings"] if f["severity"] in ("high", "critical")]


def test_misroute_is_caught(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    victim = sb.broker_ids[0]
    sb.misroute(victim)
    result = kcli("cluster", "doctor", "--bootstrap-server", sb.bootstrap_servers)
    assert result.code == 1, result.stdout
    critical = [line for line in result.lines if line.startswith("CRITICAL node-id-mismatch")]
    assert len(critical) == 1 and f"broker {victim} at " in critical[0]
    assert f"endpoint advertised for node {victim} is served by another node" in critical[0]
    table = kcli("cluster", "doctor", "-b", sb.bootstrap_servers, "-o", "table")
    assert table.code == 1 and "MISMATCH" in table.stdout


def test_a_delayed_broker_is_reported_slow_then_unreachable(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    slow = sb.broker_ids[-1]
    sb.delay(slow, 1000)
    first = f"127.0.0.1:{sb.port_of(sb.broker_ids[0])}"  # bootstrap from a prompt broker: one slow probe
    result = kcli("cluster", "doctor", "-b", first, "--fail-on", "low")
    assert result.code == 1, result.stdout + result.stderr
    flagged = [line for line in result.lines if line.startswith("LOW      endpoint-slow")]
    assert len(flagged) == 1 and f"broker {slow} at " in flagged[0], result.stdout
    assert result.lines[-1].startswith("UNHEALTHY: ") and "fail-on low" in result.lines[-1]
    timed_out = kcli("cluster", "doctor", "-b", first, "--timeout-ms", "500")
    assert timed_out.code == 1, timed_out.stdout
    (line,) = [line for line in timed_out.lines if line.startswith("HIGH     endpoint-unreachable")]
    assert f"broker {slow} at " in line and "timed out after 500 ms (--timeout-ms)" in line
    # the probe's own deadline ran out: neither default.api.timeout.ms nor request.timeout.ms limited it
    assert "raise --timeout-ms" in line and "default.api.timeout.ms" not in line
    assert "check the node is running" not in line
