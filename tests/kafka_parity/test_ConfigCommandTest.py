"""kafka-configs.sh: Kafka's ConfigCommandTest, ported.

Kafka's test drives ConfigCommandOptions.checkArgs and ConfigCommand's alter/describe with a mock
admin client. Here the same command lines go through `kcli configs`:
- checkArgs refusals: the same message, as kcli's one-line usage error (exit 2);
- lines checkArgs accepts: kcli gets past every check and goes on to reach the cluster
  (an address where nothing listens, FAST_FAIL), which proves the line parsed;
- what the mock admin client asserts about requests: control hooks of a sandbox record the
  requests kcli sends (DescribeConfigs, IncrementalAlterConfigs, DescribeClientQuotas,
  AlterClientQuotas, DescribeUserScramCredentials), and answer as the mock does where the
  sandbox lacks what the mock holds (broker loggers Kafka's test invents).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import FAST_FAIL, NOWHERE, accepted, kcli, runtime_error, usage_error

KAFKA_TOOL = "kafka-configs.sh"
KAFKA_TEST_CLASS = "ConfigCommandTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/ConfigCommandTest.java"
KAFKA_METHODS = [
    "shouldExitWithNonZeroStatusOnArgError",
    "shouldExitWithNonZeroStatusAlterUserQuotaWithoutEntityName",
    "shouldExitWithNonZeroStatusOnBrokerCommandError",
    "shouldExitWithNonZeroStatusIfBothBootstrapServerAndBootstrapControllerGiven",
    "shouldParseArgumentsForClientsEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForClientsEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForUsersEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForUsersEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForTopicsEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForTopicsEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForBrokersEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForBrokersEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForBrokerLoggersEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForBrokerLoggersEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForIpEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForIpEntityTypeWithControllerBootstrap",
    "shouldParseArgumentsForGroupEntityTypeWithBrokerBootstrap",
    "shouldParseArgumentsForGroupEntityTypeWithControllerBootstrap",
    "shouldFailIfAddAndAddFile",
    "testEntityDefaultForType",
    "testParseConfigsToBeAddedForAddConfigFile",
    "testOptionEntityTypeNames",
    "shouldFailIfUnrecognisedEntityType",
    "shouldFailIfBrokerEntityTypeIsNotAnInteger",
    "shouldFailIfShortBrokerEntityTypeIsNotAnInteger",
    "shouldFailIfMixedEntityTypeFlags",
    "shouldFailIfInvalidHost",
    "shouldFailIfUnresolvableHost",
    "shouldNotAlterNonQuotaIpConfigsUsingBootstrapServer",
    "testDescribeIpConfigs",
    "testAlterIpConfig",
    "shouldAddClientConfig",
    "shouldNotAlterNonQuotaNonScramUserOrClientConfigUsingBootstrapServer",
    "shouldNotAlterScramClientConfigUsingBootstrapServer",
    "shouldNotCreateUserScramCredentialConfigWithUnderMinimumIterationsUsingBootstrapServer",
    "shouldNotAlterUserScramCredentialAndClientQuotaConfigsSimultaneouslyUsingBootstrapServer",
    "shouldNotDescribeUserScramCredentialsWithEntityDefaultUsingBootstrapServer",
    "shouldAlterTopicConfig",
    "shouldDescribeConfigSynonyms",
    "shouldAddBrokerLoggerConfig",
    "testNoSpecifiedEntityOptionWithDescribeBrokersInBootstrapServerIsAllowed",
    "testDescribeAllBrokerConfig",
    "testDescribeAllTopicConfig",
    "testEntityDefaultOptionWithDescribeBrokerLoggerIsNotAllowed",
    "testEntityDefaultOptionWithAlterBrokerLoggerIsNotAllowed",
    "shouldRaiseInvalidConfigurationExceptionWhenAddingInvalidBrokerLoggerConfig",
    "shouldAddDefaultBrokerDynamicConfig",
    "shouldAddBrokerDynamicConfig",
    "shouldDescribeConfigBrokerWithoutEntityName",
    "shouldNotUpdateBrokerConfigIfMalformedEntityName",
    "shouldNotUpdateBrokerConfigIfMalformedConfig",
    "shouldNotUpdateBrokerConfigIfMalformedBracketConfig",
    "shouldNotUpdateConfigIfNonExistingConfigIsDeleted",
    "shouldAlterClientMetricsConfig",
    "shouldDescribeClientMetricsConfigWithoutEntityName",
    "shouldNotAlterClientMetricsConfigWithoutEntityName",
    "shouldAlterGroupConfig",
    "shouldDescribeGroupConfigWithoutEntityName",
    "shouldNotAlterGroupConfigWithoutEntityName",
    "testDescribeGroupConfigOldBroker",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a usage error exits 2 with one line; kafka-configs exits 1"
QUOTA_CHECK_EARLY = (
    "the quota-key check kafka-configs runs when altering (after checkArgs) runs before connecting, "
    "as a usage error (exit 2)"
)
B = ("--bootstrap-server", NOWHERE)
C = ("--bootstrap-controller", NOWHERE)
DESCRIBE_CONFIGS, INCREMENTAL_ALTER, DESCRIBE_QUOTAS, ALTER_QUOTAS, DESCRIBE_SCRAM = 32, 44, 48, 49, 50
TOPIC, BROKER, BROKER_LOGGER, CLIENT_METRICS, GROUP = 2, 4, 8, 16, 32
SET, DELETE = 0, 1
EXACT, DEFAULT, ANY = 0, 1, 2  # DescribeClientQuotas match types


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """This module's sandbox: its quotas, defaults and configs are changed here."""
    from kcli.sandbox.emulator.handle import Sandbox
    from tests.reassign.peer import create_topic

    with Sandbox(directory=tmp_path_factory.mktemp("config-command"), controllers=1, brokers=3) as sb:
        create_topic(sb.bootstrap_servers, "my-topic", [[1, 2, 3]])
        yield sb


