"""`kcli delegation-tokens`: kafka-delegation-tokens.sh's options and rules, checked in its order (no network).

Behavior (DelegationTokenCommand of Kafka 4.4, the same in 4.0):
- exactly one action of --create, --renew, --expire, --describe;
- required: --bootstrap-server and the security settings; --max-life-time-period with --create;
  --hmac and --renew-time-period with --renew; --hmac and --expiry-time-period with --expire
  (jopt's `Missing required argument "[name]"`, the first missing in that order);
- refused: with --create --hmac, --renew-time-period, --expiry-time-period; with --renew
  --renewer-principal, --max-life-time-period, --expiry-time-period, --owner-principal; with --expire
  --renew, --max-life-time-period, --renew-time-period, --owner-principal; with --describe
  --renew-time-period, --max-life-time-period, --hmac, --expiry-time-period;
- a principal is `Type:name` (split at the first colon, trimmed); --create's owner is the first
  --owner-principal; -1 periods mean the server's defaults (delegation.token.max.lifetime.ms,
  delegation.token.expiry.time.ms) or, for --expire, at once.
The HMAC is a token's secret: it is printed where it is asked for (the token tables of --create and
--describe, -o json), never echoed back, never in an error.
"""

from __future__ import annotations

import base64
import binascii
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kcli.errors import UsageError


class Action(StrEnum):
    CREATE = "create"
    RENEW = "renew"
    EXPIRE = "expire"
    DESCRIBE = "describe"


@dataclass(frozen=True, slots=True, order=True)
class Principal:
    type: str
    name: str

    def __str__(self) -> str:  # KafkaPrincipal.toString
        return f"{self.type}:{self.name}"


@dataclass(frozen=True, slots=True, kw_only=True)
class Token:
    """A delegation token as the cluster reports it (timestamps in ms since the epoch)."""

    token_id: str
    hmac: bytes
    owner: Principal
    requester: Principal
    renewers: tuple[Principal, ...]
    issue_ms: int
    expiry_ms: int
    max_ms: int

    @property
    def hmac_base64(self) -> str:
        """DelegationToken.hmacAsBase64String: standard base64 with padding."""
        return base64.b64encode(self.hmac).decode("ascii")


@dataclass(frozen=True, slots=True, kw_only=True)
class Given:
    """The options as given (None: absent)."""

    create: bool = False
    renew: bool = False
    expire: bool = False
    describe: bool = False
    owner_principals: Sequence[str] | None = None
    renewer_principals: Sequence[str] | None = None
    max_life_time_period: int | None = None
    renew_time_period: int | None = None
    expiry_time_period: int | None = None
    hmac: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class Request:
    action: Action
    owners: tuple[Principal, ...] = ()
    renewers: tuple[Principal, ...] = ()
    period_ms: int | None = None  # max life (create), renew period, or expiry period
    hmac: bytes | None = None


_REQUIRED = {
    Action.CREATE: ("max-life-time-period",),
    Action.RENEW: ("hmac", "renew-time-period"),
    Action.EXPIRE: ("hmac", "expiry-time-period"),
    Action.DESCRIBE: (),
}
_REFUSED = {
    Action.CREATE: ("hmac", "renew-time-period", "expiry-time-period"),
    Action.RENEW: ("renewer-principal", "max-life-time-period", "expiry-time-period", "owner-principal"),
    Action.EXPIRE: ("renew", "max-life-time-period", "renew-time-period", "owner-principal"),
    Action.DESCRIBE: ("renew-time-period", "max-life-time-period", "hmac", "expiry-time-period"),
}


def action_of(given: Given) -> Action:
    actions = [
        action
        for action, on in (
            (Action.CREATE, given.create),
            (Action.RENEW, given.renew),
            (Action.EXPIRE, given.expire),
            (Action.DESCRIBE, given.describe),
        )
        if on
    ]
    if len(actions) != 1:
        raise UsageError("Command must include exactly one action: --create, --renew, --expire or --describe")
    return actions[0]


def plan(given: Given) -> Request:
    """The request `given` asks for, or kafka-delegation-tokens.sh's usage error, in its order.

    The connection checks (--bootstrap-server, the security settings) come between the action and
    these; the caller makes them (kcli.cli.delegation_tokens)."""
    action = action_of(given)
    present = {
        "renew": given.renew,
        "owner-principal": given.owner_principals is not None,
        "renewer-principal": given.renewer_principals is not None,
        "max-life-time-period": given.max_life_time_period is not None,
        "renew-time-period": given.renew_time_period is not None,
        "expiry-time-period": given.expiry_time_period is not None,
        "hmac": given.hmac is not None,
    }
    for option in _REQUIRED[action]:
        if not present[option]:
            raise UsageError(f'Missing required argument "[{option}]"')
    for option in _REFUSED[action]:
        if present[option]:
            raise UsageError(f'Option "[{action.value}]" can\'t be used with option "[{option}]"')
    owners = tuple(parse_principal(p) for p in given.owner_principals or ())
    renewers = tuple(parse_principal(p) for p in given.renewer_principals or ())
    period = {
        Action.CREATE: given.max_life_time_period,
        Action.RENEW: given.renew_time_period,
        Action.EXPIRE: given.expiry_time_period,
        Action.DESCRIBE: None,
    }[action]
    hmac = decode_hmac(given.hmac) if given.hmac is not None else None
    return Request(action=action, owners=owners, renewers=renewers, period_ms=period, hmac=hmac)


def parse_principal(text: str) -> Principal:
    """SecurityUtils.parseKafkaPrincipal of the trimmed text."""
    text = text.strip()
    kind, colon, name = text.partition(":")
    if not text or not colon:
        raise UsageError(f"expected a string in format principalType:principalName but got {text}")
    return Principal(kind, name)


def decode_hmac(text: str) -> bytes:
    """The HMAC as Base64.getDecoder() reads it (the padding may be left out); the error never
    repeats the secret."""
    body = text.rstrip("=")
    try:
        if len(body) % 4 == 1 or len(text) - len(body) > 2:
            raise ValueError
        return base64.b64decode((body + "=" * (-len(body) % 4)).encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise UsageError(
            f"--hmac is not valid base64 ({len(text)} characters): give the HMAC that --create or --describe printed"
        ) from None


def principals_text(principals: Sequence[Principal]) -> str:
    """A Java List's toString: `[User:a, User:b]`."""
    return "[" + ", ".join(str(p) for p in principals) + "]"
