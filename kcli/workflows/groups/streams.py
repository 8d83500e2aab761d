"""`kcli streams-groups`: the calls of kafka-streams-groups.sh (KIP-1071), in its order.

Behavior (StreamsGroupCommand of Kafka 4.4):
- --list: ListGroups of every broker, type Streams (and the --state filter).
- --describe: StreamsGroupDescribe at each coordinator; the offsets view covers the source and
  repartition-source partitions of the members' active tasks: the committed offset (OffsetFetch),
  the log end offset, and the lag (end - committed, or end - start without a commit).
- --delete: only a streams group that exists and is Empty (ListGroups says), then DeleteGroups;
  --delete-all-internal-topics then deletes its changelog and repartition topics (DeleteTopics).
- --delete-offsets: OffsetDelete of the input topics' partitions (--all-input-topics: the committed ones).
- --reset-offsets: as kafka-consumer-groups' reset, on the input topics (rollback file first, and the
  offsets read back, as kcli does for consumer groups).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kcli.client.errors import KafkaError, code_of
from kcli.errors import KcliError, UsageError
from kcli.ops.groups.model import CommittedOffset, GroupListing, GroupState, ToolRelease
from kcli.ops.groups.reset_plan import ResetSpec, plan_group
from kcli.ops.reassign.model import TopicPartition
from kcli.workflows.groups.reset import GroupActive, GroupReset, ResetResult

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.streams_groups import StreamsGroup

GROUP_ID_NOT_FOUND = code_of("GROUP_ID_NOT_FOUND")


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsOffset:
    current: int | None
    leader_epoch: int | None
    log_end: int
    lag: int


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsDescribed:
    groups: tuple[tuple[StreamsGroup, dict[TopicPartition, StreamsOffset]], ...]
    failed: tuple[tuple[str, KcliError], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsDeleted:
    deleted: tuple[str, ...]
    failed: tuple[tuple[str, KcliError], ...] = ()
    internal_deleted: tuple[str, ...] = ()  # the groups whose internal topics went with them
    internal_failed: tuple[tuple[str, KcliError], ...] = ()


async def list_streams_groups(admin: Admin, *, states: Sequence[GroupState] = ()) -> list[GroupListing]:
    from kcli.client.api.groups import list_groups

    listed = await list_groups(admin, types=["Streams"], states=[str(s) for s in states])
    return [g for g in listed if g.type is None or str(g.type) == "Streams"]


def source_topics(group: StreamsGroup, *, repartition: bool = True) -> set[str]:
    """The group's input topics (source topics, and with `repartition` its repartition-source ones)."""
    out: set[str] = set()
    for s in group.subtopologies:
        out.update(s.source_topics)
        if repartition:
            out.update(s.repartition_source_topics)
    return out


def internal_topics(group: StreamsGroup) -> list[str]:
    """The changelog and repartition topics Kafka infers as the group's own (`<app id>-...-changelog`)."""
    import re

    sources = {t for s in group.subtopologies for t in s.source_topics}
    candidates = [
        t for s in group.subtopologies for t in (*s.repartition_source_topics, *s.state_changelog_topics)
    ]
    suffixes = (
        "-changelog",
        "-repartition",
        "-subscription-registration-topic",
        "-subscription-response-topic",
    )
    fk = re.compile(r".+-KTABLE-FK-JOIN-SUBSCRIPTION-(REGISTRATION|RESPONSE)-\d+-topic")
    return [
        t
        for t in dict.fromkeys(candidates)
        if t not in sources
        and t.startswith(group.group_id + "-")
        and (t.endswith(suffixes) or fk.fullmatch(t))
    ]


async def _described(
    admin: Admin, group_ids: Sequence[str] | None, deadline: float
) -> tuple[list[str], dict[str, Any]]:
    """The groups asked for (None: every streams group), each once, and what describing them answered
    (a StreamsGroup or the KcliError of its group)."""
    from kcli.client.api.streams_groups import describe_streams_groups

    ids = (
        [g.group_id for g in await list_streams_groups(admin)]
        if group_ids is None
        else list(dict.fromkeys(group_ids))
    )
    return ids, (await describe_streams_groups(admin, ids, deadline=deadline) if ids else {})


