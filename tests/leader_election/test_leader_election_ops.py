"""kcli.ops.leader_election: kafka-leader-election's checks, JSON file and lines (as Kafka 4.4.0 printed
them for the same partitions on a real cluster), and kcli's report of partitions off their preferred leader."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops.leader_election import (
    ElectionOutcome,
    ElectionReport,
    ElectionType,
    LeaderState,
    check_options,
    election_type,
    off_preferred,
    parse_election_file,
)
from kcli.ops.reassign.model import TopicPartition as TP


@pytest.mark.parametrize(
    ("given", "message"),
    [
        ({"topic": True, "partition": True}, "Missing required option(s): election-type"),
        ({"election-type": True}, "One and only one of the following options is required: topic, all-topic-partitions, path-to-json-file"),
        ({"election-type": True, "topic": True, "all-topic-partitions": True}, "One and only one"),
        ({"election-type": True, "topic": True}, "Missing required option(s): partition"),
        ({"election-type": True, "all-topic-partitions": True, "partition": True}, "Option partition is only allowed if topic is used"),
        ({"election-type": True, "admin.config": True, "command-config": True}, 'Option "[admin.config]" can\'t be used with option "[command-config]"'),
    ],
)  # fmt: skip
def test_checks_in_kafkas_order(given: dict[str, bool], message: str) -> None:
    with pytest.raises(UsageError) as refused:
        check_options(given)
    assert message in refused.value.message


def test_election_type_in_any_case() -> None:
    assert election_type("PREFERRED") is ElectionType.PREFERRED
    assert election_type("Unclean") is ElectionType.UNCLEAN
    with pytest.raises(UsageError, match="Cannot parse argument 'bogus' of option election-type"):
        election_type("bogus")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"partitions": [\n {"topic": "t1", "partition": 0,}]}', "Replica election data is empty: f.json is not valid JSON (line 2, column 33"),
        ('{"x": 1}', 'Replica election data is missing "partitions" field'),
        ('{"partitions": [{"partition": 0}]}', "No such field exists: `topic`"),
        ('{"partitions": [{"topic": 5, "partition": 0}]}', "Expected `String` value, received 5"),
        ('{"partitions": [{"topic": "t1", "partition": "0"}]}', 'Expected `Integer` value, received "0"'),
        ('{"partitions": [{"topic": "t1", "partition": 2147483648}]}', "Expected `Integer` value, received 2147483648"),
        ("[1]", "Expected JSON object, received [1]"),
        ('{"partitions": [{"topic": "t1", "partition": 0}, {"topic": "t1", "partition": 0}]}', "Replica election data contains duplicate partitions: [t1-0]"),
    ],
)  # fmt: skip
def test_the_json_file(text: str, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_election_file(text, "f.json")
    assert message in refused.value.message


def test_an_empty_partition_list_is_no_election() -> None:
    assert parse_election_file('{"partitions": []}', "f.json") == []


def test_the_lines_kafka_prints_in_its_hash_set_order() -> None:
    not_needed = ElectionReport(
        kind=ElectionType.PREFERRED,
        outcomes=(ElectionOutcome(partition=TP("t1", 0), error_code=84), ElectionOutcome(partition=TP("t1", 1), error_code=84)),
    )  # fmt: skip
    assert not_needed.lines() == ["Valid replica already elected for partitions t1-1, t1-0"]
    not_needed.check()
    unknown = ElectionReport(
        kind=ElectionType.PREFERRED,
        outcomes=(ElectionOutcome(partition=TP("nope", 0), error_code=3, message="No such topic as nope"),),
    )
    assert unknown.lines() == [
        "Error completing leader election (PREFERRED) for partition: nope-0: "
        "org.apache.kafka.common.errors.UnknownTopicOrPartitionException: No such topic as nope"
    ]
    with pytest.raises(KcliError, match=r"^1 replica\(s\) could not be elected$"):
        unknown.check()
    elected = ElectionReport(
        kind=ElectionType.UNCLEAN,
        outcomes=(ElectionOutcome(partition=TP("k", 0)), ElectionOutcome(partition=TP("k", 1))),
    )
    assert elected.lines() == ["Successfully completed leader election (UNCLEAN) for partitions k-1, k-0"]


def test_partitions_off_their_preferred_leader() -> None:
    states = [
        LeaderState(partition=TP("b", 0), leader=2, replicas=(1, 2), isr=(2, 1)),
        LeaderState(partition=TP("a", 1), leader=3, replicas=(1, 3), isr=(3,)),
        LeaderState(partition=TP("a", 0), leader=1, replicas=(1, 3), isr=(1, 3)),
        LeaderState(partition=TP("c", 0), leader=-1, replicas=(4,), isr=()),
    ]
    found = off_preferred(states, ElectionType.PREFERRED)
    assert [(s.partition, s.electable) for s in found] == [
        (TP("a", 1), False),
        (TP("b", 0), True),
        (TP("c", 0), False),
    ]
    assert [s.partition for s in off_preferred(states, ElectionType.UNCLEAN)] == [TP("c", 0)]
