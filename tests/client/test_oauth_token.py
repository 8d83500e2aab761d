"""The OAuth token source against the tests' OIDC issuer on loopback: the client-credentials request as
Kafka sends it, claims read as Kafka's ClientJwtValidator reads them, refresh before expiry, and
deadlines on endpoints that refuse or never answer."""

from __future__ import annotations

import asyncio
import re
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from kcli.client.errors import AuthenticationFailed, RequestTimedOut
from kcli.client.oauth_token import TokenSource, token_from_jwt
from kcli.client.sasl_settings import OAuthLogin, sasl_settings
from kcli.errors import UsageError

pytest.importorskip("joserfc", reason="the test issuer needs joserfc")
from tests.security.oidc_issuer import Client, Issuer, running_issuer

HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"


@pytest.fixture(scope="module")
def issuer() -> Iterator[Issuer]:
    clients = {"svc": Client("s3cr+t/=?", lifetime=300), "short": Client("pw", lifetime=2)}
    with running_issuer(clients) as server:
        yield server


def login(url: str, jaas_options: str, **extra: str) -> OAuthLogin:
    props = {
        "sasl.mechanism": "OAUTHBEARER",
        "sasl.login.callback.handler.class": HANDLER,
        "sasl.oauthbearer.token.endpoint.url": url,
        "sasl.jaas.config": f"{MODULE} required {jaas_options};",
        **extra,
    }
    settings = sasl_settings(props, "SASL_SSL", warn=lambda _: None)
    assert settings.oauth is not None
    return settings.oauth


def fetch(source: TokenSource, seconds: float = 20) -> Any:
    return asyncio.run(source.token(deadline=time.monotonic() + seconds, host="localhost"))


def test_client_credentials_token_and_its_claims(issuer: Issuer) -> None:
    source = TokenSource(login(issuer.token_url, 'clientId="svc" clientSecret="s3cr+t/=?" scope="kafka"'))
    token = fetch(source)
    assert token.principal == "svc" and token.expires_at - time.time() > 250
    assert "s3cr+t" not in repr(token) and "s3cr+t" not in repr(source.login)
    assert fetch(source) is token and source.fetched == 1  # reused until its refresh time


def test_settings_win_over_the_jaas_options(issuer: Issuer) -> None:
    oauth = login(
        issuer.token_url,
        'clientId="other" clientSecret="nope"',
        **{"sasl.oauthbearer.client.credentials.client.id": "svc",
           "sasl.oauthbearer.client.credentials.client.secret": "s3cr+t/=?"},
    )  # fmt: skip
    assert fetch(TokenSource(oauth)).principal == "svc"


def test_header_urlencode_encodes_id_and_secret_first(issuer: Issuer) -> None:
    # the issuer compares the raw secret: an encoded one does not match, as with a real provider
    oauth = login(issuer.token_url, 'clientId="svc" clientSecret="s3cr+t/=?"', **{"sasl.oauthbearer.header.urlencode": "true"})
    with pytest.raises(AuthenticationFailed, match="HTTP 401"):
        fetch(TokenSource(oauth))


def test_a_short_lived_token_is_fetched_again_before_it_expires(issuer: Issuer) -> None:
    source = TokenSource(login(issuer.token_url, 'clientId="short" clientSecret="pw"'))
    first = fetch(source)
    time.sleep(2.1)
    second = fetch(source)
    assert second is not first and source.fetched == 2


def test_wrong_secret_is_final_and_never_shown(issuer: Issuer) -> None:
    source = TokenSource(login(issuer.token_url, 'clientId="svc" clientSecret="wrong-secret-1"'))
    started = time.monotonic()
    with pytest.raises(AuthenticationFailed) as raised:
        fetch(source)
    assert time.monotonic() - started < 2  # 401 is not retried
    line = raised.value.line()
    assert "HTTP 401 {invalid_client - client authentication failed}" in line
    assert "wrong-secret-1" not in line


def test_unreachable_endpoint_is_retried_then_one_line() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again: connections are refused
    oauth = login(f"http://127.0.0.1:{port}/token", 'clientId="a" clientSecret="b"',
                  **{"sasl.login.retry.backoff.ms": "50", "sasl.login.retry.backoff.max.ms": "400"})  # fmt: skip
    started = time.monotonic()
    with pytest.raises(AuthenticationFailed, match="cannot reach the token endpoint"):
        fetch(TokenSource(oauth))
    assert 0.3 < time.monotonic() - started < 3


def test_an_endpoint_that_never_answers_meets_the_read_timeout() -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(server.accept()[0]), daemon=True).start()
    oauth = login(f"http://127.0.0.1:{server.getsockname()[1]}/token", 'clientId="a" clientSecret="b"',
                  **{"sasl.login.read.timeout.ms": "300", "sasl.login.retry.backoff.max.ms": "0"})  # fmt: skip
    started = time.monotonic()
    with pytest.raises(AuthenticationFailed, match="did not answer in time"):
        fetch(TokenSource(oauth))
    assert time.monotonic() - started < 3
    # and the command's own deadline bounds everything, whatever the settings say
    slow = login(f"http://127.0.0.1:{server.getsockname()[1]}/token", 'clientId="a" clientSecret="b"',
                 **{"sasl.login.read.timeout.ms": "60000"})  # fmt: skip
    started = time.monotonic()
    # the socket's timeout and the deadline end together: either one-line failure may win the race
    with pytest.raises((RequestTimedOut, AuthenticationFailed), match=r"OAuth token|did not answer in time"):
        fetch(TokenSource(slow), seconds=0.5)
    assert time.monotonic() - started < 2
    server.close()


