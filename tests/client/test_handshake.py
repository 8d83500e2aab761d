"""The hand-written bootstrap handshake (ApiVersions, DescribeCluster) against kio, byte for byte.

Requests: kcli's encoding equals kio's for every version. Responses: values generated from kio's
types (hypothesis `from_type`), encoded by kio, read back by kcli's readers, must equal kio's own
reading; fields a version lacks carry Kafka's defaults. Damaged bytes raise ValueError only.
"""

from __future__ import annotations

import dataclasses
import datetime
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kcli.client import protocol
from kcli.client.protocol import handshake
from tests.fuzz import seeds

READERS = [("api_versions", v) for v in range(5)] + [("describe_cluster", v) for v in range(3)]


def kio_frame(request: Any, client_id: str | None) -> bytes:
    """The frame kio's writers produce (header and body), as encode_request did before it wrote headers."""
    import io
    import struct

    from kio.schema.request_header.v1.header import RequestHeader as HeaderV1
    from kio.schema.request_header.v2.header import RequestHeader as HeaderV2
    from kio.serial import entity_writer

    header_type: Any = HeaderV2 if request.__flexible__ else HeaderV1
    header = header_type(
        request_api_key=int(request.__api_key__),
        request_api_version=int(request.__version__),
        correlation_id=42,
        client_id=client_id,
    )
    buffer = io.BytesIO()
    entity_writer(header_type)(buffer, header)
    entity_writer(type(request))(buffer, request)
    data = buffer.getvalue()
    return struct.pack(">i", len(data)) + data


@pytest.mark.parametrize("client_id", [None, "kcli", "client-\u00e9t\u00e9"])
@pytest.mark.parametrize("version", range(6))
def test_api_versions_request_bytes_equal_kio(version: int, client_id: str | None) -> None:
    kio_cls = protocol.request_class("api_versions", version)
    values: dict[str, Any] = {"client_software_name": "kcli", "client_software_version": "0.1.0"}
    if version >= 5:
        values |= {"cluster_id": "WnLkTHhkQaiJbwP8FClPhw", "node_id": 3}
    kio_request = protocol.make(kio_cls, **values)
    ours = handshake.api_versions_request(version, **values)
    assert protocol.encode_request(ours, correlation_id=42, client_id=client_id) == kio_frame(
        kio_request, client_id
    )
    # kio requests go through the same hand-written header
    assert protocol.encode_request(kio_request, correlation_id=42, client_id=client_id) == kio_frame(
        kio_request, client_id
    )


@pytest.mark.parametrize("fenced", [False, True])
@pytest.mark.parametrize("endpoint_type", [1, 2])
@pytest.mark.parametrize("version", range(3))
def test_describe_cluster_request_bytes_equal_kio(version: int, endpoint_type: int, fenced: bool) -> None:
    include_fenced = fenced and version >= 2
    kio_request = protocol.make(
        protocol.request_class("describe_cluster", version),
        include_cluster_authorized_operations=False,
        endpoint_type=endpoint_type,
        include_fenced_brokers=include_fenced,
    )
    ours = handshake.describe_cluster_request(
        version, endpoint_type=endpoint_type, include_fenced_brokers=include_fenced
    )
    assert protocol.encode_request(ours, correlation_id=42, client_id="kcli") == kio_frame(
        kio_request, "kcli"
    )


def _fields(value: Any) -> dict[str, Any]:
    """A kio dataclass or a NamedTuple as {field: plain value}, recursively."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    return {name: _plain(getattr(value, name)) for name in value._fields}


def _plain(value: Any) -> Any:
    if (dataclasses.is_dataclass(value) and not isinstance(value, type)) or hasattr(value, "_fields"):
        return _fields(value)
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, datetime.timedelta):
        return round(value.total_seconds() * 1000)
    if isinstance(value, bool):
        return ("bool", value)
    if isinstance(value, int):
        return int(value)
    return value


KAFKA_DEFAULTS = {
    "throttle_time_ms": 0,  # ApiVersions v0
    "endpoint_type": 1,
    "is_fenced": ("bool", False),
    "supported_features": [],
    "finalized_features_epoch": -1,
    "finalized_features": [],
    "zk_migration_ready": ("bool", False),
}


def _same(kio_value: dict[str, Any], ours: dict[str, Any]) -> None:
    """Every kio field equal (throttle_time as throttle_time_ms); the others at Kafka's defaults."""
    kio_value = {("throttle_time_ms" if k == "throttle_time" else k): v for k, v in kio_value.items()}
    for key, value in ours.items():
        if key in kio_value:
            if isinstance(value, list) and value and isinstance(value[0], dict):
                assert len(value) == len(kio_value[key])
                for mine, theirs in zip(value, kio_value[key], strict=True):
                    _same(theirs, mine)
            else:
                assert value == kio_value[key], key
        else:
            assert value == KAFKA_DEFAULTS[key], key
    assert set(kio_value) <= set(ours)


def _read(name: str, version: int, body: bytes) -> Any:
    reader = (
        handshake.api_versions_reader(version)
        if name == "api_versions"
        else handshake.describe_cluster_reader(version)
    )
    return reader(body, 0)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_responses_equal_kio_on_generated_values(data: st.DataObject) -> None:
    name, version = data.draw(st.sampled_from(READERS))
    value = data.draw(st.from_type(protocol.response_class(name, version)))
    body = seeds.encode_body(value)
    ours = _read(name, version, body)
    _same(_fields(value), _fields(ours))
    assert type(ours).__version__ == version and type(ours).__api_key__ == type(value).__api_key__


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_damaged_responses_raise_value_error_only(data: st.DataObject) -> None:
    name, version = data.draw(st.sampled_from(READERS))
    body = seeds.encode_body(data.draw(st.from_type(protocol.response_class(name, version))))
    position = data.draw(st.integers(0, max(0, len(body) - 1)))
    damaged = data.draw(
        st.sampled_from(
            [
                body[:position],
                seeds.forge_int32(body, position, 0x7FFFFFFF),
                seeds.forge_uvarint(body, position, b"\xff\xff\xff\xff\x0f"),
                seeds.bogus_tags(body, position, 2, 1 << 20),
            ]
        )
    )
    try:
        value = _read(name, version, damaged)
    except ValueError:
        return
    assert type(value).__name__ in ("ApiVersionsResponse", "DescribeClusterResponse")


def test_truncated_api_versions_is_malformed() -> None:
    from tests.client.kafka_double import api_versions_response

    body = seeds.encode_body(api_versions_response(3, {18: (0, 4), 60: (0, 1)}))
    assert _read("api_versions", 3, body).api_keys[1].max_version == 1
    for cut in range(len(body)):
        with pytest.raises(ValueError):
            _read("api_versions", 3, body[:cut])