async def describe_streams(
    admin: Admin, group_ids: Sequence[str] | None, *, offsets: bool, timeout_ms: int
) -> StreamsDescribed:
    from kcli.client.api.streams_groups import StreamsGroup

    deadline = time.monotonic() + timeout_ms / 1000
    ids, described = await _described(admin, group_ids, deadline)
    failed = [(g, e) for g in ids if isinstance(e := described.get(g), KcliError)]
    groups = []
    for group_id in ids:
        group = described.get(group_id)
        if isinstance(group, StreamsGroup):
            groups.append((group, await _offsets(admin, group, deadline) if offsets else {}))
    return StreamsDescribed(groups=tuple(groups), failed=tuple(failed))


async def _offsets(admin: Admin, group: StreamsGroup, deadline: float) -> dict[TopicPartition, StreamsOffset]:
    """getOffsets: the partitions of the members' active tasks, their committed and log offsets."""
    from kcli.client.api.offsets import EARLIEST, LATEST, ListedOffset, committed_offsets, list_offsets

    by_subtopology = {
        s.subtopology_id: (*s.source_topics, *s.repartition_source_topics) for s in group.subtopologies
    }
    partitions: set[TopicPartition] = set()
    for member in group.members:
        for subtopology, numbers in member.active:
            if subtopology not in by_subtopology:
                raise KcliError(f"Subtopology {subtopology} not found in group description!")
            partitions.update(TopicPartition(t, p) for t in by_subtopology[subtopology] for p in numbers)
    if not partitions:
        return {}
    earliest = await list_offsets(admin, dict.fromkeys(partitions, EARLIEST), deadline=deadline)
    latest = await list_offsets(admin, dict.fromkeys(partitions, LATEST), deadline=deadline)
    fetched = (await committed_offsets(admin, [group.group_id], deadline=deadline)).get(group.group_id, {})
    committed = fetched if isinstance(fetched, dict) else {}
    out = {}
    for tp in partitions:
        start, end = earliest.get(tp), latest.get(tp)
        if not isinstance(start, ListedOffset) or not isinstance(end, ListedOffset):
            raise (
                start
                if isinstance(start, KcliError)
                else end
                if isinstance(end, KcliError)
                else KcliError(f"no offsets for {tp}")
            )
        mine = committed.get(tp)
        out[tp] = StreamsOffset(
            current=mine.offset if mine else None,
            leader_epoch=mine.leader_epoch if mine else None,
            log_end=end.offset,
            lag=end.offset - (mine.offset if mine else start.offset),
        )
    return out


async def delete_streams(
    admin: Admin, group_ids: Sequence[str] | None, *, delete_internal: bool, timeout_ms: int
) -> StreamsDeleted:
    from kcli.client.api.groups import delete_groups
    from kcli.client.api.streams_groups import StreamsGroup, delete_topics, describe_streams_groups

    deadline = time.monotonic() + timeout_ms / 1000
    listed = {g.group_id: g for g in await list_streams_groups(admin)}
    ids = sorted(listed) if group_ids is None else list(dict.fromkeys(group_ids))
    refused: dict[str, KcliError] = {}
    for group_id in ids:
        listing = listed.get(group_id)
        if listing is None:
            refused[group_id] = UsageError(f"Group '{group_id}' does not exist or is not a streams group.")
        elif listing.state is GroupState.DEAD:
            refused[group_id] = KcliError(f"Streams group '{group_id}' group state is DEAD.")
        elif listing.state is not None and listing.state is not GroupState.EMPTY:
            refused[group_id] = KafkaError(
                code_of("NON_EMPTY_GROUP"), f"Streams group '{group_id}' is not EMPTY.", what="deleting"
            )
    rest = [g for g in ids if g not in refused]
    internal: dict[str, list[str]] = {}
    if delete_internal and rest:
        described = await describe_streams_groups(admin, rest, deadline=deadline)
        internal = {
            g: topics
            for g, d in described.items()
            if isinstance(d, StreamsGroup) and (topics := internal_topics(d))
        }
    results = await delete_groups(admin, rest, deadline=deadline) if rest else {}
    deleted = [g for g in rest if g in results and results[g] is None]
    internal_failed = []
    for group_id in deleted:
        if group_id in internal:
            errors = await delete_topics(admin, internal[group_id], deadline=deadline)
            error = next((e for e in errors.values() if e is not None), None)
            if error is not None:
                internal_failed.append((group_id, error))
    failed = {**refused, **{g: e for g, e in results.items() if e is not None}}
    return StreamsDeleted(
        deleted=tuple(deleted),
        failed=tuple(sorted(failed.items())),
        internal_deleted=tuple(g for g in deleted if g in internal and g not in dict(internal_failed)),
        internal_failed=tuple(internal_failed),
    )


