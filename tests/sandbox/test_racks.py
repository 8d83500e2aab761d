"""Broker racks: assigned round-robin, advertised in Metadata, DescribeCluster and RegisterBrokerRecord."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import invoke
from tests.sandbox.raw import RawConnection, first

pytestmark = pytest.mark.sandbox
REGISTER_BROKER_RECORD = 0


def test_racks_round_robin_everywhere_a_client_looks(make_sandbox: Any) -> None:
    from kio.schema.metadata.v12.request import MetadataRequest

    from kcli.metadata.reader import read_file

    sb = make_sandbox(controllers=1, brokers=4, racks=("east", "west"))
    expected = {1: "east", 2: "west", 3: "east", 4: "west"}
    with RawConnection(first(sb.bootstrap_servers)) as conn:
        metadata = conn.call(
            MetadataRequest(
                topics=(), allow_auto_topic_creation=False, include_topic_authorized_operations=False
            )
        )
    assert {int(b.node_id): b.rack for b in metadata.brokers} == expected

    endpoints = invoke("cluster", "list-endpoints", "--bootstrap-server", sb.bootstrap_servers, "-o", "json")
    assert endpoints.code == 0, endpoints.stderr
    assert {int(n["id"]): n["rack"] for n in endpoints.json["nodes"]} == expected  # DescribeCluster

    registered: dict[int, str | None] = {}
    for segment in sorted(sb.metadata_log_dir(sb.active_controller_id).glob("*.log")):
        for entry in read_file(segment):
            if not entry.control and entry.key == REGISTER_BROKER_RECORD:
                registered[int(entry.record.broker_id)] = entry.record.rack
    assert registered == expected

    configs = invoke(
        "configs", "--bootstrap-server", sb.bootstrap_servers, "--describe", "--entity-type", "brokers",
        "--entity-name", "2", "--all",
    )  # fmt: skip
    assert configs.code == 0, configs.stderr
    assert any(line.strip().startswith("broker.rack=west") for line in configs.lines), configs.stdout


def test_no_racks_by_default(sandbox: Any) -> None:
    status = sandbox.status()
    assert all(node["rack"] is None for node in status["nodes"])
