"""Delegation tokens as the controller keeps them: lifetimes, renewals, expiry, ownership, the owner
filter of a describe, and the SCRAM credential a token logs in with."""

from __future__ import annotations

import base64

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import tokens
from kcli.sandbox.emulator.image import DelegationToken
from kcli.sandbox.emulator.security import scram_keys

E = ErrorCode
HOUR = 3600 * 1000
ON = tokens.TokenSettings(secret_key="key", max_lifetime_ms=10 * HOUR, expiry_time_ms=HOUR)


def stored(created: tokens.Created) -> dict[str, DelegationToken]:
    (record,) = created.records
    token = DelegationToken(
        token_id=record.token_id,
        owner=record.owner,
        requester=record.requester,
        renewers=tuple(record.renewers),
        issue_timestamp=record.issue_timestamp,
        max_timestamp=record.max_timestamp,
        expiration_timestamp=record.expiration_timestamp,
    )
    return {token.token_id: token}


def test_create_renew_expire() -> None:
    off = tokens.create(tokens.TokenSettings(secret_key=None), "User:a", None, [], -1, 0)
    assert off.error is E.delegation_token_auth_disabled
    bad = tokens.create(ON, "User:a", None, ["Group:x"], -1, 0)
    assert bad.error is E.invalid_principal_type
    made = tokens.create(ON, "User:a", "User:o", ["User:r"], 20 * HOUR, 1000)
    assert (made.error, made.owner, made.requester) == (E.none, "User:o", "User:a")
    assert (made.max_timestamp, made.expiry_timestamp) == (1000 + 10 * HOUR, 1000 + HOUR)
    assert made.hmac == tokens.token_hmac("key", made.token_id)
    known = stored(made)
    # renewing: the owner or a renewer, for at most delegation.token.expiry.time.ms
    assert tokens.renew(ON, known, "User:x", made.hmac, HOUR, 2000).error is E.delegation_token_owner_mismatch
    assert tokens.renew(ON, known, "User:a", b"nope", HOUR, 2000).error is E.delegation_token_not_found
    renewed = tokens.renew(ON, known, "User:r", made.hmac, 5 * HOUR, 2000)
    assert (renewed.error, renewed.expiry_timestamp) == (E.none, 2000 + HOUR)
    late = 1000 + HOUR + 1
    assert tokens.renew(ON, known, "User:o", made.hmac, HOUR, late).error is E.delegation_token_expired
    assert [r.token_id for r in tokens.expired(known, late)] == [made.token_id]
    # expiring: a negative period removes the token at once, even an expired one
    gone = tokens.expire(ON, known, "User:o", made.hmac, -1, late)
    assert gone.error is E.none and type(gone.records[0]).__name__.startswith("RemoveDelegationTokenRecord")
    assert tokens.expire(ON, known, "User:o", made.hmac, 10, late).error is E.delegation_token_expired


def test_describe_filters_and_the_token_login() -> None:
    mine = stored(tokens.create(ON, "User:a", None, ["User:r"], -1, 0))
    theirs = stored(tokens.create(ON, "User:b", None, [], -1, 0))
    every = [*mine.values(), *theirs.values()]
    never = lambda _name: False  # noqa: E731
    assert tokens.visible(every, "User:a", None, never, never) == list(mine.values())
    assert tokens.visible(every, "User:r", ["User:a", "User:b"], never, never) == list(mine.values())
    assert tokens.visible(every, "User:admin", ["User:b"], never, lambda owner: owner == "User:b") == list(
        theirs.values()
    )
    (token_id,) = mine
    salt, stored_key, server_key, iterations = tokens.scram_credential("key", token_id, 1)
    password = base64.b64encode(tokens.token_hmac("key", token_id)).decode()
    assert (stored_key, server_key) == scram_keys(password, salt, iterations, 1)
