"""`kcli share-groups`: the calls of kafka-share-groups.sh (KIP-932), in its order.

Behavior (ShareGroupCommand of Kafka 4.4):
- --list: ListGroups of every broker, type Share, the --state filter sent to the brokers.
- --describe: ShareGroupDescribe at each coordinator; the offsets view adds DescribeShareGroupOffsets
  (the start offset and lag of every share-partition the group has).
- --delete: only a share group that exists and is Empty (ListGroups says), then DeleteGroups.
- --delete-offsets: DeleteShareGroupOffsets of whole topics.
- --reset-offsets (one group, --dry-run or --execute): only an Empty or unknown group; the
  partitions of --topic, or the group's share-partitions; new offsets as kafka-consumer-groups
  computes them (kcli.ops.groups.reset_plan); --execute writes the rollback file first, sends
  AlterShareGroupOffsets and reads the start offsets back.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from kcli.client.errors import KafkaError, code_of
from kcli.errors import KcliError
from kcli.ops.groups.consumer_line import View
from kcli.ops.groups.model import CommittedOffset, GroupDescription, GroupListing, GroupState, ToolRelease
from kcli.ops.groups.reset_plan import ResetSpec, plan_group
from kcli.ops.reassign.model import TopicPartition
from kcli.workflows.groups.reset import GroupReset, ResetResult

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.api.share_groups import ShareOffset

GROUP_ID_NOT_FOUND = code_of("GROUP_ID_NOT_FOUND")


@dataclass(frozen=True, slots=True, kw_only=True)
class ShareGroup:
    description: GroupDescription
    offsets: dict[TopicPartition, ShareOffset] = field(default_factory=dict)


@dataclass(frozen=True, slots=True, kw_only=True)
class SharesDescribed:
    view: View
    verbose: bool
    groups: tuple[ShareGroup, ...]
    failed: tuple[tuple[str, KcliError], ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SharesDeleted:
    deleted: tuple[str, ...]
    failed: tuple[tuple[str, KcliError], ...] = ()


async def list_share_groups(admin: Admin, *, states: Sequence[GroupState] = ()) -> list[GroupListing]:
    from kcli.client.api.groups import list_groups

    listed = await list_groups(admin, types=["Share"], states=[str(s) for s in states])
    return [g for g in listed if g.type is None or str(g.type) == "Share"]


async def describe_share(
    admin: Admin, group_ids: Sequence[str] | None, *, view: View, verbose: bool, timeout_ms: int
) -> SharesDescribed:
    from kcli.client.api.share_groups import describe_share_groups, share_group_offsets

    deadline = time.monotonic() + timeout_ms / 1000
    ids = (
        [g.group_id for g in await list_share_groups(admin)]
        if group_ids is None
        else list(dict.fromkeys(group_ids))
    )
    described = await describe_share_groups(admin, ids, deadline=deadline) if ids else {}
    failed = [(g, e) for g, e in described.items() if isinstance(e, KcliError)]
    found = {g: d for g, d in described.items() if isinstance(d, GroupDescription)}
    offsets: dict[str, object] = {}
    if view is View.OFFSETS and found:
        offsets = dict(await share_group_offsets(admin, sorted(found), deadline=deadline))
        failed += [(g, e) for g, e in offsets.items() if isinstance(e, KcliError)]
    groups = tuple(
        ShareGroup(description=found[g], offsets=o if isinstance(o := offsets.get(g, {}), dict) else {})
        for g in sorted(found)
        if not isinstance(offsets.get(g), KcliError)
    )
    return SharesDescribed(
        view=view, verbose=verbose, groups=groups, failed=tuple(sorted(failed, key=lambda f: f[0]))
    )


async def delete_share(admin: Admin, group_ids: Sequence[str] | None, *, timeout_ms: int) -> SharesDeleted:
    from kcli.client.api.groups import delete_groups

    deadline = time.monotonic() + timeout_ms / 1000
    listed = {g.group_id: g for g in await list_share_groups(admin)}
    ids = sorted(listed) if group_ids is None else list(dict.fromkeys(group_ids))
    refused: dict[str, KcliError] = {}
    for group_id in ids:
        listing = listed.get(group_id)
        if listing is None:
            refused[group_id] = KafkaError(
                GROUP_ID_NOT_FOUND, f"Group '{group_id}' is not a share group.", what="deleting"
            )
        elif listing.state is GroupState.DEAD:
            refused[group_id] = KcliError(f"Share group '{group_id}' group state is DEAD.")
        elif listing.state is not None and listing.state is not GroupState.EMPTY:
            refused[group_id] = KafkaError(
                code_of("NON_EMPTY_GROUP"), f"Share group '{group_id}' is not EMPTY.", what="deleting"
            )
    rest = [g for g in ids if g not in refused]
    results = await delete_groups(admin, rest, deadline=deadline) if rest else {}
    failed = {**refused, **{g: e for g, e in results.items() if e is not None}}
    return SharesDeleted(
        deleted=tuple(g for g in rest if results.get(g) is None and g in results),
        failed=tuple(sorted(failed.items())),
    )


async def delete_share_offsets(
    admin: Admin, group_id: str, topics: Sequence[str], *, timeout_ms: int
) -> tuple[KcliError | None, dict[str, KcliError | None]]:
    from kcli.client.api.share_groups import delete_share_group_offsets

    deadline = time.monotonic() + timeout_ms / 1000
    return await delete_share_group_offsets(admin, group_id, list(dict.fromkeys(topics)), deadline=deadline)


async def reset_share(
    admin: Admin,
    group_id: str,
    spec: ResetSpec,
    *,
    topics: Sequence[str],
    execute: bool,
    timeout_ms: int,
    rollback_path: Callable[[], Path],
) -> ResetResult:
    """Plan (and with `execute` apply) the reset of one share group's start offsets."""
    from kcli.client.api.share_groups import describe_share_groups, share_group_offsets
    from kcli.workflows.groups.reset import GroupActive, log_offsets, named_partitions

    deadline = time.monotonic() + timeout_ms / 1000
    described = (await describe_share_groups(admin, [group_id], deadline=deadline))[group_id]
    if isinstance(described, KafkaError) and described.code != GROUP_ID_NOT_FOUND:
        raise described
    if isinstance(described, GroupDescription) and described.state not in (GroupState.EMPTY, GroupState.DEAD):
        raise GroupActive(f"Share group '{group_id}' is not empty.", hint="stop its share consumers first")
    current = (await share_group_offsets(admin, [group_id], deadline=deadline)).get(group_id, {})
    if isinstance(current, KcliError):
        raise current
    before = {
        tp: CommittedOffset(offset=o.start_offset) for tp, o in current.items() if o.start_offset is not None
    }
    partitions = await named_partitions(admin, topics) if topics else sorted(current)
    if spec.kind == "from-file":
        partitions = sorted(spec.plan.get(group_id, {}))
    logs = await log_offsets(admin, spec, set(partitions), deadline)
    planned = plan_group(group_id, spec, partitions, before, logs)
    group = GroupReset(group_id=group_id, offsets=planned.offsets, before=before)
    release = ToolRelease.CURRENT
    if not execute or not planned.offsets:
        return ResetResult(
            release=release, executed=execute, groups=(group,), warnings=tuple(planned.warnings)
        )
    return await _execute_share(admin, group, list(planned.warnings), rollback_path, deadline)


