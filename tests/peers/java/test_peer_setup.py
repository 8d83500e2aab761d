"""The Java peer's set-up: jars found through the installed wheel, and a clear failure when anything is missing."""

from __future__ import annotations

import pytest

from tests.peers.java import peer

pytestmark = pytest.mark.java


def test_jars_come_from_the_installed_wheel() -> None:
    clients, slf4j = peer.find_jars()
    assert (clients.name, slf4j.name) == ("kafka-clients.jar", "slf4j-api.jar")
    assert clients.parent.name == "lib" and clients.parent.parent.name == "pyflink"
    assert clients.stat().st_size > 1_000_000


def test_a_missing_wheel_or_tool_is_an_error_not_a_skip(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(peer, "DISTRIBUTION", "no-such-distribution-for-kcli-tests")
    with pytest.raises(peer.PeerSetupError, match=r"pip install -e '\.\[test\]'"):
        peer.find_jars()
    with pytest.raises(peer.PeerSetupError, match="not on PATH"):
        peer.find_tool("no-such-java-for-kcli-tests")
