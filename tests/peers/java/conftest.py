"""Fixtures of the Java AdminClient peer: one compile and one JVM per session, shared sandboxes.

A missing jar, `java` or `javac` fails the tests (pytest.fail), never skips them: the peer must run in CI.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.peers.java.peer import JavaAdmin, JavaPeer, PeerSetupError, compile_peer, find_jars

# Short enough that a wrong answer fails fast, long enough for a busy 2-core machine.
CLIENT_TIMEOUTS = {
    "request.timeout.ms": "10000",
    "default.api.timeout.ms": "20000",
    "retry.backoff.ms": "100",
    "client.id": "kcli-java-peer",
}


@pytest.fixture(scope="session")
def java_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, tuple[Path, ...]]:
    """The peer programs compiled once per session: (their class directory, the client jars)."""
    try:
        jars = find_jars()
        return compile_peer(jars, tmp_path_factory.mktemp("java-peer-classes")), jars
    except PeerSetupError as error:
        pytest.fail(f"Java peer unavailable: {error}", pytrace=False)


@pytest.fixture(scope="session")
def java_peer(
    tmp_path_factory: pytest.TempPathFactory, java_build: tuple[Path, tuple[Path, ...]]
) -> Iterator[JavaPeer]:
    """The JVM running AdminPeer (kafka-clients from the installed wheel), shared by the session."""
    classes, jars = java_build
    peer = JavaPeer(classes, jars, tmp_path_factory.mktemp("java-peer") / "jvm.log")
    try:
        yield peer
    finally:
        peer.close()


def client_props(
    sb: Any, *, controllers: bool = False, principal: str | None = None, **extra: str
) -> dict[str, str]:
    """Java client properties for a sandbox: bootstrap kind, its security (as `principal`) and timeouts."""
    props = dict(CLIENT_TIMEOUTS)
    if controllers:
        props["bootstrap.controllers"] = sb.bootstrap_controllers
    else:
        props["bootstrap.servers"] = sb.bootstrap_servers
    if sb.settings.security.value != "plaintext":
        mechanism = "SCRAM-SHA-256"
        path = sb.command_config(principal or "admin", mechanism)
        for line in path.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            props[key] = value
    props.update(extra)
    return props


@pytest.fixture(scope="session")
def peer_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """A plaintext 3-controller, 3-broker sandbox with racks and two log dirs per broker."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("java-peer-sandbox"),
        controllers=3,
        brokers=3,
        racks=("rack-a", "rack-b"),
        log_dirs=2,
        topics=2,
        partitions=3,
    ) as sb:
        yield sb


@pytest.fixture(scope="session")
def java_brokers(java_peer: JavaPeer, peer_sandbox: Any) -> JavaAdmin:
    """The Java Admin bootstrapped from the sandbox's brokers (bootstrap.servers)."""
    return java_peer.client(client_props(peer_sandbox), name="brokers")


@pytest.fixture(scope="session")
def java_controllers(java_peer: JavaPeer, peer_sandbox: Any) -> JavaAdmin:
    """The Java Admin bootstrapped from the sandbox's controllers (bootstrap.controllers, KIP-919)."""
    return java_peer.client(client_props(peer_sandbox, controllers=True), name="controllers")


@pytest.fixture(scope="session")
def secure_sandbox(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """SASL_SSL listeners (SCRAM and PLAIN over TLS) with the authorizer on; admin is the super user."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("java-secure-sandbox"),
        controllers=1,
        brokers=2,
        security="sasl_ssl",
        authorizer=True,
        topics=1,
    ) as sb:
        yield sb