def configs(sb: Any, *args: str) -> Any:
    return kcli("configs", "--bootstrap-server", sb.bootstrap_servers, *args)


def ok(sb: Any, *args: str) -> Any:
    result = configs(sb, *args)
    assert result.code == 0, (args, result.stdout, result.stderr)
    return result


def changes(request: Any) -> list[tuple[str, int, str | None]]:
    """(name, operation, value) of the one resource of an IncrementalAlterConfigs request."""
    (resource,) = request.resources
    return [(c.name, int(c.config_operation), c.value) for c in resource.configs]


# ---------------------------------------------------------------- exits and checkArgs refusals


@pytest.mark.kafka_difference("an unknown option is a usage error: exit 2 (kafka-configs: 1)")
def test_ConfigCommandTest_shouldExitWithNonZeroStatusOnArgError() -> None:
    result = kcli("configs", "--blah")
    assert result.code == 2
    assert "No such option: --blah" in result.stderr


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldExitWithNonZeroStatusAlterUserQuotaWithoutEntityName() -> None:
    result = kcli(
        "configs", *B, "--entity-type", "users", "--alter", "--add-config", "consumer_byte_rate=20000"
    )
    usage_error(
        result,
        "An entity-name or default entity must be specified with --alter of users, clients, brokers or ips",
    )


@pytest.mark.kafka_difference(
    "a malformed bootstrap address is a usage error: exit 2, nothing sent (kafka-configs: 1)"
)
def test_ConfigCommandTest_shouldExitWithNonZeroStatusOnBrokerCommandError() -> None:
    result = kcli(
        "configs",
        "--bootstrap-server",
        "invalid host",
        "--entity-type",
        "brokers",
        "--entity-name",
        "1",
        "--describe",
    )
    assert result.code == 2, result.stderr
    assert "invalid host" in result.stderr


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldExitWithNonZeroStatusIfBothBootstrapServerAndBootstrapControllerGiven() -> (
    None
):
    result = kcli("configs", *B, *C, "--describe", "--broker-defaults")
    usage_error(result, "Only one of --bootstrap-server or --bootstrap-controller can be specified")


# ---------------------------------------------------------------- testArgumentParse


def _argument_lines(entity_type: str, tmp_path: Path) -> dict[str, list[str]]:
    short_flag = "--" + entity_type[:-1]
    props = tmp_path / "new.properties"
    props.write_text("a=b\n")
    generic = ["--entity-name", "1", "--entity-type", entity_type]
    short = [short_flag, "1"]
    return {
        "describe-generic": [*generic, "--describe"],
        "describe-short": [*short, "--describe"],
        "alter-add-generic": [*generic, "--alter", "--add-config", "a=b,c=d"],
        "alter-file-generic": [*generic, "--alter", "--add-config-file", str(props)],
        "alter-add-short": [*short, "--alter", "--add-config", "a=b,c=d"],
        "alter-file-short": [*short, "--alter", "--add-config-file", str(props)],
        "alter-delete-generic": [*generic, "--alter", "--delete-config", "a,b,c"],
        "alter-delete-short": [*short, "--alter", "--delete-config", "a,b,c"],
        "alter-add-delete-generic": [*generic, "--alter", "--add-config", "a=b,c=d", "--delete-config", "a"],
        "alter-add-delete-short": [*short, "--alter", "--add-config", "a=b,c=d", "--delete-config", "a"],
        "alter-empty-values": [*generic, "--alter", "--add-config", "a=b,c=,d=e,f="],
        "alter-key-characters": [*short, "--alter", "--add-config", "a._-c=b,c=,d=e,a$b=c,f="],
    }


# What kafka-configs' alter (after checkArgs) refuses for quota entity types; kcli refuses it first.
QUOTA_REFUSALS = {
    "clients": "Only quota configs can be added for 'clients' using --bootstrap-server. Unexpected config names: ",
    "users": "Only quota and SCRAM credential configs can be added for 'users' using --bootstrap-server. "
    "Unexpected config names: ",
    "ips": "Only connection quota configs can be added for 'ips' using --bootstrap-server. Unexpected config names: ",
}
QUOTA_DELETE_REFUSALS = {
    "clients": "Only quota configs can be deleted for 'clients' using --bootstrap-server. Unexpected config names: ",
    "users": "Only quota and SCRAM credential configs can be deleted for 'users' using --bootstrap-server. "
    "Unexpected config names: ",
    "ips": "Only connection quota configs can be added for 'ips' using --bootstrap-server. Unexpected config names: ",
}


def _argument_parse(bootstrap: tuple[str, str], entity_type: str, tmp_path: Path) -> None:
    from kcli.ops.config_spec import parse_add_config, parse_delete_config

    for name, line in _argument_lines(entity_type, tmp_path).items():
        result = kcli("configs", *bootstrap, *line, environ=FAST_FAIL)
        quota = entity_type in QUOTA_REFUSALS
        if quota and ("--add-config" in line or "--add-config-file" in line):
            assert result.code == 2 and QUOTA_REFUSALS[entity_type] in result.stderr, (name, result.stderr)
        elif quota and "--alter" in line:
            assert result.code == 2 and QUOTA_DELETE_REFUSALS[entity_type] in result.stderr, (
                name,
                result.stderr,
            )
        elif quota and bootstrap == C:
            # Kafka's admin client refuses quota calls to controllers when it runs them
            # (UnsupportedEndpointTypeException). Controllers change quotas and SCRAM credentials but
            # do not describe them: kcli refuses a describe before connecting.
            assert result.code == 2 and "cannot be read through --bootstrap-controller" in result.stderr, (
                name,
                result.stderr,
            )
        else:
            accepted(result)
    assert parse_add_config("a=b,c=d") == {"a": "b", "c": "d"}
    assert parse_delete_config(["a"]) == ["a"]
    assert parse_add_config("a._-c=b,c=,d=e,a$b=c,f=") == {
        "a._-c": "b",
        "c": "",
        "d": "e",
        "a$b": "c",
        "f": "",
    }
    for bad in ("a;c=b", "a,=b"):
        result = kcli("configs", *bootstrap, "--" + entity_type[:-1], "1", "--alter", "--add-config", bad)
        assert result.code == 2 and result.stderr.count("\n") == 1, (bad, result.stderr)


