"""SASL GSSAPI (Kerberos V5, RFC 4752) as Kafka's client speaks it, through the `gssapi` package (kcli-kafka[kerberos]).

Behavior:
- Credentials: from the keytab and principal of the JAAS options (MIT's client_keytab credential
  store, into a ticket cache in memory), or from the ticket cache (ticketCache, else KRB5CCNAME or
  the default cache, as `kinit` leaves it). Realms, KDCs and timeouts come from krb5.conf
  (KRB5_CONFIG), as for Java's -Djava.security.krb5.conf.
- The broker's principal is the host-based service SERVICE@HOST, HOST being the host the client
  connected to; like Java's InetAddress.getHostName(), an IP address is turned into its name by a
  reverse lookup (127.0.0.1 -> localhost) when it has one.
- The exchange: context tokens until the context is established (mutual authentication; an
  empty answer when the last step has nothing to send), then the security-layer negotiation of
  RFC 4752 section 3.1: the server's wrapped 4 bytes are unwrapped, and the client answers,
  wrapped with integrity only, "no security layer" (0x01), a maximum size of 0 and the client
  principal as authorization id (Java's GSSKrb5Client, which Kafka uses, sends the same).
- Every call that may reach the KDC runs in a worker thread under the command's deadline.
"""

from __future__ import annotations

import ipaddress
import itertools
import os
import socket
from typing import Any

from kcli.client.errors import AuthenticationFailed
from kcli.client.sasl_settings import KerberosLogin
from kcli.errors import UsageError

NO_SECURITY_LAYER = 0x01
_CACHES = itertools.count(1)
INSTALL_HINT = "install it with: pip install 'kcli-kafka[kerberos]' (it builds against MIT Kerberos: apt-get install libkrb5-dev)"


def _gssapi() -> Any:
    try:
        import gssapi
    except ImportError:
        raise UsageError("sasl.mechanism GSSAPI needs the Python package gssapi", hint=INSTALL_HINT) from None
    return gssapi


def service_host(host: str) -> str:
    """The host part of the broker's principal: the connect host, an IP address resolved to its name."""
    try:
        ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        return host
    try:
        return socket.gethostbyaddr(host.strip("[]"))[0]
    except OSError:
        return host


def acquire_credentials(login: KerberosLogin) -> Any:
    """The client's initiator credentials (blocking: may ask the KDC for a ticket-granting ticket)."""
    gssapi = _gssapi()
    name = gssapi.Name(login.principal, gssapi.NameType.kerberos_principal) if login.principal else None
    errors: list[str] = []
    if login.use_ticket_cache:
        store = {"ccache": f"FILE:{login.ticket_cache}"} if login.ticket_cache else None
        try:
            credentials = gssapi.Credentials(name=name, usage="initiate", store=store)
            credentials.lifetime  # noqa: B018 - raises ExpiredCredentialsError for an expired cache
            return credentials
        except gssapi.exceptions.GSSError as error:
            errors.append(f"ticket cache: {_reason(error)}")
    if login.keytab is not None:
        if not login.keytab.is_file():
            raise UsageError(f"sasl.jaas.config: keyTab {login.keytab} does not exist or is not a file")
        if not os.access(login.keytab, os.R_OK):
            raise UsageError(f"sasl.jaas.config: keyTab {login.keytab} is not readable")
        # A memory cache of our own: the user's default cache is neither read nor changed.
        store = {"client_keytab": str(login.keytab), "ccache": f"MEMORY:kcli-{os.getpid()}-{next(_CACHES)}"}
        try:
            credentials = gssapi.Credentials(name=name, usage="initiate", store=store)
            credentials.lifetime  # noqa: B018 - makes MIT get the TGT now, so errors name the login step
            return credentials
        except gssapi.exceptions.GSSError as error:
            errors.append(f"keytab {login.keytab}: {_reason(error)}")
    who = login.principal or "the default principal"
    raise AuthenticationFailed(
        f"Kerberos login as {who} failed ({'; '.join(errors)})",
        hint="check principal and keyTab in sasl.jaas.config, or run kinit; KRB5_CONFIG names krb5.conf",
    )


class GssapiExchange:
    """One GSSAPI SASL exchange with one broker (each step blocking: run it in a worker thread)."""

    def __init__(self, credentials: Any, service: str, host: str) -> None:
        gssapi = _gssapi()
        self._gssapi = gssapi
        self.target = f"{service}@{host}"
        flags = gssapi.RequirementFlag.mutual_authentication | gssapi.RequirementFlag.integrity
        self._context = gssapi.SecurityContext(
            name=gssapi.Name(self.target, gssapi.NameType.hostbased_service),
            creds=credentials,
            usage="initiate",
            flags=flags,
        )
        self._authzid = str(credentials.name)
        self.done = False

    def step(self, challenge: bytes | None) -> bytes:
        """The next client token for the server's `challenge` (None before the first)."""
        try:
            if not self._context.complete:
                return self._context.step(challenge) or b""
            return self._security_layer(challenge or b"")
        except self._gssapi.exceptions.GSSError as error:
            raise AuthenticationFailed(
                f"Kerberos: cannot authenticate to {self.target}: {_reason(error)}",
                hint="the broker's principal is sasl.kerberos.service.name/HOST@REALM with the host connected to",
            ) from None

    def _security_layer(self, challenge: bytes) -> bytes:
        offer = self._context.unwrap(challenge).message
        if len(offer) != 4:
            raise AuthenticationFailed(f"Kerberos: {self.target} sent a malformed security-layer offer")
        if not offer[0] & NO_SECURITY_LAYER:
            raise AuthenticationFailed(f"Kerberos: {self.target} requires a SASL security layer, which Kafka never uses")
        answer = bytes([NO_SECURITY_LAYER, 0, 0, 0]) + self._authzid.encode("utf-8")
        self.done = True
        return bytes(self._context.wrap(answer, False).message)


def _reason(error: Any) -> str:
    text = " ".join(str(error).split())
    return text if len(text) <= 300 else text[:300] + "..."
