"""kcli topics' command line: kafka-topics.sh's checks in its order and words, and its values read as it reads them.

The words are those Kafka 4.4.0's TopicCommand printed for the same lines on a real cluster
(tests/kafka_diff/corpus_topics.py runs them beside it); none of these lines reaches a cluster.
"""

from __future__ import annotations

import pytest

from kcli.errors import UsageError
from kcli.ops import topic_command as rules
from tests.conftest import invoke

NOWHERE = "127.0.0.1:1"


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--list", "--describe"],
            "Command must include exactly one action: --list, --describe, --create, --alter or --delete",
        ),
        (["--create", "--partitions", "1"], 'Missing required argument "[topic]"'),
        (["--alter", "--topic", "t"], 'Missing required argument "[partitions]"'),
        (
            ["--alter", "--topic", "t", "--partitions", "4", "--config", "a=b"],
            'Option combination "[[bootstrap-server], [config]]" can\'t be used with option "[alter]" '
            "(To alter topic configurations, the kafka-configs tool can be used.)",
        ),
        (
            ["--describe", "--partitions", "4"],
            'Option "[partitions]" can\'t be used with option "[describe]"',
        ),
        (["--list", "--if-exists"], 'Option "[if-exists]" can\'t be used with option "[list]"'),
        (["--describe", "--if-exists"], "--topic or --topic-id is required to describe a topic"),
        (
            ["--create", "--topic", "t", "--partitions", "2", "--replica-assignment", "1:2"],
            'Option "[replica-assignment]" can\'t be used with option "[partitions]"',
        ),
        (
            ["--describe", "--under-replicated-partitions", "--topics-with-overrides"],
            'Option "[under-replicated-partitions]" can\'t be used with option "[topics-with-overrides]"',
        ),
        (
            ["--create", "--topic", "t", "--partitions", "abc"],
            "Cannot parse argument 'abc' of option partitions",
        ),
        (["--create", "--topic", "t", "--partitions", "0"], "The partitions must be greater than 0"),
        (
            ["--create", "--topic", "t", "--replication-factor", "0"],
            "The replication factor must be between 1 and 32767 inclusive",
        ),
        (
            ["--create", "--topic", "t", "--replica-assignment", "1:1,2:3"],
            "Partition replica lists may not contain duplicate entries: 1",
        ),
        (
            ["--create", "--topic", "t", "--replica-assignment", "1:2,2"],
            "Partition 1 has different replication factor: [2]",
        ),
        (["--create", "--topic", "t", "--config", "x=y"], "Unknown topic config name: x"),
        (
            ["--create", "--topic", "t", "--config", "retention.ms"],
            'requirement failed: Invalid topic config: all configs to be added must be in the format "key=val".',
        ),
        (
            ["--create", "--topic", "t", "--config", "retention.ms=abc"],
            "Invalid value abc for configuration retention.ms: Not a number of type LONG",
        ),
        (
            ["--describe", "--topic-id", "abc"],
            "Input string `abc` decoded as 2 bytes, which is not equal to the expected 16 bytes of a base64-encoded UUID",
        ),
        (["--create", "--topic", "t", "--dry-run", "--list"], "exactly one action"),
        (["--list", "--dry-run"], "--dry-run goes with --create, --alter or --delete, not --list"),
    ],
)
def test_refused_before_anything_is_sent(argv: list[str], message: str) -> None:
    done = invoke("topics", "--bootstrap-server", NOWHERE, *argv)
    assert done.code == 2, done.stderr
    assert message in done.stderr
    assert done.stderr.count("\n") == 1 or "Usage:" in done.stderr  # one error line
    assert "Traceback" not in done.stderr


def test_the_bootstrap_server_is_required_after_the_action() -> None:
    done = invoke("topics", "--list", environ={"KCLI_BOOTSTRAP_SERVER": None})
    assert done.code == 2 and "--bootstrap-server must be specified" in done.stderr
    neither = invoke("topics", "--list", "--describe", environ={"KCLI_BOOTSTRAP_SERVER": None})
    assert "exactly one action" in neither.stderr


def test_bootstrap_controller_is_refused_with_the_reason() -> None:
    done = invoke("topics", "-C", NOWHERE, "--list")
    assert done.code == 2 and "use --bootstrap-server" in done.stderr


def test_delete_config_is_deprecated_then_ignored() -> None:
    done = invoke(
        "topics", "--bootstrap-server", NOWHERE, "--describe", "--delete-config", "x", "--partitions", "1"
    )
    assert rules.DELETE_CONFIG_DEPRECATED in done.stderr
    assert 'Option "[partitions]" can\'t be used with option "[describe]"' in done.stderr


