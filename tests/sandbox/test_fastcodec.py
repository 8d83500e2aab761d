"""The sandbox's fast encoders produce exactly the bytes kio's writer produces."""

from __future__ import annotations

import datetime
import io
import uuid
from typing import Any

import pytest

from kcli.sandbox.emulator import fastcodec


def kio_bytes(value: Any) -> bytes:
    from kio.serial import entity_writer

    buffer = io.BytesIO()
    entity_writer(type(value))(buffer, value)
    return buffer.getvalue()


@pytest.mark.parametrize("version", [10, 11, 12, 13])
def test_metadata_response(version: int) -> None:
    from kio.index import load_response_schema

    cls = load_response_schema(3, version)
    module = __import__(cls.__module__, fromlist=["x"])
    topic_id = uuid.uuid4()
    partitions = [(0, 1, 2, [1, 2, 3], [1, 2], [3]), (1, -1, 0, [2], [], [2])]
    kio_partitions = tuple(
        module.MetadataResponsePartition(
            error_code=__import__("kio.schema.errors", fromlist=["ErrorCode"]).ErrorCode(
                5 if leader == -1 else 0
            ),
            partition_index=index,
            leader_id=leader,
            leader_epoch=epoch,
            replica_nodes=tuple(r),
            isr_nodes=tuple(i),
            offline_replicas=tuple(o),
        )
        for index, leader, epoch, r, i, o in partitions
    )
    from kio.schema.errors import ErrorCode

    fields: dict[str, Any] = {
        "throttle_time": datetime.timedelta(0),
        "brokers": (
            module.MetadataResponseBroker(node_id=1, host="127.0.0.1", port=9092, rack=None),
            module.MetadataResponseBroker(node_id=2, host="h", port=1, rack="r1"),
        ),
        "cluster_id": "abc",
        "controller_id": 1,
        "topics": (
            module.MetadataResponseTopic(
                error_code=ErrorCode(0),
                name="t",
                topic_id=topic_id,
                is_internal=False,
                partitions=kio_partitions,
                topic_authorized_operations=-(2**31),
            ),
        ),
    }
    if version <= 10:
        fields["cluster_authorized_operations"] = -(2**31)
    if version >= 13:
        fields["error_code"] = ErrorCode(0)
    expected = kio_bytes(cls(**fields))
    fast_partitions = [
        fastcodec.metadata_partition(5 if leader == -1 else 0, index, leader, epoch, r, i, o)
        for index, leader, epoch, r, i, o in partitions
    ]
    topic = fastcodec.metadata_topic(0, "t", topic_id, fast_partitions, -(2**31))
    body = fastcodec.metadata_response(
        version, [(1, "127.0.0.1", 9092, None), (2, "h", 1, "r1")], "abc", 1, [topic], -(2**31)
    )
    assert body == expected


def test_describe_configs_response() -> None:
    from kio.schema.describe_configs.v4 import response as m
    from kio.schema.errors import ErrorCode

    entry = m.DescribeConfigsResourceResult(
        name="retention.ms",
        value="1000",
        read_only=False,
        config_source=1,
        is_sensitive=False,
        synonyms=(
            m.DescribeConfigsSynonym(name="retention.ms", value="1000", source=1),
            m.DescribeConfigsSynonym(name="log.retention.hours", value=None, source=5),
        ),
        config_type=5,
        documentation="doc",
    )
    results = (
        m.DescribeConfigsResult(
            error_code=ErrorCode(0), error_message=None, resource_type=2, resource_name="t", configs=(entry,)
        ),
        m.DescribeConfigsResult(
            error_code=ErrorCode(3), error_message="nope", resource_type=2, resource_name="u", configs=()
        ),
    )
    expected = kio_bytes(m.DescribeConfigsResponse(throttle_time=datetime.timedelta(0), results=results))
    encoded_entry = fastcodec.config_entry(
        "retention.ms",
        "1000",
        False,
        1,
        False,
        [("retention.ms", "1000", 1), ("log.retention.hours", None, 5)],
        5,
        "doc",
    )
    body = fastcodec.describe_configs_response(
        [
            fastcodec.config_result(0, None, 2, "t", [encoded_entry]),
            fastcodec.config_result(3, "nope", 2, "u", []),
        ]
    )
    assert body == expected
