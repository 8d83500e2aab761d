"""Wire-level helpers over kio: message classes by name or key, API names, framing of one request.

kio supplies every message type; this package adds what kio lacks (ApiVersions v5, KIP-1242) and the
header rules. kio modules are imported on first use, never when this package is imported, so that
`kcli --help` does not pay for them.

Header rules (Kafka's ApiMessageType): a flexible request uses request header v2, others v1; a
flexible response uses response header v1, others v0 — except ApiVersions, whose response always
uses header v0 so that a client can read it whatever version it asked for.
"""

from __future__ import annotations

import functools
import io
import struct
from typing import Any

API_VERSIONS_KEY = 18
MAX_FRAME_BYTES = 100 * 1024 * 1024  # Kafka's socket.request.max.bytes is 100 MiB


def _schema_name(api: str) -> str:
    """Accept "describe_cluster", "DescribeCluster" or "describe-cluster"; return kio's schema name."""
    if "_" in api or api.islower():
        return api.replace("-", "_")
    out: list[str] = []
    for index, char in enumerate(api):
        if char.isupper() and index and not api[index - 1].isupper():
            out.append("_")
        out.append(char.lower())
    return "".join(out)


@functools.cache
def request_class(api: str, version: int) -> type:
    """The kio request class of `api` (schema name like "describe_cluster" or "DescribeCluster") at `version`."""
    return _entity_class(_schema_name(api), version, response=False)


@functools.cache
def response_class(api: str, version: int) -> type:
    """The kio response class of `api` at `version`."""
    return _entity_class(_schema_name(api), version, response=True)


def _entity_class(name: str, version: int, *, response: bool) -> type:
    if name == "api_versions" and version == 5:
        from kcli.client.protocol import api_versions_v5

        return api_versions_v5.ApiVersionsResponse if response else api_versions_v5.ApiVersionsRequest
    from kio.index import load_entity_schema
    from kio.static.constants import EntityType

    return load_entity_schema(name, version, EntityType.response if response else EntityType.request)


@functools.cache
def schema_name(api_key: int) -> str:
    """kio's schema name of an API key, e.g. 60 -> "describe_cluster"."""
    from kio.schema.index import api_key_map

    return api_key_map[api_key]


@functools.cache
def api_name(api_key: int) -> str:
    """Kafka's name of an API key, e.g. 60 -> "DescribeCluster" (unknown keys: "Api(N)")."""
    try:
        name = schema_name(api_key)
    except KeyError:
        return f"Api({api_key})"
    special = {"k_raft_version_record": "KRaftVersionRecord"}
    return special.get(name) or "".join(part.capitalize() for part in name.split("_"))


def response_class_for(request: Any) -> type:
    """The response class matching a kio request object."""
    return response_class(schema_name(int(request.__api_key__)), int(request.__version__))


def encode_request(request: Any, *, correlation_id: int, client_id: str) -> bytes:
    """One size-prefixed request frame: header v1/v2 by flexibility, then the body."""
    from kio.schema.request_header.v1.header import RequestHeader as HeaderV1
    from kio.schema.request_header.v2.header import RequestHeader as HeaderV2
    from kio.serial import entity_writer
    from kio.static.primitive import i16, i32

    flexible = bool(request.__flexible__)
    header_type: Any = HeaderV2 if flexible else HeaderV1
    header = header_type(
        request_api_key=i16(int(request.__api_key__)),
        request_api_version=i16(int(request.__version__)),
        correlation_id=i32(correlation_id),
        client_id=client_id,
    )
    buffer = io.BytesIO()
    buffer.write(b"\0\0\0\0")
    entity_writer(header_type)(buffer, header)
    entity_writer(type(request))(buffer, request)
    data = buffer.getbuffer()
    struct.pack_into(">i", data, 0, len(data) - 4)
    return bytes(data)


def response_header_flexible(api_key: int, response_type: type) -> bool:
    """Whether the response header is v1 (tagged fields after the correlation id)."""
    return api_key != API_VERSIONS_KEY and bool(getattr(response_type, "__flexible__", False))


def decode_response(frame: bytes, response_type: type, *, header_flexible: bool) -> Any:
    """Decode a response frame (without its size prefix): skip the header, read the body.

    Raises kio's DecodeError subclasses or ValueError on malformed bytes; a trailing remainder is
    tolerated, as Kafka's clients tolerate it.
    """
    from kio.serial import entity_reader

    offset = 4
    if header_flexible:
        from kio.schema.response_header.v1.header import ResponseHeader

        _, size = entity_reader(ResponseHeader)(frame, 0)
        offset = size
    value: Any
    value, _ = entity_reader(response_type)(frame, offset)
    return value


def make(cls: type, **values: Any) -> Any:
    """Build a kio message from `values`, dropping the fields this version of the message lacks.

    Lets one builder serve several versions: `make(request_class("metadata", v), topics=(), ...)`.
    """
    import dataclasses

    names = {f.name for f in dataclasses.fields(cls)}
    return cls(**{key: value for key, value in values.items() if key in names})
