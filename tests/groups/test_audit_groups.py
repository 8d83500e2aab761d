"""`kcli spark collect`'s group rows: the listing as it is, committed offsets beside the log offsets."""

from __future__ import annotations

from kcli.ops.groups.model import CommittedOffset, GroupListing, GroupState, GroupType
from kcli.ops.reassign.model import TopicPartition as TP
from kcli.workflows.audit_groups import group_row, offset_rows


def test_group_rows_keep_what_the_broker_did_not_say_as_null() -> None:
    listed = GroupListing(
        group_id="g", protocol_type="consumer", type=GroupType.CONSUMER, state=GroupState.STABLE
    )
    assert group_row(listed) == {
        "group_id": "g",
        "type": "Consumer",
        "protocol_type": "consumer",
        "state": "Stable",
    }
    old = GroupListing(group_id="o", protocol_type="")
    assert group_row(old) == {"group_id": "o", "type": None, "protocol_type": "", "state": None}


def test_offset_rows_sorted_with_log_offsets_and_lag() -> None:
    committed = {
        "b": {TP("t", 1): CommittedOffset(offset=3, leader_epoch=2)},
        "a": {TP("t", 1): CommittedOffset(offset=9), TP("gone", 0): CommittedOffset(offset=4)},
    }
    logs = {TP("t", 1): (5, 8), TP("gone", 0): (None, None)}

    rows = offset_rows(committed, logs)

    assert [(r["group_id"], r["topic"], r["partition"]) for r in rows] == [
        ("a", "gone", 0),
        ("a", "t", 1),
        ("b", "t", 1),
    ]
    assert rows[0] | {} == {
        "group_id": "a",
        "topic": "gone",
        "partition": 0,
        "committed_offset": 4,
        "leader_epoch": None,
        "log_start_offset": None,
        "log_end_offset": None,
        "lag": None,
    }
    assert (rows[1]["lag"], rows[2]["lag"], rows[2]["leader_epoch"]) == (0, 5, 2)  # past the end: 0