def test_ConfigCommandTest_shouldParseArgumentsForTopicsEntityTypeWithBrokerBootstrap(tmp_path: Path) -> None:
    _argument_parse(B, "topics", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForTopicsEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "topics", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForBrokersEntityTypeWithBrokerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(B, "brokers", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForBrokersEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "brokers", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForBrokerLoggersEntityTypeWithBrokerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(B, "broker-loggers", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForBrokerLoggersEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "broker-loggers", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForGroupEntityTypeWithBrokerBootstrap(tmp_path: Path) -> None:
    _argument_parse(B, "groups", tmp_path)


def test_ConfigCommandTest_shouldParseArgumentsForGroupEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "groups", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForClientsEntityTypeWithBrokerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(B, "clients", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForClientsEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "clients", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForUsersEntityTypeWithBrokerBootstrap(tmp_path: Path) -> None:
    _argument_parse(B, "users", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForUsersEntityTypeWithControllerBootstrap(
    tmp_path: Path,
) -> None:
    _argument_parse(C, "users", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForIpEntityTypeWithBrokerBootstrap(tmp_path: Path) -> None:
    _argument_parse(B, "ips", tmp_path)


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
def test_ConfigCommandTest_shouldParseArgumentsForIpEntityTypeWithControllerBootstrap(tmp_path: Path) -> None:
    _argument_parse(C, "ips", tmp_path)


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfAddAndAddFile(tmp_path: Path) -> None:
    props = tmp_path / "new.properties"
    props.write_text("a=b\n")
    result = kcli(
        "configs", *B, "--entity-name", "1", "--entity-type", "brokers", "--alter",
        "--add-config", "a=b,c=d", "--add-config-file", str(props),
    )  # fmt: skip
    usage_error(result, "Only one of --add-config or --add-config-file must be specified")


REFUSED_DEFAULTS = {"topics", "broker-loggers", "client-metrics", "groups"}


@pytest.mark.kafka_difference(USAGE_EXIT)
@pytest.mark.parametrize(
    "entity_type",
    ["topics", "clients", "users", "brokers", "broker-loggers", "ips", "client-metrics", "groups"],
)
def test_ConfigCommandTest_testEntityDefaultForType(entity_type: str) -> None:
    result = kcli(
        "configs", *B, "--entity-default", "--entity-type", entity_type, "--describe", environ=FAST_FAIL
    )
    if entity_type in REFUSED_DEFAULTS:
        usage_error(result, f"--entity-default must not be specified with --describe of {entity_type}")
    else:
        accepted(result)


def test_ConfigCommandTest_testParseConfigsToBeAddedForAddConfigFile(tmp_path: Path) -> None:
    from kcli.cli.configs import _read_config_file
    from kcli.ops.config_spec import build_changes

    props = tmp_path / "add.properties"
    props.write_text('a=b\nc = d\njson = {"key": "val"}\nnested = [[1, 2], [3, 4]]')
    result = kcli(
        "configs", *B, "--entity-name", "1", "--entity-type", "brokers", "--alter", "--add-config-file", str(props),
        environ=FAST_FAIL,
    )  # fmt: skip
    accepted(result)
    added = build_changes(add_config=None, add_config_file=_read_config_file(props), delete_config=[]).sets
    assert added == {"a": "b", "c": "d", "json": '{"key": "val"}', "nested": "[[1, 2], [3, 4]]"}


# ---------------------------------------------------------------- entity types and names


def _quota_filter(request: Any) -> set[tuple[str, int, str | None]]:
    assert request.strict
    return {(c.entity_type, int(c.match_type), c.match) for c in request.components}


OPTION_ENTITY_CASES: dict[str, tuple[list[str], str, Any]] = {
    # id: (arguments, what is described, the resources or quota filter kcli must ask for)
    "topics-A": (["--entity-type", "topics", "--entity-name", "A"], "printed", "The topic 'A' doesn't exist"),
    "ips-name-first": (
        ["--entity-name", "1.2.3.4", "--entity-type", "ips"],
        "quotas",
        {("ip", EXACT, "1.2.3.4")},
    ),
    "client-metrics-A": (
        ["--entity-type", "client-metrics", "--entity-name", "A"],
        "printed",
        "The client-metric 'A' doesn't exist",
    ),
    "groups-A": (["--entity-type", "groups", "--entity-name", "A"], "printed", "The group 'A' doesn't exist"),
    "users-A-clients-default": (
        ["--entity-type", "users", "--entity-type", "clients", "--entity-name", "A", "--entity-default"],
        "quotas",
        {("user", EXACT, "A"), ("client-id", DEFAULT, None)},
    ),
    "default-first-then-B": (
        ["--entity-default", "--entity-name", "B", "--entity-type", "users", "--entity-type", "clients"],
        "quotas",
        {("user", DEFAULT, None), ("client-id", EXACT, "B")},
    ),
    "topic-flag": (["--topic", "A"], "printed", "The topic 'A' doesn't exist"),
    "ip-flag": (["--ip", "1.2.3.4"], "quotas", {("ip", EXACT, "1.2.3.4")}),
    "group-flag": (["--group", "A"], "printed", "The group 'A' doesn't exist"),
    "client-and-user-flags": (
        ["--client", "B", "--user", "A"],
        "quotas",
        {("client-id", EXACT, "B"), ("user", EXACT, "A")},
    ),
    "client-and-user-defaults": (
        ["--client", "B", "--user-defaults"],
        "quotas",
        {("client-id", EXACT, "B"), ("user", DEFAULT, None)},
    ),
    "clients-A-users-any": (
        ["--entity-type", "clients", "--entity-type", "users", "--entity-name", "A"],
        "quotas",
        {("client-id", EXACT, "A"), ("user", ANY, None)},
    ),
    "ips-any": (["--entity-type", "ips"], "quotas", {("ip", ANY, None)}),
    "brokers-0": (
        ["--entity-name", "0", "--entity-type", "brokers"],
        "printed",
        "The broker '0' doesn't exist",
    ),
    "broker-flag-0": (["--broker", "0"], "printed", "The broker '0' doesn't exist"),
    "users-any": (["--entity-type", "users"], "quotas", {("user", ANY, None)}),
    # a type alone: every entity of the type is described
    "topics-any": (["--entity-type", "topics"], "superset", {(TOPIC, "my-topic")}),
    "groups-any": (["--entity-type", "groups"], "superset", set()),
    "client-metrics-any": (["--entity-type", "client-metrics"], "superset", set()),
    "brokers-any": (
        ["--entity-type", "brokers"],
        "superset",
        {(BROKER, "1"), (BROKER, "2"), (BROKER, "3"), (BROKER, "")},
    ),
}


@pytest.mark.parametrize("case", list(OPTION_ENTITY_CASES), ids=list(OPTION_ENTITY_CASES))
def test_ConfigCommandTest_testOptionEntityTypeNames(own: Any, recorder: Any, case: str) -> None:
    args, kind, expected = OPTION_ENTITY_CASES[case]
    described = recorder(own, DESCRIBE_CONFIGS)
    quotas = recorder(own, DESCRIBE_QUOTAS)
    result = configs(own, "--describe", *args)
    assert result.code == 0, result.stderr
    resources = {(int(r.resource_type), r.resource_name) for q in described for r in q.resources}
    if kind == "configs":
        assert resources == expected
    elif kind == "superset":
        assert expected <= resources
    elif kind == "quotas":
        assert [_quota_filter(q) for q in quotas] == [expected]
    else:
        assert expected in result.stdout


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfUnrecognisedEntityType() -> None:
    result = kcli(
        "configs",
        *B,
        "--entity-name",
        "client",
        "--entity-type",
        "not-recognised",
        "--alter",
        "--add-config",
        "a=b,c=d",
    )
    usage_error(result, "Invalid entity type not-recognised, the entity type must be one of ")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfBrokerEntityTypeIsNotAnInteger() -> None:
    result = kcli(
        "configs", *B, "--entity-name", "A", "--entity-type", "brokers", "--alter", "--add-config", "a=b,c=d"
    )
    usage_error(result, "The entity name for brokers must be a valid integer broker id, but it is: A")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfShortBrokerEntityTypeIsNotAnInteger() -> None:
    result = kcli("configs", *B, "--broker", "A", "--alter", "--add-config", "a=b,c=d")
    usage_error(result, "The entity name for brokers must be a valid integer broker id, but it is: A")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfMixedEntityTypeFlags() -> None:
    result = kcli(
        "configs", *B, "--entity-name", "A", "--entity-type", "users", "--client", "B", "--describe"
    )
    usage_error(
        result, "--entity-{type,name,default} should not be used in conjunction with specific entity flags"
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfInvalidHost() -> None:
    result = kcli("configs", *B, "--entity-name", "A,B", "--entity-type", "ips", "--describe")
    usage_error(result, "The entity name for ips must be a valid IP or resolvable host, but it is: A,B")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldFailIfUnresolvableHost() -> None:
    result = kcli("configs", *B, "--entity-name", "RFC2606.invalid", "--entity-type", "ips", "--describe")
    usage_error(
        result, "The entity name for ips must be a valid IP or resolvable host, but it is: RFC2606.invalid"
    )


# ---------------------------------------------------------------- quotas


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
@pytest.mark.parametrize(
    "change",
    [
        ["--add-config", "connection_creation_rate=10000,some_config=10"],
        ["--add-config", "some_config=10"],
        ["--delete-config", "connection_creation_rate=10000,some_config=10"],
        ["--delete-config", "some_config=10"],
    ],
    ids=["add-known-and-unknown", "add-unknown", "delete-known-and-unknown", "delete-unknown"],
)
def test_ConfigCommandTest_shouldNotAlterNonQuotaIpConfigsUsingBootstrapServer(change: list[str]) -> None:
    result = kcli("configs", *B, "--alter", "--entity-type", "ips", "--entity-name", "127.0.0.1", *change)
    usage_error(result, "some_config")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--entity-default", "--entity-type", "ips"], {("ip", DEFAULT, None)}),
        (["--ip-defaults"], {("ip", DEFAULT, None)}),
        (["--entity-type", "ips", "--entity-name", "1.2.3.4"], {("ip", EXACT, "1.2.3.4")}),
        (["--ip", "1.2.3.4"], {("ip", EXACT, "1.2.3.4")}),
        (["--entity-type", "ips"], {("ip", ANY, None)}),
    ],
    ids=["entity-default", "ip-defaults", "entity-name", "ip-flag", "every-ip"],
)
def test_ConfigCommandTest_testDescribeIpConfigs(
    own: Any, recorder: Any, args: list[str], expected: Any
) -> None:
    quotas = recorder(own, DESCRIBE_QUOTAS)
    ok(own, "--describe", *args)
    assert [_quota_filter(q) for q in quotas] == [expected]


def _alterations(request: Any) -> tuple[dict[str, str | None], set[tuple[str, float | None]]]:
    (entry,) = request.entries
    assert not request.validate_only
    entity = {e.entity_type: e.entity_name for e in entry.entity}
    ops = {(op.key, None if op.remove else float(op.value)) for op in entry.ops}
    return entity, ops


@pytest.mark.parametrize("target", ["named-ip", "default-ip"])
def test_ConfigCommandTest_testAlterIpConfig(own: Any, recorder: Any, target: str) -> None:
    args = (
        ["--entity-type", "ips", "--entity-name", "1.2.3.4"]
        if target == "named-ip"
        else ["--entity-type", "ips", "--entity-default"]
    )
    entity = {"ip": "1.2.3.4" if target == "named-ip" else None}
    altered = recorder(own, ALTER_QUOTAS)
    described = recorder(own, DESCRIBE_QUOTAS)
    ok(own, "--alter", *args, "--add-config", "connection_creation_rate=100")
    ok(own, "--alter", *args, "--delete-config", "connection_creation_rate")
    match = ("ip", EXACT, "1.2.3.4") if target == "named-ip" else ("ip", DEFAULT, None)
    assert [_quota_filter(q) for q in described] == [{match}, {match}]
    assert [_alterations(a) for a in altered] == [
        (entity, {("connection_creation_rate", 100.0)}),
        (entity, {("connection_creation_rate", None)}),
    ]


USER_CLIENT_CASES = {
    "named-user-named-client": ("test-user-1", "test-client-1"),
    "named-user-default-client": ("test-user-2", ""),
    "named-user": ("test-user-3", None),
    "default-user-named-client": ("", "test-client-2"),
    "default-user-default-client": ("", ""),
    "default-user": ("", None),
    "named-client": (None, "test-client-3"),
    "default-client": (None, ""),
}


def _entity_args(entity_type: str, name: str | None) -> list[str]:
    if name is None:
        return []
    if name == "":
        return ["--entity-type", entity_type, "--entity-default"]
    return ["--entity-type", entity_type, "--entity-name", name]


@pytest.mark.parametrize("case", list(USER_CLIENT_CASES), ids=list(USER_CLIENT_CASES))
def test_ConfigCommandTest_shouldAddClientConfig(own: Any, recorder: Any, case: str) -> None:
    user, client = USER_CLIENT_CASES[case]
    target = [*_entity_args("users", user), *_entity_args("clients", client)]
    ok(own, "--alter", *target, "--add-config", "request_percentage=50")  # what the mock already holds
    altered = recorder(own, ALTER_QUOTAS)
    ok(
        own, "--alter", "--add-config", "consumer_byte_rate=20000,producer_byte_rate=10000",
        "--delete-config", "request_percentage", *target,
    )  # fmt: skip
    entity: dict[str, str | None] = {}
    if user is not None:
        entity["user"] = user or None
    if client is not None:
        entity["client-id"] = client or None
    assert [_alterations(a) for a in altered] == [
        (
            entity,
            {("consumer_byte_rate", 20000.0), ("producer_byte_rate", 10000.0), ("request_percentage", None)},
        )
    ]


USER_ADMIN = ["--entity-type", "users", "--entity-name", "admin"]
CLIENT_ADMIN = ["--entity-type", "clients", "--entity-name", "admin"]
ADD_SCRAM = ["--add-config", "SCRAM-SHA-256=[iterations=8192,password=foo-secret]"]
DELETE_SCRAM = ["--delete-config", "SCRAM-SHA-256"]


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
@pytest.mark.parametrize(
    "args",
    [
        [*USER_ADMIN, "-add-config", "consumer_byte_rate=20000,producer_byte_rate=10000,some_config=10"],
        [*USER_ADMIN, "--add-config", "consumer_byte_rate=20000,producer_byte_rate=10000,some_config=10"],
        [*CLIENT_ADMIN, "--add-config", "some_config=10"],
        [*USER_ADMIN, "--delete-config", "consumer_byte_rate,some_config"],
        [*USER_ADMIN, "--delete-config", "SCRAM-SHA-256,some_config"],
        [*CLIENT_ADMIN, "--delete-config", "some_config"],
    ],
    ids=[
        "user-add-single-dash",
        "user-add",
        "client-add",
        "user-delete",
        "user-delete-scram",
        "client-delete",
    ],
)
def test_ConfigCommandTest_shouldNotAlterNonQuotaNonScramUserOrClientConfigUsingBootstrapServer(
    args: list[str],
) -> None:
    usage_error(kcli("configs", *B, "--alter", *args), "some_config")


@pytest.mark.kafka_difference(QUOTA_CHECK_EARLY)
@pytest.mark.parametrize("change", [ADD_SCRAM, DELETE_SCRAM], ids=["add", "delete"])
def test_ConfigCommandTest_shouldNotAlterScramClientConfigUsingBootstrapServer(change: list[str]) -> None:
    usage_error(kcli("configs", *B, "--alter", *CLIENT_ADMIN, *change), "SCRAM-SHA-256")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotCreateUserScramCredentialConfigWithUnderMinimumIterationsUsingBootstrapServer() -> (
    None
):
    result = kcli(
        "configs",
        *B,
        "--alter",
        *USER_ADMIN,
        "--add-config",
        "SCRAM-SHA-256=[iterations=100,password=foo-secret]",
    )
    usage_error(result, "Iterations 100 is less than the minimum 4096 required for SCRAM-SHA-256")


SECOND_USER = ["--entity-type", "users", "--entity-name", "admin1"]
ADD_QUOTA = ["--add-config", "consumer_byte_rate=20000"]
DELETE_QUOTA = ["--delete-config", "consumer_byte_rate"]


SCRAM_AND_QUOTA = {
    "add-scram-delete-quota": [*USER_ADMIN, *ADD_SCRAM, *USER_ADMIN, *DELETE_QUOTA],
    "add-scram-delete-quota-second-user": [*USER_ADMIN, *ADD_SCRAM, *SECOND_USER, *DELETE_QUOTA],
    "delete-scram-add-quota": [*USER_ADMIN, *DELETE_SCRAM, *USER_ADMIN, *ADD_QUOTA],
    "delete-scram-add-quota-second-user": [*USER_ADMIN, *DELETE_SCRAM, *SECOND_USER, *ADD_QUOTA],
    "delete-quota-add-scram": [*USER_ADMIN, *DELETE_QUOTA, *USER_ADMIN, *ADD_SCRAM],
    "delete-quota-add-scram-second-user": [*SECOND_USER, *DELETE_QUOTA, *USER_ADMIN, *ADD_SCRAM],
    "add-quota-delete-scram": [*USER_ADMIN, *ADD_QUOTA, *USER_ADMIN, *DELETE_SCRAM],
    "add-quota-delete-scram-second-user": [*SECOND_USER, *ADD_QUOTA, *USER_ADMIN, *DELETE_SCRAM],
    # the fact the eight lines above aim at, on one user
    "one-user": [*USER_ADMIN, *ADD_SCRAM, *DELETE_QUOTA],
}


@pytest.mark.kafka_difference(
    "Kafka's test calls alterConfig directly; on the command line both tools refuse a repeated "
    "--entity-type first (checkArgs: Duplicate entity type(s)), kcli with exit 2"
)
@pytest.mark.parametrize("case", list(SCRAM_AND_QUOTA), ids=list(SCRAM_AND_QUOTA))
def test_ConfigCommandTest_shouldNotAlterUserScramCredentialAndClientQuotaConfigsSimultaneouslyUsingBootstrapServer(
    case: str,
) -> None:
    result = kcli("configs", *B, "--alter", *SCRAM_AND_QUOTA[case])
    if case == "one-user":
        usage_error(result, "Cannot alter both quota and SCRAM credential configs simultaneously for 'users'")
    else:
        usage_error(result, "Duplicate entity type(s) specified: users")


DEFAULT_USER_FORMS = {
    "user-defaults": ["--user-defaults"],
    "entity-default": ["--entity-type", "users", "--entity-default"],
}


@pytest.mark.parametrize("form", list(DEFAULT_USER_FORMS), ids=list(DEFAULT_USER_FORMS))
def test_ConfigCommandTest_shouldNotDescribeUserScramCredentialsWithEntityDefaultUsingBootstrapServer(
    own: Any, recorder: Any, form: str
) -> None:
    message = "The use of --entity-default or --user-defaults is not allowed with User SCRAM Credentials using --bootstrap-server."
    for change in (ADD_SCRAM, DELETE_SCRAM):
        usage_error(kcli("configs", *B, "--alter", *DEFAULT_USER_FORMS[form], *change), message)
    scram = recorder(own, DESCRIBE_SCRAM)
    ok(own, "--describe", *DEFAULT_USER_FORMS[form])
    assert scram == []


# ---------------------------------------------------------------- resource configs


@pytest.mark.parametrize("file", [True, False], ids=["add-config-file", "add-config"])
def test_ConfigCommandTest_shouldAlterTopicConfig(
    own: Any, recorder: Any, tmp_path: Path, file: bool
) -> None:
    ok(own, "--alter", "--topic", "my-topic", "--add-config", "unclean.leader.election.enable=true")
    added = {"delete.retention.ms": "1000000", "min.insync.replicas": "2"}
    if file:
        props = tmp_path / "topic.properties"
        props.write_text("".join(f"{k}={v}\n" for k, v in added.items()))
        add = ["--add-config-file", str(props)]
    else:
        add = ["--add-config", ",".join(f"{k}={v}" for k, v in added.items())]
    altered = recorder(own, INCREMENTAL_ALTER)
    ok(
        own, "--entity-name", "my-topic", "--entity-type", "topics", "--alter", *add,
        "--delete-config", "unclean.leader.election.enable",
    )  # fmt: skip
    (request,) = altered
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(TOPIC, "my-topic")]
    assert sorted(changes(request)) == [
        ("delete.retention.ms", SET, "1000000"),
        ("min.insync.replicas", SET, "2"),
        ("unclean.leader.election.enable", DELETE, None),
    ]
    ok(own, "--alter", "--topic", "my-topic", "--delete-config", "delete.retention.ms,min.insync.replicas")


def test_ConfigCommandTest_shouldDescribeConfigSynonyms(own: Any, recorder: Any) -> None:
    described = recorder(own, DESCRIBE_CONFIGS)
    ok(own, "--entity-name", "my-topic", "--entity-type", "topics", "--describe", "--all")
    (request,) = described
    assert request.include_synonyms
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(TOPIC, "my-topic")]


def _with_loggers(hooks: Any, sb: Any, names: list[str]) -> list[Any]:
    """Broker 1's loggers are `names` (all INFO), as Kafka's mock admin holds them; alters are recorded."""
    from kcli.sandbox.emulator.context import ZERO

    async def describe(context: Any, request: Any) -> Any:
        if not all(int(r.resource_type) == BROKER_LOGGER for r in request.resources):
            return None
        return context.r(
            "DescribeConfigsResponse",
            throttle_time=ZERO,
            results=tuple(
                context.r(
                    "DescribeConfigsResult",
                    error_code=0,
                    error_message=None,
                    resource_type=r.resource_type,
                    resource_name=r.resource_name,
                    configs=tuple(
                        context.r(
                            "DescribeConfigsResourceResult",
                            name=name,
                            value="INFO",
                            read_only=False,
                            config_source=6,
                            is_sensitive=False,
                            synonyms=(),
                            config_type=2,
                            documentation=None,
                        )
                        for name in names
                    ),
                )
                for r in request.resources
            ),
        )

    altered: list[Any] = []

    async def alter(context: Any, request: Any) -> Any:
        altered.append(request)
        return context.r(
            "IncrementalAlterConfigsResponse",
            throttle_time=ZERO,
            responses=tuple(
                context.r(
                    "AlterConfigsResourceResponse",
                    error_code=0,
                    error_message=None,
                    resource_type=r.resource_type,
                    resource_name=r.resource_name,
                )
                for r in request.resources
            ),
        )

    hooks(sb, DESCRIBE_CONFIGS, describe)
    hooks(sb, INCREMENTAL_ALTER, alter)
    return altered


LOGGER_CHANGE = [
    "--entity-type", "broker-loggers", "--alter", "--entity-name", "1",
    "--add-config", "kafka.log.LogCleaner=DEBUG", "--delete-config", "kafka.server.ReplicaManager,kafka.server.KafkaApi",
]  # fmt: skip


def test_ConfigCommandTest_shouldAddBrokerLoggerConfig(own: Any, hooks: Any) -> None:
    altered = _with_loggers(
        hooks, own, ["kafka.log.LogCleaner", "kafka.server.ReplicaManager", "kafka.server.KafkaApi"]
    )
    ok(own, *LOGGER_CHANGE)
    (request,) = altered
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(BROKER_LOGGER, "1")]
    assert changes(request) == [
        ("kafka.server.ReplicaManager", DELETE, ""),
        ("kafka.server.KafkaApi", DELETE, ""),
        ("kafka.log.LogCleaner", SET, "DEBUG"),
    ] or changes(request) == [
        ("kafka.server.ReplicaManager", DELETE, None),
        ("kafka.server.KafkaApi", DELETE, None),
        ("kafka.log.LogCleaner", SET, "DEBUG"),
    ]


def test_ConfigCommandTest_shouldRaiseInvalidConfigurationExceptionWhenAddingInvalidBrokerLoggerConfig(
    own: Any, hooks: Any
) -> None:
    altered = _with_loggers(hooks, own, ["kafka.server.KafkaApi"])
    result = configs(own, *LOGGER_CHANGE)
    runtime_error(result, "Invalid broker logger(s): kafka.server.ReplicaManager,kafka.log.LogCleaner")
    assert altered == []


def test_ConfigCommandTest_testNoSpecifiedEntityOptionWithDescribeBrokersInBootstrapServerIsAllowed() -> None:
    accepted(kcli("configs", *B, "--entity-type", "brokers", "--describe", environ=FAST_FAIL))


def test_ConfigCommandTest_testDescribeAllBrokerConfig() -> None:
    line = ["--entity-type", "brokers", "--entity-name", "1", "--describe", "--all"]
    accepted(kcli("configs", *B, *line, environ=FAST_FAIL))


def test_ConfigCommandTest_testDescribeAllTopicConfig() -> None:
    line = ["--entity-type", "topics", "--entity-name", "foo", "--describe", "--all"]
    accepted(kcli("configs", *B, *line, environ=FAST_FAIL))


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_testEntityDefaultOptionWithDescribeBrokerLoggerIsNotAllowed() -> None:
    result = kcli("configs", *B, "--entity-type", "broker-loggers", "--entity-default", "--describe")
    usage_error(result, "--entity-default must not be specified with --describe of broker-loggers")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_testEntityDefaultOptionWithAlterBrokerLoggerIsNotAllowed() -> None:
    line = [
        "--entity-type",
        "broker-loggers",
        "--entity-default",
        "--alter",
        "--add-config",
        "kafka.log.LogCleaner=DEBUG",
    ]
    usage_error(kcli("configs", *B, *line), "An entity name must be specified with --alter of broker-loggers")


BROKER_CHANGE = [
    "--entity-type",
    "brokers",
    "--alter",
    "--add-config",
    "message.max.bytes=10,leader.replication.throttled.rate=10",
]


def _alter_broker(own: Any, recorder: Any, resource: str, target: list[str]) -> None:
    altered = recorder(own, INCREMENTAL_ALTER)
    ok(own, *BROKER_CHANGE, *target)
    (request,) = altered
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(BROKER, resource)]
    assert sorted(changes(request)) == [
        ("leader.replication.throttled.rate", SET, "10"),
        ("message.max.bytes", SET, "10"),
    ]
    ok(
        own,
        "--entity-type",
        "brokers",
        "--alter",
        "--delete-config",
        "message.max.bytes,leader.replication.throttled.rate",
        *target,
    )


def test_ConfigCommandTest_shouldAddDefaultBrokerDynamicConfig(own: Any, recorder: Any) -> None:
    _alter_broker(own, recorder, "", ["--entity-default"])


def test_ConfigCommandTest_shouldAddBrokerDynamicConfig(own: Any, recorder: Any) -> None:
    _alter_broker(own, recorder, "1", ["--entity-name", "1"])


def test_ConfigCommandTest_shouldDescribeConfigBrokerWithoutEntityName(own: Any, recorder: Any) -> None:
    described = recorder(own, DESCRIBE_CONFIGS)
    ok(own, "--entity-type", "brokers", "--describe")
    assert all(request.include_synonyms for request in described)
    resources = [(int(r.resource_type), r.resource_name) for q in described for r in q.resources]
    assert sorted(resources) == sorted([(BROKER, str(b)) for b in own.broker_ids] + [(BROKER, "")])


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotUpdateBrokerConfigIfMalformedEntityName() -> None:
    line = [
        "--entity-name",
        "1,2,3",
        "--entity-type",
        "brokers",
        "--alter",
        "--add-config",
        "leader.replication.throttled.rate=10",
    ]
    usage_error(
        kcli("configs", *B, *line),
        "The entity name for brokers must be a valid integer broker id, but it is: 1,2,3",
    )


ADD_CONFIG_FORMAT = (
    'Invalid entity config: all configs to be added must be in the format "key=val" or  "key=[val1,val2]" '
    "to group values which contain commas."
)


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotUpdateBrokerConfigIfMalformedConfig() -> None:
    line = ["--entity-name", "1", "--entity-type", "brokers", "--alter", "--add-config", "a=="]
    usage_error(kcli("configs", *B, *line), ADD_CONFIG_FORMAT)


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotUpdateBrokerConfigIfMalformedBracketConfig() -> None:
    line = ["--entity-name", "1", "--entity-type", "brokers", "--alter", "--add-config", "a=[b,c,d=e"]
    usage_error(kcli("configs", *B, *line), ADD_CONFIG_FORMAT)


def test_ConfigCommandTest_shouldNotUpdateConfigIfNonExistingConfigIsDeleted(own: Any, recorder: Any) -> None:
    altered = recorder(own, INCREMENTAL_ALTER)
    result = configs(
        own, "--entity-name", "my-topic", "--entity-type", "topics", "--alter",
        "--delete-config", "missing_config1, missing_config2",
    )  # fmt: skip
    runtime_error(result, "Invalid config(s): missing_config1,missing_config2")
    assert altered == []


# ---------------------------------------------------------------- client metrics and groups

CLIENT_METRICS_CHANGE = [
    "--alter", "--delete-config", "interval.ms",
    "--add-config", "metrics=org.apache.kafka.consumer.,match=[client_software_name=kafka.python,client_software_version=1\\.2\\..*]",
]  # fmt: skip


@pytest.mark.parametrize(
    "target",
    [["--entity-type", "client-metrics", "--entity-name", "1"], ["--client-metrics", "1"]],
    ids=["generic", "alias"],
)
def test_ConfigCommandTest_shouldAlterClientMetricsConfig(own: Any, recorder: Any, target: list[str]) -> None:
    ok(own, "--alter", "--client-metrics", "1", "--add-config", "interval.ms=1000")
    altered = recorder(own, INCREMENTAL_ALTER)
    ok(own, *CLIENT_METRICS_CHANGE, *target)
    (request,) = altered
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(CLIENT_METRICS, "1")]
    ops = changes(request)
    assert ops[0] == ("interval.ms", DELETE, None) or ops[0] == ("interval.ms", DELETE, "")
    assert sorted(ops[1:]) == [
        ("match", SET, "client_software_name=kafka.python,client_software_version=1\\.2\\..*"),
        ("metrics", SET, "org.apache.kafka.consumer."),
    ]


