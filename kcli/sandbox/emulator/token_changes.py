"""RenewDelegationToken (39) and ExpireDelegationToken (40) alike: refused as CreateDelegationToken is
refused (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED), forwarded by a broker to the active controller, then
the token's change (kcli.sandbox.emulator.groups.tokens) committed and answered with its expiry."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from datetime import timedelta
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.unset_times import encoded, timestamp

Change = Callable[[tokens.TokenSettings, Mapping[str, Any], str, bytes, int, int], tokens.Changed]


async def change_token(
    ctx: RequestContext, request: Any, change: Change, period: timedelta, response: str
) -> Any:
    """Apply `change` (tokens.renew or tokens.expire) to the token of the request's HMAC for `period`."""
    if not coordination.token_requests_allowed(ctx):
        return _answer(ctx, response, tokens.Changed(error=ErrorCode.delegation_token_request_not_allowed))
    if ctx.node.is_broker and not ctx.forwarded:
        from kcli.sandbox.emulator.forwarding import forward

        return await forward(ctx, request)
    changed = change(
        coordination.token_settings(ctx.cluster),
        ctx.cluster.image.tokens,
        ctx.principal,
        bytes(request.hmac),
        int(period.total_seconds() * 1000),
        int(time.time() * 1000),
    )
    if changed.records:
        await ctx.cluster.commit(list(changed.records))
    return _answer(ctx, response, changed)


def _answer(ctx: RequestContext, response: str, changed: tokens.Changed) -> Any:
    return encoded(
        ctx.r(
            response,
            error_code=changed.error,
            expiry_timestamp=timestamp(changed.expiry_timestamp),
            throttle_time=ZERO,
        )
    )
