"""How a connection that failed before Kafka answered is worded: refused, TLS, not a Kafka listener.

Each is one line naming the node and a hint at the likely setting: a TLS listener reached in
plaintext and the other way round, a certificate the client does not trust or the server does not
accept, an HTTP server or a TLS alert where a Kafka frame was expected.
"""

from __future__ import annotations

import struct

from kcli.client.config import ClientConfig
from kcli.client.errors import AuthenticationFailed, ConnectionFailed, ConnectionRefused, ProtocolError


def plaintext_hint(config: ClientConfig) -> str | None:
    if not config.uses_tls:
        return "if this listener uses TLS, set security.protocol=SSL (or SASL_SSL)"
    return None


def client_certificate_hint(config: ClientConfig) -> str | None:
    # With TLS 1.3 a server refuses a missing or untrusted client certificate after the handshake.
    if config.ssl is None:
        return None
    if config.ssl.keystore is None and config.ssl.key_pem is None:
        return "the listener may require a client certificate (ssl.client.auth=required): set ssl.keystore.location"
    return "the listener may not trust the client certificate: check the keystore's certificate and its CA"


def connect_error(error: OSError, where: str, config: ClientConfig) -> ConnectionFailed:
    import ssl

    if isinstance(error, ssl.SSLCertVerificationError):
        return AuthenticationFailed(
            f"TLS: the certificate of {where} is not trusted: {error.verify_message}",
            hint="set ssl.truststore.location to a store holding the CA that signed it; "
            "a host name mismatch can be allowed with ssl.endpoint.identification.algorithm=",
        )
    if isinstance(error, ssl.SSLError):
        return ConnectionFailed(
            f"TLS handshake with {where} failed: {error.reason or error}",
            hint="check that the listener uses TLS (security.protocol) and the client certificate settings",
        )
    if isinstance(error, ConnectionRefusedError):
        return ConnectionRefused(
            f"cannot connect to {where}: connection refused", hint="is the node running on that port?"
        )
    if config.uses_tls and isinstance(error, ConnectionError):
        # A plaintext Kafka listener reads the ClientHello as an absurd frame size and drops the connection.
        return ConnectionFailed(
            f"TLS handshake with {where} failed: the listener closed the connection",
            hint="if this listener does not use TLS, set security.protocol=PLAINTEXT (or SASL_PLAINTEXT)",
        )
    reason = error.strerror or str(error) or type(error).__name__
    return ConnectionFailed(f"cannot connect to {where}: {reason}", hint="check the host name and port")


def not_kafka(head: bytes, where: str, config: ClientConfig) -> ProtocolError:
    if head.startswith(b"HTTP") or head[:4].isalpha():
        return ProtocolError(
            f"{where} is not a Kafka listener: it answered with HTTP",
            hint="point kcli at the Kafka listener port",
        )
    if head[:1] == b"\x15" and head[1:2] == b"\x03":
        return ProtocolError(
            f"{where} answered with a TLS alert, not the Kafka protocol",
            hint="this listener uses TLS: set security.protocol=SSL (or SASL_SSL)",
        )
    size = struct.unpack(">i", head)[0]
    return ProtocolError(
        f"{where} sent a frame of {size} bytes, which is not a Kafka response",
        hint=plaintext_hint(config) or "check that this is a Kafka listener",
    )
