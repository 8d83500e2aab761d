"""The suite against a real cluster: the one the environment names, else real Kafka started for the session.

    KCLI_TEST_BOOTSTRAP_SERVER=k1:9092          brokers (naming a cluster of your own)
    KCLI_TEST_BOOTSTRAP_CONTROLLER=c1:9093      controllers (optional: the KIP-919 tests need it)
    KCLI_TEST_COMMAND_CONFIG=client.properties  security settings for both (optional)

Without KCLI_TEST_BOOTSTRAP_SERVER the suite runs against `real_kafka` (tests/fixtures_kafka.py): Apache
Kafka 4.4.0 from Maven Central, 3 controllers + 3 brokers, SASL_SSL, SCRAM users and the StandardAuthorizer.

The tests that take `real_cluster` run against either and only read, except on a topic they create
for themselves (kcli-realcluster-<random>) and delete afterwards, and the ACLs and configs they set on
it. The tests marked `realkafka` need the cluster the suite started (its users, its nodes' files, nodes
to stop and kill) or clusters of their own (`make_real_kafka`); against a named cluster they are
deselected.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.realcluster.peers import peer_admin

NAMED_CLUSTER_ENV = "KCLI_TEST_BOOTSTRAP_SERVER"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Against a cluster the environment names, leave out the tests that start, stop or kill real Kafka
    nodes of their own (marked realkafka): that cluster is not the suite's to restart."""
    if not os.environ.get(NAMED_CLUSTER_ENV):
        return
    here = Path(__file__).parent
    kept: list[pytest.Item] = []
    dropped: list[pytest.Item] = []
    for item in items:
        inside = here in Path(str(item.fspath)).parents
        (dropped if inside and item.get_closest_marker("realkafka") else kept).append(item)
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


@dataclass(frozen=True)
class RealCluster:
    bootstrap_server: str
    bootstrap_controller: str | None
    command_config: str | None

    def broker_args(self) -> list[str]:
        return ["--bootstrap-server", self.bootstrap_server, *self._config_args()]

    def controller_args(self) -> list[str]:
        assert self.bootstrap_controller is not None
        return ["--bootstrap-controller", self.bootstrap_controller, *self._config_args()]

    def bootstrap_kinds(self) -> list[list[str]]:
        """The arguments of each bootstrap kind this cluster was named with (brokers first)."""
        kinds = [self.broker_args()]
        if self.bootstrap_controller:
            kinds.append(self.controller_args())
        return kinds

    def _config_args(self) -> list[str]:
        return ["--command-config", self.command_config] if self.command_config else []

    def peer_admin(self) -> Any:
        """kafka-python's admin client, as an independent check of what kcli did."""
        return peer_admin(self.bootstrap_server, self.command_config)


@pytest.fixture(scope="session")
def real_cluster(request: pytest.FixtureRequest) -> RealCluster:
    if os.environ.get(NAMED_CLUSTER_ENV):
        return RealCluster(
            bootstrap_server=os.environ[NAMED_CLUSTER_ENV],
            bootstrap_controller=os.environ.get("KCLI_TEST_BOOTSTRAP_CONTROLLER") or None,
            command_config=os.environ.get("KCLI_TEST_COMMAND_CONFIG") or None,
        )
    kafka = request.getfixturevalue("real_kafka")
    return RealCluster(
        bootstrap_server=kafka.bootstrap_servers,
        bootstrap_controller=kafka.bootstrap_controllers,
        command_config=str(kafka.command_config()),
    )


@pytest.fixture(scope="session")
def scratch_topic(real_cluster: RealCluster) -> Iterator[str]:
    """A topic of the suite's own (3 partitions, replication factor 1), deleted afterwards."""
    from kafka.admin import NewTopic

    name = f"kcli-realcluster-{uuid.uuid4().hex[:10]}"
    admin = real_cluster.peer_admin()
    try:
        admin.create_topics([NewTopic(name, 3, 1)])
        yield name
    finally:
        admin.delete_topics([name])
        admin.close()


def cluster_of(kafka: Any, principal: str = "admin", mechanism: str = "PLAIN") -> RealCluster:
    """A started KafkaSandbox as a RealCluster, with `principal`'s client settings."""
    return RealCluster(
        bootstrap_server=kafka.bootstrap_servers,
        bootstrap_controller=kafka.bootstrap_controllers,
        command_config=str(kafka.command_config(principal, mechanism)),
    )


@pytest.fixture(scope="session")
def kafka_admin(real_kafka: Any) -> Iterator[Any]:
    """kafka-python's admin client on `real_kafka`, as its admin user, for the whole session."""
    admin = cluster_of(real_kafka).peer_admin()
    try:
        yield admin
    finally:
        admin.close()


@pytest.fixture(scope="session")
def new_topic(real_kafka: Any, kafka_admin: Any) -> Iterator[Any]:
    """`new_topic(prefix, partitions=1, replication=1, assignment=None)` -> the name of a new topic on
    `real_kafka` (created by kafka-python, deleted at the end of the session)."""
    from kafka.admin import NewTopic

    made: list[str] = []

    def make(
        prefix: str, partitions: int = 1, replication: int = 1, assignment: dict[int, list[int]] | None = None
    ) -> str:
        name = f"kcli-{prefix}-{uuid.uuid4().hex[:8]}"
        if assignment:
            topic = NewTopic(name, -1, -1, replica_assignments=assignment)
        else:
            topic = NewTopic(name, partitions, replication)
        kafka_admin.create_topics([topic])
        made.append(name)
        return name

    yield make
    if made:
        # a fresh client: the session's may hold a controller id from metadata that tests since
        # changed (a broker restarted or moved), which kafka-python does not look up again
        cleaner = cluster_of(real_kafka).peer_admin()
        try:
            cleaner.delete_topics(made)
        finally:
            cleaner.close()
