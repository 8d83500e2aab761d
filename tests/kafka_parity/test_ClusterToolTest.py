"""kafka-cluster.sh: Kafka's ClusterToolTest, ported.

`kcli cluster <subcommand>` is `kafka-cluster.sh <subcommand>`; `kcli cluster-id` is kept too.
Read-only cases share the session sandbox; those that stop and unregister brokers share one sandbox
of this module, whose cluster id is the one Kafka's mock admin client reports.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import NOWHERE, kcli, usage_error

KAFKA_TOOL = "kafka-cluster.sh"
KAFKA_TEST_CLASS = "ClusterToolTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/ClusterToolTest.java"
KAFKA_METHODS = [
    "testClusterId",
    "testUnregister",
    "testListEndpointsWithBootstrapServer",
    "testListEndpointsArgumentWithBootstrapServer",
    "testClusterIdWithBootstrapController",
    "testUnregisterWithBootstrapController",
    "testListEndpointsWithBootstrapController",
    "testListEndpointsArgumentWithBootstrapController",
    "testDeprecatedConfig",
    "testCommandConfig",
    "testCommandConfigAndDeprecatedConfigPresent",
    "testApiVersionsCommandOutputUsingBrokerServer",
    "testApiVersionsCommandOutputUsingController",
    "testPrintClusterId",
    "testClusterTooOldToHaveId",
    "testUnregisterBroker",
    "testUnregisterController",
    "testLegacyModeClusterCannotUnregisterController",
    "testLegacyModeClusterCannotUnregisterBroker",
]
NOT_PORTED: dict[str, str] = {}

MOCK_CLUSTER_ID = "QtNwvtfVQ3GEFpzOmDEE-w"  # the id Kafka's testPrintClusterId gives its mock admin
API_VERSIONS, UNREGISTER_BROKER, DESCRIBE_CLUSTER, UNREGISTER_CONTROLLER = 18, 64, 60, 94
# Kafka 4.4 ApiKeys.clientApis(): the keys whose schema names the broker listener.
CLIENT_APIS = {0, 1, 2, 3, *range(8, 52), 55, 57, 60, 61, 64, 65, 66, 68, 69, 71, 72, 74, 75}
CLIENT_APIS |= {*range(76, 82), *range(83, 95)}
ID_FORMS = {"kcli-cluster-id": ("cluster-id",), "kcli-cluster-cluster-id": ("cluster", "cluster-id")}


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """This module's sandbox (brokers get stopped and unregistered here), with the mock's cluster id."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("cluster-tool"),
        controllers=1,
        brokers=3,
        cluster_id=MOCK_CLUSTER_ID,
    ) as sb:
        yield sb


def _stopped(sb: Any, node_id: int) -> int:
    """Stop a node (already stopped is fine: the cases that stop brokers run in file order)."""
    from kcli.sandbox.emulator.node import ClusterError

    with contextlib.suppress(ClusterError):
        sb.stop_node(node_id)
    return node_id


def _java_row(widths: tuple[int, ...], cells: tuple[object, ...]) -> str:
    """Java's `%-Ns` cells joined by one space (ClusterTool's printf)."""
    return " ".join(f"{cell!s:<{width}}" for cell, width in zip(cells, widths, strict=True))


def _endpoint_rows(sb: Any, controllers: bool, fenced: set[int] = frozenset()) -> list[str]:  # type: ignore[assignment]
    ids = sb.controller_ids if controllers else sb.broker_ids
    host = "127.0.0.1"
    if controllers:
        widths = (10, len(host), 10, 10, 15)
        rows = [_java_row(widths, ("ID", "HOST", "PORT", "RACK", "ENDPOINT_TYPE"))]
        rows += [_java_row(widths, (i, host, sb.port_of(i), "null", "controller")) for i in ids]
    else:
        widths = (10, len(host), 10, 10, 10, 15)
        rows = [_java_row(widths, ("ID", "HOST", "PORT", "RACK", "STATE", "ENDPOINT_TYPE"))]
        rows += [
            _java_row(
                widths, (i, host, sb.port_of(i), "null", "fenced" if i in fenced else "unfenced", "broker")
            )
            for i in ids
        ]
    return rows