def test_claims_read_as_kafkas_client_validator() -> None:
    import jwt

    def make(claims: dict[str, Any]) -> str:
        return jwt.encode(claims, key="", algorithm="none")

    now = int(time.time())
    assert token_from_jwt(make({"sub": "a", "exp": now + 9}), scope_claim="scope", sub_claim="sub", where="x").principal == "a"
    assert token_from_jwt(make({"client": "b", "exp": now}), scope_claim="scope", sub_claim="client", where="x").principal == "b"
    for claims, expected in (({"exp": now}, "no sub claim"), ({"sub": "a"}, "no valid exp"),
                             ({"sub": "a", "exp": now, "scope": 5}, "scope claim")):  # fmt: skip
        with pytest.raises(AuthenticationFailed, match=expected):
            token_from_jwt(make(claims), scope_claim="scope", sub_claim="sub", where="x")
    with pytest.raises(AuthenticationFailed, match="not a JWT"):
        token_from_jwt("not-a-jwt", scope_claim="scope", sub_claim="sub", where="x")


def test_oauth_settings_kafka_would_refuse_or_kcli_cannot_run() -> None:
    cases = [
        ({}, "sasl.oauthbearer.token.endpoint.url is not set"),
        ({"sasl.oauthbearer.token.endpoint.url": "ftp://x/token"}, "must be an http, https or file URL"),
        ({"sasl.oauthbearer.token.endpoint.url": "http://x/t", "sasl.oauthbearer.assertion.claim.iss": "me"},
         "client-assertion grant (KIP-1139) is not supported"),
        ({"sasl.oauthbearer.token.endpoint.url": "http://x/t", "sasl.oauthbearer.jwt.retriever.class": "com.acme.R"},
         "is a Java class kcli cannot run"),
        ({"sasl.oauthbearer.token.endpoint.url": "http://x/t", "sasl.login.class": "com.acme.Login"},
         "sasl.login.class com.acme.Login is a Java class"),
    ]  # fmt: skip
    for extra, expected in cases:
        props = {"sasl.mechanism": "OAUTHBEARER", "sasl.login.callback.handler.class": HANDLER,
                 "sasl.jaas.config": f'{MODULE} required clientId="a" clientSecret="b";', **extra}  # fmt: skip
        with pytest.raises(UsageError, match=re.escape(expected)):
            sasl_settings(props, "SASL_SSL", warn=lambda _: None)
    with pytest.raises(UsageError, match="clientSecret"):
        sasl_settings({"sasl.mechanism": "OAUTHBEARER", "sasl.login.callback.handler.class": HANDLER,
                       "sasl.oauthbearer.token.endpoint.url": "http://x/t",
                       "sasl.jaas.config": f'{MODULE} required clientId="a";'}, "SASL_SSL", warn=lambda _: None)  # fmt: skip


def test_kerberos_settings_follow_kafkas_rules() -> None:
    base = {"sasl.mechanism": "GSSAPI"}
    krb = "com.sun.security.auth.module.Krb5LoginModule required"
    cases = [
        ({"sasl.jaas.config": f'{krb} useKeyTab=true keyTab="/k" principal="p@R";'}, "sasl.kerberos.service.name is not set"),
        ({"sasl.kerberos.service.name": "kafka", "sasl.jaas.config": f'{krb} useKeyTab=true keyTab="/k" principal="p@R" serviceName="other";'},
         "conflicts with serviceName"),
        ({"sasl.kerberos.service.name": "kafka", "sasl.jaas.config": f'{krb} useKeyTab=true principal="p@R";'}, "needs keyTab"),
        ({"sasl.kerberos.service.name": "kafka", "sasl.jaas.config": f"{krb} doNotPrompt=true;"}, "needs useKeyTab=true"),
        ({"sasl.kerberos.service.name": "kafka", "sasl.jaas.config": f"{MODULE} required;"}, "needs com.sun.security.auth.module.Krb5LoginModule"),
    ]  # fmt: skip
    for extra, expected in cases:
        with pytest.raises(UsageError, match=re.escape(expected)):
            sasl_settings({**base, **extra}, "SASL_PLAINTEXT", warn=lambda _: None)
    settings = sasl_settings({**base, "sasl.jaas.config": f'{krb} useTicketCache=true serviceName="kafka";'},
                             "SASL_PLAINTEXT", warn=lambda _: None)  # fmt: skip
    assert settings.kerberos is not None and settings.kerberos.service_name == "kafka"


def test_a_failing_endpoint_is_tried_until_the_max_backoff_after_the_first_attempt() -> None:
    """As Kafka's Retry: waits of 50, 100, 200 ms, then the 50 ms left of the 400 (the wait cut to fit,
    not skipped), so five attempts; before, the last wait was skipped and a slow attempt cut the tries."""
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    attempts: list[float] = []

    class Unavailable(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            attempts.append(time.monotonic())
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *_args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Unavailable)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/token"
        oauth = login(url, 'clientId="a" clientSecret="b"',
                      **{"sasl.login.retry.backoff.ms": "50", "sasl.login.retry.backoff.max.ms": "400"})  # fmt: skip
        with pytest.raises(AuthenticationFailed, match="503"):
            fetch(TokenSource(oauth))
    finally:
        server.shutdown()
        server.server_close()
    assert len(attempts) == 5
    assert 0.39 < attempts[-1] - attempts[0] < 1.5
