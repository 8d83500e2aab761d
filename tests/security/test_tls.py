"""TLS end to end on a sandbox whose every listener uses TLS (ssl.client.auth=requested, an authorizer).

Hostname verification is on unless the operator turns it off; a wrong CA or host name fails with one
clear line; a client certificate (mTLS) is the identity the authorizer sees.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import CliResult, invoke

pytestmark = [pytest.mark.sandbox, pytest.mark.timeout(120)]  # no case hangs


@pytest.fixture(scope="module")
def tls_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("tls"), controllers=1, brokers=2, security="ssl", authorizer=True
    ) as sb:
        yield sb


def client_properties(path: Path, ca: Path, *extra: str) -> str:
    path.write_text(
        "\n".join(
            ["security.protocol=SSL", "ssl.truststore.type=PEM", f"ssl.truststore.location={ca}", *extra]
        )
        + "\n"
    )
    return str(path)


def error_line(result: CliResult) -> str:
    assert result.code == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.startswith("Error: ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


def other_ca(directory: Path) -> Path:
    """A CA certificate (PEM) of a CA that signed none of the sandbox's certificates."""
    key, ca = directory / "other.key", directory / "other-ca.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
         "-keyout", str(key), "-out", str(ca), "-days", "1", "-subj", "/CN=Some Other CA"],
        check=True, capture_output=True, timeout=30,
    )  # fmt: skip
    return ca


def on_host(sb: Any, host: str) -> str:
    return ",".join(f"{host}:{address.rpartition(':')[2]}" for address in sb.bootstrap_servers.split(","))


def test_hostname_verification_is_on_by_default(tls_sandbox: Any, tmp_path: Path) -> None:
    sb = tls_sandbox
    config = client_properties(tmp_path / "c.properties", sb.ca_file)
    ok = invoke("cluster-id", "-b", sb.bootstrap_servers, "-c", config)  # certificates name 127.0.0.1
    assert ok.code == 0, ok.stderr
    assert ok.stdout.strip() == f"Cluster ID: {sb.cluster_id}"
    # "vm" resolves to 127.0.0.1 here but is not in the certificates' names
    line = error_line(invoke("cluster-id", "-b", on_host(sb, "vm"), "-c", config))
    assert "certificate" in line and "vm" in line, line
    assert "mismatch" in line.lower() or "hostname" in line.lower(), line


def test_hostname_check_can_be_turned_off_explicitly(tls_sandbox: Any, tmp_path: Path) -> None:
    sb = tls_sandbox
    config = client_properties(
        tmp_path / "c.properties", sb.ca_file, "ssl.endpoint.identification.algorithm="
    )
    result = invoke("cluster-id", "-b", on_host(sb, "vm"), "-c", config)
    assert result.code == 0, result.stderr


def test_wrong_ca_is_one_clear_error(tls_sandbox: Any, tmp_path: Path) -> None:
    config = client_properties(tmp_path / "c.properties", other_ca(tmp_path))
    line = error_line(invoke("cluster-id", "-b", tls_sandbox.bootstrap_servers, "-c", config))
    assert "not trusted" in line and "truststore" in line, line


def test_a_configured_truststore_is_the_only_trust(
    tls_sandbox: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As Kafka's clients: the truststore given replaces the system's CAs, it does not add to them.

    The sandbox's CA is made the system's store (SSL_CERT_FILE, read by OpenSSL): without a
    truststore kcli trusts it, with a truststore of another CA it must not.
    """
    monkeypatch.setenv("SSL_CERT_FILE", str(tls_sandbox.ca_file))
    system_only = tmp_path / "system.properties"
    system_only.write_text("security.protocol=SSL\n")
    ok = invoke("cluster-id", "-b", tls_sandbox.bootstrap_servers, "-c", str(system_only))
    assert ok.code == 0, ok.stderr
    config = client_properties(tmp_path / "c.properties", other_ca(tmp_path))
    line = error_line(invoke("cluster-id", "-b", tls_sandbox.bootstrap_servers, "-c", config))
    assert "not trusted" in line and "truststore" in line, line


def test_plaintext_client_against_tls_listener_gets_a_hint(tls_sandbox: Any) -> None:
    line = error_line(invoke("cluster-id", "-b", tls_sandbox.bootstrap_servers))
    assert "SSL" in line, line


def test_client_certificate_is_the_identity(tls_sandbox: Any, tmp_path: Path) -> None:
    """mTLS: with the broker's certificate (super user CN=broker) ACLs can be listed; anonymous cannot."""
    sb = tls_sandbox
    with_cert = str(sb.command_config("broker"))
    assert "ssl.keystore.location" in Path(with_cert).read_text()
    listed = invoke("acls", "-b", sb.bootstrap_servers, "-c", with_cert, "--list")
    assert listed.code == 0, listed.stderr
    anonymous = client_properties(tmp_path / "anon.properties", sb.ca_file)
    line = error_line(invoke("acls", "-b", sb.bootstrap_servers, "-c", anonymous, "--list"))
    assert "CLUSTER_AUTHORIZATION_FAILED" in line, line