@pytest.mark.parametrize("form", list(ID_FORMS), ids=list(ID_FORMS))
def test_ClusterToolTest_testClusterId(sandbox: Any, form: str) -> None:
    result = kcli(*ID_FORMS[form], "--bootstrap-server", sandbox.bootstrap_servers)
    assert result.code == 0, result.stderr
    assert f"Cluster ID: {sandbox.cluster_id}" in result.stdout


def test_ClusterToolTest_testClusterIdWithBootstrapController(sandbox: Any) -> None:
    result = kcli("cluster", "cluster-id", "--bootstrap-controller", sandbox.bootstrap_controllers)
    assert result.code == 0, result.stderr
    assert f"Cluster ID: {sandbox.cluster_id}" in result.stdout


def test_ClusterToolTest_testListEndpointsWithBootstrapServer(sandbox: Any) -> None:
    result = kcli("cluster", "list-endpoints", "--bootstrap-server", sandbox.bootstrap_servers)
    assert result.code == 0, result.stderr
    assert result.stdout.rstrip() == "\n".join(_endpoint_rows(sandbox, controllers=False)).rstrip()


def test_ClusterToolTest_testListEndpointsWithBootstrapController(sandbox: Any) -> None:
    result = kcli("cluster", "list-endpoints", "--bootstrap-controller", sandbox.bootstrap_controllers)
    assert result.code == 0, result.stderr
    assert result.stdout.rstrip() == "\n".join(_endpoint_rows(sandbox, controllers=True)).rstrip()


@pytest.mark.kafka_difference("a usage error exits 2 with one line; kafka-cluster exits 1 with a stack trace")
def test_ClusterToolTest_testListEndpointsArgumentWithBootstrapController() -> None:
    result = kcli("cluster", "list-endpoints", "--bootstrap-controller", NOWHERE, "--include-fenced-brokers")
    usage_error(
        result, "The option --include-fenced-brokers is only supported with --bootstrap-server option"
    )


def _client_id_recorder(sb: Any, hooks: Any) -> list[str]:
    seen: list[str] = []

    async def record(context: Any, request: Any) -> None:
        seen.append(context.header.client_id)
        return None

    hooks(sb, DESCRIBE_CLUSTER, record)
    return seen


@pytest.mark.kafka_difference(
    "the deprecation warning goes to stderr (kafka-cluster prints it on stdout, which kcli keeps for data)"
)
def test_ClusterToolTest_testDeprecatedConfig(sandbox: Any, hooks: Any, tmp_path: Path) -> None:
    config = tmp_path / "client.properties"
    config.write_text("client.id=my-client\n")
    seen = _client_id_recorder(sandbox, hooks)
    result = kcli(
        "cluster", "cluster-id", "--bootstrap-server", sandbox.bootstrap_servers, "--config", str(config)
    )
    assert result.code == 0, result.stderr
    assert (
        "Option --config has been deprecated and will be removed in a future version. Use --command-config instead."
        in result.stderr
    )
    assert result.stdout == f"Cluster ID: {sandbox.cluster_id}\n"
    assert seen and set(seen) == {"my-client"}


def test_ClusterToolTest_testCommandConfig(sandbox: Any, hooks: Any, tmp_path: Path) -> None:
    config = tmp_path / "client.properties"
    config.write_text("client.id=my-client\n")
    seen = _client_id_recorder(sandbox, hooks)
    result = kcli(
        "cluster",
        "cluster-id",
        "--bootstrap-server",
        sandbox.bootstrap_servers,
        "--command-config",
        str(config),
    )
    assert result.code == 0, result.stderr
    assert f"Cluster ID: {sandbox.cluster_id}" in result.stdout
    assert "deprecated" not in result.stderr
    assert seen and set(seen) == {"my-client"}


@pytest.mark.kafka_difference("a usage error exits 2 with one line; kafka-cluster exits 1 with a stack trace")
def test_ClusterToolTest_testCommandConfigAndDeprecatedConfigPresent(tmp_path: Path) -> None:
    config = tmp_path / "client.properties"
    config.write_text("client.id=my-client\n")
    result = kcli(
        "cluster",
        "cluster-id",
        "--bootstrap-server",
        NOWHERE,
        "--config",
        str(config),
        "--command-config",
        str(config),
    )
    usage_error(result, "--config and --command-config cannot be specified together.")


