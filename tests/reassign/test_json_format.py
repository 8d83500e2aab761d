"""Reassignment JSON: parsing errors with positions, validation messages, byte-exact output."""

from __future__ import annotations

import pytest

from kcli.errors import ExitCode, UsageError
from kcli.ops.reassign.json_format import (
    format_reassignment,
    format_topics_to_move,
    parse_broker_list,
    parse_reassignment,
    parse_topics_to_move,
)
from kcli.ops.reassign.model import TopicPartition


def test_round_trip_matches_kafka_compact_form() -> None:
    text = (
        '{"version":1,"partitions":[{"topic":"a","partition":0,"replicas":[1,2],"log_dirs":["any","any"]},'
        '{"topic":"a","partition":10,"replicas":[2,3],"log_dirs":["any","/data/k1"]},'
        '{"topic":"b","partition":1,"replicas":[3],"log_dirs":["any"]}]}'
    )
    parsed = parse_reassignment(text)
    dirs = {e.partition: e.log_dirs for e in parsed.entries if e.log_dirs is not None}
    assert format_reassignment(parsed.targets, dirs) == text


def test_output_sorted_by_topic_then_partition_number() -> None:
    out = format_reassignment(
        {TopicPartition("b", 0): (1,), TopicPartition("a", 10): (2,), TopicPartition("a", 2): (3,)}
    )
    assert out == (
        '{"version":1,"partitions":[{"topic":"a","partition":2,"replicas":[3],"log_dirs":["any"]},'
        '{"topic":"a","partition":10,"replicas":[2],"log_dirs":["any"]},'
        '{"topic":"b","partition":0,"replicas":[1],"log_dirs":["any"]}]}'
    )


def test_syntax_error_names_line_and_column() -> None:
    text = '{"version":1,\n "partitions":[\n  {"topic":"a" "partition":0}]}'
    with pytest.raises(UsageError) as info:
        parse_reassignment(text, "plan.json")
    assert info.value.exit_code is ExitCode.USAGE
    assert info.value.line().startswith("The input string is not a valid JSON: plan.json: line 3, column 16:")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"version":2,"partitions":[]}', "Not supported version field value 2"),
        ('{"version":1}', "missing the partitions array"),
        (
            '{"partitions":[{"topic":"a","partition":0,"replicas":[1,"x"]}]}',
            "partitions[0]: replicas must be",
        ),
        ('{"partitions":[{"topic":"","partition":0,"replicas":[1]}]}', "topic must be a non-empty string"),
        ('{"partitions":[{"topic":"a","partition":-1,"replicas":[1]}]}', "partition must be a non-negative"),
        (
            '{"partitions":[{"topic":"a","partition":0,"replicas":[1,2],"log_dirs":["any"]}]}',
            "Size of replicas list [1, 2] is different from size of log dirs list [any] for partition a-0",
        ),
        (
            '{"partitions":[{"topic":"a","partition":0,"replicas":[1],"log_dirs":["rel/dir"]}]}',
            "absolute path",
        ),
    ],
)
def test_structural_errors(text: str, message: str) -> None:
    with pytest.raises(UsageError, match=None) as info:
        parse_reassignment(text)
    assert message in info.value.line()


def test_topics_to_move() -> None:
    assert parse_topics_to_move('{"version":1,"topics":[{"topic":"foo"},{"topic":"foo1"}]}') == [
        "foo",
        "foo1",
    ]
    with pytest.raises(UsageError, match=r"duplicate entries: \[foo\]"):
        parse_topics_to_move('{"topics":[{"topic":"foo"},{"topic":"foo"}]}')
    assert parse_topics_to_move(format_topics_to_move(["x", "y"])) == ["x", "y"]


def test_broker_list() -> None:
    assert parse_broker_list("0, 1,2") == [0, 1, 2]
    with pytest.raises(UsageError, match=r"Broker list contains duplicate entries: \[1\]"):
        parse_broker_list("1,2,1")
    with pytest.raises(UsageError, match="is not a broker id"):
        parse_broker_list("1,x")
