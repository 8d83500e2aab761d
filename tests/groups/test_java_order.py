"""The row order of Kafka's reset tables: a Java HashMap's, which kcli computes as Java does."""

from __future__ import annotations

from kcli.ops.groups.java_order import (
    partitions_in_hash_order,
    string_hash,
    strings_in_hash_order,
    topic_partition_hash,
)
from kcli.ops.reassign.model import TopicPartition as TP


def test_string_hash_is_javas() -> None:
    assert string_hash("") == 0
    assert string_hash("hello") == 99162322
    assert string_hash("polygenelubricants") == -(2**31)  # a known Integer.MIN_VALUE
    assert string_hash("\u00e9\U0001f600") == ((0xE9 * 31 + 0xD83D) * 31 + 0xDE00)


def test_topic_partition_hash_is_kafkas() -> None:
    assert topic_partition_hash(TP("cg-t", 0)) == 31 * 31 + string_hash("cg-t")


def test_the_order_kafka_printed_on_a_real_cluster() -> None:
    """Kafka 4.4's reset of cg-t (three partitions) printed partitions 0, 2, 1."""
    assert partitions_in_hash_order([TP("cg-t", 0), TP("cg-t", 1), TP("cg-t", 2)]) == [
        TP("cg-t", 0),
        TP("cg-t", 2),
        TP("cg-t", 1),
    ]
    assert strings_in_hash_order(["g2", "g1"]) == ["g1", "g2"]


def test_a_map_past_three_quarters_of_16_is_ordered_by_its_grown_table() -> None:
    parts = [TP("orders", p) for p in range(13)]
    ordered = partitions_in_hash_order(parts)
    assert sorted(ordered) == parts
    mask = 31  # 13 entries: the table grew to 32 buckets
    buckets = [
        ((topic_partition_hash(tp) & 0xFFFFFFFF) ^ ((topic_partition_hash(tp) & 0xFFFFFFFF) >> 16)) & mask
        for tp in ordered
    ]
    assert buckets == sorted(buckets)
