"""kafka-acls.sh: Kafka's AclCommandTest, ported.

The cluster cases run against one sandbox with the StandardAuthorizer on (plaintext: ANONYMOUS is
a super user, as Kafka's test configures it); Kafka's `cluster.waitAcls` becomes a read of the
cluster's ACL records. The argument cases need no cluster.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import FAST_FAIL, NOWHERE, accepted, kcli, usage_error

KAFKA_TOOL = "kafka-acls.sh"
KAFKA_TEST_CLASS = "AclCommandTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/AclCommandTest.java"
KAFKA_METHODS = [
    "testAclCliWithAdminAPI",
    "testAclCliWithAdminAPIAndBootstrapController",
    "testAclCliWithMisusingBootstrapServerToController",
    "testAclCliWithMisusingBootstrapControllerToServer",
    "testProducerConsumerCliWithAdminAPI",
    "testProducerConsumerCliWithAdminAPIAndBootstrapController",
    "testAclCliWithClientId",
    "testAclCliWithClientIdAndBootstrapController",
    "testAclsOnPrefixedResourcesWithAdminAPI",
    "testAclsOnPrefixedResourcesWithAdminAPIAndBootstrapController",
    "testPatternTypesWithAdminAPI",
    "testPatternTypesWithAdminAPIAndBootstrapController",
    "testDuplicateAdd",
    "testUseBootstrapServerOptWithBootstrapControllerOpt",
    "testUseWithoutBootstrapServerOptAndBootstrapControllerOpt",
    "testExactlyOneAction",
    "testUseListPrincipalsOptWithoutListOpt",
    "testUseProducerOptWithoutTopicOpt",
    "testUseIdempotentOptWithoutProducerOpt",
    "testUseConsumerOptWithoutRequiredOpt",
    "testInvalidArgs",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a usage error exits 2 with one line; kafka-acls exits 1 after printing its usage"
CREATE_ACLS = 30
ALLOW, DENY = 3, 2
# ResourceType codes
TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER = 2, 3, 4, 5, 6, 7
LITERAL, PREFIXED = 3, 4
OPS = {
    "Read": 3, "Write": 4, "Create": 5, "Delete": 6, "Alter": 7, "Describe": 8, "ClusterAction": 9,
    "DescribeConfigs": 10, "AlterConfigs": 11, "IdempotentWrite": 12, "CreateTokens": 13, "DescribeTokens": 14,
    "TwoPhaseCommit": 15,
}  # fmt: skip
USERS = [
    "User:CN=writeuser,OU=Unknown,O=Unknown,L=Unknown,ST=Unknown,C=Unknown",
    "User:test2",
    "User:CN=\\#User with special chars in CN : (\\, \\+ \" \\ \\< \\> \\; ')",
]
HOSTS = ["host1", "host2"]

# Kafka's RESOURCE_TO_COMMAND and RESOURCE_TO_OPERATIONS: (type, names) -> (command, operations)
RESOURCES: dict[str, tuple[int, list[str], list[str], list[str]]] = {
    "topics": (TOPIC, ["test-1", "test-2"], ["--topic", "test-1", "--topic", "test-2"],
               ["Read", "Write", "Create", "Describe", "Delete", "DescribeConfigs", "AlterConfigs", "Alter"]),
    "cluster": (CLUSTER, ["kafka-cluster"], ["--cluster"],
                ["Create", "ClusterAction", "DescribeConfigs", "AlterConfigs", "IdempotentWrite", "Alter", "Describe"]),
    "groups": (GROUP, ["testGroup-1", "testGroup-2"], ["--group", "testGroup-1", "--group", "testGroup-2"],
               ["Read", "Describe", "Delete"]),
    "transactional-ids": (TRANSACTIONAL_ID, ["t0", "t1"], ["--transactional-id", "t0", "--transactional-id", "t1"],
                          ["Describe", "Write", "TwoPhaseCommit"]),
    "delegation-tokens": (DELEGATION_TOKEN, ["token1", "token2"],
                          ["--delegation-token", "token1", "--delegation-token", "token2"], ["Describe"]),
    "user-principals": (USER, ["User:test-user1", "User:test-user2"],
                        ["--user-principal", "User:test-user1", "--user-principal", "User:test-user2"],
                        ["CreateTokens", "DescribeTokens"]),
}  # fmt: skip
TYPE_NAMES = {TOPIC: "TOPIC", GROUP: "GROUP", CLUSTER: "CLUSTER", TRANSACTIONAL_ID: "TRANSACTIONAL_ID"}
TYPE_NAMES |= {DELEGATION_TOKEN: "DELEGATION_TOKEN", USER: "USER"}


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One broker, one controller, the StandardAuthorizer on: Kafka's @ClusterTestDefaults."""
    from kcli.sandbox.emulator.handle import Sandbox

    with Sandbox(
        directory=tmp_path_factory.mktemp("acl-command"), controllers=1, brokers=1, authorizer=True
    ) as sb:
        yield sb


