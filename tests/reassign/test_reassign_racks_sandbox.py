"""Rack-aware reassignment end to end: --generate on a racked sandbox, then --execute and --verify."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import invoke
from tests.reassign.peer import create_topic, peer_admin, replicas_of

pytestmark = pytest.mark.sandbox

# Broker i of the sandbox is on racks[(i - 1) % 3]: 1,4 -> a; 2,5 -> b; 3,6 -> c.
RACKS = ("a", "b", "c")


def test_generated_plan_spreads_replicas_over_racks(make_sandbox: Any, tmp_path: Path) -> None:
    sb = make_sandbox(controllers=1, brokers=6, racks=RACKS)
    b = sb.bootstrap_servers
    with peer_admin(b) as admin:  # the racks as an independent client reads them
        racks = {int(n["broker_id"]): n["rack"] for n in admin.describe_cluster()["brokers"]}
    assert racks == {1: "a", 2: "b", 3: "c", 4: "a", 5: "b", 6: "c"}
    # every partition starts with both replicas on one rack
    create_topic(b, "racked", [[1, 4], [2, 5], [3, 6], [4, 1], [5, 2], [6, 3]])
    topics = tmp_path / "topics.json"
    topics.write_text('{"version":1,"topics":[{"topic":"racked"}]}')

    generated = invoke(
        "reassign-partitions", "--bootstrap-server", b, "--generate", "--topics-to-move-json-file",
        str(topics), "--broker-list", "1,2,3,4,5,6", "--seed", "7", "-o", "json",
    )  # fmt: skip
    assert generated.code == 0, generated.stderr
    proposed = generated.json["proposed"]
    placement = {e["partition"]: e["replicas"] for e in proposed["partitions"]}
    assert sorted(placement) == list(range(6))
    for replicas in placement.values():
        assert len(replicas) == 2
        assert len({racks[r] for r in replicas}) == 2, placement

    plan = tmp_path / "proposed.json"
    plan.write_text(json.dumps(proposed))
    executed = invoke(
        "reassign-partitions", "--bootstrap-server", b, "--execute", "--reassignment-json-file",
        str(plan), "--rollback-file", str(tmp_path / "rollback.json"), "--wait", "--timeout", "60000",
    )  # fmt: skip
    assert executed.code == 0, executed.stderr
    verified = invoke(
        "reassign-partitions", "--bootstrap-server", b, "--verify", "--reassignment-json-file", str(plan)
    )
    assert verified.code == 0, verified.stderr
    assert verified.lines[1:7] == [f"Reassignment of partition racked-{p} is completed." for p in range(6)]
    assert replicas_of(b, "racked") == placement
