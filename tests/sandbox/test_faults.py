"""Faults: stopped nodes, failover, replaced brokers (KIP-899), misrouting (KIP-1242), delays, hooks."""

from __future__ import annotations

import select
from pathlib import Path
from typing import Any

import pytest

from kcli.metadata.records import record_name
from tests.sandbox.peers import admin
from tests.sandbox.raw import RawConnection, first
from tests.sandbox.test_protocol import _api_versions_v5_answer, describe_cluster

pytestmark = pytest.mark.sandbox


def test_stopped_broker_is_fenced_and_refuses_connections(fresh_sandbox: Any) -> None:
    from kafka.admin import NewTopic

    sb = fresh_sandbox
    with admin(sb.bootstrap_servers) as client:
        client.create_topics([NewTopic("f", -1, -1, replica_assignments={0: [2, 3]})])
        sb.stop_node(2)
        described = client.describe_cluster()  # kafka-python asks with IncludeFencedBrokers
        assert {b["broker_id"]: b["is_fenced"] for b in described["brokers"]} == {1: False, 2: True, 3: False}
        partition = client.describe_topics(["f"])[0]["partitions"][0]
        assert partition["leader_id"] == 3 and partition["isr_nodes"] == [3]
    with pytest.raises(OSError):
        RawConnection(f"127.0.0.1:{sb.port_of(2)}", timeout=2)
    sb.start_node(2)
    with admin(sb.bootstrap_servers) as client:
        assert not any(b["is_fenced"] for b in client.describe_cluster()["brokers"])
        assert sorted(client.describe_topics(["f"])[0]["partitions"][0]["isr_nodes"]) == [2, 3]