def _connection(sb: Any, kind: str) -> list[str]:
    if kind == "server":
        return ["--bootstrap-server", sb.bootstrap_servers]
    return ["--bootstrap-controller", sb.bootstrap_controllers]


def acls_of(sb: Any, resource_type: int, name: str, pattern: int = LITERAL) -> set[tuple[str, str, int, int]]:
    """(principal, host, operation, permission) of the ACLs the cluster holds for one resource pattern."""
    entries = sb.run(lambda cluster: list(cluster.image.acls.values()))
    return {
        (e.principal, e.host, e.operation, e.permission_type)
        for e in entries
        if (e.resource_type, e.resource_name, e.pattern_type) == (resource_type, name, pattern)
    }


def expected_acls(permission: int, operations: list[str]) -> set[tuple[str, str, int, int]]:
    """Kafka's AclCommand.getAcls(USERS, permission, operations, HOSTS)."""
    return {(user, host, OPS[op], permission) for user in USERS for op in operations for host in HOSTS}


def _principal_args(permission: int) -> list[str]:
    """Kafka's getCmd: per user, the hosts then the principal."""
    hosts = "--allow-host" if permission == ALLOW else "--deny-host"
    principal = "--allow-principal" if permission == ALLOW else "--deny-principal"
    out: list[str] = []
    for user in USERS:
        out += [hosts, HOSTS[0], hosts, HOSTS[1], principal, user]
    return out


def _pattern_text(resource_type: int, name: str, pattern: str = "LITERAL") -> str:
    return f"ResourcePattern(resourceType={TYPE_NAMES[resource_type]}, name={name}, patternType={pattern})"


def _remove(
    sb: Any, connection: list[str], resources: list[tuple[int, str]], resource_cmd: list[str]
) -> None:
    result = kcli("acls", *connection, *resource_cmd, "--remove", "--force")
    assert result.code == 0 and result.stderr == "", result.stderr
    for resource_type, name in resources:
        assert acls_of(sb, resource_type, name) == set()


def _acl_cli(sb: Any, connection: list[str]) -> None:
    for resource_type, names, resource_cmd, operations in RESOURCES.values():
        for permission in (ALLOW, DENY):
            op_cmd = [arg for op in operations for arg in ("--operation", op)]
            added = kcli("acls", *connection, *_principal_args(permission), *resource_cmd, *op_cmd, "--add")
            assert added.code == 0 and added.stderr == "", added.stderr
            for name in names:
                assert f"Adding ACLs for resource `{_pattern_text(resource_type, name)}`:" in added.stdout
                assert acls_of(sb, resource_type, name) == expected_acls(permission, operations)
            listed = kcli("acls", *connection, "--list")
            assert listed.code == 0 and listed.stderr == "", listed.stderr
            for name in names:
                assert f"Current ACLs for resource `{_pattern_text(resource_type, name)}`:" in listed.stdout
            _remove(sb, connection, [(resource_type, n) for n in names], resource_cmd)


