"""Fixtures of the runbook runner: one cluster per engine for the whole session, the Java reader's JVM."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixtures_kafka import NEWEST, kafka_home
from tests.peers.java.peer import JavaPeer, PeerSetupError, compile_peer, find_jars
from tests.runbooks.cluster import EMULATOR, REAL_KAFKA, SandboxCluster


@pytest.fixture(scope="session")
def runbook_peer(tmp_path_factory: pytest.TempPathFactory) -> Iterator[JavaPeer]:
    """The Java AdminClient's JVM: the runner's independent reader."""
    try:
        jars = find_jars()
        classes = compile_peer(jars, tmp_path_factory.mktemp("runbook-reader-classes"))
    except PeerSetupError as error:
        pytest.fail(
            f"the runbook runner's reader (the Java AdminClient) is unavailable: {error}", pytrace=False
        )
    peer = JavaPeer(classes, jars, tmp_path_factory.mktemp("runbook-reader") / "jvm.log")
    try:
        yield peer
    finally:
        peer.close()


@pytest.fixture(
    scope="session",
    params=[
        pytest.param(EMULATOR, id="emulator"),
        pytest.param(REAL_KAFKA, id="kafka", marks=[pytest.mark.realkafka, pytest.mark.slow]),
    ],
)
def runbook_cluster(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[SandboxCluster]:
    """The cluster every runbook of one engine runs on, in turn (each leaves it as the next expects)."""
    engine = request.param
    home = kafka_home(NEWEST) if engine is REAL_KAFKA else None
    cluster = SandboxCluster(engine, tmp_path_factory.mktemp(f"runbooks-{engine.name}") / "sandbox", home)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
