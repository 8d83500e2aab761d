"""RenewDelegationToken (39), versions 1-2: a token's expiry moves on, up to its maximum lifetime.

Behavior:
- Refused as CreateDelegationToken refuses (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED, expiry -1); brokers
  forward it to the active controller; only the owner or a renewer renews
  (kcli.sandbox.emulator.groups.tokens); a renew period of -1 is delegation.token.expiry.time.ms.

Version notes: v2 flexible.
"""

from __future__ import annotations

from typing import Any

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.token_changes import change_token


@api(ApiKey.RENEW_DELEGATION_TOKEN, (1, 2), forward=True, forwards_itself=True)
async def handle_renew_delegation_token(ctx: RequestContext, request: Any) -> Any:
    """Renew a token."""
    return await change_token(
        ctx, request, tokens.renew, request.renew_period, "RenewDelegationTokenResponse"
    )
