"""OAUTHBEARER tokens: fetched (KIP-768 client credentials), read from a file, made unsecured, or from AWS IAM.

Behavior:
- Client credentials: POST grant_type=client_credentials (and scope) to
  sasl.oauthbearer.token.endpoint.url with HTTP Basic client id and secret (URL-encoded first with
  sasl.oauthbearer.header.urlencode=true), as Kafka's ClientSecretRequestFormatter does; the token is
  the response's access_token, else its id_token. 4xx answers are final; other failures are retried
  with backoff (sasl.login.retry.backoff.ms doubling) until sasl.login.retry.backoff.max.ms after the
  first attempt, the last wait cut to what is left of it, as Kafka's Retry does. Every
  attempt has a connect and a read timeout (sasl.login.connect/read.timeout.ms) and the command's
  deadline. An https endpoint is verified with the system's CAs, or with ssl.* options given in the
  JAAS options (Kafka's JaasOptionsUtils).
- The token's claims are read as Kafka's ClientJwtValidator reads them (without verifying the
  signature: the broker does that): exp and the subject claim (sasl.oauthbearer.sub.claim.name) are
  required, scope (sasl.oauthbearer.scope.claim.name) and iat optional.
- A token is reused until its refresh time (sasl.login.refresh.*: window factor plus jitter of its
  lifetime, keeping the buffer before expiry when the lifetime allows), then fetched again; a long
  command thus gets a fresh token for each new connection and for re-authentication (KIP-368).
- Errors are one line naming the endpoint and the HTTP status; no secret, no token is ever shown.
"""

from __future__ import annotations

import base64
import json
import random
import time
import urllib.parse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kcli.client.errors import AuthenticationFailed
from kcli.client.sasl_settings import OAuthLogin
from kcli.errors import UsageError

_FINAL_HTTP = frozenset({400, 401, 402, 403, 404, 405, 406, 407, 409, 410, 411, 412, 413, 414, 415, 501, 505})


@dataclass(frozen=True, slots=True)
class BearerToken:
    """A token and what kcli needs to know of it (the value never appears in repr)."""

    value: str = field(repr=False)
    principal: str
    expires_at: float  # seconds since the epoch
    issued_at: float


class _Retryable(Exception):
    pass


