"""--topic t:0,1, --to-datetime, --by-duration and the CSV plan, as Kafka's tools read them.

The datetime and duration tables are what Kafka 4.4's Utils.getDateTime and java.time.Duration.parse
return for these inputs (run on Java 17 beside Kafka's jars).
"""

from __future__ import annotations

import pytest

from kcli.errors import UsageError
from kcli.ops.groups.reset_specs import (
    PlannedOffset,
    datetime_millis,
    duration_millis,
    parse_plan,
    partitions_of,
    plan_csv,
    topic_args,
)
from kcli.ops.reassign.model import TopicPartition as TP

JAVA_DATETIMES = {
    "2020-01-01T00:00:00.000": 1577836800000,
    "2020-01-01T00:00:00.5": 1577836800005,
    "2020-01-01T00:00:00.5Z": 1577836800005,
    "2020-01-01T00:00:00.000+08": 1577808000000,
    "2020-01-01T00:00:00.000+0800": 1577808000000,
    "2020-01-01T00:00:00.000+08:00": 1577808000000,
    "2020-01-01T00:00:00.000-05:30": 1577856600000,
    "2020-1-1T1:2:3.4": 1577840523004,
    "2020-01-01T00:00:00.000Zjunk": 1577836800000,
    "99999-01-01T00:00:00.000": 3093496444800000,
}
JAVA_REFUSES = [
    "2020-01-01T00:00:00",
    "2020-13-01T00:00:00.000",
    "2020-01-01T24:00:00.000",
    "20200101T000000.000",
    "2020-01-01T00:00:00.1234",
    "2020-01-01T00:00:00.000+8",
    "2020-02-30T00:00:00.000",
    "2020-01-01T00:00:00.000T",
]


@pytest.mark.parametrize(("text", "millis"), JAVA_DATETIMES.items())
def test_datetimes_as_utils_get_date_time(text: str, millis: int) -> None:
    assert datetime_millis(text) == millis


@pytest.mark.parametrize("text", JAVA_REFUSES)
def test_datetimes_kafka_refuses(text: str) -> None:
    with pytest.raises(UsageError, match="Unparseable date"):
        datetime_millis(text)


@pytest.mark.parametrize("text", ["abcT", "T", "2020-01-01"])
def test_a_datetime_without_t(text: str) -> None:
    with pytest.raises(UsageError, match="It does not contain a 'T' according to ISO8601 format"):
        datetime_millis(text)


JAVA_DURATIONS = {
    "P1D": 86400000,
    "PT1H": 3600000,
    "PT-1H": -3600000,
    "-PT1H": -3600000,
    "PT1.5S": 1500,
    "pt1m": 60000,
    "P-1DT2H": -79200000,
    "PT0.0001S": 0,
    "P2DT3H4M": 183840000,
    "PT1H2M3.123456789S": 3723123,
    "+P1D": 86400000,
    "PT1,5S": 1500,
}


@pytest.mark.parametrize(("text", "millis"), JAVA_DURATIONS.items())
def test_durations_as_java_time_duration(text: str, millis: int) -> None:
    assert duration_millis(text) == millis


@pytest.mark.parametrize("text", ["P1DT", "PT", "P1Y", "1h", ""])
def test_durations_java_refuses(text: str) -> None:
    with pytest.raises(UsageError, match="Text cannot be parsed to a Duration"):
        duration_millis(text)


def test_a_duration_past_a_long_of_milliseconds() -> None:
    with pytest.raises(UsageError, match="long overflow"):
        duration_millis("PT9223372036854775807S")


def test_topic_args_split_named_partitions_from_whole_topics() -> None:
    named = topic_args(["orders:0,2", "audit", "t:5"])
    assert named.partitions == (TP("orders", 0), TP("orders", 2), TP("t", 5))
    assert named.whole_topics == ("audit",)


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("t:", "Invalid topic arg 't:', expected topic name and partitions"),
        ("t:0:1", "Invalid topic arg 't:0:1', expected topic name and partitions"),
        ("t:x", "Invalid partition 'x' specified in topic arg 't:x''"),
        ("t:0,,1", "Invalid partition '' specified in topic arg 't:0,,1''"),
    ],
)
def test_bad_topic_args(value: str, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        partitions_of(value)
    assert refused.value.message == message


def test_a_plan_of_one_group_in_the_three_column_form() -> None:
    plan = parse_plan("orders,0,5\norders,1,7\n\n", source="plan.csv", single_group="g1")
    assert plan == {"g1": {TP("orders", 0): 5, TP("orders", 1): 7}}


def test_a_plan_of_several_groups() -> None:
    text = "g1,orders,0,5\r\ng2,orders,0,9\n"
    assert parse_plan(text, source="plan.csv", single_group=None) == {
        "g1": {TP("orders", 0): 5},
        "g2": {TP("orders", 0): 9},
    }
    assert parse_plan(text, source="plan.csv", single_group="g1") == {
        "g1": {TP("orders", 0): 5},
        "g2": {TP("orders", 0): 9},
    }


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("orders,0,5\norders,one,7\n", "plan.csv line 2: the partition 'one' is not a whole number"),
        ("orders,0,5\norders,1\n", "plan.csv line 2: 2 columns where topic,partition,offset has 3"),
        ("g,orders,0,x\n", "plan.csv line 1: the offset 'x' is not a whole number"),
        # a field past the csv module's limit was an escaped csv.Error ("this is a bug in kcli")
        ("orders,0,5\n" + "[" * 200_000 + "\n", "plan.csv line 2: cannot be read as CSV (field larger than field limit (131072))"),
    ],
)
def test_a_bad_plan_line_is_named(text: str, where: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_plan(text, source="plan.csv", single_group="g" if text.startswith("orders") else None)
    assert refused.value.message == where


def test_the_export_csv_reads_back_as_the_same_plan() -> None:
    rows = [PlannedOffset("g,1", TP("orders", 0), 5), PlannedOffset('g"2', TP("orders", 3), 0)]
    text = plan_csv(rows, with_group=True)
    assert text == '"g,1",orders,0,5\n"g""2",orders,3,0\n'
    assert parse_plan(text, source="x", single_group=None) == {
        "g,1": {TP("orders", 0): 5},
        'g"2': {TP("orders", 3): 0},
    }
    assert plan_csv(rows[:1], with_group=False) == "orders,0,5\n"
