"""Real peers with real quirks (test-peers.md): each ends in a result, or one clear error, within its deadline.

- tansu 0.6.0: a malformed CreateAcls reply; the connection dropped on every API it does not serve.
- the librdkafka mock cluster (confluent-kafka, `test.mock.num.brokers=3`): three brokers on real
  loopback ports, no admin APIs, a non-standard ApiVersions error body; the whole cluster can go
  away (the owning client is destroyed) and another one, with another cluster id, can take its place.
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kcli.client.admin import Admin
from kcli.client.config import resolve_client_config
from kcli.client.errors import ClusterIdMismatch, ConnectionFailed
from tests.conftest import CliResult, invoke
from tests.fixtures_tansu import TansuBroker
from tests.reliability.relay import Relay

pytestmark = pytest.mark.timeout(120)  # no case hangs


def one_error(result: CliResult) -> str:
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


# ---- tansu ----------------------------------------------------------------------------------------


@pytest.mark.tansu
@pytest.mark.timeout(25)  # kafka-python hangs 30 s on the same reply
def test_tansu_malformed_create_acls_reply_is_a_clear_error_in_time(tansu: TansuBroker) -> None:
    result = invoke(
        "acls", "-b", tansu.bootstrap, "--add", "--allow-principal", "User:alice", "--operation", "Read",
        "--topic", "reliability-acl", "--force",
    )  # fmt: skip
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert "CreateAcls" in result.stdout + result.stderr


@pytest.mark.tansu
@pytest.mark.parametrize(
    ("args", "api"),
    [
        (("metadata-quorum", "describe", "--status"), "DescribeQuorum"),
        (("features", "upgrade", "--feature", "group.version=1"), "UpdateFeatures"),
        (("configs", "--describe", "--entity-type", "users", "--entity-name", "u1"), "DescribeClientQuotas"),
    ],
)
def test_tansu_drops_the_connection_on_unsupported_apis(
    tansu: TansuBroker, args: tuple[str, ...], api: str
) -> None:
    result = invoke(args[0], "-b", tansu.bootstrap, *args[1:])
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    said = result.stdout + result.stderr
    assert "not supported" in said or "UNSUPPORTED_VERSION" in said, said


# ---- librdkafka mock cluster ----------------------------------------------------------------------


class MockCluster:
    """A librdkafka mock cluster, alive while this object is (confluent-kafka's test.mock.num.brokers)."""

    def __init__(self, brokers: int = 3) -> None:
        import confluent_kafka

        self._client: Any = confluent_kafka.Producer({"test.mock.num.brokers": brokers, "log_level": 0})
        metadata = self._client.list_topics(timeout=10)
        self.cluster_id: str = metadata.cluster_id
        self.addresses = [f"{b.host}:{b.port}" for b in sorted(metadata.brokers.values(), key=lambda b: b.id)]

    @property
    def bootstrap(self) -> str:
        return ",".join(self.addresses)

    def destroy(self) -> None:
        """Take every mock broker away (their ports close)."""
        if self._client is not None:
            self._client.flush(0)
            self._client = None
            gc.collect()


@pytest.fixture
def mock_cluster() -> Iterator[MockCluster]:
    cluster = MockCluster()
    try:
        yield cluster
    finally:
        cluster.destroy()


def config_for(bootstrap: str, tmp_path: Path, extra: str = "") -> Any:
    path = tmp_path / "client.properties"
    path.write_text(
        "request.timeout.ms=1000\ndefault.api.timeout.ms=3000\nretry.backoff.max.ms=200\n" + extra
    )
    return resolve_client_config(
        bootstrap_server=bootstrap,
        bootstrap_controller=None,
        command_config=path,
        profile=None,
        environ={},
        config_file=Path("/nonexistent/kcli.toml"),
        warn=lambda message: None,
    )


def test_mock_cluster_bootstrap_and_metadata(mock_cluster: MockCluster) -> None:
    result = invoke("cluster-id", "-b", mock_cluster.addresses[1])
    assert result.code == 0, result.stderr
    assert result.stdout.strip() == f"Cluster ID: {mock_cluster.cluster_id}"
    listed = invoke("cluster", "-b", mock_cluster.addresses[0], "list-endpoints", "-o", "json")
    assert listed.code == 0, listed.stderr
    nodes = [(n["id"], f"{n['host']}:{n['port']}") for n in listed.json["nodes"]]
    assert nodes == list(zip([1, 2, 3], mock_cluster.addresses, strict=True))


def test_mock_cluster_dead_bootstrap_entries_are_skipped(mock_cluster: MockCluster) -> None:
    from tests.fixtures_tansu import free_port

    dead = f"127.0.0.1:{free_port()}"
    result = invoke("cluster-id", "-b", f"{dead},{mock_cluster.addresses[2]}")
    assert result.code == 0, result.stderr
    assert mock_cluster.cluster_id in result.stdout


def test_mock_cluster_without_admin_apis_is_a_clear_error(mock_cluster: MockCluster) -> None:
    result = invoke("metadata-quorum", "-b", mock_cluster.bootstrap, "describe", "--status")
    assert "not supported by this server" in one_error(result)


def test_mock_cluster_going_away_mid_session_fails_within_the_deadline(tmp_path: Path) -> None:
    cluster = MockCluster()

    async def session() -> None:
        async with Admin(config_for(cluster.bootstrap, tmp_path)) as admin:
            assert admin.cluster_id == cluster.cluster_id
            assert sorted(admin.nodes) == [1, 2, 3]
            cluster.destroy()
            with pytest.raises(ConnectionFailed) as failure:  # the nodes refuse: not a timeout, no hang
                await admin.describe_cluster()
            assert "connect" in failure.value.line()

    try:
        asyncio.run(asyncio.wait_for(session(), 20))
    finally:
        cluster.destroy()


def test_mock_cluster_replaced_by_another_cluster_is_refused_on_rebootstrap(tmp_path: Path) -> None:
    """KIP-899 with a real peer: the stable address now leads to a cluster with another id: refused."""
    first, second = MockCluster(), MockCluster()
    assert first.cluster_id != second.cluster_id
    try:
        with Relay() as relay:
            relay.point_at(first.addresses[0])

            async def session() -> None:
                async with Admin(config_for(relay.address, tmp_path)) as admin:
                    assert admin.cluster_id == first.cluster_id
                    first.destroy()
                    relay.point_at(second.addresses[0])
                    with pytest.raises(ClusterIdMismatch) as refused:
                        await admin.describe_cluster()
                    line = refused.value.line()
                    assert first.cluster_id in line and second.cluster_id in line

            asyncio.run(asyncio.wait_for(session(), 20))
    finally:
        first.destroy()
        second.destroy()


def test_mock_cluster_rebootstrap_through_a_stable_address_carries_on(tmp_path: Path) -> None:
    """KIP-899 recovery path with a real peer: after a rebootstrap through the stable address (a relay,
    as a load balancer), the same cluster is pinned again and requests go on."""
    cluster = MockCluster()
    try:
        with Relay() as relay:
            relay.point_at(cluster.addresses[0])

            async def session() -> None:
                async with Admin(config_for(relay.address, tmp_path)) as admin:
                    assert admin.cluster_id == cluster.cluster_id
                    again = await admin.rebootstrap(time.monotonic() + 3)
                    assert again.cluster_id == cluster.cluster_id
                    described = await admin.describe_cluster()
                    assert sorted(node.node_id for node in described.nodes) == [1, 2, 3]

            asyncio.run(asyncio.wait_for(session(), 20))
    finally:
        cluster.destroy()


@pytest.mark.tansu
@pytest.mark.slow
def test_doctor_flags_a_misrouted_pre_v5_peer(tmp_path: Path) -> None:
    """tansu (no ApiVersions v5, so no REBOOTSTRAP_REQUIRED) advertising another cluster's broker:
    doctor still flags the endpoint, from the cluster id the advertised address answers with."""
    import subprocess

    from tests.fixtures_tansu import _stop, _wait_until_accepting, free_port, run_tansu, tansu_binary

    with run_tansu(tmp_path, cluster_id="cluster-b") as other:
        port = free_port()
        process = subprocess.Popen(
            [
                str(tansu_binary()), "broker", "--listener-url", f"tcp://127.0.0.1:{port}",
                "--advertised-listener-url", f"tcp://127.0.0.1:{other.port}",
                "--storage-engine", "memory://tansu/", "--cluster-id", "cluster-a",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            assert _wait_until_accepting(process, port)
            result = invoke("cluster", "-b", f"127.0.0.1:{port}", "doctor")
        finally:
            _stop(process)
    assert result.code == 1, (result.stdout, result.stderr)
    flagged = [line for line in result.stdout.splitlines() if line.startswith("CRITICAL")]
    assert len(flagged) == 1 and "cluster-b" in flagged[0] and "cluster-a" in flagged[0], result.stdout
    assert f"127.0.0.1:{other.port}" in flagged[0]
