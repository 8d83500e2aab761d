"""Lag: the describe rows and their order, the thresholds CI fails on, --watch trends, doctor --group."""

from __future__ import annotations

import pytest

from kcli.errors import KcliError, UsageError
from kcli.kafka import Severity
from kcli.ops.doctor import DoctorReport, Finding
from kcli.ops.doctor_groups import CHECK, group_findings, with_group_findings
from kcli.ops.groups.describe import GroupOffsets, OffsetRow, PartitionFacts, offset_rows, partitions_to_read
from kcli.ops.groups.lag import duration_text, over_line, over_thresholds, threshold_ms, trends
from kcli.ops.groups.model import CommittedOffset, GroupDescription, GroupState, GroupType, Member, Node
from kcli.ops.reassign.model import TopicPartition as TP

NODE = Node(node_id=1, host="localhost", port=9092)


def described(
    group: str = "g", *, state: GroupState = GroupState.STABLE, members: tuple[Member, ...] = ()
) -> GroupDescription:
    return GroupDescription(
        group_id=group, type=GroupType.CONSUMER, state=state, coordinator=NODE, members=members
    )


def member(name: str, *partitions: TP) -> Member:
    return Member(member_id=f"{name}-id", client_id=name, host="/127.0.0.1", assignment=partitions)


def group_of(
    group: str, *lags: tuple[str, int, int | None, int | None], state: GroupState = GroupState.STABLE
) -> GroupOffsets:
    """A group with a row per (topic, partition, lag, time lag ms)."""
    rows = tuple(
        OffsetRow(
            group=group,
            topic=t,
            partition=p,
            offset=100,
            log_end_offset=None if lag is None else 100 + lag,
            time_lag_ms=age,
        )
        for t, p, lag, age in lags
    )
    return GroupOffsets(description=described(group, state=state), rows=rows)


# ------------------------------------------------------------------------------------------ rows


def test_rows_members_with_most_partitions_first_then_committed_ones_nobody_holds() -> None:
    one = member("one", TP("t", 2))
    two = member("two", TP("t", 1), TP("t", 0))
    committed = {
        TP("t", 0): CommittedOffset(offset=5),
        TP("t", 2): CommittedOffset(offset=7),
        TP("u", 0): CommittedOffset(offset=3),
    }
    description = described(members=(one, two))
    facts = PartitionFacts(log_end={TP("t", 0): 9, TP("t", 1): 4, TP("t", 2): 7, TP("u", 0): None})

    rows = offset_rows(description, committed, facts)

    assert [(r.topic, r.partition, r.client_id) for r in rows] == [
        ("t", 0, "two"),
        ("t", 1, "two"),
        ("t", 2, "one"),
        ("u", 0, None),
    ]
    assert [r.lag for r in rows] == [4, None, 0, None]  # no committed offset, no leader: no lag
    assert partitions_to_read(description, committed) == {TP("t", 0), TP("t", 1), TP("t", 2), TP("u", 0)}


def test_lag_sums_per_group_and_topic() -> None:
    group = group_of("g", ("b", 0, 3, 10), ("a", 0, 2, 50), ("a", 1, None, None))
    assert group.total_lag == 5
    assert group.lag_by_topic() == {"a": 2, "b": 3}
    assert group.max_time_lag_ms == 50


# ------------------------------------------------------------------------------------ thresholds


@pytest.mark.parametrize(
    ("text", "ms"),
    [
        ("250ms", 250),
        ("30s", 30_000),
        ("5m", 300_000),
        ("1H", 3_600_000),
        ("2d", 172_800_000),
        ("PT5M", 300_000),
        ("PT0.5S", 500),
    ],
)
def test_threshold_durations(text: str, ms: int) -> None:
    assert threshold_ms(text) == ms


@pytest.mark.parametrize("text", ["", "5", "five minutes", "-PT5M", "5w"])
def test_threshold_refuses_what_is_not_a_duration(text: str) -> None:
    with pytest.raises(UsageError, match="is not a duration"):
        threshold_ms(text)


@pytest.mark.parametrize(
    ("ms", "text"),
    [(850, "850ms"), (12_500, "12.5s"), (245_000, "4m05s"), (7_380_000, "2h03m"), (273_600_000, "3d04h")],
)
def test_duration_text(ms: int, text: str) -> None:
    assert duration_text(ms) == text