def test_ConfigCommandTest_shouldDescribeClientMetricsConfigWithoutEntityName(
    own: Any, recorder: Any
) -> None:
    ok(own, "--alter", "--client-metrics", "1", "--add-config", "metrics=*")
    described = recorder(own, DESCRIBE_CONFIGS)
    result = ok(own, "--entity-type", "client-metrics", "--describe")
    assert [(int(r.resource_type), r.resource_name) for q in described for r in q.resources] == [
        (CLIENT_METRICS, "1")
    ]
    assert all(q.include_synonyms for q in described)
    assert "Dynamic configs for client-metric 1 are:" in result.stdout


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotAlterClientMetricsConfigWithoutEntityName() -> None:
    line = ["--entity-type", "client-metrics", "--alter", "--add-config", "interval.ms=1000"]
    usage_error(kcli("configs", *B, *line), "An entity name must be specified with --alter of client-metrics")


@pytest.mark.parametrize(
    ("name", "target"),
    [
        ("group", ["--entity-type", "groups", "--entity-name", "group"]),
        ("groupUsingAlias", ["--group", "groupUsingAlias"]),
    ],
    ids=["generic", "alias"],
)
def test_ConfigCommandTest_shouldAlterGroupConfig(
    own: Any, recorder: Any, name: str, target: list[str]
) -> None:
    ok(own, "--alter", "--group", name, "--add-config", "consumer.session.timeout.ms=45000")
    altered = recorder(own, INCREMENTAL_ALTER)
    ok(
        own,
        "--alter",
        "--delete-config",
        "consumer.session.timeout.ms",
        "--add-config",
        "consumer.heartbeat.interval.ms=6000",
        *target,
    )
    (request,) = altered
    assert [(int(r.resource_type), r.resource_name) for r in request.resources] == [(GROUP, name)]
    ops = changes(request)
    assert ops[0][:2] == ("consumer.session.timeout.ms", DELETE)
    assert ops[1:] == [("consumer.heartbeat.interval.ms", SET, "6000")]


