"""Group RPCs: ListGroups (16), ConsumerGroupDescribe (69) with DescribeGroups (15), DeleteGroups (42),
OffsetDelete (47).

Behavior (as Kafka's Admin client):
- ListGroups v0-v5 goes to every broker at once (each coordinates its own groups); v4 filters by
  state, v5 by type. A broker's error fails the listing, as Kafka's listGroups fails.
- Describing consumer groups asks each coordinator with ConsumerGroupDescribe v0-v1 (KIP-848); the
  groups it does not know as consumer groups (GROUP_ID_NOT_FOUND) or a broker without it
  (UNSUPPORTED_VERSION) are asked again with DescribeGroups v0-v6. A group neither knows is
  GROUP_ID_NOT_FOUND with ConsumerGroupDescribe's message (`Group g not found.`), as Kafka reports
  it. A classic group of another protocol type (Connect) is not a consumer group.
- DeleteGroups v0-v2 and OffsetDelete v0 go to the group's coordinator; errors come back per group
  and per partition.
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from kcli.client.api.coordinators import Retry, nested, on_coordinators, retry_for
from kcli.client.errors import KafkaError, check, code_of
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.groups.model import (
    GroupDescription,
    GroupListing,
    GroupState,
    GroupType,
    Member,
    Node,
    ToolRelease,
)
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin

GROUP_ID_NOT_FOUND = code_of("GROUP_ID_NOT_FOUND")
UNSUPPORTED_VERSION = code_of("UNSUPPORTED_VERSION")


class NotAConsumerGroup(KcliError):
    """A classic group whose protocol type is not `consumer` (a Connect cluster's group, say)."""


async def list_groups(
    admin: Admin, *, types: Sequence[str] = (), states: Sequence[str] = ()
) -> list[GroupListing]:
    """Every group of every broker (ListGroups), filtered by the brokers by type and state."""
    from kcli.client.protocol import make, request_class

    def build(node_id: int, version: int) -> Any:
        return make(
            request_class("list_groups", version), states_filter=tuple(states), types_filter=tuple(types)
        )

    replies = await admin.call_each(sorted(admin.nodes), ApiKey.LIST_GROUPS, build, versions=(0, 5))
    listings: dict[str, GroupListing] = {}
    for node_id, reply in replies.items():
        if isinstance(reply, KcliError):
            raise reply
        check(int(reply.error_code), None, what="ListGroups", node=f"broker {node_id}")
        for group in reply.groups:
            state = getattr(group, "group_state", "")
            kind = getattr(group, "group_type", "")
            listings[str(group.group_id)] = GroupListing(
                group_id=str(group.group_id),
                protocol_type=str(group.protocol_type or ""),
                type=GroupType.parse(kind) if kind else None,
                state=GroupState.parse(state) if state else None,
            )
    return [listings[name] for name in sorted(listings)]


async def describe_consumer_groups(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, GroupDescription | KcliError]:
    """Each group's description, or the error its coordinator gave (see the module doc)."""
    not_found_messages: dict[str, str | None] = {}

    async def send(node: Node, batch: list[str]) -> dict[str, GroupDescription | KcliError | Retry]:
        answers: dict[str, GroupDescription | KcliError | Retry] = {}
        classic = await _consumer_group_describe(admin, node, batch, answers, not_found_messages)
        if classic:
            await _describe_groups(admin, node, classic, answers, not_found_messages)
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)


