"""`kcli consumer-groups --reset-offsets`: plan every group's new offsets, then (--execute) write the
rollback file, commit, and read the offsets back.

Behavior:
- The groups (--all-groups: every consumer group) are described first: only an Empty or Dead group,
  or one that does not exist yet, may be reset; a group with members is refused in one line (as
  Kafka refuses it) and left as it is, the others go on.
- The partitions (--all-topics: the group's committed ones; --topic t or t:0,1; --from-file: the
  file's) are checked to exist and to have a leader (Kafka 4.2+), then the offsets the
  specification needs are read: log start, log end, offsets by time, committed.
- Every group is planned before any is changed: a refusal anywhere changes nothing.
- --execute: the rollback file (each group's offsets before the change, as `--from-file` reads
  them) is written before the first OffsetCommit; after the commits the offsets are fetched again
  and compared, and a partition whose offset is not the one committed is an error.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.client.errors import KafkaError, code_of
from kcli.errors import KcliError, UsageError
from kcli.ops.groups.model import CommittedOffset, GroupDescription, GroupState, ToolRelease
from kcli.ops.groups.reset_plan import LogOffsets, Planned, ResetSpec, plan_group
from kcli.ops.groups.reset_specs import PlannedOffset, plan_csv, topic_args
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin

INACTIVE = frozenset({GroupState.EMPTY, GroupState.DEAD})
GROUP_ID_NOT_FOUND = code_of("GROUP_ID_NOT_FOUND")


class GroupActive(KcliError):
    """A reset of a group with members: refused, as Kafka refuses it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GroupReset:
    group_id: str
    offsets: dict[TopicPartition, int] = field(default_factory=dict)  # the new offsets
    before: dict[TopicPartition, CommittedOffset] = field(default_factory=dict)
    error: KcliError | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ResetResult:
    release: ToolRelease
    executed: bool
    groups: tuple[GroupReset, ...]
    warnings: tuple[str, ...] = ()
    rollback: Path | None = None
    unconfirmed: tuple[str, ...] = ()  # after --execute: partitions whose offset did not read back

    def planned_rows(self) -> list[PlannedOffset]:
        """The new offsets in the order Kafka's tool prints them (Java HashMaps of groups and partitions)."""
        from kcli.ops.groups.java_order import partitions_in_hash_order, strings_in_hash_order

        by_id = {g.group_id: g for g in self.groups if g.error is None}
        return [
            PlannedOffset(group_id, tp, by_id[group_id].offsets[tp])
            for group_id in strings_in_hash_order(sorted(by_id))
            for tp in partitions_in_hash_order(sorted(by_id[group_id].offsets))
        ]

    @property
    def failed(self) -> tuple[GroupReset, ...]:
        return tuple(g for g in self.groups if g.error is not None)


async def reset_offsets(
    admin: Admin,
    group_ids: Sequence[str] | None,
    spec: ResetSpec,
    *,
    topics: Sequence[str] = (),
    all_topics: bool = False,
    execute: bool,
    timeout_ms: int,
    rollback_path: Callable[[], Path],
) -> ResetResult:
    """Plan (and with `execute` apply) the reset of each group; see the module doc."""
    from kcli.client.api.groups import describe_consumer_groups, tool_release
    from kcli.client.api.offsets import committed_offsets
    from kcli.workflows.groups.consumer import list_consumer_groups

    deadline = time.monotonic() + timeout_ms / 1000
    ids = (
        [g.group_id for g in await list_consumer_groups(admin)]
        if group_ids is None
        else list(dict.fromkeys(group_ids))
    )
    release = await tool_release(admin)
    described = await describe_consumer_groups(admin, ids, deadline=deadline) if ids else {}
    inactive, refused = _inactive(ids, described)
    fetched = await committed_offsets(admin, inactive, deadline=deadline) if inactive else {}
    before: dict[str, dict[TopicPartition, CommittedOffset]] = {}
    for group_id in inactive:
        offsets = fetched.get(group_id, {})
        if isinstance(offsets, KcliError):
            refused[group_id] = offsets
        else:
            before[group_id] = offsets
    inactive = [g for g in inactive if g not in refused]
    scopes = await _scopes(admin, inactive, before, spec, topics, all_topics, release)
    logs = await log_offsets(admin, spec, {tp for ps in scopes.values() for tp in ps}, deadline)
    plans: dict[str, Planned] = {}
    for group_id in inactive:
        if spec.kind == "from-file" and group_id not in spec.plan:
            refused[group_id] = KcliError(
                f"No reset plan for group {group_id} found.",
                hint="the file names each group in its first column",
            )
        else:
            plans[group_id] = plan_group(group_id, spec, scopes[group_id], before.get(group_id, {}), logs)
    warnings = [w for plan in plans.values() for w in plan.warnings]
    groups = [
        GroupReset(group_id=g, error=refused[g])
        if g in refused
        else GroupReset(group_id=g, offsets=plans[g].offsets, before=dict(before.get(g, {})))
        for g in sorted(ids)
    ]
    if not execute:
        return ResetResult(release=release, executed=False, groups=tuple(groups), warnings=tuple(warnings))
    return await _execute(admin, release, groups, warnings, rollback_path, deadline)


