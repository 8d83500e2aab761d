"""SaslAuthenticate (36), versions 0-2: the SASL exchange after SaslHandshake.

Behavior:
- PLAIN: `authzid NUL user NUL password` against the sandbox's users (authzid empty or the user).
- SCRAM-SHA-256/512: client-first then client-final (RFC 5802) against the credentials in the
  metadata image; the server-final message carries the server signature. With tokenauth=true the
  user is a delegation token id, the password its HMAC, and the principal the token's owner (KIP-48).
- OAUTHBEARER: Kafka's unsecured validator, or an MSK IAM token checked against the sandbox's IAM
  table (kcli.sandbox.emulator.bearer_checks); a refused token gets the RFC 7628 JSON error challenge, and
  the client's 0x01 answer then SASL_AUTHENTICATION_FAILED. AWS_MSK_IAM: the signed JSON message.
- Success sets the connection's principal to User:<name>; failure -> SASL_AUTHENTICATION_FAILED and
  the connection stays unauthenticated. Without a prior handshake -> ILLEGAL_SASL_STATE.

Version notes: v1 adds session lifetime (0: no re-authentication); v2 flexible.
"""

from __future__ import annotations

import datetime
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api
from kcli.sandbox.emulator.security import SCRAM_IDS, ScramExchange

NO_LIFETIME = datetime.timedelta(0)


def sasl_step(cluster: Any, session: Any, token: bytes) -> tuple[int, str | None, bytes]:
    """One SASL token of `session`'s mechanism: (error code, message, server token).

    Shared by SaslAuthenticate and the raw tokens that follow a SaslHandshake v0.
    """
    if session.mechanism is None or session.authenticated:
        return (
            ErrorCode.illegal_sasl_state,
            "Unexpected SASL request (no handshake or already authenticated)",
            b"",
        )
    if session.mechanism in ("OAUTHBEARER", "AWS_MSK_IAM"):
        return _bearer_step(cluster, session, token)
    if session.mechanism == "PLAIN":
        parts = token.split(b"\0")
        if len(parts) == 3:
            authzid, user, password = (p.decode("utf-8", "replace") for p in parts)
            if authzid in ("", user) and cluster.security.check_plain(user, password):
                session.authenticated = True
                session.principal = f"User:{user}"
                return 0, None, b""
        session.mechanism = None
        return (
            ErrorCode.sasl_authentication_failed,
            "Authentication failed: Invalid username or password",
            b"",
        )
    exchange = session.sasl_state
    try:
        if exchange is None:
            from kcli.sandbox.emulator.coordination import token_login

            exchange = session.sasl_state = ScramExchange(
                mechanism=SCRAM_IDS[session.mechanism], tokens=token_login(cluster)
            )
            return 0, None, exchange.first(cluster.image, token)
        reply = exchange.final(cluster.image, token)
    except (ValueError, UnicodeDecodeError, KeyError) as error:
        session.mechanism = None
        session.sasl_state = None
        return ErrorCode.sasl_authentication_failed, str(error) or "Authentication failed", b""
    session.authenticated = True
    session.principal = f"User:{exchange.user}"
    if exchange.token is not None:  # a delegation token: its owner, token-authenticated (KIP-48)
        session.principal = exchange.token[1]
        session.sasl_extensions = {**session.sasl_extensions, "tokenauth": "true"}
    return 0, None, reply


def _bearer_step(cluster: Any, session: Any, token: bytes) -> tuple[int, str | None, bytes]:
    import json
    import time

    from kcli.sandbox.emulator.bearer_checks import BearerRejected, check_bearer, check_iam_message

    iam_users = cluster.settings.iam_users
    if isinstance(session.sasl_state, BearerRejected):  # the client acknowledged our error challenge
        rejected, session.sasl_state, session.mechanism = session.sasl_state, None, None
        return ErrorCode.sasl_authentication_failed, f"Authentication failed: {rejected}", b""
    try:
        if session.mechanism == "AWS_MSK_IAM":
            principal, reply = check_iam_message(token, iam_users, time.time())
        else:
            login = check_bearer(token, iam_users, time.time())
            principal, reply = login.principal, b""
            session.sasl_extensions = dict(login.extensions)
    except BearerRejected as rejected:
        if session.mechanism == "AWS_MSK_IAM":
            session.mechanism = None
            return ErrorCode.sasl_authentication_failed, f"Authentication failed: {rejected}", b""
        session.sasl_state = rejected
        return 0, None, json.dumps({"status": rejected.status}).encode()
    session.authenticated = True
    session.principal = principal
    return 0, None, reply


@api(ApiKey.SASL_AUTHENTICATE, (0, 2), needs_auth=False)
async def handle_sasl_authenticate(ctx: RequestContext, request: Any) -> Any:
    """Authenticate."""
    code, message, data = sasl_step(ctx.cluster, ctx.extra["session"], bytes(request.auth_bytes))
    return ctx.r(
        "SaslAuthenticateResponse",
        error_code=code,
        error_message=message,
        auth_bytes=data,
        session_lifetime=NO_LIFETIME,
    )