async def _consumer_group_describe(
    admin: Admin,
    node: Node,
    batch: list[str],
    answers: dict[str, GroupDescription | KcliError | Retry],
    not_found: dict[str, str | None],
) -> list[str]:
    """ConsumerGroupDescribe of `batch`; returns the groups to ask with DescribeGroups."""
    from kcli.client.admin import Target
    from kcli.client.errors import UnsupportedByServer
    from kcli.client.protocol import make, request_class

    def build(version: int) -> Any:
        cls = request_class("consumer_group_describe", version)
        return make(cls, group_ids=tuple(batch), include_authorized_operations=False)

    try:
        response = await admin.call(
            ApiKey.CONSUMER_GROUP_DESCRIBE, build, versions=(0, 1), target=Target.node(node.node_id)
        )
    except UnsupportedByServer:
        return batch
    classic = []
    for group in response.groups:
        group_id, code = str(group.group_id), int(group.error_code)
        retry = retry_for(code)
        if retry is not None:
            answers[group_id] = retry
        elif code in (GROUP_ID_NOT_FOUND, UNSUPPORTED_VERSION):
            not_found[group_id] = group.error_message
            classic.append(group_id)
        elif code != 0:
            answers[group_id] = KafkaError(code, group.error_message, what=f"describing group {group_id}")
        else:
            answers[group_id] = _consumer_group(group, node)
    return classic


def _assignment(raw: Any) -> tuple[TopicPartition, ...]:
    return tuple(
        TopicPartition(str(t.topic_name), int(p)) for t in raw.topic_partitions for p in t.partitions
    )


def _consumer_group(group: Any, node: Node) -> GroupDescription:
    members = tuple(
        Member(
            member_id=str(m.member_id),
            instance_id=m.instance_id,
            client_id=str(m.client_id),
            host=str(m.client_host),
            assignment=_assignment(m.assignment),
            target_assignment=_assignment(m.target_assignment),
            member_epoch=int(m.member_epoch),
            upgraded=None if int(getattr(m, "member_type", -1)) == -1 else int(m.member_type) == 1,
        )
        for m in group.members
    )
    return GroupDescription(
        group_id=str(group.group_id),
        type=GroupType.CONSUMER,
        state=GroupState.parse(str(group.group_state)),
        coordinator=node,
        members=members,
        assignor=str(group.assignor_name or ""),
        group_epoch=int(group.group_epoch),
        target_assignment_epoch=int(group.assignment_epoch),
    )


async def _describe_groups(
    admin: Admin,
    node: Node,
    batch: list[str],
    answers: dict[str, GroupDescription | KcliError | Retry],
    not_found: dict[str, str | None],
) -> None:
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    def build(version: int) -> Any:
        cls = request_class("describe_groups", version)
        return make(cls, groups=tuple(batch), include_authorized_operations=False)

    response = await admin.call(
        ApiKey.DESCRIBE_GROUPS, build, versions=(0, 6), target=Target.node(node.node_id)
    )
    for group in response.groups:
        group_id, code = str(group.group_id), int(group.error_code)
        retry = retry_for(code)
        message = getattr(group, "error_message", None)
        if retry is not None:
            answers[group_id] = retry
        elif code == GROUP_ID_NOT_FOUND:
            answers[group_id] = KafkaError(
                code, not_found.get(group_id) or message, what=f"describing group {group_id}"
            )
        elif code != 0:
            answers[group_id] = KafkaError(code, message, what=f"describing group {group_id}")
        elif str(group.protocol_type) not in ("consumer", ""):
            answers[group_id] = NotAConsumerGroup(
                f"GroupId {group_id} is not a consumer group ({group.protocol_type})."
            )
        else:
            answers[group_id] = _classic_group(group, node)


def _classic_group(group: Any, node: Node) -> GroupDescription:
    members = tuple(
        Member(
            member_id=str(m.member_id),
            instance_id=getattr(m, "group_instance_id", None),
            client_id=str(m.client_id),
            host=str(m.client_host),
            assignment=consumer_assignment(bytes(m.member_assignment)),
        )
        for m in group.members
    )
    return GroupDescription(
        group_id=str(group.group_id),
        type=GroupType.CLASSIC,
        state=GroupState.parse(str(group.group_state)),
        coordinator=node,
        members=members,
        assignor=str(group.protocol_data or ""),
        protocol_type=str(group.protocol_type or ""),
    )


