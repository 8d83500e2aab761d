"""DescribeDelegationToken (41), versions 1-3: the tokens a principal may see, with their HMACs.

Behavior:
- Refused as CreateDelegationToken refuses (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED); without
  delegation.token.secret.key, DELEGATION_TOKEN_AUTH_DISABLED; an empty owners list answers none,
  null every token; each token is shown to its owner and renewers, else with DESCRIBE on it or
  DESCRIBE_TOKENS on its owner. Answered from the node's own metadata (not forwarded).

Version notes: v2 flexible; v3 the token requester.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.registry import api


@api(ApiKey.DESCRIBE_DELEGATION_TOKEN, (1, 3))
async def handle_describe_delegation_token(ctx: RequestContext, request: Any) -> Any:
    """Describe the tokens."""
    if not coordination.token_requests_allowed(ctx):
        return ctx.r(
            "DescribeDelegationTokenResponse",
            error_code=ErrorCode.delegation_token_request_not_allowed,
            tokens=(),
            throttle_time=ZERO,
        )
    settings = coordination.token_settings(ctx.cluster)
    if not settings.enabled:
        return ctx.r(
            "DescribeDelegationTokenResponse",
            error_code=ErrorCode.delegation_token_auth_disabled,
            tokens=(),
            throttle_time=ZERO,
        )
    owners = (
        None if request.owners is None else [f"{o.principal_type}:{o.principal_name}" for o in request.owners]
    )
    shown: list[Any] = []
    if owners != []:
        shown = tokens.visible(
            ctx.cluster.image.tokens.values(),
            ctx.principal,
            owners,
            lambda token_id: ctx.authorize(AclOperation.DESCRIBE, ResourceType.DELEGATION_TOKEN, token_id),
            lambda owner: ctx.authorize(AclOperation.DESCRIBE_TOKENS, ResourceType.USER, owner),
        )
    assert settings.secret_key is not None
    described = []
    for token in shown:
        owner_type, _, owner_name = token.owner.partition(":")
        requester_type, _, requester_name = token.requester.partition(":")
        described.append(
            ctx.r(
                "DescribedDelegationToken",
                principal_type=owner_type,
                principal_name=owner_name,
                token_requester_principal_type=requester_type,
                token_requester_principal_name=requester_name,
                issue_timestamp=token.issue_timestamp,
                expiry_timestamp=token.expiration_timestamp,
                max_timestamp=token.max_timestamp,
                token_id=token.token_id,
                hmac=tokens.token_hmac(settings.secret_key, token.token_id),
                renewers=tuple(
                    ctx.r("DescribedDelegationTokenRenewer", principal_type=t, principal_name=n)
                    for t, _, n in (r.partition(":") for r in token.renewers)
                ),
            )
        )
    return ctx.r("DescribeDelegationTokenResponse", error_code=0, tokens=tuple(described), throttle_time=ZERO)
