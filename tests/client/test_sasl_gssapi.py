"""The parts of the GSSAPI client that need no KDC (the exchange itself is tested against a real Kafka
broker and a real MIT KDC in tests/security/realkafka/test_gssapi.py)."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from kcli.client.sasl_gssapi import acquire_credentials, service_host
from kcli.client.sasl_settings import KerberosLogin
from kcli.errors import UsageError


def test_the_service_host_is_the_connect_host_and_an_ip_is_resolved_like_java() -> None:
    assert service_host("broker-1.example.com") == "broker-1.example.com"
    try:
        expected = socket.gethostbyaddr("127.0.0.1")[0]
    except OSError:
        expected = "127.0.0.1"
    assert service_host("127.0.0.1") == expected


def test_a_missing_keytab_is_one_line(tmp_path: Path) -> None:
    pytest.importorskip("gssapi")
    login = KerberosLogin(service_name="kafka", principal="a@R", keytab=tmp_path / "missing.keytab")
    with pytest.raises(UsageError, match=r"keyTab .*missing\.keytab does not exist"):
        acquire_credentials(login)


def test_without_the_gssapi_package_the_line_names_the_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "gssapi", None)
    with pytest.raises(UsageError) as raised:
        acquire_credentials(KerberosLogin(service_name="kafka", use_ticket_cache=True))
    assert "needs the Python package gssapi" in raised.value.line() and "kcli-kafka[kerberos]" in raised.value.line()
