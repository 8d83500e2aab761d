"""The row order of Kafka's group tools where they print from a Java HashMap: the new offsets of
--reset-offsets (and its --export CSV), the groups of a multi-group reset, the rows of Kafka 4.0's
--describe. The hashing and bucketing are kcli.ops.java_order's; this module names the keys.
"""

from __future__ import annotations

from collections.abc import Iterable

from kcli.ops.java_order import hash_set_order, string_hash
from kcli.ops.java_order import topic_partition_hash as _topic_partition_hash
from kcli.ops.reassign.model import TopicPartition

__all__ = ["partitions_in_hash_order", "string_hash", "strings_in_hash_order", "topic_partition_hash"]


def topic_partition_hash(tp: TopicPartition) -> int:
    """org.apache.kafka.common.TopicPartition.hashCode of a kcli TopicPartition."""
    return _topic_partition_hash(tp.topic, tp.partition)


def partitions_in_hash_order(partitions: Iterable[TopicPartition]) -> list[TopicPartition]:
    """`partitions` (in the order they were put) as a HashMap<TopicPartition, ...> iterates them."""
    return hash_set_order(partitions, topic_partition_hash)


def strings_in_hash_order(names: Iterable[str]) -> list[str]:
    """`names` (in the order they were put) as a HashMap<String, ...> iterates them."""
    return hash_set_order(names, string_hash)
