"""CreateDelegationToken (38), versions 1-3: a delegation token for the requester or a named owner (KIP-48).

Behavior:
- Over PLAINTEXT, over SSL without a client certificate, or from a token-authenticated principal:
  DELEGATION_TOKEN_REQUEST_NOT_ALLOWED (a broker forwarding to the controller passes this check). A
  token for another owner needs CREATE_TOKENS on that user (DELEGATION_TOKEN_AUTHORIZATION_FAILED);
  renewers must be User principals (INVALID_PRINCIPAL_TYPE).
- Brokers forward it to the active controller (KIP-590), which makes the token
  (kcli.sandbox.emulator.groups.tokens): without delegation.token.secret.key, DELEGATION_TOKEN_AUTH_DISABLED.
  SASL sandboxes set the key on every node (like their fixed passwords, a sandbox's own).

Version notes: v2 flexible; v3 owner principal and token requester (KIP-373).
"""

from __future__ import annotations

import time
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.unset_times import encoded, timestamp


@api(ApiKey.CREATE_DELEGATION_TOKEN, (1, 3), forward=True, forwards_itself=True)
async def handle_create_delegation_token(ctx: RequestContext, request: Any) -> Any:
    """Create a token."""
    requester = ctx.principal
    name = getattr(request, "owner_principal_name", None)
    owner = f"{request.owner_principal_type}:{name}" if name else requester
    renewers = [f"{r.principal_type}:{r.principal_name}" for r in request.renewers]
    if not coordination.token_requests_allowed(ctx):
        return _answer(
            ctx,
            tokens.Created(
                error=ErrorCode.delegation_token_request_not_allowed, owner=owner, requester=requester
            ),
        )
    if owner != requester and not ctx.authorize(AclOperation.CREATE_TOKENS, ResourceType.USER, owner):
        return _answer(
            ctx,
            tokens.Created(
                error=ErrorCode.delegation_token_authorization_failed, owner=owner, requester=requester
            ),
        )
    if ctx.node.is_broker and not ctx.forwarded:
        if any(not r.startswith("User:") for r in renewers):
            return _answer(
                ctx, tokens.Created(error=ErrorCode.invalid_principal_type, owner=owner, requester=requester)
            )
        from kcli.sandbox.emulator.forwarding import forward

        return await forward(ctx, request)
    lifetime = int(request.max_lifetime.total_seconds() * 1000)
    created = tokens.create(
        coordination.token_settings(ctx.cluster),
        requester,
        owner if name else None,
        renewers,
        lifetime,
        int(time.time() * 1000),
    )
    if created.records:
        await ctx.cluster.commit(list(created.records))
    return _answer(ctx, created)


def _answer(ctx: RequestContext, created: tokens.Created) -> Any:
    owner_type, _, owner_name = created.owner.partition(":")
    requester_type, _, requester_name = created.requester.partition(":")
    return encoded(
        ctx.r(
            "CreateDelegationTokenResponse",
            error_code=created.error,
            principal_type=owner_type,
            principal_name=owner_name,
            token_requester_principal_type=requester_type,
            token_requester_principal_name=requester_name,
            issue_timestamp=timestamp(created.issue_timestamp),
            expiry_timestamp=timestamp(created.expiry_timestamp),
            max_timestamp=timestamp(created.max_timestamp),
            token_id=created.token_id,
            hmac=created.hmac,
            throttle_time=ZERO,
        )
    )
