"""Delegation tokens (KIP-48) as Kafka 4.4's controller and brokers keep them.

Behavior (DelegationTokenControlManager, DelegationTokenManager):
- A token's id is a random UUID; its HMAC is HMAC-SHA512 of the id under delegation.token.secret.key
  (without a key: DELEGATION_TOKEN_AUTH_DISABLED). It lives as a DelegationTokenRecord in the metadata
  log (owner, requester, renewers, issue/max/expiration timestamps); expiring it writes a
  RemoveDelegationTokenRecord.
- Create: the owner is the requester unless named; the lifetime is min(max lifetime asked, the
  broker's delegation.token.max.lifetime.ms); the expiry min(that, now + delegation.token.expiry.time.ms).
- Renew and expire find the token by its HMAC (DELEGATION_TOKEN_NOT_FOUND), only for its owner or a
  renewer (DELEGATION_TOKEN_OWNER_MISMATCH), not once expired (DELEGATION_TOKEN_EXPIRED); a negative
  expiry period removes it at once.
- Describe lists the tokens of the given owners (none given: all), each visible to its owner and
  renewers, else with DESCRIBE on the token or DESCRIBE_TOKENS on its owner.
- A token logs in with SCRAM (tokenauth=true): the user is the token id, the password the HMAC in
  base64; the principal is the token's owner.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import uuid
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.metadata import records as _records

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records
E = ErrorCode
LONG_MAX = 2**63 - 1


@dataclass(frozen=True, slots=True, kw_only=True)
class TokenSettings:
    secret_key: str | None  # delegation.token.secret.key (None or empty: tokens disabled)
    max_lifetime_ms: int = 7 * 24 * 3600 * 1000  # delegation.token.max.lifetime.ms
    expiry_time_ms: int = 24 * 3600 * 1000  # delegation.token.expiry.time.ms

    @property
    def enabled(self) -> bool:
        return bool(self.secret_key)


@dataclass(frozen=True, slots=True, kw_only=True)
class Created:
    error: ErrorCode
    owner: str
    requester: str
    token_id: str = ""
    hmac: bytes = b""
    issue_timestamp: int = -1
    expiry_timestamp: int = -1
    max_timestamp: int = -1
    records: tuple[Any, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Changed:
    """A renew or expire: the error, the new expiry (-1 on error) and the record to commit."""

    error: ErrorCode
    expiry_timestamp: int = -1
    records: tuple[Any, ...] = ()


def token_hmac(secret_key: str, token_id: str) -> bytes:
    return hmac.new(secret_key.encode(), token_id.encode(), hashlib.sha512).digest()


def _sum(now: int, duration: int) -> int:
    return LONG_MAX if now > LONG_MAX - duration else now + duration


def create(
    settings: TokenSettings,
    requester: str,
    owner: str | None,
    renewers: list[str],
    max_lifetime_ms: int,
    now: int,
) -> Created:
    """CreateDelegationToken at the controller."""
    owner = owner or requester
    if not settings.enabled:
        return Created(error=E.delegation_token_auth_disabled, owner=owner, requester=requester)
    if any(not r.startswith("User:") for r in renewers):
        return Created(error=E.invalid_principal_type, owner=owner, requester=requester)
    lifetime = (
        settings.max_lifetime_ms if max_lifetime_ms <= 0 else min(settings.max_lifetime_ms, max_lifetime_ms)
    )
    max_timestamp = _sum(now, lifetime)
    expiry = min(max_timestamp, _sum(now, settings.expiry_time_ms))
    token_id = str(uuid.uuid4())
    assert settings.secret_key is not None
    record = R.DelegationTokenRecord(
        owner=owner,
        requester=requester,
        renewers=tuple(renewers),
        issue_timestamp=now,
        max_timestamp=max_timestamp,
        expiration_timestamp=expiry,
        token_id=token_id,
    )
    return Created(
        error=E.none,
        owner=owner,
        requester=requester,
        token_id=token_id,
        hmac=token_hmac(settings.secret_key, token_id),
        issue_timestamp=now,
        expiry_timestamp=expiry,
        max_timestamp=max_timestamp,
        records=(record,),
    )


def _by_hmac(settings: TokenSettings, tokens: Mapping[str, Any], given: bytes) -> Any:
    assert settings.secret_key is not None
    for token in tokens.values():
        if hmac.compare_digest(token_hmac(settings.secret_key, token.token_id), given):
            return token
    return None


def _record(token: Any, expiry: int) -> Any:
    return R.DelegationTokenRecord(
        owner=token.owner,
        requester=token.requester,
        renewers=tuple(token.renewers),
        issue_timestamp=token.issue_timestamp,
        max_timestamp=token.max_timestamp,
        expiration_timestamp=expiry,
        token_id=token.token_id,
    )


def _changeable(
    settings: TokenSettings,
    tokens: Mapping[str, Any],
    principal: str,
    given: bytes,
    *,
    expired_by: int | None = None,
) -> Any:
    """The token `given` (its HMAC) names, or the Changed that refuses the request, in Kafka's order:
    tokens disabled, no such token, expired by `expired_by` (a renewal), not its owner nor a renewer."""
    if not settings.enabled:
        return Changed(error=E.delegation_token_auth_disabled)
    token = _by_hmac(settings, tokens, given)
    if token is None:
        return Changed(error=E.delegation_token_not_found)
    if expired_by is not None and (
        token.max_timestamp < expired_by or token.expiration_timestamp < expired_by
    ):
        return Changed(error=E.delegation_token_expired)
    if principal != token.owner and principal not in token.renewers:
        return Changed(error=E.delegation_token_owner_mismatch)
    return token


def renew(
    settings: TokenSettings, tokens: Mapping[str, Any], principal: str, given: bytes, period_ms: int, now: int
) -> Changed:
    token = _changeable(settings, tokens, principal, given, expired_by=now)
    if type(token) is Changed:
        return token
    life = settings.expiry_time_ms if period_ms <= 0 else min(settings.expiry_time_ms, period_ms)
    expiry = min(token.max_timestamp, now + life)
    return Changed(error=E.none, expiry_timestamp=expiry, records=(_record(token, expiry),))


def expire(
    settings: TokenSettings, tokens: Mapping[str, Any], principal: str, given: bytes, period_ms: int, now: int
) -> Changed:
    token = _changeable(settings, tokens, principal, given)
    if type(token) is Changed:
        return token
    if period_ms < 0:
        return Changed(
            error=E.none,
            expiry_timestamp=now,
            records=(R.RemoveDelegationTokenRecord(token_id=token.token_id),),
        )
    if token.max_timestamp < now or token.expiration_timestamp < now:
        return Changed(error=E.delegation_token_expired)
    expiry = min(token.max_timestamp, _sum(now, period_ms))
    return Changed(error=E.none, expiry_timestamp=expiry, records=(_record(token, expiry),))


def expired(tokens: Mapping[str, Any], now: int) -> list[Any]:
    """RemoveDelegationTokenRecords of the tokens past their expiry (the controller's sweep)."""
    return [
        R.RemoveDelegationTokenRecord(token_id=t.token_id)
        for t in tokens.values()
        if t.max_timestamp < now or t.expiration_timestamp < now
    ]


def visible(
    tokens: Iterable[Any],
    principal: str,
    owners: list[str] | None,
    may_describe_token: Callable[[str], bool],
    may_describe_owner: Callable[[str], bool],
) -> list[Any]:
    """The tokens a DescribeDelegationToken shows (Kafka's DelegationTokenManager.filterToken)."""
    out = []
    for token in tokens:
        mine = principal == token.owner or principal in token.renewers
        if owners is not None and not any(o == token.owner or o in token.renewers for o in owners):
            continue
        if mine or may_describe_token(token.token_id) or may_describe_owner(token.owner):
            out.append(token)
    return out


def scram_credential(secret_key: str, token_id: str, mechanism: int) -> tuple[bytes, bytes, bytes, int]:
    """(salt, stored key, server key, iterations) a token logs in with: its HMAC in base64 as the password."""
    from kcli.sandbox.emulator.security import DEFAULT_ITERATIONS, scram_keys

    password = base64.b64encode(token_hmac(secret_key, token_id)).decode()
    salt = hashlib.sha256(f"{token_id}:{mechanism}".encode()).digest()
    stored, server = scram_keys(password, salt, DEFAULT_ITERATIONS, mechanism)
    return salt, stored, server, DEFAULT_ITERATIONS
