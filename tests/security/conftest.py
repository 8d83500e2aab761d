"""Shared by the security tests: a keytool-made PKI (per session) and a SASL sandbox with an authorizer (per module)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.security.keytool_pki import KeytoolPki, keytool_available, make_pki


@pytest.fixture(scope="session")
def pki(tmp_path_factory: pytest.TempPathFactory) -> KeytoolPki:
    """A CA with server and client key stores made by Java's keytool (once per test session)."""
    if not keytool_available():
        pytest.skip("Java's keytool is not on PATH")
    return make_pki(tmp_path_factory.mktemp("keytool"))


@pytest.fixture(scope="module")
def sasl_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """SASL_PLAINTEXT listeners (PLAIN, SCRAM-SHA-256/512), StandardAuthorizer; admin is a super user.

    Topics sandbox-topic-0 and sandbox-topic-1 exist; alice and bob start without any ACL.
    """
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("sasl"),
        controllers=1,
        brokers=2,
        security="sasl_plaintext",
        authorizer=True,
        topics=2,
    ) as sb:
        yield sb
