"""ssl.cipher.suites: Java's (IANA) cipher suite names and the OpenSSL names Python's ssl module takes.

Behavior:
- TLS 1.2 suites are mapped by the table below (the suites Java 17 enables by default, and the
  `SSL_` aliases Java still accepts); a name not in it is refused with one line.
- TLS 1.3 suites have the same names in both; OpenSSL enables all three and Python's ssl cannot
  narrow them, so a list naming TLS 1.3 suites must name all three, or none (then, as in Java,
  TLS 1.3 cannot be negotiated and the connection uses TLS 1.2).
"""

from __future__ import annotations

from kcli.errors import UsageError

TLS13_SUITES = ("TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_CHACHA20_POLY1305_SHA256")

# IANA (Java) name -> OpenSSL name, from the IANA TLS Cipher Suites registry and OpenSSL's ciphers(1).
OPENSSL_NAMES = {
    "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384": "ECDHE-ECDSA-AES256-GCM-SHA384",
    "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256": "ECDHE-ECDSA-AES128-GCM-SHA256",
    "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256": "ECDHE-ECDSA-CHACHA20-POLY1305",
    "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384": "ECDHE-RSA-AES256-GCM-SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256": "ECDHE-RSA-AES128-GCM-SHA256",
    "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256": "ECDHE-RSA-CHACHA20-POLY1305",
    "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384": "DHE-RSA-AES256-GCM-SHA384",
    "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256": "DHE-RSA-AES128-GCM-SHA256",
    "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256": "DHE-RSA-CHACHA20-POLY1305",
    "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384": "DHE-DSS-AES256-GCM-SHA384",
    "TLS_DHE_DSS_WITH_AES_128_GCM_SHA256": "DHE-DSS-AES128-GCM-SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384": "ECDHE-ECDSA-AES256-SHA384",
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256": "ECDHE-ECDSA-AES128-SHA256",
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384": "ECDHE-RSA-AES256-SHA384",
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256": "ECDHE-RSA-AES128-SHA256",
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256": "DHE-RSA-AES256-SHA256",
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256": "DHE-RSA-AES128-SHA256",
    "TLS_DHE_DSS_WITH_AES_256_CBC_SHA256": "DHE-DSS-AES256-SHA256",
    "TLS_DHE_DSS_WITH_AES_128_CBC_SHA256": "DHE-DSS-AES128-SHA256",
    "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA": "ECDHE-ECDSA-AES256-SHA",
    "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA": "ECDHE-ECDSA-AES128-SHA",
    "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA": "ECDHE-RSA-AES256-SHA",
    "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA": "ECDHE-RSA-AES128-SHA",
    "TLS_DHE_RSA_WITH_AES_256_CBC_SHA": "DHE-RSA-AES256-SHA",
    "TLS_DHE_RSA_WITH_AES_128_CBC_SHA": "DHE-RSA-AES128-SHA",
    "TLS_DHE_DSS_WITH_AES_256_CBC_SHA": "DHE-DSS-AES256-SHA",
    "TLS_DHE_DSS_WITH_AES_128_CBC_SHA": "DHE-DSS-AES128-SHA",
    "TLS_RSA_WITH_AES_256_GCM_SHA384": "AES256-GCM-SHA384",
    "TLS_RSA_WITH_AES_128_GCM_SHA256": "AES128-GCM-SHA256",
    "TLS_RSA_WITH_AES_256_CBC_SHA256": "AES256-SHA256",
    "TLS_RSA_WITH_AES_128_CBC_SHA256": "AES128-SHA256",
    "TLS_RSA_WITH_AES_256_CBC_SHA": "AES256-SHA",
    "TLS_RSA_WITH_AES_128_CBC_SHA": "AES128-SHA",
}
SIGNALLING = "TLS_EMPTY_RENEGOTIATION_INFO_SCSV"  # OpenSSL always sends its own renegotiation signal


def _canonical(name: str) -> str:
    return "TLS_" + name[4:] if name.startswith("SSL_") else name


def check_cipher_suites(suites: tuple[str, ...], versions: tuple[str, ...]) -> None:
    """UsageError for a suite kcli cannot use, or a TLS 1.3 subset it cannot enforce."""
    unknown = [s for s in suites if _canonical(s) not in OPENSSL_NAMES and s not in TLS13_SUITES and s != SIGNALLING]
    if unknown:
        raise UsageError(
            f"ssl.cipher.suites: {', '.join(unknown)} has no OpenSSL equivalent kcli can use",
            hint="use the IANA names of TLS 1.2 ECDHE/DHE/RSA AES-GCM, AES-CBC or CHACHA20 suites, or TLS 1.3 suites",
        )
    named13 = [s for s in suites if s in TLS13_SUITES]
    if named13 and len(set(named13)) != len(TLS13_SUITES):
        raise UsageError(
            f"ssl.cipher.suites names only some TLS 1.3 suites ({', '.join(named13)}); "
            f"Python's ssl cannot narrow TLS 1.3 suites: list all of {', '.join(TLS13_SUITES)} or none"
        )
    tls12 = [s for s in suites if _canonical(s) in OPENSSL_NAMES]
    if suites and not tls12 and "TLSv1.3" not in versions:
        raise UsageError("ssl.cipher.suites names only TLS 1.3 suites, but ssl.enabled.protocols does not enable TLSv1.3")
    if suites and not named13 and "TLSv1.2" not in versions:
        raise UsageError("ssl.cipher.suites names only TLS 1.2 suites, but ssl.enabled.protocols does not enable TLSv1.2")


def openssl_cipher_string(suites: tuple[str, ...]) -> str | None:
    """The OpenSSL cipher string for the TLS 1.2 suites of `suites` (None: keep the defaults)."""
    names = [OPENSSL_NAMES[_canonical(s)] for s in suites if _canonical(s) in OPENSSL_NAMES]
    return ":".join(names) if names else None


def allows_tls13(suites: tuple[str, ...]) -> bool:
    """Whether TLS 1.3 can be negotiated with `suites` (an empty list keeps every suite)."""
    return not suites or any(s in TLS13_SUITES for s in suites)


def allows_tls12(suites: tuple[str, ...]) -> bool:
    return not suites or any(_canonical(s) in OPENSSL_NAMES for s in suites)
