"""The doctor's identity check by DescribeConfigs reads the node id a node reports as Kafka would.

Against the Kafka-speaking test double (tests/client/kafka_double.py) on a real loopback socket: the
node answers DescribeConfigs for broker resources with the node.id it reports.
"""

from __future__ import annotations

import asyncio
import sys
import time
from datetime import timedelta
from typing import Any

import pytest
from kio.schema.errors import ErrorCode

from kcli.client import protocol
from kcli.client.config import config_from_properties
from kcli.client.connection import Connection
from kcli.ops.doctor import Identity
from kcli.workflows.doctor import _identity_by_configs
from tests.client.kafka_double import KafkaDouble, Received, serving


def _reporting(node_id: str) -> Any:
    def handler(received: Received) -> Any:
        cls = protocol.response_class("describe_configs", received.version)
        module = sys.modules[cls.__module__]
        config = protocol.make(
            module.DescribeConfigsResourceResult,
            name="node.id",
            value=node_id,
            read_only=True,
            config_source=4,  # STATIC_BROKER_CONFIG
            is_sensitive=False,
            synonyms=(),
            config_type=3,  # INT
            documentation=None,
        )
        result = protocol.make(
            module.DescribeConfigsResult,
            error_code=ErrorCode.none,
            error_message=None,
            resource_type=4,
            resource_name="1",
            configs=(config,),
        )
        return protocol.make(cls, throttle_time=timedelta(0), results=(result,))

    return handler


def _identity(reported: str) -> Identity:
    double = KafkaDouble()
    double.handlers[32] = _reporting(reported)

    async def scenario() -> Identity:
        async with serving(double):
            config = config_from_properties({"bootstrap.servers": double.bootstrap}, warn=lambda _: None)
            deadline = time.monotonic() + 10
            connection = await Connection.open(config.bootstrap[0], config=config, deadline=deadline)
            try:
                return await _identity_by_configs(connection, 1, deadline)
            finally:
                await connection.close()

    return asyncio.run(scenario())


@pytest.mark.parametrize(
    ("reported", "verified", "actual"),
    [("1", True, 1), ("2", False, 2), ("-1", False, -1), ("9" * 5000, None, None), ("one", None, None)],
    ids=["same", "other", "negative", "5000 digits", "not a number"],
)
def test_the_reported_node_id_decides_the_identity(
    reported: str, verified: bool | None, actual: int | None
) -> None:
    identity = _identity(reported)
    assert (identity.method, identity.verified, identity.actual_node_id) == (
        "describe_configs",
        verified,
        actual,
    )
    if verified is None:
        assert identity.detail == "the node does not report its node.id"