async def _execute_share(
    admin: Admin, group: GroupReset, warnings: list[str], rollback_path: Callable[[], Path], deadline: float
) -> ResetResult:
    from kcli.client.api.share_groups import alter_share_group_offsets, share_group_offsets
    from kcli.workflows.groups.reset import rollback_csv
    from kcli.workflows.reassign.execute import write_rollback

    path = rollback_path()
    write_rollback(path, rollback_csv([group]).rstrip("\n"))
    error, per = await alter_share_group_offsets(admin, group.group_id, group.offsets, deadline=deadline)
    failed = error or next((e for _, e in sorted(per.items()) if e is not None), None)
    if failed is not None:
        done = GroupReset(group_id=group.group_id, before=group.before, error=failed)
        return ResetResult(
            release=ToolRelease.CURRENT,
            executed=True,
            groups=(done,),
            warnings=tuple(warnings),
            rollback=path,
        )
    now = (await share_group_offsets(admin, [group.group_id], deadline=deadline)).get(group.group_id, {})
    unconfirmed = [
        f"{group.group_id} {tp}"
        for tp, offset in sorted(group.offsets.items())
        if not isinstance(now, dict) or (found := now.get(tp)) is None or found.start_offset != offset
    ]
    return ResetResult(
        release=ToolRelease.CURRENT,
        executed=True,
        groups=(group,),
        warnings=tuple(warnings),
        rollback=path,
        unconfirmed=tuple(unconfirmed),
    )