def test_AclCommandTest_testAclCliWithAdminAPI(own: Any) -> None:
    _acl_cli(own, _connection(own, "server"))


def test_AclCommandTest_testAclCliWithAdminAPIAndBootstrapController(own: Any) -> None:
    _acl_cli(own, _connection(own, "controller"))


MISUSED = (
    "the wrong bootstrap kind is a usage error naming the right option (exit 2); kafka-acls fails with exit 1"
)


@pytest.mark.kafka_difference(MISUSED)
def test_AclCommandTest_testAclCliWithMisusingBootstrapServerToController(own: Any) -> None:
    result = kcli("acls", "--bootstrap-controller", own.bootstrap_servers, "--list")
    usage_error(result, "is a broker; use --bootstrap-server")


@pytest.mark.kafka_difference(MISUSED)
def test_AclCommandTest_testAclCliWithMisusingBootstrapControllerToServer(own: Any) -> None:
    result = kcli("acls", "--bootstrap-server", own.bootstrap_controllers, "--list")
    usage_error(result, "is a controller; use --bootstrap-controller")


# Kafka's CMD_TO_RESOURCES_TO_ACL: the convenience options, the resources they name and their ACLs.
TOPIC_NAMES, GROUP_NAMES, TXN_NAMES = ["test-1", "test-2"], ["testGroup-1", "testGroup-2"], ["t0", "t1"]
PRODUCER_TOPIC = ["Write", "Describe", "Create"]
CONVENIENCE: dict[str, tuple[list[str], dict[tuple[int, str], list[str]], list[str]]] = {
    "producer": (
        ["--producer"],
        {**{(TOPIC, t): PRODUCER_TOPIC for t in TOPIC_NAMES}, **{(TRANSACTIONAL_ID, t): ["Write", "Describe"] for t in TXN_NAMES},
         (CLUSTER, "kafka-cluster"): []},
        [*RESOURCES["topics"][2], *RESOURCES["transactional-ids"][2], "--cluster"],
    ),
    "producer-idempotent": (
        ["--producer", "--idempotent"],
        {**{(TOPIC, t): PRODUCER_TOPIC for t in TOPIC_NAMES}, **{(TRANSACTIONAL_ID, t): ["Write", "Describe"] for t in TXN_NAMES},
         (CLUSTER, "kafka-cluster"): ["IdempotentWrite"]},
        [*RESOURCES["topics"][2], *RESOURCES["transactional-ids"][2], "--cluster"],
    ),
    "consumer": (
        ["--consumer"],
        {**{(TOPIC, t): ["Read", "Describe"] for t in TOPIC_NAMES}, **{(GROUP, g): ["Read"] for g in GROUP_NAMES}},
        [*RESOURCES["topics"][2], *RESOURCES["groups"][2]],
    ),
    "producer-consumer": (
        ["--producer", "--consumer"],
        {**{(TOPIC, t): ["Read", "Describe", *PRODUCER_TOPIC] for t in TOPIC_NAMES},
         **{(GROUP, g): ["Read"] for g in GROUP_NAMES}},
        [*RESOURCES["topics"][2], *RESOURCES["groups"][2]],
    ),
    "producer-idempotent-consumer": (
        ["--producer", "--idempotent", "--consumer"],
        {**{(TOPIC, t): ["Read", "Describe", *PRODUCER_TOPIC] for t in TOPIC_NAMES},
         **{(GROUP, g): ["Read"] for g in GROUP_NAMES}},
        [*RESOURCES["topics"][2], *RESOURCES["groups"][2]],
    ),
}  # fmt: skip


def _producer_consumer_cli(sb: Any, connection: list[str], case: str) -> None:
    cmd, expected, resource_cmd = CONVENIENCE[case]
    added = kcli("acls", *connection, *_principal_args(ALLOW), *resource_cmd, *cmd, "--add")
    assert added.code == 0, added.stderr
    for (resource_type, name), operations in expected.items():
        assert acls_of(sb, resource_type, name) == expected_acls(ALLOW, operations), (resource_type, name)
    _remove(sb, connection, list(expected), [*resource_cmd, *cmd])


