"""A small OIDC issuer on loopback for the tests: a JWKS endpoint and a client-credentials token endpoint.

Tokens are RS256 JWTs signed with joserfc (iss, aud, sub = the client id, scope, iat, exp), for the
clients it knows by id and secret. A client may be given a token lifetime of its own; a negative one
issues tokens that have already expired. Every token request is counted.
"""

from __future__ import annotations

import base64
import json
import threading
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Client:
    secret: str
    lifetime: int = 300


@dataclass
class Issuer:
    audience: str = "kafka"
    clients: dict[str, Client] = field(default_factory=dict)
    token_requests: list[str] = field(default_factory=list)  # the client id of each accepted request
    url: str = ""
    _key: Any = None

    @property
    def token_url(self) -> str:
        return f"{self.url}/token"

    @property
    def jwks_url(self) -> str:
        return f"{self.url}/jwks"

    def jwks(self) -> dict[str, Any]:
        return {"keys": [self._key.as_dict(private=False, alg="RS256", use="sig")]}

    def token(self, client_id: str, scope: str | None) -> tuple[str, int]:
        from joserfc import jwt

        lifetime = self.clients[client_id].lifetime
        now = int(time.time())
        claims = {"iss": self.url, "aud": self.audience, "sub": client_id, "iat": now, "exp": now + lifetime}
        if scope:
            claims["scope"] = scope
        header = {"alg": "RS256", "kid": self._key.kid, "typ": "JWT"}
        return jwt.encode(header, claims, self._key), lifetime


def _handler(issuer: Issuer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, document: dict[str, Any]) -> None:
            body = json.dumps(document).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path == "/jwks":
                self._send(200, issuer.jwks())
            else:
                self._send(404, {"error": "not_found"})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            form = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode()))
            if self.path != "/token" or form.get("grant_type") != "client_credentials":
                self._send(400, {"error": "unsupported_grant_type", "error_description": "client_credentials only"})
                return
            auth = self.headers.get("Authorization", "")
            try:
                client_id, _, secret = base64.b64decode(auth.removeprefix("Basic ")).decode().partition(":")
            except ValueError:
                client_id, secret = "", ""
            client = issuer.clients.get(client_id)
            if client is None or client.secret != secret:
                self._send(401, {"error": "invalid_client", "error_description": "client authentication failed"})
                return
            issuer.token_requests.append(client_id)
            token, lifetime = issuer.token(client_id, form.get("scope"))
            self._send(200, {"access_token": token, "token_type": "Bearer", "expires_in": lifetime})

    return Handler


@contextmanager
def running_issuer(clients: dict[str, Client]) -> Iterator[Issuer]:
    from joserfc.jwk import RSAKey

    issuer = Issuer(clients=dict(clients))
    issuer._key = RSAKey.generate_key(2048, parameters={"kid": "kcli-test-key"})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(issuer))
    issuer.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield issuer
    finally:
        server.shutdown()
        server.server_close()