def test_an_unknown_option_suggests_only_options_kcli_takes() -> None:
    """Issue 35: `kcli topics --lsit` suggested --alter, an option kcli refused."""
    done = invoke("topics", "--lsit")
    assert done.code == 2 and "--lsit" in done.stderr
    assert "--list" in done.stderr and "--alter" not in done.stderr
    hidden = invoke("topics", "--bootstrap-controle", NOWHERE)  # a hidden option is never suggested
    assert "--bootstrap-controller" not in hidden.stderr


def test_check_options_notes_when_both_topic_and_id_are_given() -> None:
    given = {"describe": True, "if-exists": True, "topic": True, "topic-id": True}
    assert rules.check_options(rules.Action.DESCRIBE, given) == [rules.BOTH_TOPIC_AND_ID]


def test_delete_takes_a_topic_id_instead_of_a_topic() -> None:
    assert rules.check_options(rules.Action.DELETE, {"delete": True, "topic-id": True}) == []
    with pytest.raises(UsageError, match=r"Missing required argument \"\[topic\]\""):
        rules.check_options(rules.Action.DELETE, {"delete": True})


def test_alter_replication_factor_is_a_plan_not_an_error() -> None:
    assert (
        rules.check_options(rules.Action.ALTER, {"alter": True, "topic": True, "replication-factor": True})
        == []
    )
    with pytest.raises(UsageError, match="separate --alter"):
        rules.check_options(
            rules.Action.ALTER, {"alter": True, "topic": True, "replication-factor": True, "partitions": True}
        )


def test_replica_assignment_as_kafka_splits_it() -> None:
    assert rules.parse_replica_assignment("1:2,2:3, 3 : 1") == {0: (1, 2), 1: (2, 3), 2: (3, 1)}
    assert rules.parse_replica_assignment("1:2,") == {0: (1, 2)}  # String.split drops trailing empties
    with pytest.raises(UsageError, match='For input string: "x"'):
        rules.parse_replica_assignment("1:x")
    with pytest.raises(UsageError, match="duplicate entries: 17,2"):  # a HashSet of them: Java's order
        rules.parse_replica_assignment("2:17:2:17")


def test_topic_configs_as_logconfig_checks_them() -> None:
    assert rules.parse_topic_configs(["retention.ms = 1000", "cleanup.policy=compact"]) == {
        "retention.ms": "1000",
        "cleanup.policy": "compact",
    }
    with pytest.raises(UsageError, match="format"):
        rules.parse_topic_configs(["a=b=c"])
    with pytest.raises(UsageError, match="Unknown topic config name: zz"):  # the HashMap's first: zz, then y
        rules.parse_topic_configs(["y=1", "zz=2"])


def test_java_int_limits() -> None:
    assert rules.java_int("+7", "partitions") == 7
    with pytest.raises(UsageError, match="Cannot parse argument '2147483648' of option partitions"):
        rules.java_int("2147483648", "partitions")


def test_internal_topics_are_never_altered_or_deleted() -> None:
    """Kafka's tool deletes __consumer_offsets when a --topic regex matches it (Kafka 4.4.0, seen on a
    real cluster): kcli refuses before anything is sent."""
    from kcli.errors import KcliError
    from kcli.workflows.topic_changes import refuse_internal

    rows = {"orders": {"internal": False}, "__consumer_offsets": {"internal": True}, "__strange": {"internal": True}}
    refuse_internal(["orders"], rows, "delete")
    with pytest.raises(KcliError, match="Refusing to delete internal topics __consumer_offsets, __strange"):
        refuse_internal(["orders", "__consumer_offsets", "__strange"], rows, "delete")
    with pytest.raises(KcliError, match="Refusing to alter internal topic __transaction_state"):
        refuse_internal(["__transaction_state"], {}, "alter")  # known by name even when Metadata omits the flag


def test_describe_prints_topics_in_the_order_kafka_does() -> None:
    """kafka-topics --describe: the HashMap order of its admin client's answer, as Kafka 4.0.2 printed it."""
    from kcli.ops.topics import describe_order

    names = ["Test-topic", "dlq.gs1dlqtopic", "foo", "foo1", "foo2", "my-topic", "my_topic_name", "tieredTopic"]
    assert describe_order(names) == [
        "dlq.gs1dlqtopic", "Test-topic", "foo", "tieredTopic", "foo1", "foo2", "my-topic", "my_topic_name",
    ]  # fmt: skip
