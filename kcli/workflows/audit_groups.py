"""The `groups` step of `kcli spark collect`: every group, and the committed offsets beside the log offsets.

Behavior:
- `groups`: one row per group ListGroups lists on any broker (every type: classic, consumer, share,
  streams), with its type, protocol type and state (null where the broker sends none, before v4/v5).
- `group_offsets`: one row per committed offset (OffsetFetch v8-9, batched per coordinator) of every
  group but share groups (whose progress is not a committed offset), beside the partition's log start
  and log end offsets (ListOffsets EARLIEST and LATEST, one request per leader and spec) and the lag.
  Only the partitions a group has committed offsets on are listed: a cluster's other partitions cost
  nothing, and a cluster without groups sends no ListOffsets at all.
- A partition of a topic that is gone, or without a leader, has null log offsets; a group whose
  offsets cannot be fetched, or a partition whose offsets cannot be listed, is a warning.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.ops.groups.model import CommittedOffset, GroupListing, GroupType
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin


async def group_tables(
    admin: Admin, partitions: Iterable[Mapping[str, Any]], *, timeout_ms: int
) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[str]]:
    """The `groups` and `group_offsets` rows, and what could not be collected (see the module doc).

    `partitions` are the snapshot's partition rows (topic, partition, leader): where to ask.
    """
    from kcli.client.api.groups import list_groups
    from kcli.client.api.offsets import committed_offsets

    deadline = time.monotonic() + timeout_ms / 1000
    listed = await list_groups(admin)
    groups = [group_row(g) for g in listed]
    with_offsets = [g.group_id for g in listed if g.type is not GroupType.SHARE]
    warnings: list[str] = []
    committed: dict[str, dict[TopicPartition, CommittedOffset]] = {}
    for group_id, answer in (await committed_offsets(admin, with_offsets, deadline=deadline)).items():
        if isinstance(answer, KcliError):
            warnings.append(f"offsets of group {group_id} not collected: {answer.line()}")
        else:
            committed[group_id] = answer
    leaders = {TopicPartition(str(p["topic"]), int(p["partition"])): int(p["leader"]) for p in partitions}
    wanted = {tp for offsets in committed.values() for tp in offsets}
    logs, failed = await log_offsets(admin, wanted, leaders, deadline=deadline)
    warnings.extend(
        f"log offsets of {tp} not collected: {error.line()}" for tp, error in sorted(failed.items())
    )
    return groups, offset_rows(committed, logs), warnings


def group_row(listing: GroupListing) -> dict[str, Any]:
    return {
        "group_id": listing.group_id,
        "type": None if listing.type is None else str(listing.type),
        "protocol_type": listing.protocol_type,
        "state": None if listing.state is None else str(listing.state),
    }


def offset_rows(
    committed: Mapping[str, Mapping[TopicPartition, CommittedOffset]],
    logs: Mapping[TopicPartition, tuple[int | None, int | None]],
) -> list[dict[str, Any]]:
    """One row per committed offset, sorted by group, topic and partition, with the log offsets and lag."""
    rows = []
    for group_id in sorted(committed):
        for tp, offset in sorted(committed[group_id].items()):
            start, end = logs.get(tp, (None, None))
            rows.append(
                {
                    "group_id": group_id,
                    "topic": tp.topic,
                    "partition": tp.partition,
                    "committed_offset": offset.offset,
                    "leader_epoch": offset.leader_epoch,
                    "log_start_offset": start,
                    "log_end_offset": end,
                    "lag": None if end is None else max(end - offset.offset, 0),
                }
            )
    return rows


async def log_offsets(
    admin: Admin, wanted: set[TopicPartition], leaders: Mapping[TopicPartition, int], *, deadline: float
) -> tuple[dict[TopicPartition, tuple[int | None, int | None]], dict[TopicPartition, KcliError]]:
    """Each partition's (log start, log end) offsets; a partition gone or leaderless has (None, None)."""
    import asyncio

    from kcli.client.api.offsets import EARLIEST, LATEST, ListedOffset, list_offsets

    led = {tp: leaders[tp] for tp in wanted if leaders.get(tp, -1) >= 0}
    out: dict[TopicPartition, tuple[int | None, int | None]] = dict.fromkeys(wanted, (None, None))
    if not led:
        return out, {}
    earliest, latest = await asyncio.gather(
        list_offsets(admin, dict.fromkeys(led, EARLIEST), deadline=deadline, known_leaders=led),
        list_offsets(admin, dict.fromkeys(led, LATEST), deadline=deadline, known_leaders=led),
    )
    failed: dict[TopicPartition, KcliError] = {}
    for tp in led:
        start, end = earliest.get(tp), latest.get(tp)
        error = next((v for v in (start, end) if isinstance(v, KcliError)), None)
        if error is not None:
            failed[tp] = error
        out[tp] = (
            start.offset if isinstance(start, ListedOffset) else None,
            end.offset if isinstance(end, ListedOffset) else None,
        )
    return out, failed