async def input_partitions(
    admin: Admin, group_id: str, deadline: float
) -> dict[TopicPartition, CommittedOffset]:
    """getInputTopicOffsets: the group's committed offsets of its source topics."""
    from kcli.client.api.offsets import committed_offsets
    from kcli.client.api.streams_groups import StreamsGroup, describe_streams_groups

    described = (await describe_streams_groups(admin, [group_id], deadline=deadline))[group_id]
    if not isinstance(described, StreamsGroup):
        raise described
    fetched = (await committed_offsets(admin, [group_id], deadline=deadline)).get(group_id, {})
    if isinstance(fetched, KcliError):
        raise fetched
    sources = source_topics(described, repartition=False)
    return {tp: c for tp, c in fetched.items() if tp.topic in sources}


async def reset_streams(
    admin: Admin,
    group_ids: Sequence[str] | None,
    spec: ResetSpec,
    *,
    topics: Sequence[str],
    all_topics: bool,
    execute: bool,
    delete_internal: tuple[str, ...] | bool,
    timeout_ms: int,
    rollback_path: Callable[[], Path],
) -> ResetResult:
    """Plan (and with `execute` apply) the reset of each streams group's input-topic offsets."""
    from kcli.client.api.offsets import commit_offsets, committed_offsets
    from kcli.client.api.streams_groups import StreamsGroup, delete_topics
    from kcli.workflows.groups.reset import log_offsets, named_partitions, rollback_csv
    from kcli.workflows.reassign.execute import write_rollback

    if not topics and not all_topics and spec.kind != "from-file":
        raise UsageError("One of the reset scopes should be defined: --all-input-topics, --input-topic.")
    deadline = time.monotonic() + timeout_ms / 1000
    ids, described = await _described(admin, group_ids, deadline)
    groups: list[GroupReset] = []
    warnings: list[str] = []
    for group_id in sorted(ids):
        found = described.get(group_id)
        if isinstance(found, KafkaError) and found.code != GROUP_ID_NOT_FOUND:
            raise found
        if isinstance(found, StreamsGroup) and found.state not in (GroupState.EMPTY, GroupState.DEAD):
            message = f"Assignments can only be reset if the group '{group_id}' is inactive, but the current state is {found.state}."
            groups.append(GroupReset(group_id=group_id, error=GroupActive(message)))
            continue
        fetched = (await committed_offsets(admin, [group_id], deadline=deadline)).get(group_id, {})
        before = fetched if isinstance(fetched, dict) else {}
        if all_topics:
            partitions = (
                sorted(await input_partitions(admin, group_id, deadline))
                if isinstance(found, StreamsGroup)
                else []
            )
        elif topics:
            partitions = await named_partitions(admin, topics)
            if any(tp not in before for tp in partitions):
                groups.append(
                    GroupReset(
                        group_id=group_id,
                        error=KcliError(f"One or more topics are not part of the group '{group_id}'."),
                    )
                )
                continue
        else:
            partitions = sorted(spec.plan.get(group_id, {}))
        logs = await log_offsets(admin, spec, set(partitions), deadline)
        planned = plan_group(group_id, spec, partitions, before, logs)
        warnings += planned.warnings
        groups.append(GroupReset(group_id=group_id, offsets=planned.offsets, before=dict(before)))
    release = ToolRelease.LEGACY  # kafka-streams-groups prints the fixed-width table of Kafka 4.0's resetter
    if not execute:
        return ResetResult(release=release, executed=False, groups=tuple(groups), warnings=tuple(warnings))
    changing = [g for g in groups if g.error is None and g.offsets]
    path = None
    if changing:
        path = rollback_path()
        write_rollback(path, rollback_csv(changing).rstrip("\n"))
    for group in changing:
        results = await commit_offsets(admin, group.group_id, group.offsets, deadline=deadline)
        failed = next((e for _, e in sorted(results.items()) if e is not None), None)
        if failed is not None:
            raise KcliError(f"committing the new offsets of streams group {group.group_id}: {failed.message}")
        if delete_internal:
            found = described.get(group.group_id)
            names = (
                list(delete_internal)
                if isinstance(delete_internal, tuple)
                else (internal_topics(found) if isinstance(found, StreamsGroup) else [])
            )
            if names:
                await delete_topics(admin, names, deadline=deadline)
    return ResetResult(
        release=release, executed=True, groups=tuple(groups), warnings=tuple(warnings), rollback=path
    )
