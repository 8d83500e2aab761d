"""ApiVersions (18), versions 0-5: the API table of the listener, supported and finalized features.

Behavior:
- The table is built from the registry: exactly the APIs (and versions) this node kind answers.
- An unsupported version is answered at v0 with UNSUPPORTED_VERSION and the table (KIP-511).
- v5 (KIP-1242), as a Kafka 4.4 node checks it: one of ClusterId and NodeId without the other ->
  INVALID_REQUEST (every node, before and after a SASL login); on a broker's request handler (a
  SASL listener's first ApiVersions is answered by its authenticator, before the login, unchecked),
  ClusterId or NodeId differing from this node -> REBOOTSTRAP_REQUIRED; controllers never check the
  ids. Both errors with an empty API table.

Version notes:
- v3+ flexible with ClientSoftwareName/Version; v3+ carries features in tagged fields.
- v0 is what Kafka's Java SASL authenticator sends first, before it knows the server's versions.
- v0-v3 omit supported features whose minimum is 0; v4 allows them.
- kio stops at v4: v5 uses kcli.client.protocol.api_versions_v5 (kio-style classes; the response
  body is v4's).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import wire
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.features import supported_features
from kcli.sandbox.emulator.registry import api, specs_for


def decode_api_versions(frame: bytes, version: int) -> tuple[Any, Any, Any]:
    """(header, request, response module) for ApiVersions at any served version."""
    if version < 5:
        header, request, _ = wire.decode_request(frame, "api_versions", version)
        return header, request, wire.classes("api_versions", version)[2]
    from kcli.client.protocol import api_versions_v5

    request_cls: Any = api_versions_v5.ApiVersionsRequest
    try:
        header, offset = wire.reader(request_cls.__header_schema__)(frame, 0)
        request, _ = wire.reader(request_cls)(frame, offset)
    except Exception as error:  # kio raises several decode error types; all mean "malformed"
        raise wire.FrameError(f"malformed ApiVersions v5 request: {type(error).__name__}: {error}") from None
    return header, request, api_versions_v5


def api_table(context_module: Any, kind: Any) -> tuple[Any, ...]:
    return tuple(
        wire.make(
            context_module.ApiVersion, api_key=s.key, min_version=s.advertised[0], max_version=s.advertised[1]
        )
        for s in specs_for(kind)
    )


def unsupported_version_response(cluster: Any, node: Any, correlation_id: int) -> bytes:
    """The v0 answer to an ApiVersions version this node does not support."""
    module = wire.classes("api_versions", 0)[2]
    response = wire.make(
        module.ApiVersionsResponse,
        error_code=ErrorCode.unsupported_version,
        api_keys=api_table(module, node.kind),
        throttle_time=ZERO,
    )
    return wire.encode_response(response, correlation_id)


@api(ApiKey.API_VERSIONS, (0, 5), needs_auth=False)
async def handle_api_versions(ctx: RequestContext, request: Any) -> Any:
    """Answer ApiVersions from the registry and the image's features."""
    module = ctx.response_module
    if ctx.version >= 5:
        error = _kip1242_error(ctx, request)
        if error:
            return ctx.r("ApiVersionsResponse", error_code=error, api_keys=(), throttle_time=ZERO)
    cluster = ctx.cluster
    supported: tuple[Any, ...] = ()
    finalized: tuple[Any, ...] = ()
    if ctx.version >= 3:  # features are tagged fields of v3+; v0-v2 have no such structs
        supported = tuple(
            ctx.r("SupportedFeatureKey", name=f.name, min_version=f.min_level, max_version=f.max_level)
            for f in supported_features()
            if ctx.version >= 4 or f.min_level > 0
        )
        finalized_levels = dict(cluster.image.features)
        finalized_levels["kraft.version"] = cluster.kraft_version
        finalized = tuple(
            ctx.r("FinalizedFeatureKey", name=name, max_version_level=level, min_version_level=level)
            for name, level in sorted(finalized_levels.items())
            if level > 0
        )
    return ctx.r(
        "ApiVersionsResponse",
        error_code=0,
        api_keys=api_table(module, ctx.node.kind),
        throttle_time=ZERO,
        supported_features=supported,
        finalized_features_epoch=cluster.image.features_epoch,
        finalized_features=finalized,
        zk_migration_ready=False,
    )


def _kip1242_error(ctx: RequestContext, request: Any) -> int:
    cluster_id = getattr(request, "cluster_id", None)
    node_id = getattr(request, "node_id", -1)
    if (cluster_id is None) != (node_id == -1):  # ApiVersionsRequest.isValid
        return ErrorCode.invalid_request
    session = ctx.extra.get("session")
    checked = ctx.node.is_broker and (session is None or session.authenticated)
    if (
        checked
        and cluster_id is not None
        and (cluster_id != ctx.cluster.cluster_id or node_id != ctx.node.node_id)
    ):
        return ErrorCode.rebootstrap_required
    return 0
