"""kcli writes the request header itself (a few fixed fields); it must equal kio's RequestHeader v1/v2."""

from __future__ import annotations

import io

import pytest

from kcli.client import protocol


@pytest.mark.parametrize("flexible", [False, True])
@pytest.mark.parametrize("client_id", [None, "", "kcli", "ünï"])
def test_request_header_equals_kio(flexible: bool, client_id: str | None) -> None:
    from kio.serial import entity_writer
    from kio.static.primitive import i16, i32

    version = 2 if flexible else 1
    module = __import__(f"kio.schema.request_header.v{version}.header", fromlist=["RequestHeader"])
    header = module.RequestHeader(
        request_api_key=i16(60), request_api_version=i16(1), correlation_id=i32(77), client_id=client_id
    )
    buffer = io.BytesIO()
    entity_writer(type(header))(buffer, header)
    assert protocol.request_header(60, 1, 77, client_id, flexible) == buffer.getvalue()


def test_frame_is_size_then_header_then_kio_body() -> None:
    request = protocol.make(
        protocol.request_class("describe_cluster", 1),
        include_cluster_authorized_operations=False,
        endpoint_type=2,
    )
    frame = protocol.encode_request(request, correlation_id=5, client_id="kcli")
    header = protocol.request_header(60, 1, 5, "kcli", True)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4
    assert frame[4 : 4 + len(header)] == header
    # DescribeCluster v1 body: include_cluster_authorized_operations, endpoint_type, no tags
    assert frame[4 + len(header) :] == b"\x00\x02\x00"