def _expected_api_lines(node_kind: Any) -> list[str]:
    """What Kafka's NodeApiVersions prints for a node serving the sandbox's API table of `node_kind`.

    The client side is what kcli can send: kio's versions of each API (ApiVersions up to v5), and
    the APIs kcli writes in kio's style where kio has none (kcli.client.protocol.NOT_IN_KIO).
    """
    from kio.schema.index import api_key_map, schema_name_map

    from kcli.client.protocol import NAMED_ONLY, NOT_IN_KIO, request_class
    from kcli.sandbox.emulator.registry import specs_for

    def versions(schema: str, key: int) -> list[int]:
        if schema in schema_name_map:
            return list(schema_name_map[schema])
        return list(range(NOT_IN_KIO[key].lowest, NOT_IN_KIO[key].highest + 1))

    offered = {spec.key: spec.advertised for spec in specs_for(node_kind)}  # what ApiVersions claims
    lines = []
    for key in sorted(set(offered) | CLIENT_APIS):
        if key in NAMED_ONLY:  # an API kcli knows by name only: the sandbox does not serve it either
            assert key not in offered
            lines.append(f"{NAMED_ONLY[key]}({key}): UNSUPPORTED")
            continue
        schema = api_key_map[key] if key in api_key_map else NOT_IN_KIO[key].name
        request = request_class(schema, max(versions(schema, key)))
        label = f"{request.__name__.removesuffix('Request')}({key})"
        if key not in offered:
            lines.append(f"{label}: UNSUPPORTED")
            continue
        low, high = offered[key]
        ours = 5 if key == API_VERSIONS else max(versions(schema, key))
        usable = min(ours, high)
        span = str(low) if low == high else f"{low} to {high}"
        lines.append(f"{label}: {span} [usable: {usable}]")
    return [f"\t{line}," for line in lines[:-1]] + [f"\t{lines[-1]}"]


def _check_api_versions(sb: Any, controllers: bool) -> None:
    from kcli.sandbox.emulator.registry import Listener

    flag, address = (
        ("--bootstrap-controller", sb.bootstrap_controllers)
        if controllers
        else ("--bootstrap-server", sb.bootstrap_servers)
    )
    result = kcli("cluster", "api-versions", flag, address)
    assert result.code == 0, result.stderr
    body = _expected_api_lines(Listener.CONTROLLER if controllers else Listener.BROKER)
    expected: list[str] = []
    for node_id in sb.controller_ids if controllers else sb.broker_ids:
        expected += [
            f"127.0.0.1:{sb.port_of(node_id)} (id: {node_id} rack: null isFenced: false) -> (",
            *body,
            ")",
        ]
    assert result.stdout.splitlines() == expected


def test_ClusterToolTest_testApiVersionsCommandOutputUsingBrokerServer(sandbox: Any) -> None:
    _check_api_versions(sandbox, controllers=False)


def test_ClusterToolTest_testApiVersionsCommandOutputUsingController(sandbox: Any) -> None:
    _check_api_versions(sandbox, controllers=True)


def test_ClusterToolTest_testPrintClusterId(own: Any) -> None:
    result = kcli("cluster", "cluster-id", "--bootstrap-server", own.bootstrap_servers)
    assert (result.code, result.stdout) == (0, f"Cluster ID: {MOCK_CLUSTER_ID}\n")


def test_ClusterToolTest_testClusterTooOldToHaveId(own: Any, hooks: Any) -> None:
    """A broker too old for DescribeCluster and for Metadata's ClusterId (v2+) reports no id."""
    from kcli.sandbox.emulator.apis.k18_api_versions import handle_api_versions

    async def old_broker(context: Any, request: Any) -> Any:
        response = await handle_api_versions(context, request)
        keys = []
        for key in response.api_keys:
            if key.api_key == DESCRIBE_CLUSTER:
                continue
            if key.api_key == 3:  # Metadata
                key = dataclasses.replace(key, max_version=type(key.max_version)(1))
            keys.append(key)
        return dataclasses.replace(response, api_keys=tuple(keys))

    hooks(own, API_VERSIONS, old_broker)
    result = kcli("cluster", "cluster-id", "--bootstrap-server", own.bootstrap_servers)
    assert (result.code, result.stdout) == (
        0,
        "No cluster ID found. The Kafka version is probably too old.\n",
    )


