"""SASL (PLAIN, SCRAM-SHA-256/512) and TLS set-up against loopback servers built on Python's ssl module.

The SCRAM server side here is an independent implementation of RFC 5802 written for the test; the
client is also checked against the RFC 7677 test vector.
"""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import secrets
import ssl
import subprocess
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from kio.schema.errors import ErrorCode

from kcli.client import protocol
from kcli.client.admin import Admin
from kcli.client.config import ClientConfig, config_from_properties
from kcli.client.errors import AuthenticationFailed
from kcli.client.sasl import ScramClient
from tests.client.kafka_double import KafkaDouble, Received, describe_cluster_handler, serving
from tests.conftest import invoke

# ---- RFC 7677 -------------------------------------------------------------------------------------


def test_scram_sha_256_rfc7677_vector() -> None:
    client = ScramClient("SCRAM-SHA-256", "user", "pencil", client_nonce="rOprNGfwEbeRWgbNEkqO")
    assert client.first_message() == b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO"
    final = client.final_message(
        b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    )
    assert final == (
        b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
        b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ="
    )
    client.verify_server_final(b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    with pytest.raises(AuthenticationFailed, match="signature is wrong"):
        client.verify_server_final(b"v=AAAATRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")


def test_scram_rejects_bad_server_first_messages() -> None:
    client = ScramClient("SCRAM-SHA-512", "u,=x", "pw", client_nonce="abc")
    assert client.first_message() == b"n,,n=u=2C=3Dx,r=abc"
    with pytest.raises(AuthenticationFailed, match="does not extend"):
        client.final_message(b"r=zzz,s=c2FsdA==,i=4096")
    with pytest.raises(AuthenticationFailed, match="below 4096"):
        client.final_message(b"r=abcdef,s=c2FsdA==,i=10")
    with pytest.raises(AuthenticationFailed, match="unknown-user"):
        client.final_message(b"e=unknown-user")
    assert "pw" not in repr(client)


# ---- a SCRAM server for the test -------------------------------------------------------------------


@dataclass
class ScramServer:
    mechanism: str
    users: dict[str, str]
    iterations: int = 4096
    forged_signature: bool = False
    tansu_style_error: bool = False
    salt: bytes = field(default_factory=lambda: secrets.token_bytes(16))
    _state: dict[str, Any] = field(default_factory=dict)

    @property
    def _hash(self) -> str:
        return "sha256" if self.mechanism == "SCRAM-SHA-256" else "sha512"

    def step(self, token: bytes) -> tuple[int, str | None, bytes]:
        text = token.decode()
        if "c" not in self._state:
            assert text.startswith("n,,")
            bare = text[3:]
            attrs = dict(part.split("=", 1) for part in bare.split(","))
            user = attrs["n"].replace("=2C", ",").replace("=3D", "=")
            if user not in self.users:
                if self.tansu_style_error:
                    return 0, "NONE", b"e=unknown-user"
                return 58, "Authentication failed: unknown user", b""
            nonce = attrs["r"] + secrets.token_urlsafe(12)
            first = f"r={nonce},s={base64.b64encode(self.salt).decode()},i={self.iterations}"
            self._state.update(c=bare, s=first, user=user, nonce=nonce)
            return 0, None, first.encode()
        without_proof, proof = text.rsplit(",p=", 1)
        assert without_proof == f"c=biws,r={self._state['nonce']}"
        salted = hashlib.pbkdf2_hmac(
            self._hash, self.users[self._state["user"]].encode(), self.salt, self.iterations
        )
        client_key = hmac.new(salted, b"Client Key", self._hash).digest()
        stored_key = hashlib.new(self._hash, client_key).digest()
        auth = f"{self._state['c']},{self._state['s']},{without_proof}".encode()
        signature = hmac.new(stored_key, auth, self._hash).digest()
        recovered = bytes(a ^ b for a, b in zip(base64.b64decode(proof), signature, strict=True))
        if hashlib.new(self._hash, recovered).digest() != stored_key:
            return (
                58,
                "Authentication failed during authentication due to invalid credentials with SASL mechanism",
                b"",
            )
        server_key = hmac.new(salted, b"Server Key", self._hash).digest()
        verifier = hmac.new(server_key, auth, self._hash).digest()
        if self.forged_signature:
            verifier = bytes(len(verifier))
        return 0, None, b"v=" + base64.b64encode(verifier)


def sasl_double(
    mechanisms: tuple[str, ...], authenticate: Any, ssl_context: ssl.SSLContext | None = None
) -> KafkaDouble:
    double = KafkaDouble(ssl_context=ssl_context)
    double.handlers[60] = describe_cluster_handler([(1, double)], controller=1)

    def handshake(received: Received) -> Any:
        cls = protocol.response_class("sasl_handshake", received.version)
        ok = received.body.mechanism in mechanisms
        return cls(
            error_code=ErrorCode.none if ok else ErrorCode.unsupported_sasl_mechanism, mechanisms=mechanisms
        )

    def auth(received: Received) -> Any:
        code, message, data = authenticate(bytes(received.body.auth_bytes))
        cls = protocol.response_class("sasl_authenticate", received.version)
        return protocol.make(
            cls,
            error_code=ErrorCode(code),
            error_message=message,
            auth_bytes=data,
            session_lifetime=timedelta(0),
        )

    double.handlers[17] = handshake
    double.handlers[36] = auth
    return double


def _config(bootstrap: str, props: dict[str, str]) -> ClientConfig:
    return config_from_properties({"bootstrap.servers": bootstrap, **props}, warn=lambda _: None)


def _scram_props(
    mechanism: str, user: str, password: str, protocol_name: str = "SASL_PLAINTEXT"
) -> dict[str, str]:
    return {
        "security.protocol": protocol_name,
        "sasl.mechanism": mechanism,
        "sasl.jaas.config": f'org.apache.kafka.common.security.scram.ScramLoginModule required username="{user}" password="{password}";',
    }


@pytest.mark.parametrize("mechanism", ["SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_scram_exchange_succeeds(mechanism: str) -> None:
    async def scenario() -> None:
        server = ScramServer(mechanism, {"alice": "alice-secret"})
        double = sasl_double(("SCRAM-SHA-256", "SCRAM-SHA-512"), server.step)
        async with (
            serving(double),
            Admin(_config(double.bootstrap, _scram_props(mechanism, "alice", "alice-secret"))) as admin,
        ):
            assert admin.cluster_id == "double-cluster"
        assert [r.api_key for r in double.received] == [18, 17, 36, 36, 60]

    asyncio.run(scenario())


def test_plain_sends_authzid_user_password() -> None:
    async def scenario() -> None:
        seen: list[bytes] = []

        def plain(token: bytes) -> tuple[int, str | None, bytes]:
            seen.append(token)
            return (0, None, b"") if token == b"\0bob\0bob-pw" else (58, "bad", b"")

        double = sasl_double(("PLAIN",), plain)
        props = {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "PLAIN",
            "sasl.username": "bob",
            "sasl.password": "bob-pw",
        }
        async with serving(double), Admin(_config(double.bootstrap, props)) as admin:
            assert admin.cluster_id == "double-cluster"
        assert seen == [b"\0bob\0bob-pw"]

    asyncio.run(scenario())


def _cli_against(double: KafkaDouble, tmp_path: Path, props: dict[str, str]) -> Any:
    async def scenario() -> Any:
        async with serving(double):
            path = tmp_path / "client.properties"
            path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
            return await asyncio.to_thread(invoke, "cluster-id", "-b", double.bootstrap, "-c", str(path))

    return asyncio.run(scenario())


def test_wrong_password_is_one_line_without_the_password(tmp_path: Path) -> None:
    server = ScramServer("SCRAM-SHA-512", {"alice": "right-password"})
    result = _cli_against(
        sasl_double(("SCRAM-SHA-512",), server.step),
        tmp_path,
        _scram_props("SCRAM-SHA-512", "alice", "wrong-password"),
    )
    assert result.code == 1 and len(result.stderr.splitlines()) == 1
    assert "SASL_AUTHENTICATION_FAILED" in result.stderr and "wrong-password" not in result.stderr


def test_server_that_cannot_prove_the_password_is_refused(tmp_path: Path) -> None:
    server = ScramServer("SCRAM-SHA-256", {"alice": "pw"}, forged_signature=True)
    result = _cli_against(
        sasl_double(("SCRAM-SHA-256",), server.step), tmp_path, _scram_props("SCRAM-SHA-256", "alice", "pw")
    )
    assert result.code == 1 and "signature is wrong" in result.stderr


def test_scram_error_inside_a_successful_response_is_a_failure(tmp_path: Path) -> None:
    """tansu answers an unknown user with error_code 0 and `e=unknown-user` in the SCRAM message."""
    server = ScramServer("SCRAM-SHA-256", {}, tansu_style_error=True)
    result = _cli_against(
        sasl_double(("SCRAM-SHA-256",), server.step), tmp_path, _scram_props("SCRAM-SHA-256", "nobody", "pw")
    )
    assert result.code == 1 and "the server said unknown-user" in result.stderr


def test_mechanism_not_enabled_lists_what_the_server_offers(tmp_path: Path) -> None:
    server = ScramServer("SCRAM-SHA-512", {"alice": "pw"})
    result = _cli_against(
        sasl_double(("SCRAM-SHA-512",), server.step), tmp_path, _scram_props("SCRAM-SHA-256", "alice", "pw")
    )
    assert result.code == 1
    assert "SASL mechanism SCRAM-SHA-256 is not enabled" in result.stderr and "SCRAM-SHA-512" in result.stderr


# ---- TLS ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Pki:
    ca: Path
    server_cert: Path
    server_key: Path
    client_pem: Path  # client certificate followed by its key (a PEM keystore)
    client_cert: Path
    client_key: Path


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=30)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    """A CA, a server certificate for `localhost` only (no IP SAN) and a client certificate."""
    d = tmp_path_factory.mktemp("pki")
    _openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=kcli test CA",
        cwd=d,
    )
    for name, subject, ext in (
        ("server", "/CN=localhost", "subjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n"),
        ("client", "/CN=client", "extendedKeyUsage=clientAuth\n"),
    ):
        (d / f"{name}.ext").write_text(ext)
        _openssl(
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            f"{name}.key",
            "-out",
            f"{name}.csr",
            "-subj",
            subject,
            cwd=d,
        )
        _openssl(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            f"{name}.pem",
            "-days",
            "2",
            "-extfile",
            f"{name}.ext",
            cwd=d,
        )
    (d / "client-keystore.pem").write_text((d / "client.pem").read_text() + (d / "client.key").read_text())
    return Pki(
        ca=d / "ca.pem",
        server_cert=d / "server.pem",
        server_key=d / "server.key",
        client_pem=d / "client-keystore.pem",
        client_cert=d / "client.pem",
        client_key=d / "client.key",
    )


def _server_context(pki: Pki, *, require_client_cert: bool = False) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(str(pki.server_cert), str(pki.server_key))
    if require_client_cert:
        context.load_verify_locations(cafile=str(pki.ca))
        context.verify_mode = ssl.CERT_REQUIRED
    return context


def _tls_double(pki: Pki, *, require_client_cert: bool = False) -> KafkaDouble:
    double = KafkaDouble(ssl_context=_server_context(pki, require_client_cert=require_client_cert))
    double.handlers[60] = describe_cluster_handler([(1, double)], controller=1)
    return double


def _cluster_id_over_tls(double: KafkaDouble, host: str, props: dict[str, str]) -> str | None:
    async def scenario() -> str | None:
        async with serving(double):
            config = config_from_properties(
                {"bootstrap.servers": f"{host}:{double.port}", **props}, warn=lambda _: None
            )
            async with Admin(config) as admin:
                return admin.cluster_id

    return asyncio.run(scenario())


def test_tls_with_a_pem_truststore_and_hostname_check(pki: Pki) -> None:
    props = {"security.protocol": "SSL", "ssl.truststore.location": str(pki.ca), "ssl.truststore.type": "PEM"}
    assert _cluster_id_over_tls(_tls_double(pki), "localhost", props) == "double-cluster"


def test_tls_with_inline_truststore_certificates(pki: Pki) -> None:
    props = {
        "security.protocol": "SSL",
        "ssl.truststore.type": "PEM",
        "ssl.truststore.certificates": pki.ca.read_text(),
    }
    assert _cluster_id_over_tls(_tls_double(pki), "localhost", props) == "double-cluster"


def test_tls_untrusted_server_is_one_clear_error(pki: Pki) -> None:
    with pytest.raises(AuthenticationFailed, match="is not trusted") as raised:
        _cluster_id_over_tls(_tls_double(pki), "localhost", {"security.protocol": "SSL"})
    assert "ssl.truststore.location" in raised.value.line()


def test_tls_hostname_mismatch_and_the_switch_that_allows_it(pki: Pki) -> None:
    props = {"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(pki.ca)}
    with pytest.raises(AuthenticationFailed, match="not trusted"):
        _cluster_id_over_tls(_tls_double(pki), "127.0.0.1", props)  # the certificate names localhost only
    relaxed = {**props, "ssl.endpoint.identification.algorithm": ""}
    assert _cluster_id_over_tls(_tls_double(pki), "127.0.0.1", relaxed) == "double-cluster"


def test_mutual_tls_with_pem_keystore_file_and_inline_pem(pki: Pki) -> None:
    base = {"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(pki.ca)}
    keystore = {**base, "ssl.keystore.location": str(pki.client_pem), "ssl.keystore.type": "PEM"}
    assert (
        _cluster_id_over_tls(_tls_double(pki, require_client_cert=True), "localhost", keystore)
        == "double-cluster"
    )
    inline = {
        **base,
        "ssl.keystore.type": "PEM",
        "ssl.keystore.certificate.chain": pki.client_cert.read_text(),
        "ssl.keystore.key": pki.client_key.read_text(),
    }
    assert (
        _cluster_id_over_tls(_tls_double(pki, require_client_cert=True), "localhost", inline)
        == "double-cluster"
    )


def test_mutual_tls_without_a_client_certificate_fails_cleanly(pki: Pki, tmp_path: Path) -> None:
    double = _tls_double(pki, require_client_cert=True)
    result = _cli_on_host(
        double,
        tmp_path,
        {"security.protocol": "SSL", "ssl.truststore.type": "PEM", "ssl.truststore.location": str(pki.ca)},
    )
    assert result.code == 1 and len(result.stderr.splitlines()) == 1 and "Traceback" not in result.stderr


def test_plaintext_client_against_a_tls_listener_gets_a_hint(pki: Pki, tmp_path: Path) -> None:
    result = _cli_on_host(_tls_double(pki), tmp_path, {"request.timeout.ms": "2000"})
    assert result.code == 1 and len(result.stderr.splitlines()) == 1
    assert "security.protocol=SSL" in result.stderr


def test_sasl_ssl_scram(pki: Pki) -> None:
    server = ScramServer("SCRAM-SHA-512", {"admin": "admin-pw"})
    double = sasl_double(("SCRAM-SHA-512",), server.step, ssl_context=_server_context(pki))
    props = {
        **_scram_props("SCRAM-SHA-512", "admin", "admin-pw", "SASL_SSL"),
        "ssl.truststore.type": "PEM",
        "ssl.truststore.location": str(pki.ca),
    }
    assert _cluster_id_over_tls(double, "localhost", props) == "double-cluster"


def _cli_on_host(double: KafkaDouble, tmp_path: Path, props: dict[str, str]) -> Any:
    async def scenario() -> Any:
        async with serving(double):
            path = tmp_path / "client.properties"
            path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
            return await asyncio.to_thread(
                invoke, "cluster-id", "-b", f"localhost:{double.port}", "-c", str(path)
            )

    return asyncio.run(scenario())


def test_debug_trace_shows_requests_but_never_secrets(tmp_path: Path) -> None:
    server = ScramServer("SCRAM-SHA-256", {"alice": "trace-secret-pw"})
    double = sasl_double(("SCRAM-SHA-256",), server.step)
    props = _scram_props("SCRAM-SHA-256", "alice", "trace-secret-pw")

    async def scenario() -> Any:
        async with serving(double):
            path = tmp_path / "client.properties"
            path.write_text("".join(f"{k}={v}\n" for k, v in props.items()))
            return await asyncio.to_thread(
                invoke, "--debug", "cluster-id", "-b", double.bootstrap, "-c", str(path)
            )

    result = asyncio.run(scenario())
    assert result.code == 0 and result.stdout == "Cluster ID: double-cluster\n"
    assert f"-> {double.bootstrap}: SaslHandshake v1" in result.stderr
    assert result.stderr.count("SaslAuthenticate v2 (correlation id") == 2
    assert "trace-secret-pw" not in result.stderr
