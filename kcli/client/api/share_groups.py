"""Share group RPCs (KIP-932): ShareGroupDescribe (77), DescribeShareGroupOffsets (90),
AlterShareGroupOffsets (91), DeleteShareGroupOffsets (92). Share groups live on the group
coordinators (FindCoordinator key type GROUP); they are deleted with DeleteGroups
(kcli.client.api.groups.delete_groups) and listed with ListGroups' type filter.

Behavior (as Kafka's Admin client): per-group errors come back as values; a start offset below 0
is no offset (the partition is known to the group, not yet initialized); lag -1 is unknown.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.api.coordinators import Retry, nested, on_coordinators, retry_for
from kcli.client.errors import KafkaError
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.groups.model import GroupDescription, GroupState, GroupType, Member, Node
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin


@dataclass(frozen=True, slots=True, kw_only=True)
class ShareOffset:
    """A share-partition's start offset (None: none yet), its leader epoch and lag (None: unknown)."""

    start_offset: int | None
    leader_epoch: int | None = None
    lag: int | None = None


async def describe_share_groups(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, GroupDescription | KcliError]:
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, GroupDescription | KcliError | Retry]:
        def build(version: int) -> Any:
            cls = request_class("share_group_describe", version)
            return make(cls, group_ids=tuple(batch), include_authorized_operations=False)

        response = await admin.call(
            ApiKey.SHARE_GROUP_DESCRIBE, build, versions=(1, 1), target=Target.node(node.node_id)
        )
        answers: dict[str, GroupDescription | KcliError | Retry] = {}
        for group in response.groups:
            group_id, code = str(group.group_id), int(group.error_code)
            retry = retry_for(code)
            if retry is not None:
                answers[group_id] = retry
            elif code:
                answers[group_id] = KafkaError(
                    code, group.error_message, what=f"describing share group {group_id}"
                )
            else:
                answers[group_id] = _share_group(group, node)
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)


def _share_group(group: Any, node: Node) -> GroupDescription:
    members = tuple(
        Member(
            member_id=str(m.member_id),
            client_id=str(m.client_id),
            host=str(m.client_host),
            assignment=tuple(
                TopicPartition(str(t.topic_name), int(p))
                for t in m.assignment.topic_partitions
                for p in t.partitions
            ),
            member_epoch=int(m.member_epoch),
        )
        for m in group.members
    )
    return GroupDescription(
        group_id=str(group.group_id),
        type=GroupType.SHARE,
        state=GroupState.parse(str(group.group_state)),
        coordinator=node,
        members=members,
        assignor=str(group.assignor_name or ""),
        protocol_type="share",
        group_epoch=int(group.group_epoch),
        target_assignment_epoch=int(group.assignment_epoch),
    )


async def share_group_offsets(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, dict[TopicPartition, ShareOffset] | KcliError]:
    """Every share-partition's start offset of each group (DescribeShareGroupOffsets, topics null)."""
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("describe_share_group_offsets", version)
            (group_cls,) = nested(cls, "DescribeShareGroupOffsetsRequestGroup")
            return make(cls, groups=tuple(make(group_cls, group_id=g, topics=None) for g in batch))

        response = await admin.call(
            ApiKey.DESCRIBE_SHARE_GROUP_OFFSETS, build, versions=(0, 1), target=Target.node(node.node_id)
        )
        answers: dict[str, Any] = {}
        for group in response.groups:
            group_id, code = str(group.group_id), int(group.error_code)
            retry = retry_for(code)
            if retry is not None:
                answers[group_id] = retry
            elif code:
                answers[group_id] = KafkaError(
                    code, group.error_message, what=f"share group {group_id}'s offsets"
                )
            else:
                answers[group_id] = {
                    TopicPartition(str(t.topic_name), int(p.partition_index)): ShareOffset(
                        start_offset=int(p.start_offset) if int(p.start_offset) >= 0 else None,
                        leader_epoch=int(p.leader_epoch) if int(p.leader_epoch) >= 0 else None,
                        lag=int(getattr(p, "lag", -1)) if int(getattr(p, "lag", -1)) >= 0 else None,
                    )
                    for t in group.topics
                    for p in t.partitions
                    if int(p.error_code) == 0
                }
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)


async def alter_share_group_offsets(
    admin: Admin, group_id: str, offsets: Mapping[TopicPartition, int], *, deadline: float
) -> tuple[KcliError | None, dict[TopicPartition, KcliError | None]]:
    """AlterShareGroupOffsets: (the group's error, each partition's error or None)."""
    from kio.static.primitive import i32, i64

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    by_topic: dict[str, list[TopicPartition]] = {}
    for tp in offsets:
        by_topic.setdefault(tp.topic, []).append(tp)

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("alter_share_group_offsets", version)
            topic_cls, part_cls = nested(
                cls, "AlterShareGroupOffsetsRequestTopic", "AlterShareGroupOffsetsRequestPartition"
            )
            topics = tuple(
                topic_cls(
                    topic_name=t,
                    partitions=tuple(
                        part_cls(partition_index=i32(tp.partition), start_offset=i64(offsets[tp]))
                        for tp in tps
                    ),
                )
                for t, tps in by_topic.items()
            )
            return make(cls, group_id=group_id, topics=topics)

        response = await admin.call(
            ApiKey.ALTER_SHARE_GROUP_OFFSETS,
            build,
            versions=(0, 0),
            target=Target.node(node.node_id),
            idempotent=False,
        )
        retry = retry_for(int(response.error_code))
        return {group_id: retry if retry is not None else response}

    answered = (await on_coordinators(admin, [group_id], send, deadline=deadline))[group_id]
    if isinstance(answered, KcliError):
        return answered, {}
    top = int(answered.error_code)
    error = (
        KafkaError(top, answered.error_message, what=f"altering share group {group_id}'s offsets")
        if top
        else None
    )
    per: dict[TopicPartition, KcliError | None] = {}
    for t in answered.responses:
        for p in t.partitions:
            code = int(p.error_code)
            tp = TopicPartition(str(t.topic_name), int(p.partition_index))
            per[tp] = KafkaError(code, p.error_message, what=f"altering the offset of {tp}") if code else None
    return error, per


async def delete_share_group_offsets(
    admin: Admin, group_id: str, topics: Sequence[str], *, deadline: float
) -> tuple[KcliError | None, dict[str, KcliError | None]]:
    """DeleteShareGroupOffsets of whole topics: (the group's error, each topic's error or None)."""
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("delete_share_group_offsets", version)
            (topic_cls,) = nested(cls, "DeleteShareGroupOffsetsRequestTopic")
            return make(cls, group_id=group_id, topics=tuple(topic_cls(topic_name=t) for t in topics))

        response = await admin.call(
            ApiKey.DELETE_SHARE_GROUP_OFFSETS,
            build,
            versions=(0, 0),
            target=Target.node(node.node_id),
            idempotent=False,
        )
        retry = retry_for(int(response.error_code))
        return {group_id: retry if retry is not None else response}

    answered = (await on_coordinators(admin, [group_id], send, deadline=deadline))[group_id]
    if isinstance(answered, KcliError):
        return answered, {}
    top = int(answered.error_code)
    error = (
        KafkaError(top, answered.error_message, what=f"deleting share group {group_id}'s offsets")
        if top
        else None
    )
    per: dict[str, KcliError | None] = {
        str(t.topic_name): KafkaError(
            int(t.error_code), t.error_message, what=f"deleting the offsets of {t.topic_name}"
        )
        if int(t.error_code)
        else None
        for t in answered.responses
    }
    return error, per
