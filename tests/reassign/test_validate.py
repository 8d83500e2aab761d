"""Cluster-aware checks of a reassignment file: each bad input is one UsageError."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops.reassign.json_format import parse_reassignment
from kcli.ops.reassign.model import TopicPartition
from kcli.ops.reassign.validate import check_against_cluster

CURRENT = {TopicPartition("a", 0): (1, 2), TopicPartition("a", 1): (2, 3)}


def check(partitions: str, allow: bool = False) -> None:
    file = parse_reassignment('{"version":1,"partitions":[' + partitions + "]}")
    check_against_cluster(file, brokers=[1, 2, 3], current=CURRENT, allow_replication_factor_change=allow)


def test_valid_passes() -> None:
    check('{"topic":"a","partition":0,"replicas":[3,1]}')


@pytest.mark.parametrize(
    ("partitions", "message"),
    [
        ("", "Partition reassignment list cannot be empty"),
        ('{"topic":"a","partition":0,"replicas":[]}', "Partition replica list cannot be empty"),
        (
            '{"topic":"a","partition":0,"replicas":[1,2]},{"topic":"a","partition":0,"replicas":[2,3]}',
            "Partition reassignment contains duplicate topic partitions: a-0",
        ),
        (
            '{"topic":"a","partition":0,"replicas":[1,1]}',
            "Partition replica lists may not contain duplicate entries: a-0 contains multiple entries for 1.",
        ),
    ],
)
def test_each_bad_input_is_one_usage_error(partitions: str, message: str) -> None:
    with pytest.raises(UsageError) as info:
        check(partitions)
    assert message in info.value.line()


@pytest.mark.parametrize(
    ("partitions", "message"),
    [
        ('{"topic":"a","partition":0,"replicas":[1,9]}', "Unknown broker id 9"),
        ('{"topic":"a","partition":7,"replicas":[1,2]}', "Unable to find partition: a-7"),
        ('{"topic":"zz","partition":0,"replicas":[1,2]}', "Topic zz not found."),
        ('{"topic":"a","partition":0,"replicas":[1,2,3]}', "would change replication factor from 2 to 3"),
    ],
)
def test_what_the_cluster_refutes_is_a_runtime_error(partitions: str, message: str) -> None:
    with pytest.raises(KcliError) as info:
        check(partitions)
    assert not isinstance(info.value, UsageError)
    assert message in info.value.line()


def test_replication_factor_change_with_intent() -> None:
    check('{"topic":"a","partition":0,"replicas":[1,2,3]}', allow=True)
