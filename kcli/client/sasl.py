"""SASL client mechanisms: PLAIN (RFC 4616) and SCRAM-SHA-256/512 (RFC 5802, RFC 7677).

Pure message logic, no I/O: the connection sends what these produce inside SaslAuthenticate
requests. Passwords stay inside these objects; nothing here formats them into text.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from kcli.client.errors import AuthenticationFailed
from kcli.integers import clipped, java_long
from kcli.kafka import SCRAM_MAX_ITERATIONS, SCRAM_MIN_ITERATIONS, ScramMechanism

_HASHES = {m.mechanism_name: m.hash_name for m in ScramMechanism}


def plain_initial_response(username: str, password: str) -> bytes:
    """The single PLAIN message: authzid (empty), NUL, authcid, NUL, password."""
    return b"\0" + username.encode("utf-8") + b"\0" + password.encode("utf-8")


def _saslname(username: str) -> str:
    """RFC 5802 section 5.1: `=` and `,` in a user name are escaped as =3D and =2C."""
    return username.replace("=", "=3D").replace(",", "=2C")


def _attributes(message: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for part in message.split(","):
        if len(part) >= 2 and part[1] == "=":
            out.setdefault(part[0], part[2:])
    return out


@dataclass(slots=True)
class ScramClient:
    """One SCRAM exchange (client side): first -> server-first -> final -> verify server-final.

    Behavior:
    - No channel binding (gs2 header `n,,`), as Kafka's SCRAM has none.
    - The server nonce must extend the client nonce and the iteration count must be 4096..16384:
      4096 is RFC 7677's minimum and Kafka's; 16384 is the most Kafka's controllers store
      (ScramControlManager.MAX_ITERATIONS), so a server asking more is refused before PBKDF2
      runs, which would otherwise hash for minutes past every deadline.
    - The server signature in server-final is checked; `e=...` errors and a bad signature raise
      AuthenticationFailed.
    """

    mechanism: str
    username: str
    password: str = field(repr=False)
    client_nonce: str = field(default_factory=lambda: secrets.token_urlsafe(24))
    _client_first_bare: str = field(default="", repr=False)
    _auth_message: str = field(default="", repr=False)
    _salted: bytes = field(default=b"", repr=False)

    @property
    def _hash(self) -> str:
        return _HASHES[self.mechanism]

    def first_message(self) -> bytes:
        self._client_first_bare = f"n={_saslname(self.username)},r={self.client_nonce}"
        return ("n,," + self._client_first_bare).encode("utf-8")

    def final_message(self, server_first: bytes) -> bytes:
        text = server_first.decode("utf-8", errors="replace")
        attrs = _attributes(text)
        if "e" in attrs:
            raise AuthenticationFailed(f"SCRAM authentication failed: the server said {attrs['e']}")
        nonce, salt, iterations = attrs.get("r"), attrs.get("s"), attrs.get("i")
        if not nonce or salt is None or not iterations:
            raise AuthenticationFailed("SCRAM authentication failed: malformed server-first message")
        if not nonce.startswith(self.client_nonce) or nonce == self.client_nonce:
            raise AuthenticationFailed("SCRAM authentication failed: the server nonce does not extend ours")
        count = java_long(iterations)
        try:
            salt_bytes = base64.b64decode(salt, validate=True)
        except ValueError:
            count = None
        if count is None:
            raise AuthenticationFailed(
                f"SCRAM authentication failed: malformed salt or iteration count ({clipped(iterations)})"
            )
        if count < SCRAM_MIN_ITERATIONS:
            raise AuthenticationFailed(
                f"SCRAM authentication failed: iteration count {count} is below {SCRAM_MIN_ITERATIONS}"
            )
        if count > SCRAM_MAX_ITERATIONS:
            raise AuthenticationFailed(
                f"SCRAM authentication failed: the server asks {count} iterations, more than the "
                f"{SCRAM_MAX_ITERATIONS} any Kafka broker stores"
            )
        self._salted = hashlib.pbkdf2_hmac(self._hash, self.password.encode("utf-8"), salt_bytes, count)
        client_key = hmac.new(self._salted, b"Client Key", self._hash).digest()
        stored_key = hashlib.new(self._hash, client_key).digest()
        without_proof = f"c=biws,r={nonce}"
        self._auth_message = f"{self._client_first_bare},{text},{without_proof}"
        signature = hmac.new(stored_key, self._auth_message.encode("utf-8"), self._hash).digest()
        proof = bytes(a ^ b for a, b in zip(client_key, signature, strict=True))
        return f"{without_proof},p={base64.b64encode(proof).decode('ascii')}".encode()

    def verify_server_final(self, server_final: bytes) -> None:
        attrs = _attributes(server_final.decode("utf-8", errors="replace"))
        if "e" in attrs:
            raise AuthenticationFailed(f"SCRAM authentication failed: the server said {attrs['e']}")
        if "v" not in attrs:
            raise AuthenticationFailed("SCRAM authentication failed: the server sent no signature")
        server_key = hmac.new(self._salted, b"Server Key", self._hash).digest()
        expected = hmac.new(server_key, self._auth_message.encode("utf-8"), self._hash).digest()
        try:
            received = base64.b64decode(attrs["v"], validate=True)
        except ValueError:
            received = b""
        if not hmac.compare_digest(expected, received):
            raise AuthenticationFailed(
                "SCRAM authentication failed: the server's signature is wrong (it does not know the password)"
            )
