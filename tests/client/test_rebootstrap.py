"""KIP-899 rebootstrap, cluster-id pinning and KIP-1242 REBOOTSTRAP_REQUIRED, against test doubles."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from kcli.client import protocol
from kcli.client.admin import Admin, Target
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.errors import ClusterIdMismatch, ConnectionFailed
from tests.client.kafka_double import (
    KafkaDouble,
    Received,
    api_versions_response,
    describe_cluster_handler,
    serving,
)


def _config(bootstrap: str, **props: str) -> ClientConfig:
    return config_from_properties(
        {
            "bootstrap.servers": bootstrap,
            "request.timeout.ms": "2000",
            "default.api.timeout.ms": "5000",
            **props,
        },
        warn=lambda _: None,
    )


def _describe_request(version: int) -> Any:
    return protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=1,
        include_fenced_brokers=False,
    )


def _serving_node(node: KafkaDouble, node_id: int, cluster_id: str = "double-cluster") -> None:
    node.handlers[60] = describe_cluster_handler([(node_id, node)], controller=node_id, cluster_id=cluster_id)


def test_rebootstrap_when_every_known_node_is_gone() -> None:
    async def scenario() -> None:
        seed, first, second = KafkaDouble(), KafkaDouble(), KafkaDouble()
        async with serving(seed), serving(first), serving(second):
            _serving_node(first, 1)
            _serving_node(second, 2)
            seed.handlers[60] = describe_cluster_handler([(1, first)], controller=1)
            async with Admin(_config(seed.bootstrap)) as admin:
                response = await admin.call(60, _describe_request, versions=(0, 1))
                assert [int(b.broker_id) for b in response.brokers] == [1]
                # Node 1 goes away; the seed now knows node 2 only.
                await first.stop()
                seed.handlers[60] = describe_cluster_handler([(2, second)], controller=2)
                response = await admin.call(60, _describe_request, versions=(0, 1))
                assert [int(b.broker_id) for b in response.brokers] == [2]
                assert list(admin.nodes) == [2]
            assert [r.api_key for r in seed.received].count(60) == 2

    asyncio.run(scenario())


def test_rebootstrap_refuses_a_different_cluster() -> None:
    async def scenario() -> None:
        seed, first, other = KafkaDouble(), KafkaDouble(), KafkaDouble()
        async with serving(seed), serving(first), serving(other):
            _serving_node(first, 1)
            _serving_node(other, 5, cluster_id="someone-elses-cluster")
            seed.handlers[60] = describe_cluster_handler([(1, first)], controller=1)
            async with Admin(_config(seed.bootstrap)) as admin:
                await admin.call(60, _describe_request, versions=(0, 1))
                await first.stop()
                seed.handlers[60] = describe_cluster_handler(
                    [(5, other)], controller=5, cluster_id="someone-elses-cluster"
                )
                with pytest.raises(ClusterIdMismatch, match="not double-cluster as before"):
                    await admin.call(60, _describe_request, versions=(0, 1))

    asyncio.run(scenario())


def test_no_rebootstrap_with_recovery_strategy_none() -> None:
    async def scenario() -> None:
        seed, first = KafkaDouble(), KafkaDouble()
        async with serving(seed), serving(first):
            _serving_node(first, 1)
            seed.handlers[60] = describe_cluster_handler([(1, first)], controller=1)
            config = _config(seed.bootstrap, **{"metadata.recovery.strategy": "none"})
            async with Admin(config) as admin:
                await admin.call(60, _describe_request, versions=(0, 1))
                await first.stop()
                with pytest.raises(ConnectionFailed, match="node 1"):
                    await admin.call(60, _describe_request, versions=(0, 1))
            assert [r.api_key for r in seed.received].count(60) == 1

    asyncio.run(scenario())


def test_rebootstrap_required_from_apiversions_v5() -> None:
    """A node that is not who the client thinks (KIP-1242) answers REBOOTSTRAP_REQUIRED; kcli starts over."""

    async def scenario() -> None:
        seed, stale, fresh = KafkaDouble(), KafkaDouble(), KafkaDouble()
        for double in (seed, stale, fresh):
            double.apis = {18: (0, 5), 60: (0, 1)}
        async with serving(seed), serving(stale), serving(fresh):
            _serving_node(fresh, 2)

            def stale_api_versions(received: Received) -> Any:
                if received.version >= 5 and received.body.node_id != 9:
                    return api_versions_response(5, {}, error=129)
                return api_versions_response(received.version, stale.apis)

            stale.handlers[18] = stale_api_versions
            calls = {"n": 0}

            def seed_describe(received: Received) -> Any:
                calls["n"] += 1
                nodes = [(1, stale)] if calls["n"] == 1 else [(2, fresh)]
                return describe_cluster_handler(nodes, controller=nodes[0][0])(received)

            seed.handlers[60] = seed_describe
            async with Admin(_config(seed.bootstrap)) as admin:
                response = await admin.call(60, _describe_request, versions=(0, 1), target=Target.ANY)
                assert [int(b.broker_id) for b in response.brokers] == [2]
            v5 = [(r.body.cluster_id, r.body.node_id) for r in stale.received if r.api_key == 18]
            assert v5 == [("double-cluster", 1)]

    asyncio.run(scenario())
