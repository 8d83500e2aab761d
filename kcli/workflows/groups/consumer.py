"""`kcli consumer-groups` --list, --describe, --delete and --delete-offsets: the calls, in Kafka's order.

Behavior:
- --list: ListGroups of every broker, types classic and consumer with protocol type `consumer` or
  none (ListGroupsOptions.forConsumerGroups), the --state/--type filters sent to the brokers.
- --describe: the groups (--all-groups: listed first), described at their coordinators; for the
  offsets view, their committed offsets (one OffsetFetch per coordinator for all the groups), the
  partitions' leaders (one Metadata) and log end offsets (one ListOffsets per leader), all
  concurrently; with --time-lag, one Fetch per leader at the committed offsets.
- --delete: DeleteGroups at each coordinator; --delete-offsets: OffsetDelete of the partitions
  named (a topic alone means all its partitions, from Metadata).
A group that fails is reported beside the ones that did not; kcli exits 1 when any failed.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from kcli.errors import KcliError
from kcli.ops.groups.consumer_line import View
from kcli.ops.groups.describe import GroupOffsets, PartitionFacts, offset_rows, partitions_to_read
from kcli.ops.groups.model import GroupDescription, GroupListing, GroupState, GroupType, ToolRelease
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin

CONSUMER_TYPES = (GroupType.CLASSIC, GroupType.CONSUMER)
CONSUMER_PROTOCOLS = frozenset({"", "consumer"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Described:
    """--describe's result: each group in order of its id, and the groups that failed."""

    view: View
    verbose: bool
    release: ToolRelease
    groups: tuple[GroupOffsets, ...]
    failed: tuple[tuple[str, KcliError], ...] = ()
    time_lag: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class Deleted:
    """--delete's result: the groups deleted and the ones that could not be, with why."""

    release: ToolRelease
    deleted: tuple[str, ...]
    failed: tuple[tuple[str, KcliError], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class OffsetsDeleted:
    """--delete-offsets' result: the group's error (if any) and each partition's (None: deleted)."""

    release: ToolRelease
    group_id: str
    error: KcliError | None
    partitions: dict[TopicPartition, KcliError | None] = field(default_factory=dict)
    topics: tuple[str, ...] = ()  # the --topic values as given
    asked: frozenset[TopicPartition] = frozenset()  # the partitions OffsetDelete was sent

    def deleted_partitions_errors(self) -> list[tuple[TopicPartition, KcliError]]:
        """The errors of the partitions OffsetDelete answered for (not those of unknown topics)."""
        return [(tp, e) for tp, e in self.partitions.items() if e is not None and tp in self.asked]


async def list_consumer_groups(
    admin: Admin, *, types: Sequence[GroupType] = (), states: Sequence[GroupState] = ()
) -> list[GroupListing]:
    """The consumer groups (classic and KIP-848) of every broker, sorted by id."""
    from kcli.client.api.groups import list_groups

    listed = await list_groups(
        admin, types=[str(t) for t in (types or CONSUMER_TYPES)], states=[str(s) for s in states]
    )
    wanted = set(types or CONSUMER_TYPES)  # brokers before ListGroups v5 do not filter by type
    return [
        g for g in listed if g.protocol_type in CONSUMER_PROTOCOLS and (g.type is None or g.type in wanted)
    ]


async def describe_groups(
    admin: Admin,
    group_ids: Sequence[str] | None,
    *,
    view: View,
    verbose: bool,
    timeout_ms: int,
    time_lag: bool = False,
) -> Described:
    """--describe of `group_ids` (None: --all-groups)."""
    from kcli.client.api.groups import describe_consumer_groups, tool_release

    deadline = time.monotonic() + timeout_ms / 1000
    ids = (
        [g.group_id for g in await list_consumer_groups(admin)]
        if group_ids is None
        else list(dict.fromkeys(group_ids))
    )
    release_task = asyncio.ensure_future(tool_release(admin))
    offsets_task = (
        asyncio.ensure_future(_committed(admin, ids, deadline)) if view is View.OFFSETS and ids else None
    )
    described = await describe_consumer_groups(admin, ids, deadline=deadline) if ids else {}
    committed = await offsets_task if offsets_task is not None else {}
    release = await release_task
    failed = [(g, v) for g, v in described.items() if isinstance(v, KcliError)]
    found = {g: v for g, v in described.items() if isinstance(v, GroupDescription)}
    for group_id in found:
        error = committed.get(group_id)
        if isinstance(error, KcliError):
            failed.append((group_id, error))
    groups: list[GroupOffsets] = []
    if view is View.OFFSETS:
        groups = await _with_offsets(admin, found, committed, release, deadline, time_lag)
    else:
        groups = [GroupOffsets(description=found[g]) for g in sorted(found)]
    return Described(
        view=view,
        verbose=verbose,
        release=release,
        groups=tuple(groups),
        failed=tuple(sorted(failed, key=lambda item: item[0])),
        time_lag=time_lag,
    )


async def _committed(admin: Admin, ids: list[str], deadline: float) -> dict[str, object]:
    from kcli.client.api.offsets import committed_offsets

    return dict(await committed_offsets(admin, ids, deadline=deadline))


async def _with_offsets(
    admin: Admin,
    found: dict[str, GroupDescription],
    committed: dict[str, object],
    release: ToolRelease,
    deadline: float,
    time_lag: bool,
) -> list[GroupOffsets]:
    from kcli.ops.groups.model import CommittedOffset

    offsets: dict[str, dict[TopicPartition, CommittedOffset]] = {
        g: c for g, c in committed.items() if isinstance(c, dict) and g in found
    }
    wanted: set[TopicPartition] = set()
    for group_id, description in found.items():
        wanted |= partitions_to_read(description, offsets.get(group_id, {}))
    facts = await partition_facts(admin, wanted, deadline)
    if time_lag:
        positions = {
            tp: c.offset
            for group in offsets.values()
            for tp, c in group.items()
            if (end := facts.log_end.get(tp)) is not None and end > c.offset
        }
        facts = PartitionFacts(
            log_end=facts.log_end, time_lag_ms=await record_ages(admin, positions, deadline)
        )
    return [
        GroupOffsets(
            description=found[g],
            rows=offset_rows(
                found[g], offsets.get(g, {}), facts, hash_order=release is ToolRelease.LEGACY
            ),
        )
        for g in sorted(found)
        if g in offsets
    ]


async def partition_facts(admin: Admin, partitions: set[TopicPartition], deadline: float) -> PartitionFacts:
    """The log end offset of each partition (None where it has no leader or the topic is gone)."""
    from kcli.client.api.offsets import LATEST, ListedOffset, leaders, list_offsets

    if not partitions:
        return PartitionFacts()
    found = await leaders(admin, sorted({tp.topic for tp in partitions}))
    with_leader = {tp: LATEST for tp in partitions if found.leader.get(tp, -1) >= 0}
    listed = (
        await list_offsets(admin, with_leader, deadline=deadline, known_leaders=found.leader)
        if with_leader
        else {}
    )
    log_end: dict[TopicPartition, int | None] = {}
    for tp in partitions:
        value = listed.get(tp)
        log_end[tp] = value.offset if isinstance(value, ListedOffset) else None
    return PartitionFacts(log_end=log_end)


async def record_ages(
    admin: Admin, positions: dict[TopicPartition, int], deadline: float
) -> dict[TopicPartition, int]:
    """For --time-lag: how old the record at each position is, in ms (partitions that fail: left out)."""
    from kcli.client.api.offsets import fetch_at
    from kcli.ops.groups.time_lag import age_ms, record_timestamp

    if not positions:
        return {}
    fetched = await fetch_at(admin, positions, deadline=deadline, max_bytes=1024 * 1024)
    now = int(time.time() * 1000)
    ages: dict[TopicPartition, int] = {}
    for tp, data in fetched.items():
        if isinstance(data, bytes):
            age = age_ms(record_timestamp(data, positions[tp]), now)
            if age is not None:
                ages[tp] = age
    return ages


async def delete_groups(admin: Admin, group_ids: Sequence[str] | None, *, timeout_ms: int) -> Deleted:
    """--delete of `group_ids` (None: every consumer group)."""
    from kcli.client.api.groups import delete_groups as send_delete
    from kcli.client.api.groups import tool_release

    deadline = time.monotonic() + timeout_ms / 1000
    ids = (
        [g.group_id for g in await list_consumer_groups(admin)]
        if group_ids is None
        else list(dict.fromkeys(group_ids))
    )
    release = await tool_release(admin)
    results = await send_delete(admin, ids, deadline=deadline) if ids else {}
    return Deleted(
        release=release,
        deleted=tuple(g for g in ids if results.get(g) is None and g in results),
        failed=tuple((g, e) for g in ids if (e := results.get(g)) is not None),
    )


async def delete_offsets(
    admin: Admin, group_id: str, topics: Sequence[str], *, timeout_ms: int
) -> OffsetsDeleted:
    """--delete-offsets: `topic:p,p` names partitions; a topic alone all its partitions."""
    from kcli.client.api.groups import delete_offsets as send_delete
    from kcli.client.api.groups import tool_release
    from kcli.client.api.offsets import leaders
    from kcli.client.errors import KafkaError, code_of
    from kcli.ops.groups.reset_specs import topic_args

    deadline = time.monotonic() + timeout_ms / 1000
    named = topic_args(topics)
    release = await tool_release(admin)
    partitions = set(named.partitions)
    unknown: dict[TopicPartition, KcliError | None] = {}
    if named.whole_topics:
        found = await leaders(admin, list(named.whole_topics))
        for topic in named.whole_topics:
            if topic in found.partitions:
                partitions.update(TopicPartition(topic, p) for p in found.partitions[topic])
            else:
                unknown[TopicPartition(topic, -1)] = KafkaError(
                    code_of("UNKNOWN_TOPIC_OR_PARTITION"), None, what=f"describing topic {topic}"
                )
    error, results = (
        await send_delete(admin, group_id, sorted(partitions), deadline=deadline)
        if partitions
        else (None, {})
    )
    if error is not None and not results:
        results = dict.fromkeys(sorted(partitions), error)
    return OffsetsDeleted(
        release=release,
        group_id=group_id,
        error=error,
        partitions={**unknown, **results},
        topics=tuple(topics),
        asked=frozenset(partitions),
    )
