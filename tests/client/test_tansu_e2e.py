"""End to end against a real tansu broker: cluster-id, DescribeCluster, Metadata, its quirks."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from kcli.client import cluster, protocol
from kcli.client.admin import Admin, Target
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.errors import UnsupportedByServer
from tests.conftest import invoke
from tests.fixtures_tansu import TansuBroker

pytestmark = [pytest.mark.tansu, pytest.mark.timeout(60)]  # no case hangs


def _config(bootstrap: str, **props: str) -> ClientConfig:
    return config_from_properties({"bootstrap.servers": bootstrap, **props}, warn=lambda _: None)


def test_cluster_id_text(tansu: TansuBroker) -> None:
    result = invoke("cluster-id", "--bootstrap-server", tansu.bootstrap)
    assert result.code == 0, result.stderr
    assert result.stdout == "Cluster ID: kcli-test-cluster\n"
    assert result.stderr == ""


def test_cluster_id_json(tansu: TansuBroker) -> None:
    result = invoke("cluster-id", "-b", tansu.bootstrap, "-o", "json")
    assert result.code == 0, result.stderr
    assert result.json == {
        "cluster_id": "kcli-test-cluster",
        "controller_id": 111,
        "endpoint_type": "brokers",
    }


def test_cluster_id_from_env_and_command_config(tansu: TansuBroker, tmp_path: Path) -> None:
    result = invoke("cluster-id", environ={"KCLI_BOOTSTRAP_SERVER": tansu.bootstrap})
    assert result.code == 0 and result.stdout == "Cluster ID: kcli-test-cluster\n"
    props = tmp_path / "c.properties"
    props.write_text(f"bootstrap.servers={tansu.bootstrap}\nclient.id=e2e\n")
    result = invoke("cluster-id", "--command-config", str(props))
    assert result.code == 0 and result.stdout == "Cluster ID: kcli-test-cluster\n"


def test_bootstrap_controller_against_a_broker_is_a_clear_mismatch(tansu: TansuBroker) -> None:
    """tansu answers EndpointType 2 with no error and lists itself; kcli must still refuse."""
    result = invoke("cluster-id", "--bootstrap-controller", tansu.bootstrap)
    assert result.code == 2
    assert result.stderr == f"Error: {tansu.bootstrap} is a broker; use --bootstrap-server\n"


def test_describe_cluster_through_admin(tansu: TansuBroker) -> None:
    async def scenario() -> None:
        async with Admin(_config(tansu.bootstrap)) as admin:
            assert admin.cluster_id == "kcli-test-cluster" and admin.controller_id == 111
            assert admin.description is not None and admin.description.source == "DescribeCluster v1"
            assert dict(admin.nodes)[111].port == tansu.port
            again = await admin.describe_cluster()
            assert again.cluster_id == "kcli-test-cluster" and [n.node_id for n in again.nodes] == [111]

    asyncio.run(scenario())


def test_metadata_fallback_against_tansu(tansu: TansuBroker) -> None:
    """The Metadata path old brokers need, exercised against tansu's real Metadata v12."""

    async def scenario() -> None:
        from kcli.client.connection import Connection

        config = _config(tansu.bootstrap)
        connection = await Connection.open(config.bootstrap[0], config=config, deadline=time.monotonic() + 10)
        try:
            description = await cluster.describe_with_metadata(connection, deadline=time.monotonic() + 10)
        finally:
            await connection.close()
        assert description.cluster_id == "kcli-test-cluster"
        assert description.controller_id == 111
        assert description.source == "Metadata v12"
        assert [(n.node_id, n.port) for n in description.nodes] == [(111, tansu.port)]

    asyncio.run(scenario())


def test_unadvertised_api_is_not_supported_by_this_server(tansu: TansuBroker) -> None:
    async def scenario() -> None:
        lines: list[str] = []
        async with Admin(_config(tansu.bootstrap), trace=lines.append) as admin:
            with pytest.raises(
                UnsupportedByServer, match=r"DescribeQuorum is not supported by this server \(node 111"
            ):
                await admin.call(
                    55,
                    lambda v: protocol.make(protocol.request_class("describe_quorum", v), topics=()),
                    versions=(0, 2),
                    target=Target.CONTROLLER,
                )
        # known from ApiVersions: no DescribeQuorum request was sent
        assert [line for line in lines if line.startswith("-> ") and "DescribeQuorum" in line] == []
        assert any(line.startswith("-> ") and "ApiVersions" in line for line in lines), lines

    asyncio.run(scenario())


def test_request_the_server_closes_on_is_reported_not_hung(tansu: TansuBroker) -> None:
    """tansu advertises DescribeConfigs but closes the connection when configuration_keys is set."""

    async def scenario() -> None:
        def build(version: int) -> Any:
            cls = protocol.request_class("describe_configs", version)
            module = __import__(cls.__module__, fromlist=["DescribeConfigsResource"])
            resource = protocol.make(
                module.DescribeConfigsResource,
                resource_type=2,
                resource_name="t",
                configuration_keys=("retention.ms",),
            )
            return protocol.make(
                cls, resources=(resource,), include_synonyms=False, include_documentation=False
            )

        async with Admin(_config(tansu.bootstrap, **{"default.api.timeout.ms": "10000"})) as admin:
            # the closed connection is the answer: not a timeout after the 10 s deadline
            with pytest.raises(UnsupportedByServer, match="DescribeConfigs is not supported by this server"):
                await admin.call(32, build, versions=(1, 4))

    asyncio.run(scenario())


def test_apiversions_v5_with_cluster_id_falls_back_on_tansu(tansu: TansuBroker) -> None:
    """Bootstrapping via `localhost` makes the node connection (127.0.0.1) a new one, sent at v5 with the
    cluster id; tansu closes it, so kcli must retry at v4 and remember that."""

    async def scenario() -> None:
        async with Admin(_config(f"localhost:{tansu.port}")) as admin:
            versions = await admin.api_versions(111)
            assert {int(k.api_key) for k in versions.api_keys} >= {3, 18, 60}
            assert admin._memory.api_versions_ceiling == 4

    asyncio.run(scenario())


def test_expected_cluster_id_is_enforced(tansu: TansuBroker, tmp_path: Path) -> None:
    props = tmp_path / "c.properties"
    props.write_text("expected.cluster.id=some-other-cluster\n")
    result = invoke("cluster-id", "-b", tansu.bootstrap, "-c", str(props))
    assert result.code == 1
    assert "kcli-test-cluster" in result.stderr and "refusing" in result.stderr
    assert len(result.stderr.splitlines()) == 1
