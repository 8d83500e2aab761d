"""SASL OAUTHBEARER (RFC 7628) as Kafka's OAuthBearerSaslClient speaks it.

Behavior:
- The client's one message: `n,,` GS2 header (no authzid), then kvpairs separated by 0x01:
  `auth=Bearer <token>`, each SASL extension `name=value`, and a closing 0x01 0x01
  (OAuthBearerClientInitialResponse.toBytes).
- An empty server answer is success. A non-empty one is the server's JSON error; the client then
  sends a single 0x01 and the server ends the exchange with SASL_AUTHENTICATION_FAILED.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

SEPARATOR = "\x01"


def initial_response(token: str, extensions: Mapping[str, str]) -> bytes:
    """The client's first (and only) message."""
    kvpairs = "".join(f"{SEPARATOR}{key}={value}" for key, value in extensions.items())
    return f"n,,{SEPARATOR}auth=Bearer {token}{kvpairs}{SEPARATOR}{SEPARATOR}".encode()


def error_status(challenge: bytes) -> str:
    """The `status` of the server's JSON error challenge (RFC 7628 section 3.2.2), for the error line."""
    try:
        document = json.loads(challenge.decode("utf-8", errors="replace"))
    except ValueError:
        return "unknown"
    if isinstance(document, dict):
        return str(document.get("status") or "unknown")
    return "unknown"


ERROR_ACK = SEPARATOR.encode()  # what the client answers to an error challenge
