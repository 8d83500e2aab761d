"""kcli.ops.delete_records: kafka-delete-records' JSON file (Kafka 4.4.0's words for the same files) and
the checks kcli makes before anything is deleted."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops.delete_records import (
    DeletedRecords,
    PartitionRange,
    check_ranges,
    parse_offset_file,
    result_lines,
)
from kcli.ops.reassign.model import TopicPartition as TP


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('{"partitions":\n[{"topic":"t1","partition":1,"offset":1}', "The input string is not a valid JSON: f.json: line 2, column 41"),
        ('{"partitions":[{"topic":"t1","partition":1,"offset":1}],"version":2}', "Not supported version field value 2"),
        ('{"partitions":[],"version":"1"}', 'Expected `Integer` value, received "1"'),
        ('{"version":1}', "Missing partitions field"),
        ('{"partitions":[{"topic":"t1","partition":1}]}', "No such field exists: `offset`"),
        ('{"partitions":[{"topic":"t1","partition":1,"offset":1.5}]}', "Expected `Long` value, received 1.5"),
        ('{"partitions":[{"topic":"t1","partition":1,"offset":1},{"topic":"t1","partition":1,"offset":2}]}', "Offset json file contains duplicate topic partitions: t1-1"),
        ('{"partitions":[{"topic":"b","partition":0,"offset":1},{"topic":"a","partition":3,"offset":2},{"topic":"b","partition":0,"offset":1},{"topic":"a","partition":3,"offset":1}]}', "duplicate topic partitions: b-0,a-3"),
    ],
)  # fmt: skip
def test_the_offset_file(text: str, message: str) -> None:
    with pytest.raises(UsageError) as refused:
        parse_offset_file(text, "f.json")
    assert message in refused.value.message


def test_offsets_in_file_order() -> None:
    parsed = parse_offset_file(
        '{"partitions":[{"topic":"x","partition":1,"offset":-1},{"topic":"a","partition":0,"offset":9}]}', "f"
    )
    assert list(parsed.items()) == [(TP("x", 1), -1), (TP("a", 0), 9)]


def test_nothing_is_deleted_when_one_partition_cannot_be() -> None:
    fine = PartitionRange(partition=TP("t", 0), offset=5, log_start=2, high_watermark=300)
    assert (fine.deleted, fine.new_start) == (3, 5)
    everything = PartitionRange(partition=TP("t", 1), offset=-1, log_start=10, high_watermark=50)
    assert (everything.deleted, everything.new_start) == (40, 50)
    check_ranges([fine, everything], {})
    beyond = PartitionRange(partition=TP("t", 2), offset=301, log_start=0, high_watermark=300)
    with pytest.raises(
        KcliError, match=r"t-2: offset 301 is beyond the end of the partition \(its high watermark is 300\)"
    ):
        check_ranges([fine, beyond], {})
    with pytest.raises(
        KcliError, match=r"Nothing was deleted: nope-0: UNKNOWN_TOPIC_OR_PARTITION \(and 1 more\)"
    ):
        check_ranges([beyond], {TP("nope", 0): "UNKNOWN_TOPIC_OR_PARTITION"})


def test_the_lines_sorted() -> None:
    lines = result_lines([
        DeletedRecords(partition=TP("t", 1), error="org.apache.kafka.common.errors.PolicyViolationException: no"),
        DeletedRecords(partition=TP("t", 0), low_watermark=20),
    ])  # fmt: skip
    assert lines == [
        "Records delete operation completed:",
        "partition: t-0\tlow_watermark: 20",
        "partition: t-1\terror: org.apache.kafka.common.errors.PolicyViolationException: no",
    ]