def test_ClusterToolTest_testLegacyModeClusterCannotUnregisterBroker(own: Any, hooks: Any) -> None:
    """A cluster that does not offer UnregisterBroker: kafka-cluster says so on stdout and exits 0."""
    from kcli.sandbox.emulator.apis.k18_api_versions import handle_api_versions

    async def without_unregister(context: Any, request: Any) -> Any:
        response = await handle_api_versions(context, request)
        return dataclasses.replace(
            response, api_keys=tuple(k for k in response.api_keys if k.api_key != UNREGISTER_BROKER)
        )

    hooks(own, API_VERSIONS, without_unregister)
    result = kcli("cluster", "unregister", "--bootstrap-server", own.bootstrap_servers, "--id", "0")
    assert (result.code, result.stdout) == (
        0,
        "The target cluster does not support the broker unregistration API.\n",
    )


def test_ClusterToolTest_testUnregisterController(own: Any, hooks: Any) -> None:
    """Kafka's mock admin (a KRaft cluster) accepts any id: a control hook answers as it does."""

    async def accepted(context: Any, request: Any) -> Any:
        assert request.controller_id == 0
        return context.answer("UnregisterControllerResponse", 0, None)

    hooks(own, UNREGISTER_CONTROLLER, accepted)
    result = kcli("cluster", "unregister-controller", "--bootstrap-server", own.bootstrap_servers, "--id", "0")
    assert (result.code, result.stdout) == (0, "Controller 0 is no longer registered.\n"), result.stderr


def test_ClusterToolTest_testLegacyModeClusterCannotUnregisterController(tmp_path: Path) -> None:
    """A cluster below metadata.version 4.4-IV2 refuses UnregisterController: said on stdout, exit 0."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(directory=tmp_path, controllers=1, brokers=1, release_version="4.3-IV0") as older:
        result = kcli("cluster", "unregister-controller", "--bootstrap-server", older.bootstrap_servers, "--id", "0")
    assert (result.code, result.stdout) == (
        0,
        "The target cluster does not support the controller unregistration API.\n",
    )


def test_ClusterToolTest_testListEndpointsArgumentWithBootstrapServer(own: Any) -> None:
    stopped = _stopped(own, own.broker_ids[0])
    result = kcli(
        "cluster", "list-endpoints", "--bootstrap-server", own.bootstrap_servers, "--include-fenced-brokers"
    )
    assert result.code == 0, result.stderr
    assert (
        result.stdout.rstrip() == "\n".join(_endpoint_rows(own, controllers=False, fenced={stopped})).rstrip()
    )


def test_ClusterToolTest_testUnregisterBroker(own: Any) -> None:
    broker = _stopped(own, own.broker_ids[0])
    result = kcli("cluster", "unregister", "--bootstrap-server", own.bootstrap_servers, "--id", str(broker))
    assert (result.code, result.stdout) == (0, f"Broker {broker} is no longer registered.\n")


def test_ClusterToolTest_testUnregister(own: Any) -> None:
    broker = _stopped(own, own.broker_ids[1])
    result = kcli("cluster", "unregister", "--bootstrap-server", own.bootstrap_servers, "--id", str(broker))
    assert result.code == 0, result.stderr
    assert f"Broker {broker} is no longer registered." in result.stdout
    listed = kcli(
        "cluster", "list-endpoints", "--bootstrap-server", own.bootstrap_servers, "--include-fenced-brokers"
    )
    assert f"\n{broker} " not in listed.stdout


def test_ClusterToolTest_testUnregisterWithBootstrapController(own: Any) -> None:
    broker = _stopped(own, own.broker_ids[2])
    result = kcli(
        "cluster", "unregister", "--bootstrap-controller", own.bootstrap_controllers, "--id", str(broker)
    )
    assert result.code == 0, result.stderr
