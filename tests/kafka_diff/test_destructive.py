"""kcli beside Kafka's tools for the lines that add, remove and unregister nodes (KIP-853, KIP-1312).

They need a cluster of their own (corpus.DESTRUCTIVE): Kafka 4.4.0, controller 101 the only voter,
controller 102 formatted --no-initial-controllers and running as an observer, brokers 1 and 2 on
racks a and b, plaintext (security is not the point here; test_kafka_diff.py runs the rest over SASL_SSL).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_diff import runner
from tests.kafka_diff.conftest import Target, make_target
from tests.kafka_diff.corpus import DESTRUCTIVE, NEWEST, Case

pytestmark = [pytest.mark.realkafka, pytest.mark.slow]
OBSERVER = 102


def directory_id(server_properties: Path) -> str:
    """The directory.id in the meta.properties of a node's metadata log dir (as StorageTool wrote it)."""
    from kcli.properties import read_properties_file

    settings = read_properties_file(server_properties)
    log_dir = settings.get("metadata.log.dir") or settings["log.dirs"].split(",")[0]
    return read_properties_file(Path(log_dir) / "meta.properties")["directory.id"]


@pytest.fixture(scope="module")
def own_target(tool_driver: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    from kcli.sandbox.kafka.handle import KafkaSandbox
    from tests.fixtures_kafka import kafka_home

    directory = tmp_path_factory.mktemp("kafka-diff-own")
    with KafkaSandbox(
        kafka_home(NEWEST), directory / "cluster", controllers=1, brokers=2, racks=("a", "b")
    ) as kafka:
        properties = kafka.prepare_controller(OBSERVER)
        target = make_target(NEWEST, kafka, tool_driver, directory)
        target.placeholders.update(
            {
                "config/controller.properties": str(properties),
                "<directory-id>": directory_id(properties),
                "<id>": str(OBSERVER),
            }
        )
        try:
            runner.wait_registered(target, OBSERVER, directory)
            yield target
        finally:
            target.tools.close()


@pytest.mark.parametrize("case", DESTRUCTIVE, ids=lambda case: f"{NEWEST}-{case.id}")
def test_kcli_beside_kafka_on_a_cluster_of_its_own(case: Case, own_target: Target, tmp_path: Path) -> None:
    runner.check(own_target, case, NEWEST, tmp_path)


def test_the_unregistered_controller_is_gone_from_the_metadata(own_target: Any, tmp_path: Path) -> None:
    """After kcli's unregister-controller of a stopped controller, DescribeCluster no longer lists it."""
    from tests.conftest import invoke

    kafka = own_target.kafka
    kafka.stop_node(OBSERVER)
    try:
        done = invoke(
            "cluster", "unregister-controller", "--bootstrap-controller", kafka.bootstrap_controllers,
            "--id", str(OBSERVER), "-o", "json",
        )  # fmt: skip
        assert done.json == {"controller_id": OBSERVER, "unregistered": True}, done.stderr
        listed = own_target.kafka_tool(
            "bin/kafka-cluster.sh list-endpoints --bootstrap-controller localhost:9093", tmp_path
        )
        assert [row.split()[0] for row in listed.stdout.splitlines()[1:]] == ["101"]
        again = invoke(
            "cluster", "unregister-controller", "-b", kafka.bootstrap_servers, "--id", str(OBSERVER)
        )
        assert again.code == 1
        assert "CONTROLLER_ID_NOT_REGISTERED" in again.stderr
        assert f"Controller ID {OBSERVER} is not currently registered." in again.stderr
    finally:
        kafka.start_node(OBSERVER)
        runner.wait_registered(own_target, OBSERVER, tmp_path)