def test_over_thresholds_by_records_or_age_and_the_line_names_the_worst() -> None:
    groups = [group_of("g1", ("t", 0, 10, 1_000), ("t", 1, 500, 2_000)), group_of("g2", ("t", 0, 0, 90_000))]

    assert [(o.group, o.partition) for o in over_thresholds(groups, records=10)] == [("g1", 1)]
    over = over_thresholds(groups, records=100, time_ms=60_000)
    assert [(o.group, o.partition) for o in over] == [("g1", 1), ("g2", 0)]
    assert over_line(over, records=100, time_ms=60_000) == (
        "2 partition(s) of 2 group(s) over the lag threshold (100 records or 1m00s); "
        "the most: group g1 t-1 lag 500, 2.0s behind"
    )
    assert over_thresholds(groups) == []


def test_trends_against_the_refresh_before() -> None:
    first = trends([group_of("g", ("t", 0, 10, None))], {}, None)
    assert (first[0].lag, first[0].change, first[0].direction) == (10, None, "")
    later = trends([group_of("g", ("t", 0, 4, None)), group_of("h", ("t", 0, 1, None))], {"g": 10}, 2.0)
    assert [(t.group, t.change, t.per_second, t.direction) for t in later] == [
        ("g", -6, -3.0, "shrinking"),
        ("h", None, None, ""),
    ]


# --------------------------------------------------------------------------------- doctor --group


def test_doctor_findings_over_the_threshold_are_high() -> None:
    groups = [
        group_of("orders", ("t", 0, 5, None), ("t", 1, 2_000, 120_000)),
        group_of("quiet", ("t", 0, 0, None)),
    ]

    findings = list(group_findings(groups, [], max_lag=1_000, max_time_lag_ms=None))

    assert [(f.severity, f.subject) for f in findings] == [(Severity.high, "group orders")]
    assert (
        findings[0].message
        == "1 partition(s) over the lag threshold (1000 records); the most: t-1 lag 2000, 2m00s behind"
    )
    assert "--describe --group orders --time-lag" in (findings[0].hint or "")


def test_doctor_findings_without_thresholds_are_the_lag_and_failures_are_high() -> None:
    groups = [group_of("orders", ("t", 0, 5, 1_500), state=GroupState.PREPARING_REBALANCE)]
    failed = [("nope", KcliError("Consumer group 'nope' does not exist."))]

    findings = list(group_findings(groups, failed, max_lag=None, max_time_lag_ms=None))

    assert [(f.severity, f.subject) for f in findings] == [
        (Severity.high, "group nope"),
        (Severity.low, "group orders"),
        (Severity.info, "group orders"),
    ]
    assert findings[0].message == "cannot be described: Consumer group 'nope' does not exist."
    assert (
        findings[2].message
        == "PreparingRebalance, 0 member(s), lag 5; the most: t-0 lag 5, 1.5s behind at most"
    )


def test_group_findings_join_the_report_worst_first() -> None:
    report = DoctorReport(
        cluster_id="c",
        findings=(Finding(check="quorum", severity=Severity.medium, subject="controllers", message="m"),),
        checked=("quorum",),
        not_checked=(),
        endpoints=(),
        fail_on=Severity.high,
    )
    assert not report.failed
    mine = Finding(check=CHECK, severity=Severity.high, subject="group g", message="over")

    merged = with_group_findings(report, [mine])

    assert [f.check for f in merged.findings] == [CHECK, "quorum"]
    assert merged.checked == ("quorum", CHECK)
    assert merged.failed


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ("--bootstrap-server", "localhost:1", "--max-lag", "5"),
            "--max-lag and --max-time-lag go with --group",
        ),
        (("--bootstrap-controller", "localhost:1", "--group", "g"), "--group needs --bootstrap-server"),
        (
            ("--bootstrap-server", "localhost:1", "--group", "g", "--max-time-lag", "soon"),
            "is not a duration",
        ),
    ],
)
def test_doctor_group_usage_errors_send_nothing(args: tuple[str, ...], message: str) -> None:
    from tests.conftest import invoke

    result = invoke("cluster", "doctor", *args)

    assert result.code == 2, result.stderr
    assert message in result.stderr
