"""Key stores and trust stores as Kafka reads them: JKS (pyjks), PKCS12 (cryptography) and PEM files.

Behavior:
- The file's content decides how a JKS or PKCS12 store is read, as Java's KeyStore does for these
  two types (a JKS-typed store may hold PKCS12 and the reverse); JCEKS and PEM content under a
  JKS/PKCS12 type are refused with the setting to change.
- A trust store trusts its certificate entries and the first certificate of each key entry (Java's
  TrustStoreUtil); a key store gives the first private key entry and its certificate chain.
- A JKS key entry is decrypted with ssl.key.password, else the store password (Kafka's rule); a
  PKCS12 store has one password for both.
- Wrong passwords, damaged stores, a key store without a key and a trust store without a
  certificate each raise one UsageError naming the setting and the file; nothing quotes a password.
- pyjks and cryptography are imported only here, only for a JKS or PKCS12 store (kcli-kafka[keystores]).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field
from typing import Any

from kcli.client.tls_settings import StoreFile
from kcli.errors import UsageError

JKS_MAGIC = b"\xfe\xed\xfe\xed"
JCEKS_MAGIC = b"\xce\xce\xce\xce"
INSTALL_HINT = "install them with: pip install 'kcli-kafka[keystores]'"


@dataclass(frozen=True, slots=True)
class ClientKey:
    """A client's private key (a cryptography key object) and its certificate chain (PEM)."""

    key: Any = field(repr=False)
    chain_pem: str


def read_store(store: StoreFile) -> bytes:
    """The bytes of a store file (read when the settings were checked: kcli.client.tls_settings)."""
    return store.data


def content_format(store: StoreFile, data: bytes) -> str:
    """JKS, PKCS12 or PEM: what the file holds, checked against its configured type."""
    where = f"{store.setting}.location {store.path}"
    looks_pem = b"-----BEGIN" in data[:65536]
    if store.type == "PEM":
        if not looks_pem:
            raise UsageError(f"{where} holds no PEM block, but {store.setting}.type is PEM")
        return "PEM"
    if data.startswith(JKS_MAGIC):
        return "JKS"
    if data.startswith(JCEKS_MAGIC):
        raise UsageError(f"{where} is a JCEKS store; kcli reads JKS, PKCS12 and PEM stores")
    if looks_pem:
        raise UsageError(
            f"{where} holds PEM, but {store.setting}.type is {store.type}",
            hint=f"set {store.setting}.type=PEM (Kafka's default type is JKS)",
        )
    if data[:1] == b"\x30":  # a DER SEQUENCE: PKCS#12's PFX
        return "PKCS12"
    raise UsageError(f"{where} is not a JKS, PKCS12 or PEM store (is the file damaged?)")


def trusted_certificates_pem(store: StoreFile) -> str:
    """Every certificate a trust store trusts, as PEM text."""
    data = read_store(store)
    kind = content_format(store, data)
    where = f"{store.setting}.location {store.path}"
    if kind == "PEM":
        text = data.decode("ascii", errors="replace")
        if "-----BEGIN CERTIFICATE-----" not in text:
            raise UsageError(f"{where} holds no certificate")
        return text
    if kind == "JKS":
        keystore = _jks(store, data)
        ders = [entry.cert for entry in keystore.certs.values()]
        ders += [entry.cert_chain[0][1] for entry in keystore.private_keys.values() if entry.cert_chain]
    else:
        bundle = _pkcs12(store, data)
        ders = [_der(entry.certificate) for entry in bundle.additional_certs]
        if bundle.cert is not None:
            ders.append(_der(bundle.cert.certificate))
    if not ders:
        raise UsageError(f"{where} holds no certificate ({kind} store)")
    return "".join(ssl.DER_cert_to_PEM_cert(der) for der in ders)


def client_key(store: StoreFile, key_password: str | None) -> ClientKey:
    """The private key and certificate chain of a JKS or PKCS12 key store."""
    data = read_store(store)
    kind = content_format(store, data)
    where = f"{store.setting}.location {store.path}"
    no_key = UsageError(
        f"{where} holds no private key entry ({kind} store)",
        hint="a keystore holds the client's key and certificate chain; certificates alone belong in a truststore",
    )
    if kind == "JKS":
        keystore = _jks(store, data)
        if not keystore.private_keys:
            raise no_key
        alias, entry = sorted(keystore.private_keys.items())[0]
        password = key_password if key_password is not None else store.password
        try:
            entry.decrypt(password or "")
        except Exception:  # pyjks: DecryptionFailureException, or a bad encoding of the password
            setting = "ssl.key.password" if key_password is not None else "ssl.keystore.password"
            raise UsageError(
                f"cannot decrypt the key {alias!r} in {where}: {setting} is wrong",
                hint="a key with its own password needs ssl.key.password",
            ) from None
        serialization = _cryptography("serialization")
        key = serialization.load_der_private_key(entry.pkey_pkcs8, password=None)
        chain = "".join(ssl.DER_cert_to_PEM_cert(der) for _type, der in entry.cert_chain)
        return ClientKey(key=key, chain_pem=chain)
    if kind == "PKCS12":
        bundle = _pkcs12(store, data)
        if bundle.key is None or bundle.cert is None:
            raise no_key
        certificates = [bundle.cert.certificate, *(entry.certificate for entry in bundle.additional_certs)]
        return ClientKey(key=bundle.key, chain_pem="".join(ssl.DER_cert_to_PEM_cert(_der(c)) for c in certificates))
    raise AssertionError("PEM key stores are loaded by the ssl module")


def _jks(store: StoreFile, data: bytes) -> Any:
    try:
        import jks
    except ImportError:
        raise _missing(store, "pyjks") from None
    where = f"{store.setting}.location {store.path}"
    try:
        return jks.KeyStore.loads(data, store.password, try_decrypt_keys=False)
    except jks.util.KeystoreSignatureException:
        raise UsageError(f"cannot open {where} (JKS): {store.setting}.password is wrong") from None
    except Exception:  # pyjks raises struct and decoding errors for damaged files too
        raise UsageError(f"{where} is a damaged JKS store (it cannot be parsed)") from None


def _pkcs12(store: StoreFile, data: bytes) -> Any:
    pkcs12 = _cryptography("pkcs12", store)
    where = f"{store.setting}.location {store.path}"
    if store.password is None:
        raise UsageError(f"{where} is a PKCS12 store: set {store.setting}.password")
    try:
        return pkcs12.load_pkcs12(data, store.password.encode("utf-8"))
    except ValueError as error:
        if "password" in str(error).lower():
            raise UsageError(f"cannot open {where} (PKCS12): {store.setting}.password is wrong") from None
        raise UsageError(f"{where} is a damaged PKCS12 store (it cannot be parsed)") from None


def _der(certificate: Any) -> bytes:
    serialization = _cryptography("serialization")
    return bytes(certificate.public_bytes(serialization.Encoding.DER))


def _cryptography(module: str, store: StoreFile | None = None) -> Any:
    try:
        if module == "pkcs12":
            from cryptography.hazmat.primitives.serialization import pkcs12

            return pkcs12
        from cryptography.hazmat.primitives import serialization

        return serialization
    except ImportError:
        raise _missing(store, "cryptography") from None


def _missing(store: StoreFile | None, package: str) -> UsageError:
    where = f"{store.setting}.location {store.path}" if store else "a JKS or PKCS12 store"
    return UsageError(f"reading {where} needs the Python package {package}", hint=INSTALL_HINT)
