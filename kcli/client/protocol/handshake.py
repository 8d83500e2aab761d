"""The bootstrap handshake without kio: ApiVersions (v0-v5) and DescribeCluster (v0-v2), by hand.

Every networked command starts with ApiVersions and DescribeCluster; `kcli cluster-id` does nothing
else. Encoding and decoding these few small messages here means such a command never imports kio's
serializer and schema modules (~30 ms of a ~190 ms start on the reference machine).

Behavior:
- Requests are `HandRequest` values: api key, version and the encoded body; Connection sends them
  with a hand-written request header and decodes the answer with the request's own reader.
- Responses are NamedTuples (one subclass per version, with kio's `__version__` and `__api_key__`
  class attributes) with kio's field names (ApiVersionsResponse.api_keys[i].max_version,
  .supported_features, .finalized_features_epoch, DescribeClusterResponse.brokers[i].host, ...);
  error codes are ints, `throttle_time_ms` an int. Fields a version lacks take Kafka's defaults
  (DescribeCluster v0: endpoint_type 1; before v2: is_fenced False).
- Every declared length is checked against the bytes left; malformed bytes raise ValueError.
  tests/client/test_handshake.py checks requests byte for byte and responses value for value
  against kio on generated inputs.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from kcli.client.protocol.compact import I16 as _I16
from kcli.client.protocol.compact import I32 as _I32
from kcli.client.protocol.compact import MalformedResponse
from kcli.client.protocol.compact import boolean as _bool
from kcli.client.protocol.compact import count as _count
from kcli.client.protocol.compact import int8 as _int8
from kcli.client.protocol.compact import name as _name
from kcli.client.protocol.compact import string as _string
from kcli.client.protocol.compact import uvarint as _uvarint

API_VERSIONS = 18
DESCRIBE_CLUSTER = 60
_I64 = struct.Struct(">q")
_KEY = struct.Struct(">hhh")

Reader = Callable[[bytes, int], Any]


@dataclass(frozen=True, slots=True)
class HandRequest:
    """A request encoded by kcli itself: what Connection needs to send it and to read the answer."""

    api_key: int
    version: int
    body: bytes
    flexible: bool  # request header v2 (else v1)
    response_header_flexible: bool  # response header v1 (else v0)
    reader: Reader

    # The names kio's request classes carry, so logs and framing treat both alike.
    @property
    def __api_key__(self) -> int:
        return self.api_key

    @property
    def __version__(self) -> int:
        return self.version

    @property
    def __flexible__(self) -> bool:
        return self.flexible


def request_header(
    api_key: int, version: int, correlation_id: int, client_id: str | None, flexible: bool
) -> bytes:
    """Request header v1 (v2 when `flexible`: plus an empty tagged-field section); client id is int16-sized."""
    head = struct.pack(">hhi", api_key, version, correlation_id)
    if client_id is None:
        head += b"\xff\xff"
    else:
        raw = client_id.encode("utf-8")
        head += _I16.pack(len(raw)) + raw
    return head + b"\x00" if flexible else head


def _compact_string(value: str | None) -> bytes:
    if value is None:
        return b"\x00"
    raw = value.encode("utf-8")
    return _varint(len(raw) + 1) + raw


def _varint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


# --- ApiVersions ----------------------------------------------------------------------------------


class ApiVersion(NamedTuple):
    api_key: int
    min_version: int
    max_version: int


class SupportedFeatureKey(NamedTuple):
    name: str
    min_version: int
    max_version: int


class FinalizedFeatureKey(NamedTuple):
    name: str
    max_version_level: int
    min_version_level: int


class ApiVersionsResponse(NamedTuple):
    error_code: int
    api_keys: tuple[ApiVersion, ...]
    throttle_time_ms: int
    supported_features: tuple[SupportedFeatureKey, ...]
    finalized_features_epoch: int
    finalized_features: tuple[FinalizedFeatureKey, ...]
    zk_migration_ready: bool


def _versioned(base: type[Any], api_key: int, versions: range) -> dict[int, type[Any]]:
    """One subclass per version carrying kio's class attributes (`type(response).__version__`)."""
    return {
        v: type(base.__name__, (base,), {"__slots__": (), "__version__": v, "__api_key__": api_key})
        for v in versions
    }


_API_VERSIONS_RESPONSES = _versioned(ApiVersionsResponse, API_VERSIONS, range(6))


def api_versions_request(
    version: int,
    *,
    client_software_name: str,
    client_software_version: str,
    cluster_id: str | None = None,
    node_id: int = -1,
) -> HandRequest:
    """ApiVersions v0-v5 (v5: KIP-1242 ClusterId and NodeId); its response always uses header v0."""
    body = b""
    if version >= 3:
        body = _compact_string(client_software_name) + _compact_string(client_software_version)
        if version >= 5:
            body += _compact_string(cluster_id) + _I32.pack(node_id)
        body += b"\x00"
    return HandRequest(
        api_key=API_VERSIONS,
        version=version,
        body=body,
        flexible=version >= 3,
        response_header_flexible=False,
        reader=api_versions_reader(version),
    )


def api_versions_reader(version: int) -> Reader:
    """The body reader of an ApiVersions response of `version` (v5 bodies are v4 bodies)."""
    cls = _API_VERSIONS_RESPONSES[version]

    def read(buf: bytes, pos: int) -> ApiVersionsResponse:
        try:
            return cls(*_read_api_versions(buf, pos, version))  # type: ignore[no-any-return]
        except (IndexError, struct.error):
            raise MalformedResponse("the response ends in the middle of a field") from None

    return read


