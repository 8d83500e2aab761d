"""Throttle configs as the original computes them; verify states; cancel selection."""

from __future__ import annotations

from kcli.ops.reassign.json_format import parse_reassignment
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition
from kcli.ops.reassign.throttle import clear_targets, throttle_plan
from kcli.ops.reassign.verify import Status, cancellable, partition_states

A0, A1, A10, B0 = (
    TopicPartition("a", 0),
    TopicPartition("a", 1),
    TopicPartition("a", 10),
    TopicPartition("b", 0),
)


def test_topic_and_broker_throttles() -> None:
    file = parse_reassignment(
        '{"partitions":[{"topic":"a","partition":0,"replicas":[3,2]},'
        '{"topic":"a","partition":10,"replicas":[1,4]},'
        '{"topic":"b","partition":0,"replicas":[1,2],"log_dirs":["/d/x","any"]}]}'
    )
    current = {A0: (1, 2), A10: (1, 2), B0: (1, 2)}
    plan = throttle_plan(
        entries=file.entries, current=current, ongoing=[], interbroker_rate=1000, log_dir_rate=50
    )
    assert plan.topic_configs == {
        "a": {
            # Java TreeSet order (strings): "0:1" < "0:2" < "10:1".
            "follower.replication.throttled.replicas": "0:3,10:4",
            "leader.replication.throttled.replicas": "0:1,0:2,10:1,10:2",
        },
        # no replica of b moves: Kafka's calculateFollowerThrottles still sets an empty list
        "b": {"follower.replication.throttled.replicas": "", "leader.replication.throttled.replicas": "0:1,0:2"},
    }
    rate = {"follower.replication.throttled.rate": "1000", "leader.replication.throttled.rate": "1000"}
    assert plan.broker_configs == {
        1: {**rate, "replica.alter.log.dirs.io.max.bytes.per.second": "50"},
        2: rate,
        3: rate,
        4: rate,
    }


def test_no_throttle_when_rates_negative() -> None:
    file = parse_reassignment('{"partitions":[{"topic":"a","partition":0,"replicas":[3,2]}]}')
    plan = throttle_plan(
        entries=file.entries, current={A0: (1, 2)}, ongoing=[], interbroker_rate=-1, log_dir_rate=-1
    )
    assert plan.empty


def test_running_reassignments_keep_their_sources_and_are_throttled_too() -> None:
    file = parse_reassignment('{"partitions":[{"topic":"a","partition":0,"replicas":[5,6]}]}')
    ongoing = [
        OngoingReassignment(partition=A0, replicas=(1, 2, 3), adding=(3,), removing=(1,)),
        OngoingReassignment(partition=A1, replicas=(1, 4), adding=(4,)),
    ]
    plan = throttle_plan(
        entries=file.entries, current={A0: (1, 2, 3)}, ongoing=ongoing, interbroker_rate=7, log_dir_rate=-1
    )
    assert plan.topic_configs["a"] == {
        "follower.replication.throttled.replicas": "0:5,0:6,1:4",
        "leader.replication.throttled.replicas": "0:1,0:2,1:1",
    }
    assert sorted(plan.broker_configs) == [1, 2, 4, 5, 6]


def test_partition_states() -> None:
    targets = {A0: (1, 2), A1: (2, 3), B0: (3, 1)}
    states = partition_states(
        targets,
        current={A0: (1, 2), A1: (2, 1), B0: (1, 3)},
        ongoing={B0: OngoingReassignment(partition=B0, replicas=(1, 3), adding=(3,), removing=())},
    )
    assert [(str(s.partition), s.status) for s in states] == [
        ("a-0", Status.COMPLETE),
        ("a-1", Status.FAILED),
        ("b-0", Status.IN_PROGRESS),
    ]


def test_cancel_selects_moving_partitions_only() -> None:
    ongoing = {
        A0: OngoingReassignment(partition=A0, replicas=(1, 2), adding=(2,)),
        A1: OngoingReassignment(partition=A1, replicas=(1, 2)),
    }
    assert cancellable([B0, A1, A0], ongoing) == [A0]


def test_clear_targets_include_all_brokers_and_file_topics() -> None:
    file = parse_reassignment(
        '{"partitions":[{"topic":"b","partition":0,"replicas":[7]},{"topic":"a","partition":0,"replicas":[1]}]}'
    )
    assert clear_targets(cluster_brokers=[1, 2], file_entries=file.entries) == ([1, 2, 7], ["a", "b"])
