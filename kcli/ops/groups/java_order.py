"""The order in which a Java HashMap gives back its keys, for the tables Kafka's group tools print
from one: the new offsets of --reset-offsets (and its --export CSV), the groups of a multi-group
reset, the rows of Kafka 4.0's --describe.

A HashMap grown by put (capacity 16, doubled past 3/4 full) iterates its buckets in index order,
the bucket of a key being (h ^ h >>> 16) & (capacity - 1) for its hashCode h, and a bucket's keys
in the order they were put. String.hashCode and TopicPartition.hashCode are fixed by their
definitions, so the order is the same in every JVM, and kcli can print the rows as Kafka does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from kcli.ops.reassign.model import TopicPartition

K = TypeVar("K")


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value & 0x80000000 else value


def string_hash(text: str) -> int:
    """java.lang.String.hashCode: over the UTF-16 code units, in 32-bit arithmetic."""
    h = 0
    units = text.encode("utf-16-be")
    for i in range(0, len(units), 2):
        h = (31 * h + (units[i] << 8 | units[i + 1])) & 0xFFFFFFFF
    return _int32(h)


def topic_partition_hash(tp: TopicPartition) -> int:
    """org.apache.kafka.common.TopicPartition.hashCode: 31 * (31 + partition) + topic.hashCode()."""
    return _int32(31 * (31 + tp.partition) + string_hash(tp.topic))


def _capacity(size: int) -> int:
    capacity = 16
    while size > capacity * 3 // 4:
        capacity *= 2
    return capacity


def hash_map_order(keys: Iterable[K], hash_code: Callable[[K], int]) -> list[K]:
    """`keys` (in the order they were put, repeats ignored) as a HashMap grown by put iterates them."""
    unique = list(dict.fromkeys(keys))
    mask = _capacity(len(unique)) - 1

    def bucket(key: K) -> int:
        h = hash_code(key) & 0xFFFFFFFF
        return (h ^ (h >> 16)) & mask

    return [key for _, _, key in sorted((bucket(k), i, k) for i, k in enumerate(unique))]


def partitions_in_hash_order(partitions: Iterable[TopicPartition]) -> list[TopicPartition]:
    return hash_map_order(partitions, topic_partition_hash)


def strings_in_hash_order(names: Iterable[str]) -> list[str]:
    return hash_map_order(names, string_hash)