def _read_api_versions(buf: bytes, pos: int, version: int) -> ApiVersionsResponse:
    (error_code,) = _I16.unpack_from(buf, pos)
    pos += 2
    keys = []
    if version >= 3:
        count, pos = _count(buf, pos, "api_keys")
        for _ in range(count):
            keys.append(ApiVersion(*_KEY.unpack_from(buf, pos)))
            pos = _skip_tags(buf, pos + 6)
    else:
        (count,) = _I32.unpack_from(buf, pos)
        pos += 4
        if count < 0 or count * 6 > len(buf) - pos:
            raise MalformedResponse(
                f"api_keys array declares {count} elements with {len(buf) - pos} bytes left"
            )
        for _ in range(count):
            keys.append(ApiVersion(*_KEY.unpack_from(buf, pos)))
            pos += 6
    throttle = 0
    if version >= 1:
        (throttle,) = _I32.unpack_from(buf, pos)
        pos += 4
    supported: tuple[SupportedFeatureKey, ...] = ()
    finalized: tuple[FinalizedFeatureKey, ...] = ()
    epoch = -1
    ready = False
    if version >= 3:
        tags, pos = _uvarint(buf, pos)
        for _ in range(tags):
            tag, pos = _uvarint(buf, pos)
            size, pos = _uvarint(buf, pos)
            end = pos + size
            if end > len(buf):
                raise MalformedResponse(f"tagged field {tag} of {size} bytes runs past the end")
            field = buf[:end]  # a tagged field must fit in its declared size
            if tag == 0:
                supported, used = _features(field, pos, SupportedFeatureKey)
            elif tag == 1:
                (epoch,) = _I64.unpack_from(field, pos)
                used = pos + 8
            elif tag == 2:
                finalized, used = _features(field, pos, FinalizedFeatureKey)
            elif tag == 3:
                ready, used = _bool(field, pos), pos + 1
            else:
                used = end
            if used != end:
                raise MalformedResponse(f"tagged field {tag} does not fill its declared size")
            pos = end
    return ApiVersionsResponse(error_code, tuple(keys), throttle, supported, epoch, finalized, ready)


def _features(buf: bytes, pos: int, kind: type[Any]) -> tuple[tuple[Any, ...], int]:
    count, pos = _count(buf, pos, "features")
    out = []
    for _ in range(count):
        name, pos = _name(buf, pos)
        first, second = struct.unpack_from(">hh", buf, pos)
        pos = _skip_tags(buf, pos + 4)
        out.append(kind(name, first, second))
    return tuple(out), pos


def _skip_tags(buf: bytes, pos: int) -> int:
    count, pos = _uvarint(buf, pos)
    for _ in range(count):
        _tag, pos = _uvarint(buf, pos)
        size, pos = _uvarint(buf, pos)
        if size > len(buf) - pos:
            raise MalformedResponse(f"tagged field of {size} bytes runs past the end at byte {pos}")
        pos += size
    return pos


# --- DescribeCluster ------------------------------------------------------------------------------


class DescribeClusterBroker(NamedTuple):
    broker_id: int
    host: str
    port: int
    rack: str | None
    is_fenced: bool


class DescribeClusterResponse(NamedTuple):
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: tuple[DescribeClusterBroker, ...]
    cluster_authorized_operations: int


def describe_cluster_request(
    version: int, *, endpoint_type: int, include_fenced_brokers: bool = False
) -> HandRequest:
    """DescribeCluster v0-v2 (flexible from v0) without cluster authorized operations."""
    body = b"\x00"  # include_cluster_authorized_operations = false
    if version >= 1:
        body += struct.pack(">b", endpoint_type)
    if version >= 2:
        body += b"\x01" if include_fenced_brokers else b"\x00"
    return HandRequest(
        api_key=DESCRIBE_CLUSTER,
        version=version,
        body=body + b"\x00",
        flexible=True,
        response_header_flexible=True,
        reader=describe_cluster_reader(version),
    )


_DESCRIBE_CLUSTER_RESPONSES = _versioned(DescribeClusterResponse, DESCRIBE_CLUSTER, range(3))


def describe_cluster_reader(version: int) -> Reader:
    """The body reader of a DescribeCluster response of `version`."""
    cls = _DESCRIBE_CLUSTER_RESPONSES[version]

    def read(buf: bytes, pos: int) -> DescribeClusterResponse:
        try:
            return cls(*_read_describe_cluster(buf, pos, version))  # type: ignore[no-any-return]
        except (IndexError, struct.error):
            raise MalformedResponse("the response ends in the middle of a field") from None

    return read


def _read_describe_cluster(buf: bytes, pos: int, version: int) -> DescribeClusterResponse:
    throttle, error_code = struct.unpack_from(">ih", buf, pos)
    error_message, pos = _string(buf, pos + 6, True)
    endpoint_type = 1
    if version >= 1:
        endpoint_type = _int8(buf, pos)
        pos += 1
    cluster_id, pos = _name(buf, pos)
    (controller_id,) = _I32.unpack_from(buf, pos)
    count, pos = _count(buf, pos + 4, "brokers")
    brokers = []
    for _ in range(count):
        (broker_id,) = _I32.unpack_from(buf, pos)
        host, pos = _name(buf, pos + 4)
        (port,) = _I32.unpack_from(buf, pos)
        rack, pos = _string(buf, pos + 4, True)
        fenced = False
        if version >= 2:
            fenced = _bool(buf, pos)
            pos += 1
        pos = _skip_tags(buf, pos)
        brokers.append(DescribeClusterBroker(broker_id, host, port, rack, fenced))
    (operations,) = _I32.unpack_from(buf, pos)
    _skip_tags(buf, pos + 4)
    return DescribeClusterResponse(
        throttle,
        error_code,
        error_message,
        endpoint_type,
        cluster_id,
        controller_id,
        tuple(brokers),
        operations,
    )