@pytest.mark.parametrize("case", list(CONVENIENCE))
def test_AclCommandTest_testProducerConsumerCliWithAdminAPI(own: Any, case: str) -> None:
    _producer_consumer_cli(own, _connection(own, "server"), case)


@pytest.mark.parametrize("case", list(CONVENIENCE))
def test_AclCommandTest_testProducerConsumerCliWithAdminAPIAndBootstrapController(
    own: Any, case: str
) -> None:
    _producer_consumer_cli(own, _connection(own, "controller"), case)


def _with_client_id(sb: Any, kind: str, hooks: Any, tmp_path: Path) -> None:
    """Kafka's test also checks the JVM logs no duplicate-MBean warning: JVM internals, not ported."""
    config = tmp_path / "client.properties"
    config.write_text("client.id=my-client\n")
    seen: list[str] = []

    async def record(context: Any, request: Any) -> None:
        if not context.forwarded:
            seen.append(context.header.client_id)

    hooks(sb, CREATE_ACLS, record)
    _acl_cli(sb, [*_connection(sb, kind), "--command-config", str(config)])
    assert seen and set(seen) == {"my-client"}


def test_AclCommandTest_testAclCliWithClientId(own: Any, hooks: Any, tmp_path: Path) -> None:
    _with_client_id(own, "server", hooks, tmp_path)


def test_AclCommandTest_testAclCliWithClientIdAndBootstrapController(
    own: Any, hooks: Any, tmp_path: Path
) -> None:
    _with_client_id(own, "controller", hooks, tmp_path)


def _prefixed(sb: Any, connection: list[str]) -> None:
    cmd = [
        "--allow-principal",
        "User:test2",
        "--producer",
        "--topic",
        "Test-",
        "--resource-pattern-type",
        "Prefixed",
    ]
    added = kcli("acls", *connection, *cmd, "--add")
    assert added.code == 0, added.stderr
    assert acls_of(sb, TOPIC, "Test-", PREFIXED) == {
        ("User:test2", "*", OPS[op], ALLOW) for op in ("Write", "Describe", "Create")
    }
    removed = kcli("acls", *connection, *cmd, "--remove", "--force")
    assert removed.code == 0, removed.stderr
    assert acls_of(sb, CLUSTER, "kafka-cluster", PREFIXED) == set()
    assert acls_of(sb, TOPIC, "Test-", PREFIXED) == set()


def test_AclCommandTest_testAclsOnPrefixedResourcesWithAdminAPI(own: Any) -> None:
    _prefixed(own, _connection(own, "server"))


def test_AclCommandTest_testAclsOnPrefixedResourcesWithAdminAPIAndBootstrapController(own: Any) -> None:
    _prefixed(own, _connection(own, "controller"))


PATTERN_TYPES = ["UNKNOWN", "ANY", "MATCH", "LITERAL", "PREFIXED"]


def _pattern_types(connection: list[str], pattern: str) -> None:
    add = kcli("acls", *connection, "--allow-principal", "User:test2", "--producer", "--topic", "Test", "--add",
               "--resource-pattern-type", pattern)  # fmt: skip
    listed = kcli("acls", *connection, "--topic", "Test", "--list", "--resource-pattern-type", pattern)
    removed = kcli(
        "acls", *connection, "--topic", "Test", "--force", "--remove", "--resource-pattern-type", pattern
    )
    specific = pattern in ("LITERAL", "PREFIXED")
    assert (add.code == 0) is specific, add.stderr
    assert (listed.code == 0) is (pattern != "UNKNOWN"), listed.stderr
    assert (removed.code == 0) is (pattern != "UNKNOWN"), removed.stderr


@pytest.mark.parametrize("pattern", PATTERN_TYPES)
def test_AclCommandTest_testPatternTypesWithAdminAPI(own: Any, pattern: str) -> None:
    _pattern_types(_connection(own, "server"), pattern)