def test_failover_changes_the_active_controller_and_epoch(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    before = sb.active_controller_id
    after = sb.failover()
    assert after != before and sb.active_controller_id == after
    response = describe_cluster(first(sb.bootstrap_controllers), endpoint_type=2)
    assert response.controller_id == after
    with admin(sb.bootstrap_servers) as client:
        quorum = client.describe_metadata_quorum()["topics"][0]["partitions"][0]
        assert quorum["leader_id"] == after and quorum["leader_epoch"] == 2
        from kafka.admin import NewTopic

        client.create_topics([NewTopic("after-failover", 1, 1)])  # forwarded to the new controller
    segment = sb.metadata_log_dir(after) / "00000000000000000000.log"
    from kcli.metadata.reader import read_file

    names = [record_name(type(e.record)) for e in read_file(segment)]
    assert names.count("LeaderChangeMessage") == 2 and "TopicRecord" in names


def test_stopping_the_active_controller_fails_over(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    active = sb.active_controller_id
    sb.stop_node(active)
    assert sb.active_controller_id != active
    with admin(sb.bootstrap_servers) as client:
        voters = client.describe_metadata_quorum()["topics"][0]["partitions"][0]["current_voters"]
    stopped = next(v for v in voters if v["replica_id"] == active)
    live = [v for v in voters if v["replica_id"] != active]
    assert all(v["log_end_offset"] > stopped["log_end_offset"] for v in live)


def test_replace_brokers_gives_new_ids_on_rotated_ports(fresh_sandbox: Any) -> None:
    from kafka.admin import NewTopic

    sb = fresh_sandbox
    with admin(sb.bootstrap_servers) as client:
        client.create_topics([NewTopic("kept", 2, 3)])
    ports_before = {b: sb.port_of(b) for b in sb.broker_ids}
    mapping = sb.replace_brokers()
    assert mapping == {1: 4, 2: 5, 3: 6}
    assert sb.broker_ids == (4, 5, 6)
    assert {sb.port_of(b) for b in (4, 5, 6)} == set(ports_before.values())
    assert sb.port_of(4) == ports_before[2]  # every id now sits on another id's old port
    with admin(sb.bootstrap_servers) as client:
        assert sorted(b["broker_id"] for b in client.describe_cluster()["brokers"]) == [4, 5, 6]
        replicas = {
            tuple(sorted(p["replica_nodes"])) for p in client.describe_topics(["kept"])[0]["partitions"]
        }
    assert replicas == {(4, 5, 6)}


def test_misroute_makes_api_versions_v5_ask_for_rebootstrap(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    assert sb.misroute(1) == 2
    response = describe_cluster(first(sb.bootstrap_servers), endpoint_type=1)
    advertised = {b.broker_id: b.port for b in response.brokers}
    assert advertised[1] == sb.port_of(2)
    # a client dialling "node 1" at the advertised address reaches node 2, which says so
    answer = _api_versions_v5_answer(f"127.0.0.1:{advertised[1]}", sb.cluster_id, 1)
    assert answer.error_code.value == 129


def test_misroute_to_itself_ends_the_misroute(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    sb.misroute(1)
    assert sb.misroute(1, 1) == 1
    response = describe_cluster(first(sb.bootstrap_servers), endpoint_type=1)
    assert {b.broker_id: b.port for b in response.brokers}[1] == sb.port_of(1)
    assert next(n for n in sb.status()["nodes"] if n["id"] == 1)["advertises"] is None
    answer = _api_versions_v5_answer(f"127.0.0.1:{sb.port_of(1)}", sb.cluster_id, 1)
    assert answer.error_code.value == 0


def test_a_restart_ends_the_misroute(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox
    sb.misroute(2, 3)
    sb.stop_node(2)
    sb.start_node(2)
    response = describe_cluster(first(sb.bootstrap_servers), endpoint_type=1)
    assert {b.broker_id: b.port for b in response.brokers}[2] == sb.port_of(2)
    assert next(n for n in sb.status()["nodes"] if n["id"] == 2)["advertises"] is None


@pytest.mark.timeout(60)
def test_delay_slows_one_node_only(fresh_sandbox: Any) -> None:
    """The delayed node answers after the other one although it was asked first (how long the delay
    takes is a figure of benchmarks/bench_deadlines.py)."""
    from kio.schema.api_versions.v3.request import ApiVersionsRequest

    sb = fresh_sandbox
    sb.delay(2, 3000)
    request = ApiVersionsRequest(client_software_name="t", client_software_version="1")
    with (
        RawConnection(f"127.0.0.1:{sb.port_of(2)}") as slow,
        RawConnection(f"127.0.0.1:{sb.port_of(1)}") as fast,
    ):
        slow.send(request)
        fast.send(request)
        assert _first_readable(slow, fast) is fast  # the delayed node has not answered yet
        assert fast.receive(request).error_code.value == 0
        assert slow.receive(request).error_code.value == 0  # then it does


def _first_readable(*connections: RawConnection) -> RawConnection:
    """The first of `connections` with a response to read (waits as long as it takes)."""
    readable, _, _ = select.select([c.sock for c in connections], [], [])
    return next(c for c in connections if c.sock in readable)


def test_control_hook_answers_instead_of_the_handler(fresh_sandbox: Any) -> None:
    seen: list[int] = []

    async def hook(ctx: Any, request: Any) -> Any:
        seen.append(ctx.node.node_id)
        return ctx.r(
            "DescribeClusterResponse",
            throttle_time=__import__("datetime").timedelta(0),
            error_code=7,
            error_message="injected",
            endpoint_type=1,
            cluster_id="",
            controller_id=-1,
            brokers=(),
            cluster_authorized_operations=-(2**31),
        )

    fresh_sandbox.control(60, hook)
    response = describe_cluster(first(fresh_sandbox.bootstrap_servers), endpoint_type=1)
    assert response.error_code.value == 7 and response.error_message == "injected"
    fresh_sandbox.control(60, None)
    assert describe_cluster(first(fresh_sandbox.bootstrap_servers), endpoint_type=1).error_code.value == 0
    assert seen == [1]


def test_remove_and_add_raft_voter_survive_a_restart(tmp_path: Path) -> None:
    from kio.schema.add_raft_voter.v1.request import AddRaftVoterRequest, Listener
    from kio.schema.remove_raft_voter.v0.request import RemoveRaftVoterRequest

    from kcli.sandbox.emulator.handle import Sandbox

    directory = tmp_path / "voters"
    with Sandbox(directory=directory, controllers=3, brokers=1) as sb:
        controller = first(sb.bootstrap_controllers)
        directory_id = sb.run(lambda c: c.voters[103])
        with RawConnection(controller) as conn:
            removed = conn.call(
                RemoveRaftVoterRequest(
                    cluster_id=sb.cluster_id, voter_id=103, voter_directory_id=directory_id
                )
            )
            assert removed.error_code.value == 0
            again = conn.call(
                RemoveRaftVoterRequest(
                    cluster_id=sb.cluster_id, voter_id=103, voter_directory_id=directory_id
                )
            )
            assert again.error_code.value == 127  # VOTER_NOT_FOUND
            wrong = conn.call(
                RemoveRaftVoterRequest(cluster_id="other", voter_id=102, voter_directory_id=None)
            )
            assert wrong.error_code.value == 104  # INCONSISTENT_CLUSTER_ID
        with admin(sb.bootstrap_servers) as client:
            quorum = client.describe_metadata_quorum()["topics"][0]["partitions"][0]
        assert sorted(v["replica_id"] for v in quorum["current_voters"]) == [101, 102]
        assert 103 in [o["replica_id"] for o in quorum["observers"]]
    with Sandbox(directory=directory, controllers=3, brokers=1) as sb:
        assert sorted(sb.run(lambda c: c.voters)) == [101, 102]
        port = sb.port_of(103)
        with RawConnection(first(sb.bootstrap_controllers)) as conn:
            added = conn.call(
                AddRaftVoterRequest(
                    cluster_id=sb.cluster_id,
                    timeout=__import__("datetime").timedelta(seconds=5),
                    voter_id=103,
                    voter_directory_id=directory_id,
                    listeners=(Listener(name="CONTROLLER", host="127.0.0.1", port=port),),
                    ack_when_committed=True,
                )
            )
        assert added.error_code.value == 0
        assert sorted(sb.run(lambda c: c.voters)) == [101, 102, 103]
