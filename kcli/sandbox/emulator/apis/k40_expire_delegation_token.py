"""ExpireDelegationToken (40), versions 1-2: a token expires sooner, or (a negative period) at once.

Behavior:
- Refused as CreateDelegationToken refuses (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1); brokers
  forward it to the active controller; only the owner or a renewer expires it; a negative period
  removes it (RemoveDelegationTokenRecord), another sets its expiry (kcli.sandbox.emulator.groups.tokens).

Version notes: v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.token_changes import change_token


@api(ApiKey.EXPIRE_DELEGATION_TOKEN, (1, 2), forward=True, forwards_itself=True)
async def handle_expire_delegation_token(ctx: RequestContext, request: Any) -> Any:
    """Expire a token."""
    return await change_token(
        ctx, request, tokens.expire, request.expiry_time_period, "ExpireDelegationTokenResponse"
    )