@pytest.mark.parametrize("pattern", PATTERN_TYPES)
def test_AclCommandTest_testPatternTypesWithAdminAPIAndBootstrapController(own: Any, pattern: str) -> None:
    _pattern_types(_connection(own, "controller"), pattern)


def test_AclCommandTest_testDuplicateAdd(own: Any) -> None:
    add = ["acls", *_connection(own, "server"), "--add", "--topic", "test-topic", "--allow-principal", "User:Alice",
           "--operation", "Read"]  # fmt: skip
    assert kcli(*add).code == 0
    again = kcli(*add)
    assert again.code == 0, again.stderr
    binding = (
        "(pattern=ResourcePattern(resourceType=TOPIC, name=test-topic, patternType=LITERAL), "
        "entry=(principal=User:Alice, host=*, operation=READ, permissionType=ALLOW))"
    )
    assert f"Acl {binding} already exists." in again.stdout
    assert "Adding ACLs for resource" not in again.stdout


# ---------------------------------------------------------------- options


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseBootstrapServerOptWithBootstrapControllerOpt() -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", "--bootstrap-controller", "localhost:9092")
    usage_error(result, "Only one of --bootstrap-server or --bootstrap-controller must be specified")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseWithoutBootstrapServerOptAndBootstrapControllerOpt() -> None:
    usage_error(
        kcli("acls", "--add"), "One of --bootstrap-server or --bootstrap-controller must be specified"
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
@pytest.mark.parametrize(
    "actions", [["--add", "--list"], ["--add", "--list", "--remove"]], ids=["two", "three"]
)
def test_AclCommandTest_testExactlyOneAction(actions: list[str]) -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", *actions)
    usage_error(result, "Command must include exactly one action: --list, --add, --remove. ")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseListPrincipalsOptWithoutListOpt() -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", "--add", "--principal", "User:CN=client")
    usage_error(result, "The --principal option is only available if --list is set")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseProducerOptWithoutTopicOpt() -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", "--add", "--producer")
    usage_error(result, "With --producer you must specify a --topic")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseIdempotentOptWithoutProducerOpt() -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", "--add", "--idempotent")
    usage_error(result, "The --idempotent option is only available if --producer is set")


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_AclCommandTest_testUseConsumerOptWithoutRequiredOpt() -> None:
    result = kcli("acls", "--bootstrap-server", "localhost:9092", "--add", "--consumer")
    usage_error(
        result,
        "With --consumer you must specify a --topic and a --group and no --cluster or --transactional-id option "
        "should be specified.",
    )
    # checkArgs accepts the line; adding then needs a principal, which both tools say before connecting
    line = ["--add", "--consumer", "--topic", "test-topic", "--group", "test-group"]
    result = kcli("acls", "--bootstrap-server", NOWHERE, *line, environ=FAST_FAIL)
    usage_error(
        result, "You must specify one of: --allow-principal, --deny-principal when trying to add ACLs."
    )
    accepted(
        kcli("acls", "--bootstrap-server", NOWHERE, *line, "--allow-principal", "User:a", environ=FAST_FAIL)
    )


@pytest.mark.kafka_difference(USAGE_EXIT)
@pytest.mark.parametrize(
    ("line", "message"),
    [
        (["--list", "--producer"], 'Option "[list]" can\'t be used with option "[producer]"'),
        (
            ["--add", "--producer", "--operation", "all"],
            'Option "[producer]" can\'t be used with option "[operation]"',
        ),
        (
            ["--add", "--consumer", "--operation", "--topic", "test-topic", "--group", "test-group"],
            'Option "[consumer]" can\'t be used with option "[operation]"',
        ),
    ],
    ids=["list-producer", "producer-operation", "consumer-operation"],
)
def test_AclCommandTest_testInvalidArgs(line: list[str], message: str) -> None:
    usage_error(kcli("acls", "--bootstrap-server", "localhost:9092", *line), message)
