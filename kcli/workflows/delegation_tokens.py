"""`kcli delegation-tokens`: one delegation-token request, as kafka-delegation-tokens.sh makes it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from kcli.ops.delegation_tokens import Action, Request, Token

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class Outcome:
    """What the request returned: the token made, the tokens described, or the new expiry time."""

    action: Action
    tokens: tuple[Token, ...] = ()
    expiry_ms: int | None = None


async def run_request(admin: Admin, request: Request) -> Outcome:
    from kcli.client.api import delegation_tokens as wire

    if request.action is Action.CREATE:
        assert request.period_ms is not None
        token = await wire.create(
            admin,
            renewers=request.renewers,
            owner=request.owners[0] if request.owners else None,
            max_lifetime_ms=request.period_ms,
        )
        return Outcome(action=request.action, tokens=(token,))
    if request.action is Action.DESCRIBE:
        # No owners: null, the caller's own tokens and those it may describe (kafka-delegation-tokens
        # sends an empty list, which matches no token).
        tokens = await wire.describe(admin, request.owners or None)
        return Outcome(action=request.action, tokens=tuple(tokens))
    assert request.hmac is not None and request.period_ms is not None
    if request.action is Action.RENEW:
        expiry = await wire.renew(admin, request.hmac, renew_period_ms=request.period_ms)
    else:
        expiry = await wire.expire(admin, request.hmac, expiry_period_ms=request.period_ms)
    return Outcome(action=request.action, expiry_ms=expiry)
