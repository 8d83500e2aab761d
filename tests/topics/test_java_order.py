"""kcli.ops.java_order against what Java 17's HashMap and HashSet printed for the same keys.

The expected lists were printed by a Java 17 program putting these keys, in this order, into the
collections named (the same collections Kafka's admin client and tools build).
"""

from __future__ import annotations

from kcli.ops.java_order import (
    JavaHashMap,
    hash_set_order,
    integer_hash,
    string_hash,
    topic_partition_hash,
)


def _tp(key: str) -> int:
    topic, partition = key.rsplit("-", 1)
    return topic_partition_hash(topic, int(partition))


def test_hash_codes_are_javas() -> None:
    assert string_hash("x") == 120
    assert string_hash("orders") == -1008770331
    assert string_hash("été-😀") == -1803456526  # UTF-16 units, a surrogate pair for the emoji
    assert topic_partition_hash("orders", 7) == -1008769153
    assert integer_hash(-5) == -5


def test_a_hash_set_of_broker_ids() -> None:
    assert hash_set_order([102, 3, 17, 1, 101, 2, 33], integer_hash) == [17, 1, 33, 2, 3, 101, 102]
    assert JavaHashMap.hash_set_of([5, 21, 37, 1, 16, 32], integer_hash).ordered() == [16, 32, 1, 5, 21, 37]


def test_log_dirs_in_a_map_sized_for_them() -> None:
    two = ["/var/lib/kafka/data-0", "/var/lib/kafka/data-1"]
    assert JavaHashMap.copy_of_capacity(two, 2, string_hash).ordered() == two
    three = ["/tmp/tdev/k44/1", "/tmp/tdev/k44/logdirs/1-1", "/mnt/disk3/kafka"]
    assert JavaHashMap.copy_of_capacity(three, 3, string_hash).ordered() == [
        "/tmp/tdev/k44/logdirs/1-1",
        "/tmp/tdev/k44/1",
        "/mnt/disk3/kafka",
    ]


def test_topic_partitions_of_two_topics() -> None:
    keys = [f"{t}-{p}" for t in ("orders", "payments") for p in range(12)]
    assert (
        hash_set_order(keys, _tp)
        == ["orders-7", "payments-4", "orders-8", "payments-3", "orders-9", "payments-6", "orders-10", "payments-5", "orders-11", "payments-0", "payments-2", "payments-1", "payments-11", "payments-8", "payments-7", "payments-10", "payments-9", "orders-0", "orders-1", "orders-2", "orders-3", "orders-4", "orders-5", "orders-6"]
    )


CLICKS_COPIED = (26, 28, 22, 24, 18, 20, 14, 16, 9, 11, 5, 7, 1, 3, 25, 27, 21, 23, 17, 19, 13, 15, 10, 12, 6, 8, 2, 4, 29, 0)  # fmt: skip


def test_a_copy_keeps_the_order_of_keys_sharing_a_bucket() -> None:
    """30 keys: the table grows from 16 to 64 while they are put, then the copy is put afresh."""
    first = hash_set_order([f"clicks-{p}" for p in range(29, -1, -1)], _tp)
    assert hash_set_order(first, _tp) == [f"clicks-{p}" for p in CLICKS_COPIED]


def _moving_keys(keys: list[int], initial: int | None) -> list[int]:
    """Java's HashMap.putVal/resize step by step, keys moved into new tables as Java moves them: the
    reference the sort by final bucket (kcli.ops.java_order) must agree with."""
    capacity, threshold = 0, 0 if initial is None else 1 << max(initial - 1, 0).bit_length()
    table: list[list[int]] = []
    seen: set[int] = set()

    def resize() -> None:
        nonlocal capacity, threshold, table
        if capacity == 0:
            capacity, threshold = (threshold, int(threshold * 0.75)) if threshold else (16, 12)
        else:
            capacity, threshold = capacity << 1, threshold << 1 if capacity >= 16 else int((capacity << 1) * 0.75)
        moved: list[list[int]] = [[] for _ in range(capacity)]
        for bucket in table:
            for key in bucket:
                h = key & 0xFFFFFFFF
                moved[(h ^ (h >> 16)) & (capacity - 1)].append(key)
        table = moved

    for key in keys:
        if key in seen:
            continue
        if capacity == 0:
            resize()
        seen.add(key)
        h = key & 0xFFFFFFFF
        table[(h ^ (h >> 16)) & (capacity - 1)].append(key)
        if len(seen) > threshold:
            resize()
    return [key for bucket in table for key in bucket]


def test_the_order_is_the_one_javas_resizes_leave_for_many_keys_and_capacities() -> None:
    import random

    chooser = random.Random(7)
    for _ in range(300):
        keys = [chooser.randrange(-(2**31), 2**31) for _ in range(chooser.randrange(0, 3000))]
        keys += [chooser.choice(keys) for _ in range(10)] if keys else []  # repeats are put once
        keys += [k ^ (1 << chooser.randrange(31)) for k in keys[:50]]  # near neighbours share buckets
        initial = chooser.choice([None, 1, 3, 16, 17, 1000])
        made = JavaHashMap(integer_hash, initial)
        made.put_all(keys)
        assert made.ordered() == _moving_keys(keys, initial)
