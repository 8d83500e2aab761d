"""Client settings kcli does not know get one warning each; a server's own settings (a controller's
server.properties given to add-controller as its client config) are not typos and pass in silence."""

from __future__ import annotations

from kcli.client.config import config_from_properties, server_keys


def _warnings(props: dict[str, str]) -> list[str]:
    said: list[str] = []
    config_from_properties({"bootstrap.controllers": "127.0.0.1:9093", **props}, warn=said.append)
    return said


def test_server_settings_pass_without_a_word() -> None:
    controller = {
        "process.roles": "controller",
        "node.id": "104",
        "listeners": "CONTROLLER://127.0.0.1:9097",
        "advertised.listeners": "CONTROLLER://127.0.0.1:9097",
        "controller.listener.names": "CONTROLLER",
        "controller.quorum.bootstrap.servers": "127.0.0.1:9093",
        "log.dirs": "/var/lib/kafka/104",
    }
    assert set(controller) <= server_keys()
    assert _warnings(controller) == []


def test_a_typo_is_still_named() -> None:
    assert _warnings({"request.timout.ms": "5000", "node.id": "1"}) == [
        "Warning: the configuration 'request.timout.ms' was supplied but is not a known client setting; ignored."
    ]
