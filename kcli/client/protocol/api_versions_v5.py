"""ApiVersions v5 (KIP-1242), written in kio's style: kio 0.6.5 stops at v4.

Mirrors ``clients/src/main/resources/common/message/ApiVersionsRequest.json`` /
``ApiVersionsResponse.json`` as of Kafka 4.4: the request adds ClusterId (nullable string, default
null) and NodeId (int32, default -1) after ClientSoftwareVersion; the response body is unchanged
from v4 (it is always sent with response header v0).

Version notes:
- A server that does not know v5 answers UNSUPPORTED_VERSION with a v0 body (Kafka), or, like tansu
  0.6.0, parses the request as v4 and closes the connection when ClusterId is set.
- A server that knows v5 answers REBOOTSTRAP_REQUIRED (129) when ClusterId/NodeId do not match it.
"""

from dataclasses import dataclass, field
from typing import ClassVar

from kio.schema.api_versions.v4.response import (
    ApiVersion,
    FinalizedFeatureKey,
    SupportedFeatureKey,
)
from kio.schema.errors import ErrorCode
from kio.schema.request_header.v2.header import RequestHeader
from kio.schema.response_header.v0.header import ResponseHeader
from kio.static.constants import EntityType
from kio.static.primitive import i16, i32, i32Timedelta, i64

__all__ = (
    "ApiVersion",
    "ApiVersionsRequest",
    "ApiVersionsResponse",
    "FinalizedFeatureKey",
    "SupportedFeatureKey",
)


class _Version5:
    """What kio reads of both v5 entities: the API key, the version, and that it is flexible."""

    __slots__ = ()
    __version__: ClassVar[i16] = i16(5)
    __flexible__: ClassVar[bool] = True
    __api_key__: ClassVar[i16] = i16(18)


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiVersionsRequest(_Version5):
    __type__: ClassVar = EntityType.request
    __header_schema__: ClassVar[type[RequestHeader]] = RequestHeader
    client_software_name: str = field(metadata={"kafka_type": "string"})
    """The name of the client."""
    client_software_version: str = field(metadata={"kafka_type": "string"})
    """The version of the client."""
    cluster_id: str | None = field(metadata={"kafka_type": "string"}, default=None)
    """The cluster id the client expects the server to belong to, or null (bootstrap connections)."""
    node_id: i32 = field(metadata={"kafka_type": "int32"}, default=i32(-1))
    """The node id the client expects the server to have, or -1."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ApiVersionsResponse(_Version5):
    __type__: ClassVar = EntityType.response
    __header_schema__: ClassVar[type[ResponseHeader]] = ResponseHeader
    error_code: ErrorCode = field(metadata={"kafka_type": "error_code"})
    """The top-level error code."""
    api_keys: tuple[ApiVersion, ...]
    """The APIs supported by the broker."""
    throttle_time: i32Timedelta = field(metadata={"kafka_type": "timedelta_i32"})
    """The duration in milliseconds for which the request was throttled due to a quota violation."""
    supported_features: tuple[SupportedFeatureKey, ...] = field(metadata={"tag": 0}, default=())
    """Features supported by the broker."""
    finalized_features_epoch: i64 = field(metadata={"kafka_type": "int64", "tag": 1}, default=i64(-1))
    """The monotonically increasing epoch for the finalized features information, or -1."""
    finalized_features: tuple[FinalizedFeatureKey, ...] = field(metadata={"tag": 2}, default=())
    """List of cluster-wide finalized features (valid only if FinalizedFeaturesEpoch >= 0)."""
    zk_migration_ready: bool = field(metadata={"kafka_type": "bool", "tag": 3}, default=False)
    """Set by a KRaft controller if the required configurations for ZK migration are present."""
