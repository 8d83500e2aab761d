"""Delegation tokens on the wire (KIP-48; in KRaft since 3.5, KIP-900): CreateDelegationToken (38) v3,
RenewDelegationToken (39) v2, ExpireDelegationToken (40) v2, DescribeDelegationToken (41) v1-v3.

Behavior:
- Sent to any broker, as Kafka's Admin client does (the broker forwards create, renew and expire to
  the active controller, which keeps the tokens in the metadata log); never retried once sent.
- A broker refuses them on a channel that is not authenticated (PLAINTEXT, one-way TLS) or that a
  token authenticated: DELEGATION_TOKEN_REQUEST_NOT_ALLOWED; without delegation.token.secret.key:
  DELEGATION_TOKEN_AUTH_DISABLED.
- An HMAC goes out only inside the request; no error text carries it.
Version notes: the create, renew and expire answers are read by kcli.client.protocol.signed_timestamps
(their timestamps are -1 in an error answer); DescribeDelegationToken with owners null lists the
caller's own tokens and those it may describe (an empty list would match none).
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.errors import check
from kcli.kafka import ApiKey
from kcli.ops.delegation_tokens import Principal, Token

if TYPE_CHECKING:
    from kcli.client.admin import Admin


def _period(ms: int) -> Any:
    from kio.static.primitive import i64Timedelta

    return i64Timedelta.parse(datetime.timedelta(milliseconds=ms))


def _request(api: str, version: int, **values: Any) -> Any:
    from kcli.client.protocol import make, request_class

    return make(request_class(api, version), **values)


def _nested(api: str, version: int, name: str) -> type:
    import sys

    from kcli.client.protocol import request_class

    return getattr(sys.modules[request_class(api, version).__module__], name)  # type: ignore[no-any-return]


async def create(
    admin: Admin, *, renewers: Sequence[Principal], owner: Principal | None, max_lifetime_ms: int
) -> Token:
    """A new token for `owner` (default: the caller), renewable by `renewers`."""

    def build(version: int) -> Any:
        renewer = _nested("create_delegation_token", version, "CreatableRenewers")
        return _request(
            "create_delegation_token",
            version,
            owner_principal_type=owner.type if owner else None,
            owner_principal_name=owner.name if owner else None,
            renewers=tuple(renewer(principal_type=r.type, principal_name=r.name) for r in renewers),
            max_lifetime=_period(max_lifetime_ms),
        )

    response = await admin.call(ApiKey.CREATE_DELEGATION_TOKEN, build, versions=(3, 3), idempotent=False)
    check(int(response.error_code), None, what="CreateDelegationToken")
    return Token(
        token_id=str(response.token_id),
        hmac=bytes(response.hmac),
        owner=Principal(str(response.principal_type), str(response.principal_name)),
        requester=Principal(
            str(response.token_requester_principal_type), str(response.token_requester_principal_name)
        ),
        renewers=tuple(renewers),
        issue_ms=int(response.issue_timestamp_ms),
        expiry_ms=int(response.expiry_timestamp_ms),
        max_ms=int(response.max_timestamp_ms),
    )


async def renew(admin: Admin, hmac: bytes, *, renew_period_ms: int) -> int:
    """The new expiry time (ms since the epoch) of the token whose HMAC is `hmac`."""
    response = await admin.call(
        ApiKey.RENEW_DELEGATION_TOKEN,
        lambda version: _request(
            "renew_delegation_token", version, hmac=hmac, renew_period=_period(renew_period_ms)
        ),
        versions=(2, 2),
        idempotent=False,
    )
    check(int(response.error_code), None, what="RenewDelegationToken")
    return int(response.expiry_timestamp_ms)


async def expire(admin: Admin, hmac: bytes, *, expiry_period_ms: int) -> int:
    """The new expiry time of the token whose HMAC is `hmac` (-1: expire it now)."""
    response = await admin.call(
        ApiKey.EXPIRE_DELEGATION_TOKEN,
        lambda version: _request(
            "expire_delegation_token", version, hmac=hmac, expiry_time_period=_period(expiry_period_ms)
        ),
        versions=(2, 2),
        idempotent=False,
    )
    check(int(response.error_code), None, what="ExpireDelegationToken")
    return int(response.expiry_timestamp_ms)


async def describe(admin: Admin, owners: Sequence[Principal] | None) -> list[Token]:
    """The tokens owned or renewable by `owners` (None: the caller's, and those it may describe)."""

    def build(version: int) -> Any:
        owner = _nested("describe_delegation_token", version, "DescribeDelegationTokenOwner")
        return _request(
            "describe_delegation_token",
            version,
            owners=None
            if owners is None
            else tuple(owner(principal_type=p.type, principal_name=p.name) for p in owners),
        )

    response = await admin.call(ApiKey.DESCRIBE_DELEGATION_TOKEN, build, versions=(1, 3))
    check(int(response.error_code), None, what="DescribeDelegationToken")
    return [
        Token(
            token_id=str(t.token_id),
            hmac=bytes(t.hmac),
            owner=Principal(str(t.principal_type), str(t.principal_name)),
            requester=Principal(
                str(getattr(t, "token_requester_principal_type", "") or t.principal_type),
                str(getattr(t, "token_requester_principal_name", "") or t.principal_name),
            ),
            renewers=tuple(Principal(str(r.principal_type), str(r.principal_name)) for r in t.renewers),
            issue_ms=int(t.issue_timestamp),
            expiry_ms=int(t.expiry_timestamp),
            max_ms=int(t.max_timestamp),
        )
        for t in response.tokens
    ]