class TokenSource:
    """Gives the current token of one OAuth login, fetching a new one when the old one is due for refresh."""

    def __init__(self, login: OAuthLogin, *, trace: Callable[[str], None] | None = None) -> None:
        self.login = login
        self._trace = trace
        self._token: BearerToken | None = None
        self._refresh_at = 0.0
        self.fetched = 0  # how many tokens were had (tests and --debug)

    async def token(self, *, deadline: float, host: str) -> BearerToken:
        now = time.time()
        if self._token is not None and now < self._refresh_at and now < self._token.expires_at:
            return self._token
        from kcli.client.blocking import run_blocking

        remaining = deadline - time.monotonic()
        token = await run_blocking(
            lambda: self._fetch(host, time.monotonic() + remaining),
            timeout=remaining,
            what=f"getting an OAuth token ({self._where})",
            hint="check sasl.oauthbearer.token.endpoint.url and sasl.login.read.timeout.ms",
        )
        self._token, self._refresh_at = token, self._refresh_time(token)
        self.fetched += 1
        if self._trace is not None:
            self._trace(
                f"OAuth token for {token.principal} from {self._where}, "
                f"valid for {max(0, round(token.expires_at - time.time()))} s"
            )
        return token

    @property
    def _where(self) -> str:
        if self.login.kind == "unsecured":
            return "the unsecured login"
        if self.login.kind == "aws_iam":
            return "AWS IAM"
        return f"sasl.oauthbearer.token.endpoint.url {self.login.token_endpoint_url}"

    def _refresh_time(self, token: BearerToken) -> float:
        timing = self.login.timing
        start = min(token.issued_at, time.time())
        lifetime = max(0.0, token.expires_at - start)
        refresh = start + lifetime * (timing.refresh_window_factor + random.random() * timing.refresh_window_jitter)
        if token.expires_at - refresh < timing.refresh_buffer_seconds:
            kept_buffer = token.expires_at - timing.refresh_buffer_seconds
            if kept_buffer >= start + timing.refresh_min_period_seconds:
                refresh = kept_buffer
        return refresh

    # ---- getting a token (in a worker thread) ------------------------------------------------------

    def _fetch(self, host: str, deadline: float) -> BearerToken:
        kind = self.login.kind
        if kind == "unsecured":
            return unsecured_token(self.login.unsecured_options)
        if kind == "aws_iam":
            from kcli.client.msk_iam import iam_oauth_token

            value, expires_at = iam_oauth_token(self.login.aws_options, host)
            return BearerToken(value=value, principal="aws-iam", expires_at=expires_at, issued_at=time.time())
        if kind == "file":
            return self._claims(self._read_file())
        return self._claims(self._client_credentials(deadline))

    def _read_file(self) -> str:
        from kcli.files import read_text

        url = urllib.parse.urlparse(self.login.token_endpoint_url or "")
        path = urllib.parse.unquote(url.path)
        try:
            return read_text(Path(path), what="sasl.oauthbearer.token.endpoint.url").strip()
        except OSError as error:
            raise UsageError(
                f"sasl.oauthbearer.token.endpoint.url {self.login.token_endpoint_url}: cannot read {path} "
                f"({error.strerror})"
            ) from None

    def _client_credentials(self, deadline: float) -> str:
        login = self.login
        client_id, secret, scope = login.client_id or "", login.client_secret or "", login.scope
        if login.header_urlencode:
            client_id, secret = urllib.parse.quote_plus(client_id), urllib.parse.quote_plus(secret)
            scope = urllib.parse.quote_plus(scope) if scope else None
        # RFC 7617: the standard base64 alphabet, not the URL-safe one (KAFKA-14496)
        basic = base64.b64encode(f"{client_id}:{secret}".encode()).decode("ascii")
        body = "grant_type=client_credentials" + (f"&scope={scope}" if scope else "")
        headers = {
            "Accept": "application/json",
            "Authorization": f"Basic {basic}",
            "Cache-Control": "no-cache",
            "Content-Type": "application/x-www-form-urlencoded",
        }
        backoff = login.timing.retry_backoff_ms / 1000
        # As Kafka's Retry: attempts until retry.backoff.max.ms after the first, the last wait cut to fit
        ends = min(time.monotonic() + login.timing.retry_backoff_max_ms / 1000, deadline)
        while True:
            try:
                return _access_token(self._post(body, headers, deadline), self._where)
            except _Retryable as error:
                wait = min(backoff, ends - time.monotonic())
                if wait <= 0:
                    raise AuthenticationFailed(
                        str(error), hint="check that the token endpoint is up and the URL is right"
                    ) from None
                time.sleep(wait)
                backoff *= 2

    def _post(self, body: str, headers: Mapping[str, str], deadline: float) -> str:
        import http.client

        url = urllib.parse.urlsplit(self.login.token_endpoint_url or "")
        timing = self.login.timing
        connect = max(0.001, min(timing.connect_timeout_ms / 1000, deadline - time.monotonic()))
        connection: http.client.HTTPConnection
        if url.scheme == "https":
            connection = http.client.HTTPSConnection(
                url.hostname or "", url.port, timeout=connect, context=self._tls_context()
            )
        else:
            connection = http.client.HTTPConnection(url.hostname or "", url.port, timeout=connect)
        path = url.path or "/"
        if url.query:
            path += "?" + url.query
        try:
            connection.connect()
            assert connection.sock is not None
            connection.sock.settimeout(max(0.001, min(timing.read_timeout_ms / 1000, deadline - time.monotonic())))
            connection.request("POST", path, body=body.encode("utf-8"), headers=dict(headers))
            response = connection.getresponse()
            text = response.read(1024 * 1024).decode("utf-8", errors="replace")
            status = response.status
        except TimeoutError:
            raise _Retryable(f"the token endpoint ({self._where}) did not answer in time") from None
        except OSError as error:
            reason = getattr(error, "reason", None) or error.strerror or str(error) or type(error).__name__
            raise _Retryable(f"cannot reach the token endpoint ({self._where}): {reason}") from None
        finally:
            connection.close()
        if status in (200, 201):
            return text
        message = f"the token endpoint ({self._where}) answered HTTP {status} {_error_summary(text)}"
        if status in _FINAL_HTTP:
            hint = (
                "check the client id and secret (sasl.oauthbearer.client.credentials.*, or clientId/clientSecret)"
                if status in (400, 401, 403)
                else "check sasl.oauthbearer.token.endpoint.url"
            )
            raise AuthenticationFailed(message, hint=hint)
        raise _Retryable(message)

    def _tls_context(self) -> Any:
        import ssl

        options = self.login.endpoint_tls
        if not options:
            return ssl.create_default_context()
        from kcli.client.tls import build_ssl_context
        from kcli.client.tls_settings import ssl_settings

        return build_ssl_context(ssl_settings(options))

    def _claims(self, value: str) -> BearerToken:
        return token_from_jwt(value, scope_claim=self.login.scope_claim, sub_claim=self.login.sub_claim, where=self._where)


