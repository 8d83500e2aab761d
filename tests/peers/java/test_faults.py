"""Faults, compared: Kafka's Java AdminClient and kcli facing the same broken or moved cluster.

- KIP-899: every broker replaced (new ids, new ports) behind a stable bootstrap address. With
  metadata.recovery.strategy=rebootstrap both clients find the new brokers; with `none` both give up.
- KIP-919: bootstrap.controllers pointed at a broker, bootstrap.servers pointed at a controller: the
  Java client's exception says what kcli's error line says.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import invoke
from tests.peers.java.conftest import CLIENT_TIMEOUTS
from tests.peers.java.peer import JavaAdmin, JavaError, JavaPeer
from tests.reliability.relay import Relay

pytestmark = pytest.mark.java

# short deadlines: the clients that do not rebootstrap give up within default.api.timeout.ms
FAST = {
    "request.timeout.ms": "3000",
    "default.api.timeout.ms": "5000",
    "reconnect.backoff.max.ms": "200",
    "retry.backoff.max.ms": "200",
}


@pytest.fixture(scope="module")
def changing_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A cluster these tests change for good: voters come and go, brokers are replaced and unregistered."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path_factory.mktemp("java-changing"), controllers=1, brokers=3) as sb:
        yield sb


def _kcli_admin(bootstrap: str, strategy: str) -> Any:
    from kcli.client.admin import Admin
    from kcli.client.config import config_from_properties

    props = {"bootstrap.servers": bootstrap, "metadata.recovery.strategy": strategy, **FAST}
    return Admin(config_from_properties(props, warn=lambda _: None))


def _java_admin(peer: JavaPeer, bootstrap: str, strategy: str) -> JavaAdmin:
    return peer.client(
        {**CLIENT_TIMEOUTS, **FAST, "bootstrap.servers": bootstrap, "metadata.recovery.strategy": strategy}
    )


def test_raft_voters_added_and_removed(java_peer: JavaPeer, changing_sandbox: Any) -> None:
    """AddRaftVoter and RemoveRaftVoter (KIP-853) from the Java client; kcli's quorum view follows."""
    sb = changing_sandbox
    java = java_peer.client({**CLIENT_TIMEOUTS, "bootstrap.controllers": sb.bootstrap_controllers})
    try:
        sb.prepare_controller(102)
        quorum = java.call("describeMetadataQuorum")
        observer = next(r for r in quorum["observers"] if r["replicaId"] == 102)
        directory = observer["replicaDirectoryId"]
        endpoint = {"name": "CONTROLLER", "host": "127.0.0.1", "port": sb.port_of(102)}
        java.call("addRaftVoter", voter=102, directoryId=directory, endpoints=[endpoint])
        with pytest.raises(JavaError) as twice:
            java.call("addRaftVoter", voter=102, directoryId=directory, endpoints=[endpoint])
        assert twice.value.type == "DuplicateVoterException"
        quorum = java.call("describeMetadataQuorum")
        assert [(r["replicaId"], r["replicaDirectoryId"]) for r in quorum["voters"]][-1] == (102, directory)
        assert quorum["nodes"]["102"] == [endpoint]
        status = invoke(
            "metadata-quorum", "-C", sb.bootstrap_controllers, "describe", "--status", "-o", "json"
        ).json
        assert [(v["id"], v["directory_id"]) for v in status["voters"]] == [
            (r["replicaId"], r["replicaDirectoryId"]) for r in quorum["voters"]
        ]
        java.call("removeRaftVoter", voter=102, directoryId=directory)
        quorum = java.call("describeMetadataQuorum")
        assert [r["replicaId"] for r in quorum["voters"]] == [101]
        assert 102 in [r["replicaId"] for r in quorum["observers"]]
        with pytest.raises(JavaError) as gone:
            java.call("removeRaftVoter", voter=102, directoryId=directory)
        assert gone.value.type == "VoterNotFoundException"
    finally:
        java.close()