def _inactive(
    ids: list[str], described: dict[str, GroupDescription | KcliError]
) -> tuple[list[str], dict[str, KcliError]]:
    inactive, refused = [], {}
    for group_id in ids:
        found = described.get(group_id)
        if isinstance(found, KafkaError) and found.code == GROUP_ID_NOT_FOUND:
            inactive.append(group_id)  # a new group: its first offsets
        elif isinstance(found, KcliError):
            refused[group_id] = found
        elif found is not None and found.state not in INACTIVE:
            refused[group_id] = GroupActive(
                f"Assignments can only be reset if the group '{group_id}' is inactive, but the current "
                f"state is {found.state}.",
                hint="stop the group's consumers first (kcli consumer-groups --describe --members shows them)",
            )
        else:
            inactive.append(group_id)
    return inactive, refused


async def _scopes(
    admin: Admin,
    groups: list[str],
    before: dict[str, dict[TopicPartition, CommittedOffset]],
    spec: ResetSpec,
    topics: Sequence[str],
    all_topics: bool,
    release: ToolRelease,
) -> dict[str, list[TopicPartition]]:
    """The partitions to reset of each group, checked to exist and have a leader (Kafka 4.2+)."""
    per_group: dict[str, list[TopicPartition]] = {}
    named = await named_partitions(admin, topics) if topics and groups else []
    for group_id in groups:
        if all_topics:
            per_group[group_id] = sorted(before.get(group_id, {}))
        elif topics:
            per_group[group_id] = list(named)
        else:
            per_group[group_id] = sorted(spec.plan.get(group_id, {}))
    if all_topics and release is ToolRelease.CURRENT:
        await check_partitions(admin, sorted({tp for ps in per_group.values() for tp in ps}))
    return per_group


async def named_partitions(admin: Admin, topics: Sequence[str], *, check: bool = True) -> list[TopicPartition]:
    """The partitions `--topic t:0,1` / `--topic t` names (a topic alone: all its partitions)."""
    from kcli.client.api.offsets import leaders

    named = topic_args(topics)
    found = await leaders(admin, sorted({tp.topic for tp in named.partitions} | set(named.whole_topics)))
    missing = [t for t in named.whole_topics if t not in found.partitions]
    if missing:
        raise KafkaError(code_of("UNKNOWN_TOPIC_OR_PARTITION"), None, what=f"describing topic {missing[0]}")
    partitions = [*named.partitions, *(TopicPartition(t, p) for t in named.whole_topics for p in found.partitions[t])]
    if check:
        _check_partitions(partitions, found.leader)
    return partitions


async def check_partitions(admin: Admin, partitions: list[TopicPartition]) -> None:
    """checkAllTopicPartitionsValid: every partition exists and has a leader."""
    from kcli.client.api.offsets import leaders

    if partitions:
        found = await leaders(admin, sorted({tp.topic for tp in partitions}))
        _check_partitions(partitions, found.leader)


