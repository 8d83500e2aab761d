"""Connection and Admin behaviour against a Kafka-speaking test double: versions, framing, routing."""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from kio.schema.errors import ErrorCode

from kcli.client import protocol
from kcli.client.admin import Admin, Target
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.connection import Connection, PeerMemory, RebootstrapRequired
from kcli.client.endpoints import Endpoint
from kcli.client.errors import ProtocolError, UnsupportedByServer
from kcli.kafka import EndpointType
from tests.client.kafka_double import KafkaDouble, Received, api_versions_response, encode_response, serving

CLUSTER = "double-cluster"


def _config(bootstrap: str, *, controllers: bool = False, **props: str) -> ClientConfig:
    key = "bootstrap.controllers" if controllers else "bootstrap.servers"
    return config_from_properties(
        {key: bootstrap, "request.timeout.ms": "2000", **props}, warn=lambda _: None
    )


def _describe_cluster(
    nodes: list[tuple[int, KafkaDouble]], *, controller: int, endpoint_type: int = 1
) -> Any:
    def handler(received: Received) -> Any:
        module = protocol.response_class("describe_cluster", received.version)
        import sys

        broker_cls = sys.modules[module.__module__].DescribeClusterBroker
        brokers = tuple(
            protocol.make(
                broker_cls, broker_id=node_id, host="127.0.0.1", port=double.port, rack=None, is_fenced=False
            )
            for node_id, double in nodes
        )
        return protocol.make(
            module,
            throttle_time=timedelta(0),
            error_code=ErrorCode.none,
            error_message=None,
            endpoint_type=endpoint_type,
            cluster_id=CLUSTER,
            controller_id=controller,
            brokers=brokers,
            cluster_authorized_operations=-2147483648,
        )

    return handler


def test_version_for_picks_the_highest_common_version() -> None:
    async def scenario() -> None:
        double = KafkaDouble()
        async with serving(double):
            config = _config(double.bootstrap)
            connection = await Connection.open(
                Endpoint(host="127.0.0.1", port=double.port), config=config, deadline=_deadline(5)
            )
            try:
                assert connection.version_for(32, (1, 9)) == 4
                assert connection.version_for(60, (0, 1)) == 1
                with pytest.raises(
                    UnsupportedByServer, match=r"DescribeQuorum is not supported by this server"
                ):
                    connection.version_for(55, (0, 2))
                with pytest.raises(UnsupportedByServer, match=r"offers v0-v12, kcli needs v13-v13"):
                    connection.version_for(3, (13, 13))
            finally:
                await connection.close()

    asyncio.run(scenario())


def test_unsupported_api_versions_falls_back_to_the_reported_version() -> None:
    """Kafka's rule: UNSUPPORTED_VERSION with a v0 body; retry at the max ApiVersions version it lists."""

    async def scenario() -> None:
        double = KafkaDouble(apis={18: (0, 2), 3: (0, 9)})
        async with serving(double):
            memory = PeerMemory()
            connection = await Connection.open(
                Endpoint(host="127.0.0.1", port=double.port),
                config=_config(double.bootstrap),
                deadline=_deadline(5),
                memory=memory,
            )
            await connection.close()
        assert [r.version for r in double.received if r.api_key == 18] == [4, 2]
        assert memory.api_versions_ceiling == 2
        assert connection.supported[3] == (0, 9)

    asyncio.run(scenario())


def test_v5_carries_cluster_and_node_id_and_rebootstrap_required_is_raised() -> None:
    async def scenario() -> None:
        double = KafkaDouble(apis={18: (0, 5), 3: (0, 12)})

        def api_versions(received: Received) -> Any:
            if received.version >= 5 and received.body.cluster_id != CLUSTER:
                return api_versions_response(5, {}, error=129)
            return api_versions_response(received.version, double.apis)

        double.handlers[18] = api_versions
        async with serving(double):
            endpoint = Endpoint(host="127.0.0.1", port=double.port)
            good = await Connection.open(
                endpoint,
                config=_config(double.bootstrap),
                deadline=_deadline(5),
                node_id=7,
                cluster_id=CLUSTER,
            )
            await good.close()
            with pytest.raises(RebootstrapRequired):
                await Connection.open(
                    endpoint,
                    config=_config(double.bootstrap),
                    deadline=_deadline(5),
                    node_id=7,
                    cluster_id="another-cluster",
                )
            # Disabled by metadata.cluster.check.enable=false: v4, no ids.
            off = await Connection.open(
                endpoint,
                config=config_from_properties(
                    {"bootstrap.servers": double.bootstrap, "metadata.cluster.check.enable": "false"},
                    warn=lambda _: None,
                ),
                deadline=_deadline(5),
                node_id=7,
                cluster_id="another-cluster",
            )
            await off.close()
        sent = [
            (r.version, getattr(r.body, "cluster_id", None), getattr(r.body, "node_id", None))
            for r in double.received
            if r.api_key == 18
        ]
        assert sent == [(5, CLUSTER, 7), (5, "another-cluster", 7), (4, None, None)]

    asyncio.run(scenario())