def test_replaced_brokers_behind_a_stable_address(java_peer: JavaPeer, changing_sandbox: Any) -> None:
    """KIP-899: with rebootstrap both clients find the new brokers through the stable address; with
    `none` neither goes back to it (Java: TimeoutException waiting for a node; kcli: ConnectionFailed)."""
    from kcli.client.errors import ConnectionFailed

    sb = changing_sandbox
    with Relay() as relay:
        relay.point_at(sb.bootstrap_servers.split(",")[0])
        java = {
            strategy: _java_admin(java_peer, relay.address, strategy) for strategy in ("rebootstrap", "none")
        }

        async def scenario() -> tuple[dict[int, int], Any, Any, Any, Any]:
            async with (
                _kcli_admin(relay.address, "rebootstrap") as kcli,
                _kcli_admin(relay.address, "none") as stuck,
            ):
                for admin in java.values():
                    before = await asyncio.to_thread(admin.call, "describeCluster")
                    assert sorted(n["id"] for n in before["nodes"]) == list(sb.broker_ids)
                for client in (kcli, stuck):
                    assert sorted(n.node_id for n in (await client.describe_cluster()).nodes) == list(
                        sb.broker_ids
                    )
                mapping = await asyncio.to_thread(sb.replace_brokers, fresh_ports=True)
                relay.point_at(sb.bootstrap_servers.split(",")[0])
                java_after = await asyncio.to_thread(java["rebootstrap"].call, "describeCluster")
                kcli_after = await kcli.describe_cluster()
                # the two that give up wait out their deadlines side by side
                java_stuck, kcli_stuck = await asyncio.gather(
                    asyncio.to_thread(_failure, java["none"], "describeCluster"),
                    stuck.describe_cluster(),
                    return_exceptions=True,
                )
                return mapping, java_after, kcli_after, java_stuck, kcli_stuck

        try:
            mapping, java_after, kcli_after, java_stuck, kcli_stuck = asyncio.run(scenario())
        finally:
            for admin in java.values():
                admin.close()
    new_ids = sorted(mapping.values())
    assert sorted(n["id"] for n in java_after["nodes"]) == new_ids
    assert sorted(n.node_id for n in kcli_after.nodes) == new_ids
    assert java_after["clusterId"] == kcli_after.cluster_id == sb.cluster_id
    assert isinstance(java_stuck, JavaError) and java_stuck.type == "TimeoutException", java_stuck
    assert isinstance(kcli_stuck, ConnectionFailed), kcli_stuck


def _failure(admin: JavaAdmin, op: str) -> JavaError | None:
    try:
        admin.call(op)
    except JavaError as error:
        return error
    return None


def test_unregister_a_stopped_broker(java_peer: JavaPeer, changing_sandbox: Any) -> None:
    sb = changing_sandbox
    java = java_peer.client({**CLIENT_TIMEOUTS, "bootstrap.servers": sb.bootstrap_servers})
    try:
        gone = max(sb.broker_ids)
        sb.stop_node(gone)
        java.call("unregisterBroker", broker=gone)
        assert gone not in sb.run(lambda c: c.image.brokers)
        nodes = java.call("describeCluster")["nodes"]
        assert [n["id"] for n in nodes] == sorted(set(sb.broker_ids) - {gone})
        listed = invoke("cluster", "-b", sb.bootstrap_servers, "list-endpoints", "-o", "json").json
        assert [n["id"] for n in listed["nodes"]] == [n["id"] for n in nodes]
    finally:
        java.close()


def test_bootstrap_controllers_pointed_at_a_broker(java_peer: JavaPeer, peer_sandbox: Any) -> None:
    broker = peer_sandbox.bootstrap_servers.split(",")[0]
    java = java_peer.client({**CLIENT_TIMEOUTS, "bootstrap.controllers": broker})
    try:
        with pytest.raises(JavaError) as failed:
            java.call("describeCluster")
    finally:
        java.close()
    # the broker answers DescribeCluster(EndpointType=CONTROLLER) with MISMATCHED_ENDPOINT_TYPE
    assert (failed.value.type, failed.value.code) == (
        "MismatchedEndpointTypeException",
        "MISMATCHED_ENDPOINT_TYPE",
    )
    assert "endpoint of type BROKER" in str(failed.value.message)
    result = invoke("cluster-id", "--bootstrap-controller", broker)
    assert result.code == 2 and result.stdout == ""
    assert result.stderr.strip() == f"Error: {broker} is a broker; use --bootstrap-server"


def test_bootstrap_servers_pointed_at_a_controller(java_peer: JavaPeer, peer_sandbox: Any) -> None:
    controller = peer_sandbox.bootstrap_controllers.split(",")[0]
    java = java_peer.client({**CLIENT_TIMEOUTS, "bootstrap.servers": controller})
    try:
        with pytest.raises(JavaError) as failed:
            java.call("describeCluster")
    finally:
        java.close()
    # a controller does not serve Metadata: its ApiVersions leaves it out, so the client refuses to send
    assert (failed.value.type, failed.value.code) == ("UnsupportedVersionException", "UNSUPPORTED_VERSION")
    assert "does not support METADATA" in str(failed.value.message)
    result = invoke("cluster-id", "--bootstrap-server", controller)
    assert result.code == 2 and result.stdout == ""
    assert result.stderr.strip() == f"Error: {controller} is a controller; use --bootstrap-controller"


def test_broker_only_calls_through_controllers_are_refused_by_both(
    java_controllers: JavaAdmin, peer_sandbox: Any
) -> None:
    """Client quotas and SCRAM credentials are not described by controllers (KIP-919): the Java client
    refuses before sending, and so does kcli, with a usage error naming the right flag."""
    for op in ("describeClientQuotas", "describeUserScramCredentials"):
        with pytest.raises(JavaError) as refused:
            java_controllers.call(op)
        assert refused.value.type == "UnsupportedEndpointTypeException", op
    for entity in ("clients", "users"):
        result = invoke(
            "configs", "-C", peer_sandbox.bootstrap_controllers, "--describe", "--entity-type", entity
        )
        assert result.code == 2, result.stderr
        assert "cannot be read through --bootstrap-controller" in result.stderr
        assert "use --bootstrap-server" in result.stderr
