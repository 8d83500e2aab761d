"""kafka-reassign-partitions.sh: Kafka's ReassignPartitionsCommandArgsTest, ported (no cluster needed).

Lines Kafka's validateAndParseArgs accepts must get past every kcli check and go on to reach the
cluster (nothing listens at the address: FAST_FAIL). kcli reads the JSON files while checking the
line, so those lines name real files (Kafka's test names `myfile.json`, which its parser never opens).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.kafka_parity.conftest import FAST_FAIL, accepted, kcli, usage_error

KAFKA_TOOL = "kafka-reassign-partitions.sh"
KAFKA_TEST_CLASS = "ReassignPartitionsCommandArgsTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/reassign/ReassignPartitionsCommandArgsTest.java"
KAFKA_METHODS = [
    "shouldCorrectlyParseValidMinimumGenerateOptions",
    "shouldCorrectlyParseValidMinimumExecuteOptions",
    "shouldCorrectlyParseValidMinimumVerifyOptions",
    "shouldAllowThrottleOptionOnExecute",
    "shouldUseDefaultsIfEnabled",
    "testList",
    "testCancelWithPreserveThrottlesOption",
    "shouldFailIfNoArgs",
    "shouldFailIfBlankArg",
    "shouldFailIfMultipleActions",
    "shouldNotAllowExecuteWithTopicsOption",
    "shouldNotAllowExecuteWithBrokerList",
    "shouldNotAllowExecuteWithoutReassignmentOption",
    "testMissingBootstrapServerArgumentForExecute",
    "shouldNotAllowGenerateWithoutBrokersAndTopicsOptions",
    "shouldNotAllowGenerateWithoutBrokersOption",
    "shouldNotAllowGenerateWithoutTopicsOption",
    "shouldNotAllowGenerateWithThrottleOption",
    "shouldNotAllowGenerateWithReassignmentOption",
    "shouldPrintHelpTextIfHelpArg",
    "shouldNotAllowVerifyWithoutReassignmentOption",
    "shouldNotAllowBrokersListWithVerifyOption",
    "shouldNotAllowThrottleWithVerifyOption",
    "shouldNotAllowTopicsOptionWithVerify",
    "shouldNotAllowCancelWithoutBootstrapServerOption",
    "shouldNotAllowCancelWithoutReassignmentJsonFile",
    "shouldAllowBootstrapControllerArg",
    "shouldNotAllowBootstrapControllerArgWithUnsupportedAction",
    "shouldNotAllowBootstrapControllerAndBootstrapServerArg",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a usage error exits 2 with one line; kafka-reassign-partitions exits 1 after printing its usage"
SERVER = ("--bootstrap-server", "localhost:1234")
MISSING_BOOTSTRAP = "Please specify either --bootstrap-server or --bootstrap-controller"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    reassignment = tmp_path / "reassignment.json"
    reassignment.write_text('{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[101,102]}]}')
    topics = tmp_path / "topics.json"
    topics.write_text('{"version":1,"topics":[{"topic":"foo"}]}')
    return {"reassignment": str(reassignment), "topics": str(topics)}


def reassign(*args: str) -> object:
    return kcli("reassign-partitions", *args, environ=FAST_FAIL)


def test_ReassignPartitionsCommandArgsTest_shouldCorrectlyParseValidMinimumGenerateOptions(
    files: dict[str, str],
) -> None:
    accepted(
        reassign(
            *SERVER, "--generate", "--broker-list", "101,102", "--topics-to-move-json-file", files["topics"]
        )
    )  # type: ignore[arg-type]


def test_ReassignPartitionsCommandArgsTest_shouldCorrectlyParseValidMinimumExecuteOptions(
    files: dict[str, str],
) -> None:
    accepted(reassign(*SERVER, "--execute", "--reassignment-json-file", files["reassignment"]))  # type: ignore[arg-type]


def test_ReassignPartitionsCommandArgsTest_shouldCorrectlyParseValidMinimumVerifyOptions(
    files: dict[str, str],
) -> None:
    accepted(reassign(*SERVER, "--verify", "--reassignment-json-file", files["reassignment"]))  # type: ignore[arg-type]


def test_ReassignPartitionsCommandArgsTest_shouldAllowThrottleOptionOnExecute(files: dict[str, str]) -> None:
    line = (*SERVER, "--execute", "--throttle", "100", "--reassignment-json-file", files["reassignment"])
    accepted(reassign(*line))  # type: ignore[arg-type]


def test_ReassignPartitionsCommandArgsTest_shouldUseDefaultsIfEnabled() -> None:
    """--timeout defaults to 10000 ms and --throttle to -1 (none), as Kafka's options do."""
    from kcli.cli.reassign import DEFAULT_TIMEOUT_MS
    from tests.kafka_parity.conftest import _click_command

    assert DEFAULT_TIMEOUT_MS == 10000
    options = {p.name: p for p in _click_command().commands["reassign-partitions"].params}
    assert options["throttle"].default == -1
    assert options["timeout"].default is None  # unset: the command uses DEFAULT_TIMEOUT_MS