def _check_partitions(partitions: list[TopicPartition], leader: dict[TopicPartition, int]) -> None:
    absent = [tp for tp in partitions if tp not in leader]
    if absent:
        raise UsageError(f'The partitions "{",".join(map(str, absent))}" do not exist')
    leaderless = [tp for tp in partitions if leader[tp] < 0]
    if leaderless:
        raise KcliError(f'The partitions "{",".join(map(str, leaderless))}" have no leader')


async def log_offsets(
    admin: Admin, spec: ResetSpec, partitions: set[TopicPartition], deadline: float
) -> LogOffsets:
    """The log offsets the specification needs (with a leader: partitions without one are left out)."""
    from kcli.client.api.offsets import EARLIEST, LATEST, ListedOffset, list_offsets

    if not partitions:
        return LogOffsets()

    async def at(timestamp: int) -> dict[TopicPartition, int]:
        listed = await list_offsets(admin, dict.fromkeys(partitions, timestamp), deadline=deadline)
        return {tp: v.offset for tp, v in listed.items() if isinstance(v, ListedOffset)}

    kind = spec.kind
    start = await at(EARLIEST) if kind in ("to-earliest", "shift-by", "to-offset", "from-file") else {}
    end = await at(LATEST) if kind != "to-earliest" else {}
    by_time: dict[TopicPartition, int] = {}
    if spec.by_time:
        timestamp = spec.timestamp_ms
        if timestamp is None:
            timestamp = int(time.time() * 1000) - int(spec.duration_ms or 0)
        by_time = await at(timestamp)
    return LogOffsets(start=start, end=end, by_time=by_time)


async def _execute(
    admin: Admin,
    release: ToolRelease,
    groups: list[GroupReset],
    warnings: list[str],
    rollback_path: Callable[[], Path],
    deadline: float,
) -> ResetResult:
    from kcli.client.api.offsets import commit_offsets, committed_offsets
    from kcli.workflows.reassign.execute import write_rollback

    changing = [g for g in groups if g.error is None and g.offsets]
    path = None
    if changing:
        path = rollback_path()
        write_rollback(path, rollback_csv(changing).rstrip("\n"))
    done: list[GroupReset] = []
    for group in groups:
        if group.error is not None or not group.offsets:
            done.append(group)
            continue
        results = await commit_offsets(admin, group.group_id, group.offsets, deadline=deadline)
        failed = next(((tp, e) for tp, e in sorted(results.items()) if e is not None), None)
        if failed is not None:
            error = KcliError(f"committing the new offsets of group {group.group_id}: {failed[1].message}")
            done.append(GroupReset(group_id=group.group_id, before=group.before, error=error))
        else:
            done.append(group)
    committed = [g.group_id for g in done if g.error is None and g.offsets]
    read_back = await committed_offsets(admin, committed, deadline=deadline) if committed else {}
    unconfirmed = []
    for group in done:
        now = read_back.get(group.group_id)
        if group.group_id not in committed:
            continue
        for tp, offset in sorted(group.offsets.items()):
            found = now.get(tp) if isinstance(now, dict) else None
            if found is None or found.offset != offset:
                unconfirmed.append(f"{group.group_id} {tp}")
    return ResetResult(
        release=release,
        executed=True,
        groups=tuple(done),
        warnings=tuple(warnings),
        rollback=path,
        unconfirmed=tuple(unconfirmed),
    )


def rollback_csv(groups: Sequence[GroupReset]) -> str:
    """The offsets before the change of the partitions a reset changes, as `--from-file` reads them."""
    rows = [
        PlannedOffset(g.group_id, tp, g.before[tp].offset)
        for g in groups
        for tp in sorted(g.offsets)
        if tp in g.before
    ]
    return plan_csv(rows, with_group=True)


def without_offsets(groups: Sequence[GroupReset]) -> dict[str, list[TopicPartition]]:
    """The partitions a reset gives a first offset (no rollback line can undo those: --delete-offsets can)."""
    out: dict[str, list[TopicPartition]] = {}
    for group in groups:
        fresh = [tp for tp in sorted(group.offsets) if tp not in group.before]
        if fresh and group.error is None:
            out[group.group_id] = fresh
    return out
