"""Committed offsets by group: which groups hold offsets on which topics (before a topic is deleted).

Behavior:
- ListGroups on every broker (kcli.client.api.configs.list_group_ids) names the groups;
- FindCoordinator (10) v4-v6, batched, finds each group's coordinator;
- OffsetFetch (9) v8-v9, batched, to each coordinator at once for all its groups, every topic
  (topics null): the partitions with a committed offset (offset >= 0) per topic.
A group whose coordinator cannot be found or answers an error is reported as unknown, not dropped.
Version notes: batched FindCoordinator and OffsetFetch came with Kafka 3.0 (KIP-699, KIP-709).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.errors import KcliError
from kcli.kafka import ApiKey

if TYPE_CHECKING:
    from kcli.client.admin import Admin

_GROUP_KEY_TYPE = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class CommittedOffsets:
    """Per group: topic -> partitions with a committed offset; the groups that could not be read."""

    by_group: dict[str, dict[str, int]]
    unknown: dict[str, str]  # group -> why


async def committed_offsets(admin: Admin, groups: Sequence[str]) -> CommittedOffsets:
    """The topics each of `groups` has committed offsets on."""
    from kcli.client.admin import Target
    from kcli.client.api.wire import make, nested, request_cls
    from kcli.client.errors import error_info

    if not groups:
        return CommittedOffsets(by_group={}, unknown={})

    def find(version: int) -> Any:
        return make(
            request_cls("find_coordinator", version), key_type=_GROUP_KEY_TYPE, coordinator_keys=tuple(groups)
        )

    found = await admin.call(ApiKey.FIND_COORDINATOR, find, versions=(4, 6), target=Target.ANY)
    unknown: dict[str, str] = {}
    by_node: dict[int, list[str]] = {}
    for c in found.coordinators:
        if int(c.error_code):
            unknown[str(c.key)] = error_info(int(c.error_code)).name
        else:
            by_node.setdefault(int(c.node_id), []).append(str(c.key))

    async def fetch(node: int, members: list[str]) -> tuple[list[str], Any | KcliError]:
        def build(version: int) -> Any:
            cls = request_cls("offset_fetch", version)
            group_cls = nested(cls, "OffsetFetchRequestGroup")
            return make(
                cls,
                groups=tuple(make(group_cls, group_id=g, topics=None) for g in members),
                require_stable=False,
            )

        try:
            return members, await admin.call(
                ApiKey.OFFSET_FETCH, build, versions=(8, 9), target=Target.node(node)
            )
        except KcliError as error:
            return members, error

    by_group: dict[str, dict[str, int]] = {}
    for members, answer in await asyncio.gather(*(fetch(n, m) for n, m in by_node.items())):
        if isinstance(answer, KcliError):
            unknown.update(dict.fromkeys(members, answer.line()))
            continue
        for group in answer.groups:
            if int(group.error_code):
                unknown[str(group.group_id)] = error_info(int(group.error_code)).name
                continue
            topics: dict[str, int] = {}
            for topic in group.topics:
                held = sum(
                    1 for p in topic.partitions if int(p.committed_offset) >= 0 and not int(p.error_code)
                )
                if held:
                    topics[str(topic.name)] = held
            by_group[str(group.group_id)] = topics
    return CommittedOffsets(by_group=by_group, unknown=unknown)
