"""kafka-metadata-quorum.sh: Kafka's MetadataQuorumCommandTest, ported.

Kafka runs each case on clusters of several shapes (brokers, controllers): here, one sandbox per
shape for this module (separate controllers and brokers: Kafka's KRAFT type; the sandbox has no
combined mode, so the CO_KRAFT variants are not separate cases).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import kcli

KAFKA_TOOL = "kafka-metadata-quorum.sh"
KAFKA_TEST_CLASS = "MetadataQuorumCommandTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/MetadataQuorumCommandTest.java"
KAFKA_METHODS = [
    "testDescribeQuorumReplicationSuccessful",
    "testDescribeQuorumStatusSuccessful",
    "testOnlyOneBrokerAndOneController",
    "testCommandConfig",
    "testHumanReadableOutput",
]
NOT_PORTED: dict[str, str] = {}

SHAPES = {
    "2-brokers-2-controllers": (2, 2),
    "2-brokers-1-controller": (2, 1),
    "1-broker-2-controllers": (1, 2),
}


@pytest.fixture(scope="module")
def cluster_of(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[[int, int], Any]]:
    """`cluster_of(brokers, controllers)`: one sandbox of that shape, shared by this module's cases."""
    from kcli.sandbox.emulator.handle import Sandbox

    started: dict[tuple[int, int], Any] = {}

    def shape(brokers: int, controllers: int) -> Any:
        if (brokers, controllers) not in started:
            sb = Sandbox(
                directory=tmp_path_factory.mktemp(f"quorum-{brokers}-{controllers}"),
                brokers=brokers,
                controllers=controllers,
            )
            sb.start()
            started[brokers, controllers] = sb
        return started[brokers, controllers]

    yield shape
    for sb in started.values():
        sb.stop()


def quorum(sb: Any, *args: str, controllers: bool = False) -> Any:
    flag = (
        ("--bootstrap-controller", sb.bootstrap_controllers)
        if controllers
        else ("--bootstrap-server", sb.bootstrap_servers)
    )
    return kcli("metadata-quorum", *flag, "describe", *args)


def row(status: str) -> re.Pattern[str]:
    return re.compile(rf"\d+\s+\S+\s+\d+\s+\d+\s+-?\d+\s+-?\d+\s+{status}\s*")


@pytest.mark.parametrize("shape", list(SHAPES))
def test_MetadataQuorumCommandTest_testDescribeQuorumReplicationSuccessful(
    cluster_of: Any, shape: str
) -> None:
    brokers, controllers = SHAPES[shape]
    result = quorum(cluster_of(brokers, controllers), "--replication")
    assert result.code == 0, result.stderr
    header, *data = result.stdout.splitlines()
    assert re.fullmatch(
        r"NodeId\s+DirectoryId\s+LogEndOffset\s+Lag\s+LastFetchTimestamp\s+LastCaughtUpTimestamp\s+Status\s+",
        header,
    )
    assert len(data) == brokers + controllers
    assert row("Leader").search(data[0])
    assert not any(row("Leader").search(line) for line in data[1:])
    assert sum(1 for line in data if row("Follower").search(line)) == controllers - 1
    assert sum(1 for line in data if row("Observer").search(line)) == brokers


@pytest.mark.parametrize("shape", list(SHAPES))
@pytest.mark.parametrize("controllers_flag", [False, True], ids=["bootstrap-server", "bootstrap-controller"])
def test_MetadataQuorumCommandTest_testDescribeQuorumStatusSuccessful(
    cluster_of: Any, shape: str, controllers_flag: bool
) -> None:
    brokers, controllers = SHAPES[shape]
    result = quorum(cluster_of(brokers, controllers), "--status", controllers=controllers_flag)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert re.fullmatch(r"ClusterId:\s+\S{22}", lines[0])
    assert re.fullmatch(r"LeaderId:\s+\d+", lines[1])
    assert re.fullmatch(r"LeaderEpoch:\s+\d+", lines[2])
    assert re.fullmatch(r"HighWatermark:\s+-?\d+", lines[3])
    assert re.fullmatch(r"MaxFollowerLag:\s+\d+", lines[4])
    assert re.fullmatch(r"MaxFollowerLagTimeMs:\s+-?\d+", lines[5])
    assert re.fullmatch(
        r'CurrentVoters:\s+\[\{"id":\s+\d+,\s+"directoryId":\s+\S+,\s+"endpoints":\s+\["\S+://\[?\S+]?:\d+",?.*]',
        lines[6],
    )
    assert re.fullmatch(
        r'CurrentObservers:\s+\[\{"id":\s+\d+,\s+"directoryId":\s+\S+}(,\s+\{"id":\s+\d+,\s+"directoryId":\s+\S+})*]',
        lines[7],
    )


@pytest.mark.parametrize("controllers_flag", [False, True], ids=["bootstrap-server", "bootstrap-controller"])
def test_MetadataQuorumCommandTest_testOnlyOneBrokerAndOneController(
    cluster_of: Any, controllers_flag: bool
) -> None:
    sb = cluster_of(1, 1)
    status = quorum(sb, "--status", controllers=controllers_flag)
    assert status.stdout.splitlines()[4] == "MaxFollowerLag:         0"
    assert status.stdout.splitlines()[5] == "MaxFollowerLagTimeMs:   0"
    replication = quorum(sb, "--replication", controllers=controllers_flag)
    assert re.split(r"\s+", replication.stdout.splitlines()[1])[3] == "0"


@pytest.mark.kafka_difference(
    "a setting that cannot be used is a usage error: exit 2 with one line, nothing sent (kafka-metadata-quorum: 1)"
)
def test_MetadataQuorumCommandTest_testCommandConfig(tmp_path: Path) -> None:
    config = tmp_path / "admin.properties"
    config.write_text("security.protocol=SSL_PLAINTEXT\n")
    result = kcli(
        "metadata-quorum",
        "--bootstrap-server",
        "localhost:9092",
        "--command-config",
        str(config),
        "describe",
        "--status",
    )
    assert result.code == 2 and "SSL_PLAINTEXT" in result.stderr, result.stderr


def _human_readable(output: str) -> None:
    data_row = output.splitlines()[1]
    last_fetch, last_caught_up = data_row.split("\t")[4], data_row.split("\t")[5]
    assert "ms ago" in last_fetch and re.fullmatch(r"\d*", last_fetch.split(" ")[0])
    assert "ms ago" in last_caught_up and re.fullmatch(r"\d*", last_caught_up.split(" ")[0])


@pytest.mark.kafka_difference("a refused option combination exits 2 (kafka-metadata-quorum: 1)")
def test_MetadataQuorumCommandTest_testHumanReadableOutput(cluster_of: Any) -> None:
    sb = cluster_of(1, 1)
    assert quorum(sb, "--human-readable").code == 2
    assert quorum(sb, "--status", "--human-readable").code == 2
    plain = quorum(sb, "--replication")
    assert not re.fullmatch(r"\d*", plain.stdout.splitlines()[1])
    _human_readable(quorum(sb, "--replication", "--human-readable").stdout)
    _human_readable(quorum(sb, "--re", "--hu").stdout)
