"""TLS for SSL and SASL_SSL listeners: an ssl.SSLContext built from PEM settings."""

from __future__ import annotations

import os
import ssl
import tempfile
from pathlib import Path

from kcli.client.config import SslSettings
from kcli.errors import UsageError


def build_ssl_context(settings: SslSettings) -> ssl.SSLContext:
    """An SSLContext that verifies the server (CA from the settings or the system) and may present a cert.

    Behavior:
    - Server certificates are always verified; the host name is checked unless
      ssl.endpoint.identification.algorithm is empty (Kafka's switch for that check).
    - A client certificate comes from a PEM keystore file (chain + key) or from inline PEM text;
      inline material is written to a private temporary directory only for the load, then removed.
    - Errors say which setting is wrong and never include key material or passwords.
    """
    context = ssl.create_default_context(ssl.Purpose.SERVER_AUTH)
    context.minimum_version = (
        ssl.TLSVersion.TLSv1_3 if settings.minimum_tls == "TLSv1.3" else ssl.TLSVersion.TLSv1_2
    )
    context.check_hostname = settings.check_hostname
    context.verify_mode = ssl.CERT_REQUIRED
    try:
        if settings.cafile is not None:
            context.load_verify_locations(cafile=str(settings.cafile))
        elif settings.cadata is not None:
            context.load_verify_locations(cadata=settings.cadata)
    except (ssl.SSLError, OSError, ValueError) as error:
        where = settings.cafile or "ssl.truststore.certificates"
        raise UsageError(f"cannot load the CA certificates from {where}: {_reason(error)}") from None
    if settings.certfile is not None:
        _load_chain(context, settings.certfile, None, settings.key_password, str(settings.certfile))
    elif settings.cert_chain is not None and settings.key is not None:
        with tempfile.TemporaryDirectory(prefix="kcli-tls-") as directory:
            chain = Path(directory) / "chain.pem"
            key = Path(directory) / "key.pem"
            _write_private(chain, settings.cert_chain)
            _write_private(key, settings.key)
            _load_chain(
                context, chain, key, settings.key_password, "ssl.keystore.certificate.chain/ssl.keystore.key"
            )
    return context


def _load_chain(
    context: ssl.SSLContext, certfile: Path, keyfile: Path | None, password: str | None, where: str
) -> None:
    try:
        context.load_cert_chain(
            certfile=str(certfile), keyfile=str(keyfile) if keyfile else None, password=password
        )
    except (ssl.SSLError, OSError, ValueError) as error:
        raise UsageError(
            f"cannot load the client certificate and key from {where}: {_reason(error)}",
            hint="the PEM must hold the certificate chain and the private key; an encrypted key needs ssl.key.password",
        ) from None


def _write_private(path: Path, text: str) -> None:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")


def _reason(error: BaseException) -> str:
    if isinstance(error, ssl.SSLError) and error.reason:
        return str(error.reason)
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return type(error).__name__
