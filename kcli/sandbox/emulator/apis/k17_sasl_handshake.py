"""SaslHandshake (17), versions 0-1: pick the SASL mechanism of a connection.

Behavior:
- On SASL listeners PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, OAUTHBEARER (Kafka's unsecured validator,
  and MSK IAM tokens) and AWS_MSK_IAM are enabled; another mechanism (GSSAPI: the emulator has no
  KDC) -> UNSUPPORTED_SASL_MECHANISM with the enabled list. On other listeners -> ILLEGAL_SASL_STATE.
- A second handshake on an authenticated connection -> ILLEGAL_SASL_STATE.

Version notes: after a successful v0 handshake the client sends raw SASL tokens, each a
size-prefixed frame without a request header, and gets raw size-prefixed tokens back (an empty one
for PLAIN); a failed exchange closes the connection, as Kafka does (kcli.sandbox.emulator.server). v1 uses
SaslAuthenticate (36) instead (KIP-152).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ApiKey
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api

MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "OAUTHBEARER", "AWS_MSK_IAM")


@api(ApiKey.SASL_HANDSHAKE, (0, 1), needs_auth=False)
async def handle_sasl_handshake(ctx: RequestContext, request: Any) -> Any:
    """Choose a mechanism."""
    session = ctx.extra["session"]
    if not ctx.cluster.settings.security.sasl or session.authenticated:
        return ctx.r("SaslHandshakeResponse", error_code=ErrorCode.illegal_sasl_state, mechanisms=MECHANISMS)
    if request.mechanism not in MECHANISMS:
        return ctx.r(
            "SaslHandshakeResponse", error_code=ErrorCode.unsupported_sasl_mechanism, mechanisms=MECHANISMS
        )
    session.mechanism = request.mechanism
    session.sasl_state = None
    session.raw_tokens = ctx.version == 0
    return ctx.r("SaslHandshakeResponse", error_code=0, mechanisms=MECHANISMS)
