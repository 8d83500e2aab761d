"""The order in which Java's HashMap and HashSet iterate, for output Kafka's tools print from them.

kafka-log-dirs, kafka-leader-election and kafka-delete-records print partitions, brokers and log
dirs in the iteration order of a java.util.HashMap (or a HashSet, which is one): not sorted, but
not random either. It follows from the keys' hashCode, the table's capacity (which depends on how
the map was made and how many keys it holds) and, among keys of one bucket, the order they were
put in. This module replays exactly that, so kcli prints the same lines in the same order.

Behavior (java.util.HashMap of Java 17):
- hashCode of a String (31*h + each UTF-16 unit), an Integer (its value), a TopicPartition
  (31 * (31 + partition) + topic.hashCode()); all in 32-bit two's complement;
- the bucket of a key: (h ^ (h >>> 16)) & (capacity - 1);
- `new HashMap<>()` starts at capacity 16, `new HashMap<>(n)` at the power of two >= n,
  `new HashMap<>(map)` and `new HashSet<>(collection)` at the capacity their sizes call for; the
  table doubles when the size passes capacity * 0.75, keeping each bucket's order;
- iteration: buckets in index order, each bucket's keys in the order they were put.
Not replayed: a bucket of 9+ keys in a table of 64+ becomes a tree, and Java moves the tree's root
to the bucket's front; which key is the root follows from the keys' hashes and, among keys of one
hash, from their identity hash codes: values of the running JVM that no other program can know.
Partitions of one topic never share a hash, and topics of different names rarely: it takes many
topics named alike with numbers (`t-000` partition 5 and `t-010` partition 4 share one), and then
the line kcli prints lists the same partitions in another order.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable, Iterable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

_DEFAULT_CAPACITY = 16
_MAXIMUM_CAPACITY = 1 << 30
_LOAD_FACTOR = 0.75


def _int32(value: int) -> int:
    value &= 0xFFFFFFFF
    return value - (1 << 32) if value >= 1 << 31 else value


@functools.lru_cache(maxsize=1 << 16)  # a topic's name is hashed once per partition, and twice
def string_hash(text: str) -> int:
    """java.lang.String.hashCode (over UTF-16 code units)."""
    h = 0
    if text.isascii():  # one code unit a character
        for character in text:
            h = (31 * h + ord(character)) & 0xFFFFFFFF
        return _int32(h)
    data = text.encode("utf-16-be")
    for i in range(0, len(data), 2):
        h = (31 * h + ((data[i] << 8) | data[i + 1])) & 0xFFFFFFFF
    return _int32(h)


def integer_hash(value: int) -> int:
    """java.lang.Integer.hashCode."""
    return _int32(value)


def topic_partition_hash(topic: str, partition: int) -> int:
    """org.apache.kafka.common.TopicPartition.hashCode."""
    return _int32(31 * (31 + partition) + string_hash(topic))


def _table_size_for(capacity: int) -> int:
    """HashMap.tableSizeFor: the power of two >= capacity (1 for 0)."""
    n = 1
    while n < capacity:
        n <<= 1
    return min(n, _MAXIMUM_CAPACITY)


class JavaHashMap(Generic[K]):
    """The keys of a java.util.HashMap, bucketed as Java buckets them (values are not kept).

    Java's resize splits each bucket keeping its keys' order, so the keys of a bucket are always in
    the order they were put: the iteration order is the keys sorted (stably) by their bucket at the
    table's final capacity. Only the capacity is replayed as keys are put; no key is moved.
    """

    def __init__(self, hash_of: Callable[[K], int], initial_capacity: int | None = None) -> None:
        self._hash_of = hash_of
        self._capacity = 0  # no table yet
        # Java keeps the capacity to allocate in `threshold` until the first put.
        self._threshold = 0 if initial_capacity is None else _table_size_for(initial_capacity)
        self._spread: dict[K, int] = {}  # in the order the keys were put

    @classmethod
    def copy_of(cls, keys: Iterable[K], size: int, hash_of: Callable[[K], int]) -> JavaHashMap[K]:
        """`new HashMap<>(map)` / `new HashSet<>(collection)` of `size` keys, put in the given order."""
        made: JavaHashMap[K] = cls(hash_of)
        made._threshold = _table_size_for(int(size / _LOAD_FACTOR + 1.0))
        made.put_all(keys)
        return made

    @classmethod
    def hash_set_of(cls, keys: list[K], hash_of: Callable[[K], int]) -> JavaHashMap[K]:
        """`new HashSet<>(collection)`: capacity max(size / .75 + 1, 16)."""
        return cls.copy_of_capacity(keys, max(int(len(keys) / _LOAD_FACTOR) + 1, _DEFAULT_CAPACITY), hash_of)

    @classmethod
    def copy_of_capacity(
        cls, keys: Iterable[K], capacity: int, hash_of: Callable[[K], int]
    ) -> JavaHashMap[K]:
        made: JavaHashMap[K] = cls(hash_of, capacity)
        made.put_all(keys)
        return made

    def __len__(self) -> int:
        return len(self._spread)

    def __contains__(self, key: object) -> bool:
        return key in self._spread

    def put_all(self, keys: Iterable[K]) -> None:
        """Every key put in turn: the resizes their count calls for are done once all are in (a
        resize moves no key here, and what it sets depends on the capacity alone)."""
        spread, hash_of = self._spread, self._hash_of
        for key in keys:
            if key not in spread:
                h = hash_of(key) & 0xFFFFFFFF
                spread[key] = h ^ (h >> 16)
        if spread and self._capacity == 0:
            self._resize()
        while len(spread) > self._threshold:
            self._resize()

    def ordered(self) -> list[K]:
        """The keys in the map's iteration order."""
        mask = self._capacity - 1
        return [key for key, _ in sorted(self._spread.items(), key=lambda item: item[1] & mask)]

    def _resize(self) -> None:
        old = self._capacity
        if old == 0:
            capacity = self._threshold if self._threshold > 0 else _DEFAULT_CAPACITY
            threshold = (
                int(capacity * _LOAD_FACTOR) if self._threshold > 0 else int(_DEFAULT_CAPACITY * _LOAD_FACTOR)
            )
        else:
            capacity = old << 1
            threshold = self._threshold << 1 if old >= _DEFAULT_CAPACITY else int(capacity * _LOAD_FACTOR)
        self._capacity = capacity
        self._threshold = threshold


def hash_set_order(keys: Iterable[K], hash_of: Callable[[K], int]) -> list[K]:
    """The iteration order of a HashSet the keys were added to one by one (`new HashSet<>()`,
    Collectors.toSet())."""
    made: JavaHashMap[K] = JavaHashMap(hash_of)
    made.put_all(keys)
    return made.ordered()
