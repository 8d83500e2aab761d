"""Against librdkafka's mock cluster (confluent-kafka): a third-party Kafka implementation on loopback.

It has no DescribeCluster (so kcli must fall back to Metadata) and answers ApiVersions v3+ with
UNSUPPORTED_VERSION in a body that is not Kafka's v0 format (so kcli must fall back to v0).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from kcli.client.admin import Admin
from kcli.client.config import config_from_properties
from tests.conftest import invoke


@pytest.fixture
def mock_cluster() -> Iterator[tuple[str, str]]:
    """(bootstrap, cluster id) of a 3-broker mock cluster that lives as long as its client object."""
    import confluent_kafka

    producer: Any = confluent_kafka.Producer(
        {"test.mock.num.brokers": 3, "bootstrap.servers": "unused:9092", "log_level": 0}
    )
    metadata = producer.list_topics(timeout=10)
    bootstrap = ",".join(f"{b.host}:{b.port}" for b in sorted(metadata.brokers.values(), key=lambda b: b.id))
    yield bootstrap, metadata.cluster_id
    producer.flush(1)


def test_cluster_id_through_metadata_fallback(mock_cluster: tuple[str, str]) -> None:
    bootstrap, cluster_id = mock_cluster
    result = invoke("cluster-id", "--bootstrap-server", bootstrap)
    assert result.code == 0, result.stderr
    assert result.stdout == f"Cluster ID: {cluster_id}\n"


def test_admin_negotiates_down_and_describes_with_metadata(mock_cluster: tuple[str, str]) -> None:
    bootstrap, cluster_id = mock_cluster

    async def scenario() -> None:
        config = config_from_properties({"bootstrap.servers": bootstrap}, warn=lambda _: None)
        async with Admin(config) as admin:
            assert admin.cluster_id == cluster_id
            assert admin.description is not None and admin.description.source.startswith("Metadata v")
            assert sorted(admin.nodes) == [1, 2, 3]
            assert admin._memory.api_versions_ceiling < 3
            versions = await admin.api_versions(3)  # a node of its own: a new connection, negotiated again
            assert any(int(k.api_key) == 3 for k in versions.api_keys)

    asyncio.run(scenario())
