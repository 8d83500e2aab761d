"""Listener security: TLS material generated at `up`, SASL PLAIN and SCRAM-SHA-256/512 servers.

Behavior:
- TLS: a CA and one certificate per node (SAN 127.0.0.1, localhost) plus client certificates for
  admin and broker, made with the openssl command once per sandbox directory (DIR/tls/).
  Clients may present a certificate; its subject becomes the principal (User:CN=...), else ANONYMOUS.
- PLAIN checks the sandbox's user table; SCRAM checks the credentials in the metadata image
  (UserScramCredentialRecords), so AlterUserScramCredentials takes effect at once (RFC 5802/7677).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import ssl
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.kafka import ScramMechanism
from kcli.sandbox.settings import BROKER_USER, SandboxSettings
from kcli.sandbox.tls import generate_tls

if TYPE_CHECKING:
    from kcli.sandbox.emulator.image import Image

SCRAM_MECHANISMS = {m.code: m.mechanism_name for m in ScramMechanism}
SCRAM_IDS = {name: key for key, name in SCRAM_MECHANISMS.items()}
HASHES = {m.code: m.hash_name for m in ScramMechanism}
DEFAULT_ITERATIONS = 4096


def scram_keys(password: str, salt: bytes, iterations: int, mechanism: int) -> tuple[bytes, bytes]:
    """(StoredKey, ServerKey) of a SCRAM credential (RFC 5802)."""
    name = HASHES[mechanism]
    salted = hashlib.pbkdf2_hmac(name, password.encode(), salt, iterations)
    client_key = hmac.new(salted, b"Client Key", name).digest()
    stored_key = hashlib.new(name, client_key).digest()
    server_key = hmac.new(salted, b"Server Key", name).digest()
    return stored_key, server_key


def scram_credential(user: str, password: str, mechanism: int, iterations: int = DEFAULT_ITERATIONS) -> Any:
    """A UserScramCredentialRecord for `user`."""
    from kcli.metadata import records

    R: Any = records
    salt = secrets.token_bytes(32)
    stored_key, server_key = scram_keys(password, salt, iterations, mechanism)
    return R.UserScramCredentialRecord(
        name=user,
        mechanism=mechanism,
        salt=salt,
        stored_key=stored_key,
        server_key=server_key,
        iterations=iterations,
    )


@dataclass(slots=True)
class ScramExchange:
    """Server side of one SCRAM conversation (client-first -> server-first -> client-final -> server-final).

    A client-first message with the extension tokenauth=true logs in with a delegation token: `tokens`
    gives (the token's credential, its owner) for the token id the message names as its user.
    """

    mechanism: int
    user: str = ""
    nonce: str = ""
    client_first_bare: str = ""
    server_first: str = ""
    done: bool = False
    tokens: Any = None  # (token id, mechanism) -> (ScramCredential, owner principal) | None
    token: Any = None  # the token's (credential, owner) once the client-first message named one

    def _credential(self, image: Image) -> Any:
        if self.token is not None:
            return self.token[0]
        return image.scram.get((self.user, self.mechanism))

    def first(self, image: Image, message: bytes) -> bytes:
        text = message.decode()
        gs2, _, bare = text.partition(",,") if text.startswith(("n,", "y,")) else ("", "", text)
        if not gs2:
            raise ValueError("invalid SCRAM client-first message")
        fields = dict(part.split("=", 1) for part in bare.split(",") if "=" in part)
        self.user = fields.get("n", "").replace("=2C", ",").replace("=3D", "=")
        client_nonce = fields.get("r", "")
        if fields.get("tokenauth", "").lower() == "true":
            self.token = self.tokens(self.user, self.mechanism) if self.tokens is not None else None
            if self.token is None:
                raise ValueError(
                    "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                    + SCRAM_MECHANISMS[self.mechanism]
                )
        credential = self._credential(image)
        if credential is None or not client_nonce:
            raise ValueError(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                + SCRAM_MECHANISMS[self.mechanism]
            )
        self.nonce = client_nonce + base64.b64encode(secrets.token_bytes(18)).decode()
        self.client_first_bare = bare
        salt = base64.b64encode(credential.salt).decode()
        self.server_first = f"r={self.nonce},s={salt},i={credential.iterations}"
        return self.server_first.encode()

    def final(self, image: Image, message: bytes) -> bytes:
        text = message.decode()
        without_proof, _, proof_text = text.rpartition(",p=")
        fields = dict(part.split("=", 1) for part in without_proof.split(",") if "=" in part)
        credential = self._credential(image)
        if credential is None or fields.get("r") != self.nonce:
            raise ValueError("invalid SCRAM nonce")
        name = HASHES[self.mechanism]
        auth_message = f"{self.client_first_bare},{self.server_first},{without_proof}".encode()
        signature = hmac.new(credential.stored_key, auth_message, name).digest()
        proof = base64.b64decode(proof_text)
        client_key = bytes(a ^ b for a, b in zip(proof, signature, strict=False))
        if len(proof) != len(signature) or hashlib.new(name, client_key).digest() != credential.stored_key:
            raise ValueError(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                + SCRAM_MECHANISMS[self.mechanism]
            )
        server_signature = hmac.new(credential.server_key, auth_message, name).digest()
        self.done = True
        return b"v=" + base64.b64encode(server_signature)


class SecurityContext:
    """TLS contexts and SASL user tables of one sandbox."""

    def __init__(self, settings: SandboxSettings, tls_dir: Path | None) -> None:
        self.settings = settings
        self.tls_dir = tls_dir
        self._contexts: dict[int, ssl.SSLContext] = {}

    @classmethod
    def create(cls, settings: SandboxSettings, directory: Path) -> SecurityContext:
        tls_dir = None
        if settings.security.tls:
            tls_dir = directory / "tls"
            ids = [*settings.broker_ids(), *settings.controller_ids()]
            generate_tls(tls_dir, ids)
        return cls(settings, tls_dir)

    @property
    def ca_file(self) -> Path:
        assert self.tls_dir is not None
        return self.tls_dir / "ca.pem"

    def cert_file(self, node_id: int) -> Path:
        assert self.tls_dir is not None
        path = self.tls_dir / f"node-{node_id}.pem"
        if not path.exists():
            generate_tls(self.tls_dir, [node_id])
        return path

    def key_file(self, node_id: int) -> Path:
        assert self.tls_dir is not None
        return self.tls_dir / f"node-{node_id}.key"

    def client_files(self, name: str) -> tuple[Path, Path]:
        """(certificate, key) of a client identity (admin, broker)."""
        assert self.tls_dir is not None
        return self.tls_dir / f"client-{name}.pem", self.tls_dir / f"client-{name}.key"

    def server_context(self, node_id: int) -> ssl.SSLContext | None:
        """The TLS context of a node's listener (None without TLS)."""
        if not self.settings.security.tls:
            return None
        context = self._contexts.get(node_id)
        if context is None:
            context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH, cafile=str(self.ca_file))
            context.load_cert_chain(str(self.cert_file(node_id)), str(self.key_file(node_id)))
            context.verify_mode = ssl.CERT_OPTIONAL  # ssl.client.auth=requested
            self._contexts[node_id] = context
        return context

    def client_context(self) -> ssl.SSLContext:
        """A TLS context for the brokers' own connections to the controller (identity CN=broker)."""
        context = ssl.create_default_context(cafile=str(self.ca_file))
        certificate, key = self.client_files("broker")
        context.load_cert_chain(str(certificate), str(key))
        return context

    def principal_of(self, ssl_object: Any) -> str:
        """User:CN=<name> for a client certificate, else User:ANONYMOUS."""
        certificate = ssl_object.getpeercert() if ssl_object is not None else None
        if not certificate:
            return "User:ANONYMOUS"
        for rdn in certificate.get("subject", ()):
            for key, value in rdn:
                if key == "commonName":
                    return f"User:CN={value}"
        return "User:ANONYMOUS"

    def scram_users(self) -> dict[str, str]:
        """Users whose SCRAM credentials are created at bootstrap (like kafka-storage --add-scram)."""
        return {**self.settings.users, BROKER_USER[0]: BROKER_USER[1]}

    def check_plain(self, user: str, password: str) -> bool:
        expected = self.scram_users().get(user)
        return expected is not None and hmac.compare_digest(expected, password)
