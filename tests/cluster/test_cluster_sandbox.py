"""kcli cluster list-endpoints and unregister end to end on the sandbox."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.sandbox


def test_list_endpoints_brokers_and_controllers(kcli: Any, sandbox: Any) -> None:
    brokers = kcli("cluster", "list-endpoints", "--bootstrap-server", sandbox.bootstrap_servers)
    assert brokers.code == 0, brokers.stderr
    assert brokers.lines[0].split() == ["ID", "HOST", "PORT", "RACK", "STATE", "ENDPOINT_TYPE"]
    assert [int(line.split()[0]) for line in brokers.lines[1:]] == sorted(sandbox.broker_ids)
    controllers = kcli("cluster", "list-endpoints", "--bootstrap-controller", sandbox.bootstrap_controllers)
    assert controllers.code == 0, controllers.stderr
    assert controllers.lines[0].split() == ["ID", "HOST", "PORT", "RACK", "ENDPOINT_TYPE"]
    assert [line.split()[-1] for line in controllers.lines[1:]] == ["controller"] * len(
        sandbox.controller_ids
    )
    refused = kcli(
        "cluster", "list-endpoints", "-C", sandbox.bootstrap_controllers, "--include-fenced-brokers"
    )
    assert refused.code == 2
    assert "only supported with --bootstrap-server option" in refused.stderr


def test_fenced_broker_listed_then_unregistered(kcli: Any, fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    gone = sb.broker_ids[-1]
    sb.stop_node(gone)
    listed = kcli(
        "cluster", "list-endpoints", "-b", sb.bootstrap_servers, "--include-fenced-brokers", "-o", "json"
    )
    assert listed.code == 0, listed.stderr
    assert {n["id"]: n["fenced"] for n in listed.json["nodes"]}[gone] is True
    done = kcli("cluster", "unregister", "--id", str(gone), "-b", sb.bootstrap_servers)
    assert (done.code, done.lines) == (0, [f"Broker {gone} is no longer registered."]), done.stderr
    after = kcli(
        "cluster", "list-endpoints", "-b", sb.bootstrap_servers, "--include-fenced-brokers", "-o", "json"
    )
    assert gone not in [n["id"] for n in after.json["nodes"]]
    again = kcli("cluster", "unregister", "--id", str(gone), "-b", sb.bootstrap_servers)
    assert again.code == 1 and "BROKER_ID_NOT_REGISTERED" in again.stderr
