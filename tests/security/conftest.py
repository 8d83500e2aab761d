"""Sandboxes shared by the security tests of one module: SASL with an authorizer."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="module")
def sasl_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """SASL_PLAINTEXT listeners (PLAIN, SCRAM-SHA-256/512), StandardAuthorizer; admin is a super user.

    Topics sandbox-topic-0 and sandbox-topic-1 exist; alice and bob start without any ACL.
    """
    from kcli.sandbox import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("sasl"),
        controllers=1,
        brokers=2,
        security="sasl_plaintext",
        authorizer=True,
        topics=2,
    ) as sb:
        yield sb
