"""The ssl.* client settings, checked by Kafka's rules (DefaultSslEngineFactory) before any file is read.

Behavior:
- ssl.keystore.type and ssl.truststore.type default to JKS, as in Kafka; JKS, PKCS12 and PEM are
  read (kcli.client.tls_stores). Like Java's KeyStore, a JKS-typed store may hold PKCS12 and the
  reverse; another type (JCEKS, BCFKS, ...) is refused with one line.
- Inline PEM (ssl.keystore.key with ssl.keystore.certificate.chain, ssl.truststore.certificates)
  needs the store type PEM and no location; a PEM store takes no store password (only
  ssl.key.password); a JKS/PKCS12 keystore needs ssl.keystore.password. The same pairs Kafka refuses
  are refused here, each with one line naming the settings.
- ssl.enabled.protocols (default TLSv1.2,TLSv1.3) gives the lowest and highest TLS version;
  ssl.protocol must be a TLS protocol name; older versions than TLS 1.2 are refused (OpenSSL here
  disables them). ssl.cipher.suites takes Java's names (kcli.client.tls_ciphers).
- An empty ssl.endpoint.identification.algorithm turns the host name check off (Kafka's switch);
  the default, https, keeps it on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from kcli.errors import UsageError

STORE_TYPES = ("JKS", "PKCS12", "PEM")
TLS_VERSIONS = ("TLSv1.2", "TLSv1.3")
_OLD_VERSIONS = ("SSLv2", "SSLv3", "TLSv1", "TLSv1.1", "SSLv2Hello")
_PROTOCOLS = ("TLS", "TLSv1.2", "TLSv1.3")


@dataclass(frozen=True, slots=True, kw_only=True)
class StoreFile:
    """A key store or trust store file as configured: where, of which type, and its password."""

    setting: str  # ssl.keystore or ssl.truststore: the prefix its settings share
    path: Path
    type: str  # JKS | PKCS12 | PEM
    password: str | None = field(default=None, repr=False)
    data: bytes = field(default=b"", repr=False)  # read when the settings are checked, before anything is sent


@dataclass(frozen=True, slots=True, kw_only=True)
class SslSettings:
    """What a TLS client context is made of. Passwords and private keys never appear in repr."""

    truststore: StoreFile | None = None
    trusted_pem: str | None = None  # ssl.truststore.certificates
    keystore: StoreFile | None = None
    chain_pem: str | None = None  # ssl.keystore.certificate.chain
    key_pem: str | None = field(default=None, repr=False)  # ssl.keystore.key
    key_password: str | None = field(default=None, repr=False)  # ssl.key.password
    check_hostname: bool = True
    versions: tuple[str, ...] = TLS_VERSIONS
    cipher_suites: tuple[str, ...] = ()  # Java names; empty: the TLS library's defaults


def ssl_settings(props: Mapping[str, str]) -> SslSettings:
    """The ssl.* settings of `props` as an SslSettings (UsageError starting with the setting's name)."""

    def value(key: str) -> str | None:
        raw = props.get(key)
        return raw if raw is not None and raw.strip() else None

    factory = (props.get("ssl.engine.factory.class") or "").strip()
    if factory:
        raise UsageError(f"ssl.engine.factory.class {factory} is a Java class kcli cannot run; remove it to use kcli's TLS")
    keystore_type = _store_type(props, "ssl.keystore.type")
    truststore_type = _store_type(props, "ssl.truststore.type")
    key, chain = value("ssl.keystore.key"), value("ssl.keystore.certificate.chain")
    keystore_location, keystore_password = value("ssl.keystore.location"), value("ssl.keystore.password")
    if key is not None or chain is not None:
        if key is None or chain is None:
            raise UsageError("ssl.keystore.certificate.chain and ssl.keystore.key must be set together")
        if keystore_type != "PEM":
            raise UsageError(
                f"ssl.keystore.key needs ssl.keystore.type=PEM (it is {keystore_type}, Kafka's default is JKS)"
            )
        if keystore_location is not None:
            raise UsageError("set ssl.keystore.location or ssl.keystore.key, not both")
    keystore = None
    if keystore_location is not None:
        if keystore_type == "PEM" and keystore_password is not None:
            raise UsageError(
                "ssl.keystore.password cannot be used with a PEM keystore; an encrypted key takes ssl.key.password"
            )
        if keystore_type != "PEM" and keystore_password is None:
            raise UsageError(f"ssl.keystore.location is set, but ssl.keystore.password is not ({keystore_type} store)")
        path = Path(keystore_location.strip()).expanduser()
        keystore = StoreFile(
            setting="ssl.keystore",
            path=path,
            type=keystore_type,
            password=keystore_password,
            data=_read_store("ssl.keystore", path),
        )
    elif keystore_password is not None and key is None:
        raise UsageError("ssl.keystore.password is set, but ssl.keystore.location is not")

    trusted, truststore_location = value("ssl.truststore.certificates"), value("ssl.truststore.location")
    truststore_password = value("ssl.truststore.password")
    if trusted is not None:
        if truststore_type != "PEM":
            raise UsageError(
                f"ssl.truststore.certificates needs ssl.truststore.type=PEM (it is {truststore_type}, Kafka's default is JKS)"
            )
        if truststore_location is not None:
            raise UsageError("set ssl.truststore.location or ssl.truststore.certificates, not both")
    if truststore_type == "PEM" and truststore_password is not None:
        raise UsageError("ssl.truststore.password cannot be used with a PEM truststore")
    if truststore_password is not None and truststore_location is None:
        raise UsageError("ssl.truststore.password is set, but ssl.truststore.location is not")
    truststore = None
    if truststore_location is not None:
        path = Path(truststore_location.strip()).expanduser()
        truststore = StoreFile(
            setting="ssl.truststore",
            path=path,
            type=truststore_type,
            password=truststore_password,
            data=_read_store("ssl.truststore", path),
        )

    from kcli.client.tls_ciphers import check_cipher_suites

    versions = _versions(props)
    suites = tuple(s.strip() for s in (props.get("ssl.cipher.suites") or "").split(",") if s.strip())
    check_cipher_suites(suites, versions)
    return SslSettings(
        truststore=truststore,
        trusted_pem=trusted,
        keystore=keystore,
        chain_pem=chain,
        key_pem=key,
        key_password=value("ssl.key.password"),
        check_hostname=bool((props.get("ssl.endpoint.identification.algorithm", "https") or "").strip()),
        versions=versions,
        cipher_suites=suites,
    )


STORE_LIMIT = 4 * 1024 * 1024  # a full public CA bundle in PEM is ~0.25 MiB


def _read_store(setting: str, path: Path) -> bytes:
    """The bytes of a store file; UsageError starting with the setting when it is missing or unreadable."""
    from kcli.files import read_bytes

    try:
        return read_bytes(path, what=f"{setting}.location", limit=STORE_LIMIT)
    except FileNotFoundError:
        raise UsageError(f"{setting}.location {path} does not exist") from None
    except OSError as error:
        raise UsageError(f"cannot read {setting}.location {path}: {error.strerror}") from None


def _store_type(props: Mapping[str, str], key: str) -> str:
    raw = (props.get(key) or "").strip()
    if not raw:
        return "JKS"
    if raw.upper() not in STORE_TYPES:
        raise UsageError(f"{key} {raw!r} is not a store type kcli reads (JKS, PKCS12, PEM)")
    return raw.upper()


def _versions(props: Mapping[str, str]) -> tuple[str, ...]:
    protocol = (props.get("ssl.protocol") or "TLSv1.3").strip()
    if protocol not in _PROTOCOLS:
        raise UsageError(
            f"ssl.protocol {protocol!r} is not supported by kcli (use TLSv1.3, TLSv1.2 or TLS)",
            hint="versions older than TLS 1.2 are disabled by OpenSSL's security level here",
        )
    raw = props.get("ssl.enabled.protocols")
    names = [n.strip() for n in (raw if raw is not None else ",".join(TLS_VERSIONS)).split(",") if n.strip()]
    old = [n for n in names if n in _OLD_VERSIONS]
    unknown = [n for n in names if n not in TLS_VERSIONS and n not in _OLD_VERSIONS]
    if unknown:
        raise UsageError(f"ssl.enabled.protocols: {', '.join(unknown)} is not a TLS version (use TLSv1.2, TLSv1.3)")
    usable = tuple(v for v in TLS_VERSIONS if v in names)
    if not usable:
        shown = ", ".join(old) or "nothing"
        raise UsageError(
            f"ssl.enabled.protocols enables {shown}; kcli needs TLSv1.2 or TLSv1.3",
            hint="TLS versions before 1.2 are disabled by OpenSSL's security level here",
        )
    return usable