def consumer_assignment(data: bytes) -> tuple[TopicPartition, ...]:
    """The partitions of a classic member's assignment (ConsumerProtocolAssignment, any version).

    Layout: int16 version, int32 topic count, then per topic an int16-sized name and an int32 count
    of int32 partitions (user data after them is not read). Short or negative counts end the read:
    a client's bytes are the client's business, and the tool still prints the member.
    """
    if len(data) < 6:
        return ()
    out: list[TopicPartition] = []
    (topics,) = struct.unpack_from(">i", data, 2)
    pos = 6
    try:
        for _ in range(max(0, topics)):
            (size,) = struct.unpack_from(">h", data, pos)
            name = data[pos + 2 : pos + 2 + max(0, size)].decode("utf-8", "replace")
            pos += 2 + max(0, size)
            (count,) = struct.unpack_from(">i", data, pos)
            pos += 4
            if count < 0 or pos + 4 * count > len(data):
                break
            out.extend(TopicPartition(name, p) for p in struct.unpack_from(f">{count}i", data, pos))
            pos += 4 * count
    except struct.error:
        pass
    return tuple(out)


async def delete_groups(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, KcliError | None]:
    """DeleteGroups of each group at its coordinator: None for a deleted group, else its error."""
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, KcliError | Retry | None]:
        def build(version: int) -> Any:
            return make(request_class("delete_groups", version), groups_names=tuple(batch))

        response = await admin.call(
            ApiKey.DELETE_GROUPS, build, versions=(0, 2), target=Target.node(node.node_id), idempotent=False
        )
        answers: dict[str, KcliError | Retry | None] = {}
        for result in response.results:
            group_id, code = str(result.group_id), int(result.error_code)
            retry = retry_for(code)
            answers[group_id] = (
                retry
                if retry is not None
                else None
                if code == 0
                else KafkaError(code, None, what=f"deleting group {group_id}")
            )
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)  # type: ignore[arg-type]


async def delete_offsets(
    admin: Admin, group_id: str, partitions: Sequence[TopicPartition], *, deadline: float
) -> tuple[KcliError | None, dict[TopicPartition, KcliError | None]]:
    """OffsetDelete of `partitions` of a group: (the group's error, each partition's error or None)."""
    from kio.static.primitive import i32

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    by_topic: dict[str, list[int]] = {}
    for tp in partitions:
        by_topic.setdefault(tp.topic, []).append(tp.partition)

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("offset_delete", version)
            topic_cls, partition_cls = nested(cls, "OffsetDeleteRequestTopic", "OffsetDeleteRequestPartition")
            topics = tuple(
                topic_cls(name=topic, partitions=tuple(partition_cls(partition_index=i32(p)) for p in ps))
                for topic, ps in by_topic.items()
            )
            return make(cls, group_id=group_id, topics=topics)

        response = await admin.call(
            ApiKey.OFFSET_DELETE, build, versions=(0, 0), target=Target.node(node.node_id), idempotent=False
        )
        code = int(response.error_code)
        retry = retry_for(code)
        return {group_id: retry if retry is not None else response}

    answered = (await on_coordinators(admin, [group_id], send, deadline=deadline))[group_id]
    if isinstance(answered, KcliError):
        return answered, {}
    top = int(answered.error_code)
    top_error = KafkaError(top, None, what=f"deleting offsets of group {group_id}") if top else None
    per_partition: dict[TopicPartition, KcliError | None] = {}
    for topic in answered.topics:
        for p in topic.partitions:
            code = int(p.error_code)
            per_partition[TopicPartition(str(topic.name), int(p.partition_index))] = (
                KafkaError(code, None, what=f"deleting the offset of {topic.name}-{p.partition_index}")
                if code
                else None
            )
    return top_error, per_partition


async def tool_release(admin: Admin) -> ToolRelease:
    """The release whose group tools kcli words its text like (ToolRelease): from ListOffsets' versions."""
    response = await admin.api_versions()
    highest = max(
        (int(key.max_version) for key in response.api_keys if int(key.api_key) == ApiKey.LIST_OFFSETS),
        default=0,
    )
    return ToolRelease.of_list_offsets(highest)