def test_ConfigCommandTest_shouldDescribeGroupConfigWithoutEntityName(own: Any, recorder: Any) -> None:
    ok(own, "--alter", "--group", "group", "--add-config", "consumer.heartbeat.interval.ms=6000")
    described = recorder(own, DESCRIBE_CONFIGS)
    result = ok(own, "--entity-type", "groups", "--describe")
    assert (GROUP, "group") in {
        (int(r.resource_type), r.resource_name) for q in described for r in q.resources
    }
    assert "Dynamic configs for group group are:" in result.stdout


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ConfigCommandTest_shouldNotAlterGroupConfigWithoutEntityName() -> None:
    line = ["--entity-type", "groups", "--alter", "--add-config", "consumer.heartbeat.interval.ms=6000"]
    usage_error(kcli("configs", *B, *line), "An entity name must be specified with --alter of groups")


def test_ConfigCommandTest_testDescribeGroupConfigOldBroker(own: Any, hooks: Any) -> None:
    """A broker without ListConfigResources (before 4.1): groups are still described, without error."""
    from kcli.sandbox.emulator.apis.k18_api_versions import handle_api_versions

    async def old_broker(context: Any, request: Any) -> Any:
        response = await handle_api_versions(context, request)
        return dataclasses.replace(response, api_keys=tuple(k for k in response.api_keys if k.api_key != 74))

    hooks(own, 18, old_broker)
    ok(own, "--entity-type", "groups", "--describe")
