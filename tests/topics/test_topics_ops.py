"""kcli topics' selection and reports, as Kafka 4.4's TopicCommand decides them (pure)."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.ops.topics import Partition, Report, Topic, TopicsView, select, topic_pattern
from kcli.render.topics import describe_lines, partition_line, topic_line

NAMES = ["orders", "orders-dlq", "payments", "__consumer_offsets"]


def test_topic_is_a_whole_name_regex_with_kafkas_cleanup() -> None:
    assert select(NAMES, topic="orders", exclude_internal=False, require=True) == ["orders"]
    assert select(NAMES, topic="orders.*", exclude_internal=False, require=True) == ["orders", "orders-dlq"]
    # a comma is an alternative, spaces and surrounding quotes go (TopicFilter)
    assert select(NAMES, topic="'orders, payments'", exclude_internal=False, require=True) == [
        "orders",
        "payments",
    ]
    assert select(NAMES, topic=None, exclude_internal=True, require=True) == [
        "orders",
        "orders-dlq",
        "payments",
    ]
    assert select(NAMES, topic=".*", exclude_internal=False, require=False)[0] == "__consumer_offsets"


def test_a_described_topic_that_matches_nothing_is_an_error_and_a_bad_regex_a_usage_error() -> None:
    with pytest.raises(KcliError, match="Topic 'nope' does not exist as expected"):
        select(NAMES, topic="nope", exclude_internal=False, require=True)
    assert select(NAMES, topic="nope", exclude_internal=False, require=False) == []
    with pytest.raises(UsageError, match=r"orders\( is an invalid regex"):
        topic_pattern("orders(")


def _partition(
    index: int, leader: int, replicas: tuple[int, ...], isr: tuple[int, ...], **extra: object
) -> Partition:
    return Partition(
        topic="t",
        partition=index,
        leader=leader,
        replicas=replicas,
        isr=isr,
        elr=(),
        last_known_elr=(),
        **extra,
    )  # type: ignore[arg-type]


TOPIC = Topic(
    name="t",
    topic_id="upLQdK_iQt-H8U4wv8ihsQ",
    internal=False,
    partitions=(
        _partition(0, 1, (1, 2, 3), (1, 2, 3)),
        _partition(1, 2, (2, 3, 1), (2, 3)),  # under-replicated, at min ISR 2
        _partition(2, -1, (3, 1, 2), (3,)),  # leaderless
        _partition(3, 4, (4, 1, 2), (4, 1, 2)),  # led by a broker that is gone
        # a reassignment adding 4 and removing 1: its replication factor is 3, its ISR 3 of them
        _partition(4, 2, (2, 3, 4, 1), (2, 3, 1), adding=(4,), removing=(1,)),
    ),
    configs=(("min.insync.replicas", "2"),),
    min_isr=2,
)


@pytest.mark.parametrize(
    ("report", "shown"),
    [
        (Report.UNDER_REPLICATED, [1, 2]),
        (Report.UNAVAILABLE, [2, 3]),
        (Report.UNDER_MIN_ISR, [2]),
        (Report.AT_MIN_ISR, [1]),
    ],
)
def test_reports_pick_partitions_as_kafka_does(report: Report, shown: list[int]) -> None:
    view = TopicsView(topics=(TOPIC,), live_brokers=frozenset({1, 2, 3}), reports=(report,))
    assert [p.partition for p in view.shown_partitions(TOPIC)] == shown
    assert not view.shows_topic_line(TOPIC)  # a report prints partition lines only


def test_lines_are_kafka_topics_lines() -> None:
    assert topic_line(TOPIC) == (
        "Topic: t\tTopicId: upLQdK_iQt-H8U4wv8ihsQ\tPartitionCount: 5\tReplicationFactor: 3\tConfigs: min.insync.replicas=2"
    )
    assert partition_line(TOPIC.partitions[2]) == (
        "\tTopic: t\tPartition: 2\tLeader: none\tReplicas: 3,1,2\tIsr: 3\tElr: \tLastKnownElr: "
    )
    assert partition_line(TOPIC.partitions[4]) == (
        "\tTopic: t\tPartition: 4\tLeader: 2\tReplicas: 2,3,4,1\tIsr: 2,3,1\tAdding Replicas: 4\tRemoving Replicas: 1"
        "\tElr: \tLastKnownElr: "
    )
    unknown = Partition(topic="t", partition=0, leader=1, replicas=(1,), isr=(1,))
    assert partition_line(unknown).endswith("\tElr: N/A\tLastKnownElr: N/A")
    everything = TopicsView(topics=(TOPIC,), live_brokers=frozenset({1, 2, 3}))
    assert len(list(describe_lines(everything))) == 6
    overrides = TopicsView(topics=(TOPIC,), live_brokers=frozenset({1, 2, 3}), with_overrides=True)
    assert list(describe_lines(overrides)) == [topic_line(TOPIC)]