def test_peer_that_closes_on_v5_is_retried_at_v4_and_remembered() -> None:
    async def scenario() -> None:
        double = KafkaDouble(apis={18: (0, 4), 3: (0, 12)})

        def api_versions(received: Received) -> Any:
            if received.version >= 5:
                return None  # close the connection, as tansu does
            return api_versions_response(received.version, double.apis)

        double.handlers[18] = api_versions
        async with serving(double):
            memory = PeerMemory()
            endpoint = Endpoint(host="127.0.0.1", port=double.port)
            for _ in range(2):
                connection = await Connection.open(
                    endpoint,
                    config=_config(double.bootstrap),
                    deadline=_deadline(5),
                    node_id=1,
                    cluster_id=CLUSTER,
                    memory=memory,
                )
                await connection.close()
        assert [r.version for r in double.received if r.api_key == 18] == [5, 4, 4]
        assert memory.api_versions_ceiling == 4

    asyncio.run(scenario())


def test_several_requests_in_flight_and_correlation_ids_checked() -> None:
    async def scenario() -> None:
        double = KafkaDouble()
        metadata = _metadata_handler(double)

        async def slow_metadata(received: Received) -> Any:
            await asyncio.sleep(0.05)
            return metadata(received)

        double.handlers[3] = slow_metadata
        async with serving(double):
            connection = await Connection.open(
                Endpoint(host="127.0.0.1", port=double.port),
                config=_config(double.bootstrap),
                deadline=_deadline(5),
            )
            request = protocol.make(
                protocol.request_class("metadata", 12),
                topics=(),
                allow_auto_topic_creation=False,
                include_topic_authorized_operations=False,
            )
            responses = await asyncio.gather(
                *(connection.request(request, deadline=_deadline(5)) for _ in range(5))
            )
            assert [r.cluster_id for r in responses] == [CLUSTER] * 5
            await connection.close()
            correlation_ids = [r.correlation_id for r in double.received if r.api_key == 3]
            assert len(set(correlation_ids)) == 5

        # A server that answers with the wrong correlation id is dropped with a clear error.
        liar = KafkaDouble()

        def wrong_id(received: Received) -> Any:
            shifted = Received(
                received.api_key,
                received.version,
                received.correlation_id + 1000,
                received.client_id,
                received.body,
                received.raw,
            )
            return encode_response(shifted, metadata(received))

        liar.handlers[3] = wrong_id
        async with serving(liar):
            connection = await Connection.open(
                Endpoint(host="127.0.0.1", port=liar.port),
                config=_config(liar.bootstrap),
                deadline=_deadline(5),
            )
            with pytest.raises(ProtocolError, match="correlation id"):
                await connection.request(request, deadline=_deadline(5))
            await connection.close()

    asyncio.run(scenario())


def _metadata_handler(double: KafkaDouble) -> Any:
    import sys

    def handler(received: Received) -> Any:
        cls = protocol.response_class("metadata", received.version)
        broker_cls = sys.modules[cls.__module__].MetadataResponseBroker
        return protocol.make(
            cls,
            throttle_time=timedelta(0),
            brokers=(protocol.make(broker_cls, node_id=1, host="127.0.0.1", port=double.port, rack=None),),
            cluster_id=CLUSTER,
            controller_id=1,
            topics=(),
            cluster_authorized_operations=-2147483648,
        )

    return handler


def test_metadata_fallback_when_describe_cluster_is_not_offered() -> None:
    async def scenario() -> None:
        double = KafkaDouble(apis={18: (0, 3), 3: (0, 9)})
        double.handlers[3] = _metadata_handler(double)
        async with serving(double), Admin(_config(double.bootstrap)) as admin:
            assert admin.cluster_id == CLUSTER and admin.controller_id == 1
            assert admin.description is not None and admin.description.source == "Metadata v9"
            assert list(admin.nodes) == [1]

    asyncio.run(scenario())


def test_not_controller_refreshes_and_retries_on_the_new_controller() -> None:
    async def scenario() -> None:
        first, second = KafkaDouble(), KafkaDouble()
        for double in (first, second):
            double.apis = {18: (0, 4), 60: (0, 2), 55: (0, 0)}
        async with serving(first), serving(second):
            nodes = [(1, first), (2, second)]
            first.handlers[60] = _describe_cluster(nodes, controller=1, endpoint_type=2)
            second.handlers[60] = _describe_cluster(nodes, controller=2, endpoint_type=2)

            def quorum(code: ErrorCode) -> Any:
                def handler(received: Received) -> Any:
                    cls = protocol.response_class("describe_quorum", received.version)
                    return protocol.make(cls, error_code=code, topics=())

                return handler

            async with Admin(_config(first.bootstrap, controllers=True)) as admin:
                assert admin.endpoint_type is EndpointType.CONTROLLERS and admin.controller_id == 1
                # The controller moves to node 2: node 1 answers NOT_CONTROLLER and now describes node 2.
                first.handlers[55] = quorum(ErrorCode.not_controller)
                first.handlers[60] = _describe_cluster(nodes, controller=2, endpoint_type=2)
                second.handlers[55] = quorum(ErrorCode.none)

                def build(version: int) -> Any:
                    return protocol.make(protocol.request_class("describe_quorum", version), topics=())

                response = await admin.call(55, build, versions=(0, 2), target=Target.CONTROLLER)
                assert int(response.error_code) == 0
                assert admin.controller_id == 2
                assert [r.api_key for r in first.received].count(55) == 1
                assert [r.api_key for r in second.received].count(55) == 1

    asyncio.run(scenario())


def _fields(value: Any) -> dict[str, Any]:
    import dataclasses

    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}


def _deadline(seconds: float) -> float:
    import time

    return time.monotonic() + seconds
