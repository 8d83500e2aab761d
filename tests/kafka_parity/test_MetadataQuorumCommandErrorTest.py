"""kafka-metadata-quorum.sh: Kafka's MetadataQuorumCommandErrorTest, ported (no cluster needed)."""

from __future__ import annotations

import time

import pytest

from tests.kafka_parity.conftest import kcli, usage_error

KAFKA_TOOL = "kafka-metadata-quorum.sh"
KAFKA_TEST_CLASS = "MetadataQuorumCommandErrorTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/MetadataQuorumCommandErrorTest.java"
KAFKA_METHODS = [
    "testPropertiesFileDoesNotExists",
    "testDescribeOptions",
    "testRelativeTimeMs",
    "testAddControllerWithoutOptions",
    "testRemoveControllerRequiresControllerId",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a usage error exits 2 with one line (`Error: ` first); kafka-metadata-quorum exits 1"
B = ("--bootstrap-server", "localhost:9092")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_MetadataQuorumCommandErrorTest_testPropertiesFileDoesNotExists() -> None:
    result = kcli("metadata-quorum", *B, "--command-config", "admin.properties", "describe")
    usage_error(result, "Properties file admin.properties does not exists!")
    assert result.stderr == "Error: Properties file admin.properties does not exists!\n"


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_MetadataQuorumCommandErrorTest_testDescribeOptions() -> None:
    usage_error(
        kcli("metadata-quorum", *B, "describe"),
        "One of --status or --replication must be specified with describe sub-command",
    )
    usage_error(
        kcli("metadata-quorum", *B, "describe", "--status", "--replication"),
        "Only one of --status or --replication should be specified with describe sub-command",
    )


def test_MetadataQuorumCommandErrorTest_testRelativeTimeMs() -> None:
    from kcli.errors import KcliError
    from kcli.ops.quorum import relative_time_ms

    now = int(time.time() * 1000)
    assert relative_time_ms(now - 5000, now, "test") == 5000
    assert relative_time_ms(now, now, "test") == 0
    for bad in (-86_400_000, now + 86_400_000):
        with pytest.raises(
            KcliError, match=r"Error while computing relative time, possible drift in system clock\."
        ):
            relative_time_ms(bad, now, "test")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_MetadataQuorumCommandErrorTest_testAddControllerWithoutOptions() -> None:
    usage_error(
        kcli("metadata-quorum", *B, "add-controller"),
        "You must supply the configuration file of the controller you are adding when using add-controller.",
    )


@pytest.mark.kafka_difference(
    "argparse4j's error is click's: usage and the error on stderr, exit 2 (Kafka: 1)"
)
def test_MetadataQuorumCommandErrorTest_testRemoveControllerRequiresControllerId() -> None:
    result = kcli(
        "metadata-quorum",
        *B,
        "remove-controller",
        "--controller-directory-id",
        "_KWDkTahTVaiVVVTaugNew",
        "--dry-run",
    )
    assert result.code == 2
    assert "Missing option '--controller-id'" in result.stderr
