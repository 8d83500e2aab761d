"""The orders Kafka's answers inherit from Java hash maps, where a response lists what it built from one.

Behavior: a java.util.HashMap (and HashSet) iterates as kcli.ops.java_order replays it. Kafka answers
in such an order where it groups by partition (GroupCoordinatorService: DescribeGroups, DeleteGroups,
ConsumerGroupDescribe), by topic (AddPartitionsToTxn) or lists a transaction's partitions
(DescribeTransactions).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from kcli.ops.java_order import hash_set_order, string_hash, topic_partition_hash


def partition_set_order(partitions: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """A HashSet<TopicPartition>'s order, `partitions` given in the order they were added (two of one
    bucket come in that order: a transaction's partition, then its group's __consumer_offsets one)."""
    return hash_set_order(partitions, lambda tp: topic_partition_hash(*tp))


def topic_order(topics: Iterable[str]) -> list[str]:
    """A HashMap<String, ...>'s order of topic names (first seen first within a bucket)."""
    return hash_set_order(topics, string_hash)


def grouped_by_partition(ids: Sequence[str], topic: str, partition_of: Callable[[str], int]) -> list[str]:
    """`ids` grouped as GroupCoordinatorService groups them: by partition of `topic`, the partitions in
    HashMap<TopicPartition> order, request order within a partition."""
    by_partition: dict[int, list[str]] = {}
    for key in ids:
        by_partition.setdefault(partition_of(key), []).append(key)
    order = hash_set_order(by_partition, lambda p: topic_partition_hash(topic, p))
    return [key for p in order for key in by_partition[p]]


def _signed(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


def scala_map_order(partitions: Iterable[tuple[str, int]]) -> list[tuple[str, int]]:
    """The order a Scala 2.13 mutable.HashMap keyed by TopicPartition iterates: by bucket of the improved
    hash (h ^ (h >>> 16)) over a table of 16 doubled past 0.75 of it, ascending improved hash within a
    bucket (KafkaApis builds AddPartitionsToTxn's errors in one)."""
    items = list(dict.fromkeys(partitions))
    size = 16
    while len(items) > size * 3 // 4:
        size *= 2

    def key(tp: tuple[str, int]) -> tuple[int, int]:
        hashed = topic_partition_hash(*tp) & 0xFFFFFFFF
        improved = hashed ^ (hashed >> 16)
        return improved & (size - 1), _signed(improved)

    return sorted(items, key=key)


def by_topic_order(partitions: Iterable[tuple[str, int]]) -> list[tuple[str, list[int]]]:
    """Partitions grouped by topic as AddPartitionsToTxnResponse.topicCollectionForErrors groups the
    errors map KafkaApis hands it: the map's order (scala_map_order), topics in HashMap<String> order."""
    grouped: dict[str, list[int]] = {}
    for topic, partition in scala_map_order(partitions):
        grouped.setdefault(topic, []).append(partition)
    return [(topic, grouped[topic]) for topic in topic_order(grouped)]