def test_ReassignPartitionsCommandArgsTest_testList() -> None:
    accepted(reassign("--list", *SERVER))  # type: ignore[arg-type]


def test_ReassignPartitionsCommandArgsTest_testCancelWithPreserveThrottlesOption(
    files: dict[str, str],
) -> None:
    accepted(
        reassign(
            "--cancel", *SERVER, "--reassignment-json-file", files["reassignment"], "--preserve-throttles"
        )
    )  # type: ignore[arg-type]


@pytest.mark.kafka_difference(
    "no arguments print kcli's own help, on stdout, exit 2 (Kafka: its help text, exit 1)"
)
def test_ReassignPartitionsCommandArgsTest_shouldFailIfNoArgs() -> None:
    result = kcli("reassign-partitions")
    assert result.code == 2
    shown = " ".join(result.stdout.split())
    assert "Usage: kcli reassign-partitions" in shown
    assert "Move partition replicas between brokers" in shown


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldFailIfBlankArg() -> None:
    usage_error(kcli("reassign-partitions", " "), "Command must include exactly one action")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldFailIfMultipleActions() -> None:
    result = kcli(
        "reassign-partitions", *SERVER, "--execute", "--verify", "--reassignment-json-file", "myfile.json"
    )
    usage_error(result, "Command must include exactly one action")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowExecuteWithTopicsOption() -> None:
    line = (
        *SERVER,
        "--execute",
        "--reassignment-json-file",
        "myfile.json",
        "--topics-to-move-json-file",
        "myfile.json",
    )
    usage_error(
        kcli("reassign-partitions", *line),
        'Option "[topics-to-move-json-file]" can\'t be used with action "[execute]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowExecuteWithBrokerList() -> None:
    line = (*SERVER, "--execute", "--reassignment-json-file", "myfile.json", "--broker-list", "101,102")
    usage_error(
        kcli("reassign-partitions", *line), 'Option "[broker-list]" can\'t be used with action "[execute]"'
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowExecuteWithoutReassignmentOption() -> None:
    usage_error(
        kcli("reassign-partitions", *SERVER, "--execute"),
        'Missing required argument "[reassignment-json-file]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_testMissingBootstrapServerArgumentForExecute() -> None:
    usage_error(kcli("reassign-partitions", "--execute"), MISSING_BOOTSTRAP)


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowGenerateWithoutBrokersAndTopicsOptions() -> None:
    usage_error(
        kcli("reassign-partitions", *SERVER, "--generate"),
        'Missing required argument "[topics-to-move-json-file]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowGenerateWithoutBrokersOption() -> None:
    result = kcli("reassign-partitions", *SERVER, "--topics-to-move-json-file", "myfile.json", "--generate")
    usage_error(result, 'Missing required argument "[broker-list]"')


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowGenerateWithoutTopicsOption() -> None:
    result = kcli("reassign-partitions", *SERVER, "--broker-list", "101,102", "--generate")
    usage_error(result, 'Missing required argument "[topics-to-move-json-file]"')


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowGenerateWithThrottleOption() -> None:
    line = (
        *SERVER,
        "--generate",
        "--broker-list",
        "101,102",
        "--throttle",
        "100",
        "--topics-to-move-json-file",
        "myfile.json",
    )
    usage_error(
        kcli("reassign-partitions", *line), 'Option "[throttle]" can\'t be used with action "[generate]"'
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowGenerateWithReassignmentOption() -> None:
    line = (*SERVER, "--generate", "--broker-list", "101,102", "--topics-to-move-json-file", "myfile.json",
            "--reassignment-json-file", "myfile.json")  # fmt: skip
    usage_error(
        kcli("reassign-partitions", *line),
        'Option "[reassignment-json-file]" can\'t be used with action "[generate]"',
    )


@pytest.mark.kafka_difference(
    "--help prints kcli's help on stdout and exits 0 (Kafka prints its help text and exits 1)"
)
def test_ReassignPartitionsCommandArgsTest_shouldPrintHelpTextIfHelpArg() -> None:
    result = kcli("reassign-partitions", "--help")
    assert result.code == 0
    assert "Usage: kcli reassign-partitions" in " ".join(result.stdout.split())


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowVerifyWithoutReassignmentOption() -> None:
    usage_error(
        kcli("reassign-partitions", *SERVER, "--verify"),
        'Missing required argument "[reassignment-json-file]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowBrokersListWithVerifyOption() -> None:
    line = (*SERVER, "--verify", "--broker-list", "100,101", "--reassignment-json-file", "myfile.json")
    usage_error(
        kcli("reassign-partitions", *line), 'Option "[broker-list]" can\'t be used with action "[verify]"'
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowThrottleWithVerifyOption() -> None:
    line = (*SERVER, "--verify", "--throttle", "100", "--reassignment-json-file", "myfile.json")
    usage_error(
        kcli("reassign-partitions", *line), 'Option "[throttle]" can\'t be used with action "[verify]"'
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowTopicsOptionWithVerify() -> None:
    line = (
        *SERVER,
        "--verify",
        "--reassignment-json-file",
        "myfile.json",
        "--topics-to-move-json-file",
        "myfile.json",
    )
    usage_error(
        kcli("reassign-partitions", *line),
        'Option "[topics-to-move-json-file]" can\'t be used with action "[verify]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowCancelWithoutBootstrapServerOption() -> None:
    usage_error(kcli("reassign-partitions", "--cancel"), MISSING_BOOTSTRAP)


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowCancelWithoutReassignmentJsonFile() -> None:
    result = kcli("reassign-partitions", "--cancel", *SERVER, "--preserve-throttles")
    usage_error(result, 'Missing required argument "[reassignment-json-file]"')


def test_ReassignPartitionsCommandArgsTest_shouldAllowBootstrapControllerArg(files: dict[str, str]) -> None:
    line = (
        "--bootstrap-controller",
        "localhost:1234",
        "--cancel",
        "--reassignment-json-file",
        files["reassignment"],
    )
    accepted(reassign(*line))  # type: ignore[arg-type]


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowBootstrapControllerArgWithUnsupportedAction() -> (
    None
):
    line = ("--bootstrap-controller", "localhost:1234", "--generate", "--broker-list", "101,102",
            "--topics-to-move-json-file", "myfile.json")  # fmt: skip
    usage_error(
        kcli("reassign-partitions", *line),
        'Option "[bootstrap-controller]" can\'t be used with action "[generate]"',
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsCommandArgsTest_shouldNotAllowBootstrapControllerAndBootstrapServerArg() -> None:
    line = (*SERVER, "--bootstrap-controller", "localhost:1234", "--generate", "--broker-list", "101,102",
            "--topics-to-move-json-file", "myfile.json")  # fmt: skip
    usage_error(
        kcli("reassign-partitions", *line),
        "Please don't specify both --bootstrap-server and --bootstrap-controller",
    )
