"""The client layer against the kcli sandbox: both bootstrap kinds, SASL PLAIN/SCRAM, TLS, failover."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from kcli.client import protocol
from kcli.client.admin import Admin, Target
from kcli.client.config import config_from_properties
from kcli.client.errors import ConnectionFailed
from kcli.errors import KcliError
from kcli.properties import parse_properties
from tests.conftest import invoke

pytestmark = pytest.mark.sandbox


def test_cluster_id_with_both_bootstrap_kinds(sandbox: Any) -> None:
    brokers = invoke("cluster-id", "--bootstrap-server", sandbox.bootstrap_servers, "-o", "json")
    assert brokers.code == 0, brokers.stderr
    assert brokers.json["cluster_id"] == sandbox.cluster_id and brokers.json["endpoint_type"] == "brokers"
    controllers = invoke("cluster-id", "--bootstrap-controller", sandbox.bootstrap_controllers, "-o", "json")
    assert controllers.code == 0, controllers.stderr
    assert controllers.json == {
        "cluster_id": sandbox.cluster_id,
        "controller_id": sandbox.active_controller_id,
        "endpoint_type": "controllers",
    }
    text = invoke("cluster-id", "-C", sandbox.bootstrap_controllers)
    assert text.stdout == f"Cluster ID: {sandbox.cluster_id}\n"


def test_wrong_bootstrap_kind_names_the_right_flag(sandbox: Any) -> None:
    controller = sandbox.bootstrap_controllers.split(",")[0]
    result = invoke("cluster-id", "--bootstrap-server", controller)
    assert (
        result.code == 2
        and result.stderr == f"Error: {controller} is a controller; use --bootstrap-controller\n"
    )
    broker = sandbox.bootstrap_servers.split(",")[0]
    result = invoke("cluster-id", "--bootstrap-controller", broker)
    assert result.code == 2 and result.stderr == f"Error: {broker} is a broker; use --bootstrap-server\n"


def test_controller_routing_and_fan_out(sandbox: Any) -> None:
    async def scenario() -> None:
        config = config_from_properties({"bootstrap.controllers": sandbox.bootstrap_controllers}, warn=print)
        async with Admin(config) as admin:
            assert sorted(admin.nodes) == sorted(sandbox.controller_ids)
            assert admin.controller_id == sandbox.active_controller_id

            def build(version: int) -> Any:
                return protocol.make(
                    protocol.request_class("describe_cluster", version),
                    include_cluster_authorized_operations=False,
                    endpoint_type=2,
                    include_fenced_brokers=False,
                )

            response = await admin.call(60, build, versions=(1, 2), target=Target.CONTROLLER)
            assert response.cluster_id == sandbox.cluster_id
            each = await admin.call_each(admin.nodes, 60, lambda _node, v: build(v), versions=(1, 2))
            assert sorted(each) == sorted(sandbox.controller_ids)
            assert all(
                not isinstance(r, KcliError) and r.cluster_id == sandbox.cluster_id for r in each.values()
            )

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("security", "mechanism"),
    [("sasl_plaintext", "PLAIN"), ("sasl_plaintext", "SCRAM-SHA-256"), ("sasl_ssl", "SCRAM-SHA-512")],
)
def test_sasl_end_to_end(make_sandbox: Any, security: str, mechanism: str) -> None:
    sb = make_sandbox(controllers=1, brokers=1, security=security)
    config_file = Path(sb.command_config(principal="admin", mechanism=mechanism))
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "--command-config", str(config_file))
    assert result.code == 0, result.stderr
    assert result.stdout == f"Cluster ID: {sb.cluster_id}\n"

    wrong = config_file.read_text().replace("admin-secret", "not-the-password")
    bad = Path(config_file).with_name("wrong.properties")
    bad.write_text(wrong)
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "--command-config", str(bad))
    errors = [line for line in result.stderr.splitlines() if not line.startswith("Warning: ")]
    assert result.code == 1 and len(errors) == 1 and errors[0].startswith("Error: ")
    assert "authentication" in errors[0].lower() and "not-the-password" not in result.stderr


def test_tls_end_to_end(make_sandbox: Any, tmp_path: Path) -> None:
    sb = make_sandbox(controllers=1, brokers=1, security="ssl")
    props = tmp_path / "tls.properties"
    props.write_text(
        f"security.protocol=SSL\nssl.truststore.type=PEM\nssl.truststore.location={sb.ca_file}\n"
        "ssl.endpoint.identification.algorithm=\n"
    )
    result = invoke("cluster-id", "-C", sb.bootstrap_controllers, "-c", str(props))
    assert result.code == 0, result.stderr
    assert result.stdout == f"Cluster ID: {sb.cluster_id}\n"
    untrusted = invoke(
        "cluster-id", "-b", sb.bootstrap_servers, "-c", str(_write(tmp_path, "security.protocol=SSL\n"))
    )
    assert untrusted.code == 1 and "not trusted" in untrusted.stderr
    plaintext = invoke(
        "cluster-id", "-b", sb.bootstrap_servers, "-c", str(_write(tmp_path, "request.timeout.ms=3000\n"))
    )
    assert plaintext.code == 1 and len(plaintext.stderr.splitlines()) == 1
    assert parse_properties(props.read_text())["security.protocol"] == "SSL"

    # Mutual TLS with a PEM keystore (private key and certificate in one file, as Kafka reads it).
    tls_dir = Path(sb.ca_file).parent
    keystore = tmp_path / "admin-keystore.pem"
    keystore.write_text(
        (tls_dir / "client-admin.key").read_text() + (tls_dir / "client-admin.pem").read_text()
    )
    mutual = _write(
        tmp_path, props.read_text() + f"ssl.keystore.type=PEM\nssl.keystore.location={keystore}\n"
    )
    result = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", str(mutual))
    assert result.code == 0, result.stderr
    assert result.stdout == f"Cluster ID: {sb.cluster_id}\n"


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / f"p{abs(hash(text))}.properties"
    path.write_text(text)
    return path


def _describe_cluster(endpoint_type: int) -> Any:
    def build(version: int) -> Any:
        return protocol.make(
            protocol.request_class("describe_cluster", version),
            include_cluster_authorized_operations=False,
            endpoint_type=endpoint_type,
            include_fenced_brokers=False,
        )

    return build


def test_replaced_brokers_trigger_a_rebootstrap(fresh_sandbox: Any) -> None:
    """KIP-899/KIP-1242: every broker is replaced by a new id on a rotated port; kcli finds the new ones."""
    sb = fresh_sandbox
    traces: list[str] = []

    async def scenario() -> None:
        config = config_from_properties({"bootstrap.servers": sb.bootstrap_servers}, warn=print)
        async with Admin(config, trace=traces.append) as admin:
            for node_id in list(admin.nodes):
                await admin.call(60, _describe_cluster(1), versions=(0, 1), target=Target.node(node_id))
            mapping = await asyncio.to_thread(sb.replace_brokers)
            response = await admin.call(60, _describe_cluster(1), versions=(0, 1))
            assert sorted(int(b.broker_id) for b in response.brokers) == sorted(mapping.values())
            assert sorted(admin.nodes) == sorted(mapping.values())
            assert admin.cluster_id == sb.cluster_id

    asyncio.run(scenario())
    assert any("ApiVersions v5" in line for line in traces)


def test_misrouted_node_answers_rebootstrap_required(fresh_sandbox: Any) -> None:
    """KIP-1242: node 1 is advertised at node 2's address; a connection meant for node 1 carries (cluster
    id, node id 1), node 2 refuses it with REBOOTSTRAP_REQUIRED, kcli rebootstraps once and then names
    the misrouted node instead of talking to the wrong one."""
    sb = fresh_sandbox
    traces: list[str] = []

    async def scenario() -> None:
        config = config_from_properties({"bootstrap.servers": sb.bootstrap_servers}, warn=print)
        async with Admin(config, trace=traces.append) as admin:
            first = min(admin.nodes)
            await asyncio.to_thread(sb.misroute, first)
            await admin.describe_cluster()
            await admin._forget(first)
            with pytest.raises(
                ConnectionFailed, match=rf"is misrouted: the server at that address is not node {first}"
            ):
                await admin.call(60, _describe_cluster(1), versions=(0, 1), target=Target.node(first))
            response = await admin.call(60, _describe_cluster(1), versions=(0, 1), target=Target.ANY)
            assert response.cluster_id == sb.cluster_id

    asyncio.run(scenario())
    seed_connections = [line for line in traces if line.startswith("connected to 127.0.0.1:")]
    assert len(seed_connections) >= 2, traces  # the first bootstrap and the rebootstrap


def test_controller_target_follows_a_failover(fresh_sandbox: Any) -> None:
    sb = fresh_sandbox

    async def scenario() -> None:
        config = config_from_properties(
            {"bootstrap.controllers": sb.bootstrap_controllers, "default.api.timeout.ms": "15000"}, warn=print
        )
        async with Admin(config) as admin:
            old = admin.controller_id
            new = await asyncio.to_thread(sb.failover)
            await asyncio.to_thread(sb.stop_node, old)
            await admin._forget(old)
            response = await admin.call(60, _describe_cluster(2), versions=(1, 2), target=Target.CONTROLLER)
            assert int(response.controller_id) == new
            assert admin.controller_id == new

    asyncio.run(scenario())
