"""RenewDelegationToken (39), versions 1-2: a token's expiry moves on, up to its maximum lifetime.

Behavior:
- Refused as CreateDelegationToken refuses (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1); brokers
  forward it to the active controller; only the owner or a renewer renews
  (kcli.sandbox.emulator.groups.tokens); a renew period of -1 is delegation.token.expiry.time.ms.

Version notes: v2 flexible.
"""

from __future__ import annotations

import time
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ApiKey
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.unset_times import encoded, timestamp


@api(ApiKey.RENEW_DELEGATION_TOKEN, (1, 2), forward=True, forwards_itself=True)
async def handle_renew_delegation_token(ctx: RequestContext, request: Any) -> Any:
    """Renew a token."""
    if not coordination.token_requests_allowed(ctx):
        return _answer(ctx, tokens.Changed(error=ErrorCode.delegation_token_request_not_allowed))
    if ctx.node.is_broker and not ctx.forwarded:
        from kcli.sandbox.emulator.forwarding import forward

        return await forward(ctx, request)
    changed = tokens.renew(
        coordination.token_settings(ctx.cluster),
        ctx.cluster.image.tokens,
        ctx.principal,
        bytes(request.hmac),
        int(request.renew_period.total_seconds() * 1000),
        int(time.time() * 1000),
    )
    if changed.records:
        await ctx.cluster.commit(list(changed.records))
    return _answer(ctx, changed)


def _answer(ctx: RequestContext, changed: tokens.Changed) -> Any:
    return encoded(
        ctx.r(
            "RenewDelegationTokenResponse",
            error_code=changed.error,
            expiry_timestamp=timestamp(changed.expiry_timestamp),
            throttle_time=ZERO,
        )
    )
