"""Envelope (58), version 0 (controllers only): requests forwarded by brokers (KIP-590).

Behavior:
- The sender must hold CLUSTER_ACTION on the cluster (super users do), else the envelope fails
  with CLUSTER_AUTHORIZATION_FAILED.
- The embedded request is decoded and answered by its own handler as the original principal
  (request_principal) from the original address; the embedded response (header + body) goes back.
- An embedded request that cannot be forwarded or decoded -> INVALID_REQUEST.
"""

from __future__ import annotations

import ipaddress
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import wire
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.forwarding import decode_principal
from kcli.sandbox.emulator.registry import Listener, api, load_all


@api(ApiKey.ENVELOPE, (0, 0), listeners=Listener.CONTROLLER)
async def handle_envelope(ctx: RequestContext, request: Any) -> Any:
    """Unwrap, answer and wrap one forwarded request."""
    if not ctx.authorize(AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.r(
            "EnvelopeResponse", response_data=None, error_code=ErrorCode.cluster_authorization_failed
        )
    principal = decode_principal(request.request_principal)
    frame = bytes(request.request_data)
    try:
        prefix = wire.read_prefix(frame)
        spec = load_all().get(prefix.api_key)
        if spec is None or not spec.forward or not spec.min_version <= prefix.api_version <= spec.max_version:
            raise wire.FrameError(f"api {prefix.api_key} v{prefix.api_version} cannot be forwarded")
        header, inner, _ = wire.decode_request(frame, spec.name, prefix.api_version)
    except wire.FrameError:
        return ctx.r("EnvelopeResponse", response_data=None, error_code=ErrorCode.invalid_request)
    try:
        client_host = str(ipaddress.ip_address(bytes(request.client_host_address)))
    except ValueError:
        client_host = ctx.client_host
    inner_ctx = RequestContext(
        cluster=ctx.cluster,
        node=ctx.node,
        api_key=prefix.api_key,
        version=prefix.api_version,
        header=header,
        response_module=wire.classes(spec.name, prefix.api_version)[2],
        principal=principal or "User:ANONYMOUS",
        client_host=client_host,
        forwarded=True,
    )
    inner_ctx.extra["frame"] = frame
    from kcli.sandbox.emulator.server import answer

    response = await answer(inner_ctx, spec, inner)
    data = wire.encode_response(response, prefix.correlation_id)[4:]
    return ctx.r("EnvelopeResponse", response_data=data, error_code=0)
