"""The SASL exchange of a connection: SaslHandshake, then the mechanism's SaslAuthenticate rounds
(PLAIN, SCRAM-SHA-256/512, GSSAPI, OAUTHBEARER, AWS_MSK_IAM). kcli.client.connection runs it when a
connection opens and again to re-authenticate (KIP-368); the connection is reached through
`SaslPeer`, so this module imports nothing of it.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from kcli.client import protocol
from kcli.client.config import ClientConfig
from kcli.client.endpoints import Endpoint
from kcli.client.errors import AuthenticationFailed, code_of
from kcli.kafka import ApiKey

ILLEGAL_SASL_STATE = code_of("ILLEGAL_SASL_STATE")


class Logins(Protocol):
    """The logins a connection keeps for the next ones to the same cluster (its PeerMemory)."""

    logins: dict[str, Any]


class SaslPeer(Protocol):
    """What the exchange needs of a connection (kcli.client.connection.Connection)."""

    endpoint: Endpoint
    config: ClientConfig
    supported: dict[int, tuple[int, int]]
    trace: Callable[[str], None] | None

    @property
    def where(self) -> str: ...

    @property
    def memory(self) -> Logins: ...

    def version_for(self, api_key: int, versions: tuple[int, int]) -> int: ...

    def request(self, request: Any, *, deadline: float, auth: bool = False) -> Awaitable[Any]: ...

    def sasl_round(self, version: int, token: bytes, deadline: float) -> Awaitable[bytes]: ...


async def authenticate(connection: SaslPeer, deadline: float) -> None:
    """SaslHandshake v1, then the mechanism's SaslAuthenticate exchange (also used to re-authenticate)."""
    settings = connection.config.sasl
    assert settings is not None
    if (
        ApiKey.SASL_HANDSHAKE not in connection.supported
        or ApiKey.SASL_AUTHENTICATE not in connection.supported
    ):
        raise AuthenticationFailed(
            f"{connection.where} does not offer SASL authentication",
            hint="the listener may not be a SASL listener; check security.protocol",
        )
    mechanism = settings.mechanism
    handshake_version = connection.version_for(ApiKey.SASL_HANDSHAKE, (1, 1))
    handshake = protocol.request_class("sasl_handshake", handshake_version)(mechanism=mechanism)
    response = await connection.request(handshake, deadline=deadline, auth=True)
    if int(response.error_code) == ILLEGAL_SASL_STATE:
        # What Kafka answers on a listener without SASL (KafkaApis.handleSaslHandshakeRequest).
        raise AuthenticationFailed(
            f"{connection.where} does not use SASL (SaslHandshake: ILLEGAL_SASL_STATE)",
            hint="for a listener without SASL set security.protocol=PLAINTEXT (or SSL)",
        )
    if int(response.error_code) != 0:
        offered = ", ".join(response.mechanisms) or "none"
        raise AuthenticationFailed(
            f"SASL mechanism {mechanism} is not enabled on {connection.where} (it offers: {offered})",
            hint="set sasl.mechanism to one it offers",
        )
    version = connection.version_for(ApiKey.SASL_AUTHENTICATE, (0, 2))
    if mechanism == "PLAIN":
        from kcli.client.sasl import plain_initial_response

        await connection.sasl_round(
            version, plain_initial_response(settings.username, settings.password), deadline
        )
    elif mechanism.startswith("SCRAM-"):
        from kcli.client.sasl import ScramClient

        scram = ScramClient(mechanism, settings.username, settings.password)
        server_first = await connection.sasl_round(version, scram.first_message(), deadline)
        server_final = await connection.sasl_round(version, scram.final_message(server_first), deadline)
        scram.verify_server_final(server_final)
    elif mechanism == "GSSAPI":
        await _gssapi(connection, version, deadline)
    elif mechanism == "OAUTHBEARER":
        await _oauthbearer(connection, version, deadline)
    else:
        await _msk_iam(connection, version, deadline)


async def _gssapi(connection: SaslPeer, version: int, deadline: float) -> None:
    from kcli.client.blocking import run_blocking
    from kcli.client.sasl_gssapi import GssapiExchange, acquire_credentials, service_host

    settings = connection.config.sasl
    assert settings is not None and settings.kerberos is not None
    login = settings.kerberos
    hint = "check the KDC in krb5.conf (KRB5_CONFIG) is up and reachable"

    def start() -> tuple[GssapiExchange, bytes]:
        credentials = connection.memory.logins.get("GSSAPI")
        if credentials is None:
            credentials = connection.memory.logins["GSSAPI"] = acquire_credentials(login)
        exchange = GssapiExchange(credentials, login.service_name, service_host(connection.endpoint.host))
        return exchange, exchange.step(None)

    exchange, token = await run_blocking(
        start, timeout=deadline - time.monotonic(), what=f"Kerberos login for {connection.where}", hint=hint
    )
    while True:
        challenge = await connection.sasl_round(version, token, deadline)
        if exchange.done:
            return
        token = await run_blocking(
            functools.partial(exchange.step, challenge),
            timeout=deadline - time.monotonic(),
            what=f"Kerberos exchange with {connection.where}",
            hint=hint,
        )


async def _oauthbearer(connection: SaslPeer, version: int, deadline: float) -> None:
    from kcli.client import sasl_oauthbearer
    from kcli.client.oauth_token import TokenSource

    settings = connection.config.sasl
    assert settings is not None and settings.oauth is not None
    source = connection.memory.logins.get("OAUTHBEARER")
    if source is None:
        source = connection.memory.logins["OAUTHBEARER"] = TokenSource(settings.oauth, trace=connection.trace)
    token = await source.token(deadline=deadline, host=connection.endpoint.host)
    message = sasl_oauthbearer.initial_response(token.value, settings.oauth.extensions)
    challenge = await connection.sasl_round(version, message, deadline)
    if challenge:
        status = sasl_oauthbearer.error_status(challenge)
        try:
            await connection.sasl_round(version, sasl_oauthbearer.ERROR_ACK, deadline)
        except AuthenticationFailed as error:
            raise AuthenticationFailed(f"{error.message} (token status: {status})", hint=error.hint) from None
        raise AuthenticationFailed(f"SASL OAUTHBEARER authentication to {connection.where} failed: {status}")


async def _msk_iam(connection: SaslPeer, version: int, deadline: float) -> None:
    from kcli.client.blocking import run_blocking
    from kcli.client.msk_iam import check_iam_response, iam_payload

    settings = connection.config.sasl
    assert settings is not None and settings.oauth is not None
    options = settings.oauth.aws_options
    payload = await run_blocking(
        lambda: iam_payload(options, connection.endpoint.host),
        timeout=deadline - time.monotonic(),
        what="signing the AWS_MSK_IAM request",
        hint="check the AWS credentials (environment, profile or role) can be loaded",
    )
    check_iam_response(await connection.sasl_round(version, payload, deadline), connection.where)