def token_from_jwt(value: str, *, scope_claim: str, sub_claim: str, where: str) -> BearerToken:
    """A token's claims read as Kafka's ClientJwtValidator reads them (the broker checks the signature)."""
    import jwt

    try:
        payload = jwt.decode(value, options={"verify_signature": False, "verify_exp": False, "verify_iat": False,
                                             "verify_nbf": False, "verify_aud": False, "verify_iss": False})  # fmt: skip
    except jwt.PyJWTError as error:
        raise AuthenticationFailed(f"the token from {where} is not a JWT: {error}") from None
    expires = payload.get("exp")
    subject = payload.get(sub_claim)
    issued = payload.get("iat")
    scope = payload.get(scope_claim)
    if not isinstance(expires, int | float) or isinstance(expires, bool) or expires < 0:
        raise AuthenticationFailed(f"the token from {where} has no valid exp claim")
    if not isinstance(subject, str) or not subject.strip():
        raise AuthenticationFailed(
            f"the token from {where} has no {sub_claim} claim", hint="see sasl.oauthbearer.sub.claim.name"
        )
    if scope is not None and not isinstance(scope, str | list):
        raise AuthenticationFailed(f"the token from {where} has a {scope_claim} claim that is not text or a list")
    if issued is not None and (not isinstance(issued, int | float) or issued < 0):
        raise AuthenticationFailed(f"the token from {where} has an iat claim that is not a time")
    return BearerToken(
        value=value,
        principal=subject.strip(),
        expires_at=float(expires),
        issued_at=float(issued) if issued is not None else time.time(),
    )


def unsecured_token(options: Mapping[str, str]) -> BearerToken:
    """Kafka's unsecured JWS (OAuthBearerUnsecuredLoginCallbackHandler): alg none, claims from the JAAS options."""
    import jwt

    prefix = "unsecuredLogin"
    if not options or all(key.startswith(prefix + "Extension_") for key in options):
        raise UsageError(
            "sasl.jaas.config: the unsecured OAUTHBEARER login needs claims, e.g. unsecuredLoginStringClaim_sub=\"alice\""
        )
    principal_claim = (options.get(prefix + "PrincipalClaimName") or "sub").strip()
    try:
        lifetime = int(options.get(prefix + "LifetimeSeconds", "3600"))
    except ValueError:
        raise UsageError("sasl.jaas.config: unsecuredLoginLifetimeSeconds must be a number of seconds") from None
    now = time.time()
    claims: dict[str, Any] = {"exp": now + lifetime, "iat": now}
    for key, value in options.items():
        for kind in ("StringClaim_", "NumberClaim_", "ListClaim_"):
            name = key[len(prefix + kind) :] if key.startswith(prefix + kind) else ""
            if not name:
                continue
            if name in ("iat", "exp"):
                raise UsageError(f"sasl.jaas.config: {key}: the {name} claim cannot be set explicitly")
            if kind == "StringClaim_":
                claims[name] = value
            elif kind == "NumberClaim_":
                try:
                    claims[name] = float(value)
                except ValueError:
                    raise UsageError(f"sasl.jaas.config: {key} must be a number") from None
            else:
                # Kafka's list form: the first character is the delimiter ("|a|b" -> ["a", "b"])
                claims[name] = value[1:].split(value[0]) if len(value) > 1 else []
    subject = claims.get(principal_claim)
    if not isinstance(subject, str) or not subject.strip():
        raise UsageError(
            f"sasl.jaas.config: the unsecured login has no {principal_claim} claim "
            f"(set unsecuredLoginStringClaim_{principal_claim})"
        )
    value = jwt.encode(claims, key="", algorithm="none")  # header {"alg": "none", "typ": "JWT"}
    return BearerToken(value=value, principal=subject, expires_at=now + lifetime, issued_at=now)


def _access_token(text: str, where: str) -> str:
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if isinstance(document, dict):
        for key in ("access_token", "id_token"):
            value = document.get(key)
            if isinstance(value, str) and value.strip():
                return value.strip()
    raise AuthenticationFailed(f"the answer of the token endpoint ({where}) holds no access_token")


def _error_summary(text: str) -> str:
    """Kafka's formatErrorMessage: {error - error_description}, never the whole body."""
    try:
        document = json.loads(text)
    except ValueError:
        document = None
    if isinstance(document, dict) and "error" in document:
        return f"{{{document.get('error')} - {document.get('error_description', '')}}}"[:300]
    return "{}" if not text.strip() else "{" + text.strip()[:200] + "}"
