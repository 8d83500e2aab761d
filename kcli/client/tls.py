"""TLS for SSL and SASL_SSL listeners: an ssl.SSLContext built from Kafka's ssl.* settings."""

from __future__ import annotations

import secrets
import ssl
from typing import Any

from kcli.client.tls_settings import SslSettings
from kcli.errors import UsageError

_VERSIONS = {"TLSv1.2": ssl.TLSVersion.TLSv1_2, "TLSv1.3": ssl.TLSVersion.TLSv1_3}


def build_ssl_context(settings: SslSettings) -> ssl.SSLContext:
    """An SSLContext that verifies the server (the trust store, else the system's CAs) and may present a key.

    Behavior:
    - Server certificates are always verified, against the configured trust store alone (as Kafka's
      clients do), else the system's CAs; the host name is checked unless
      ssl.endpoint.identification.algorithm is empty (Kafka's switch for that check).
    - TLS versions come from ssl.enabled.protocols, cipher suites from ssl.cipher.suites (Java names).
    - Stores: JKS, PKCS12 or PEM (kcli.client.tls_stores). A PEM keystore file is loaded as it is;
      other key material goes to OpenSSL through a private temporary directory that is removed at
      once, and a key taken from a JKS or PKCS12 store is written encrypted under a one-time
      password, so it never touches the disk in clear.
    - Errors say which setting is wrong and never include key material or passwords.
    """
    from kcli.client import tls_ciphers

    context = _trusting_context(settings)
    suites = settings.cipher_suites
    versions = [v for v in settings.versions if v != "TLSv1.3" or tls_ciphers.allows_tls13(suites)]
    versions = [v for v in versions if v != "TLSv1.2" or tls_ciphers.allows_tls12(suites)]
    context.minimum_version = _VERSIONS[versions[0]]
    context.maximum_version = _VERSIONS[versions[-1]]
    cipher_string = tls_ciphers.openssl_cipher_string(suites)
    if cipher_string is not None:
        try:
            context.set_ciphers(cipher_string)
        except ssl.SSLError:
            raise UsageError(
                f"ssl.cipher.suites: none of {', '.join(suites)} is available in this system's OpenSSL"
            ) from None
    context.check_hostname = settings.check_hostname
    context.verify_mode = ssl.CERT_REQUIRED
    _load_key(context, settings)
    return context


def _trusting_context(settings: SslSettings) -> ssl.SSLContext:
    """A client context that trusts the configured trust store alone, as Kafka's clients do; the
    system's CAs only when none is configured (the JVM's default cacerts). Loading the system's CAs
    besides a configured store would also accept a server any public CA vouches for (and costs ~20 ms)."""
    if settings.truststore is None and settings.trusted_pem is None:
        return ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    if settings.truststore is not None:
        from kcli.client.tls_stores import trusted_certificates_pem

        where = f"ssl.truststore.location {settings.truststore.path}"
        pem = trusted_certificates_pem(settings.truststore)
    else:
        where, pem = "ssl.truststore.certificates", settings.trusted_pem or ""
        if "-----BEGIN CERTIFICATE-----" not in pem:
            raise UsageError("ssl.truststore.certificates holds no PEM certificate")
    try:
        return ssl.create_default_context(ssl.Purpose.SERVER_AUTH, cadata=pem)
    except (ssl.SSLError, ValueError) as error:
        raise UsageError(f"cannot load the CA certificates from {where}: {_reason(error)}") from None


def _load_key(context: ssl.SSLContext, settings: SslSettings) -> None:
    store = settings.keystore
    if store is not None and store.type != "PEM":
        from kcli.client.tls_stores import client_key

        identity = client_key(store, settings.key_password)
        serialization = _serialization()
        one_time = secrets.token_urlsafe(32)
        encrypted = identity.key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.BestAvailableEncryption(one_time.encode()),
        ).decode("ascii")
        where = f"ssl.keystore.location {store.path}"
        _load_pem_pair(context, identity.chain_pem, encrypted, one_time, where)
    elif store is not None:
        from kcli.client.tls_stores import read_store

        text = read_store(store).decode("ascii", errors="replace")
        where = f"ssl.keystore.location {store.path}"
        if "-----BEGIN" not in text:
            raise UsageError(f"{where} holds no PEM block, but ssl.keystore.type is PEM")
        if "PRIVATE KEY" not in text:
            raise UsageError(
                f"{where} holds no private key",
                hint="a PEM keystore holds the private key and the certificate chain in one file, as Kafka "
                "expects; e.g. `cat client.key client.pem > keystore.pem`",
            )
        # the operator's file as it is (read and checked above): no copy of the key is written
        _load_chain(context, str(store.path), None, settings.key_password, where)
    elif settings.chain_pem is not None and settings.key_pem is not None:
        _load_pem_pair(
            context,
            settings.chain_pem,
            settings.key_pem,
            settings.key_password,
            "ssl.keystore.certificate.chain/ssl.keystore.key",
        )


def _load_pem_pair(
    context: ssl.SSLContext, chain: str, key: str | None, password: str | None, where: str
) -> None:
    """Load a certificate chain and key given as PEM text (the key may sit in the chain's text)."""
    from kcli.writes import create_private, private_directory

    with private_directory(prefix="kcli-tls-") as directory:  # ssl loads a chain from paths only
        chain_path = directory / "chain.pem"
        create_private(chain_path, _line_ended(chain), what="the client certificate (temporary)")
        key_path = None
        if key is not None:
            key_path = directory / "key.pem"
            create_private(key_path, _line_ended(key), what="the client key (temporary)")
        _load_chain(context, str(chain_path), str(key_path) if key_path else None, password, where)


def _load_chain(
    context: ssl.SSLContext, certfile: str, keyfile: str | None, password: str | None, where: str
) -> None:
    try:
        context.load_cert_chain(certfile=certfile, keyfile=keyfile, password=password or "")
    except (ssl.SSLError, OSError, ValueError) as error:
        raise UsageError(
            f"cannot load the client certificate and key from {where}: {_reason(error)}",
            hint="the key must match the first certificate; an encrypted PEM key needs ssl.key.password",
        ) from None


def _serialization() -> Any:
    from cryptography.hazmat.primitives import serialization

    return serialization


def _line_ended(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def _reason(error: BaseException) -> str:
    if isinstance(error, ssl.SSLError) and error.reason:
        return str(error.reason)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return type(error).__name__
