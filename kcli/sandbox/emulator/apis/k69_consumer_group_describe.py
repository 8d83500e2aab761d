"""ConsumerGroupDescribe (69), versions 0-1: KIP-848 groups, their epochs, assignor and members.

Behavior:
- Brokers only; DESCRIBE on each group (GROUP_AUTHORIZATION_FAILED); an empty group id is
  INVALID_GROUP_ID; each group is answered by its coordinator (another broker: NOT_COORDINATOR); a
  group that is not a consumer group is GROUP_ID_NOT_FOUND ("Group g not found.", "Group g is not a
  consumer group.").
- A member's assignment is what it owns (assigned and pending revocation), its target the group's
  target assignment; the assignor is the one most members prefer, else the first of
  group.consumer.assignors. include_authorized_operations: KIP-430's bit field, else Integer.MIN_VALUE.

Version notes: v1 the member type (1: consumer protocol, 0: classic).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.authorizer import authorized_operations
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.consumer import ConsumerGroup, ConsumerMember
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC
from kcli.sandbox.emulator.groups.java_order import grouped_by_partition
from kcli.sandbox.emulator.groups.model import CoordinatorError
from kcli.sandbox.emulator.registry import Listener, api

NO_OPERATIONS = -(2**31)


@api(ApiKey.CONSUMER_GROUP_DESCRIBE, (0, 1), listeners=Listener.BROKER)
async def handle_consumer_group_describe(ctx: RequestContext, request: Any) -> Any:
    """Describe each consumer group."""
    coordinator = coordination.group_coordinator(ctx.cluster)
    groups = []
    authorized = []
    for group_id in request.group_ids:
        if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, group_id):
            groups.append(_error(ctx, group_id, ErrorCode.group_authorization_failed, None))
        else:
            authorized.append(group_id)
    invalid = [g for g in authorized if not g]
    groups += [_error(ctx, "", ErrorCode.invalid_group_id, None) for _ in invalid]
    valid = [g for g in authorized if g]
    for group_id in grouped_by_partition(valid, OFFSETS_TOPIC, coordinator.partition_for):
        partition = coordinator.partition_for(group_id)
        code = coordination.coordinator_error(ctx.cluster, ctx.node.node_id, OFFSETS_TOPIC, partition)
        if code is not None:
            groups.append(_error(ctx, group_id, code, None))
            continue
        try:
            group = coordinator.consumer_group(group_id)
        except CoordinatorError as error:
            groups.append(_error(ctx, group_id, error.code, error.message))
            continue
        operations = NO_OPERATIONS
        if request.include_authorized_operations:
            operations = authorized_operations(ctx, ResourceType.GROUP, group_id)
        assignor = (
            group.preferred_assignor() or coordination.group_settings(ctx.cluster).consumer_assignors[0]
        )
        groups.append(
            ctx.r(
                "DescribedGroup",
                error_code=0,
                error_message=None,
                group_id=group_id,
                group_state=group.state.value,
                group_epoch=group.group_epoch,
                assignment_epoch=group.assignment_epoch,
                assignor_name=assignor,
                members=tuple(_member(ctx, group, m) for m in group.members.values()),
                authorized_operations=operations,
            )
        )
    return ctx.r("ConsumerGroupDescribeResponse", throttle_time=ZERO, groups=tuple(groups))


def _error(ctx: RequestContext, group_id: str, code: int, message: str | None) -> Any:
    return ctx.r(
        "DescribedGroup",
        error_code=code,
        error_message=message,
        group_id=group_id,
        group_state="",
        group_epoch=0,
        assignment_epoch=0,
        assignor_name="",
        members=(),
        authorized_operations=NO_OPERATIONS,
    )


def _member(ctx: RequestContext, group: ConsumerGroup, member: ConsumerMember) -> Any:
    owned: dict[uuid.UUID, set[int]] = {}
    for assignment in (member.assigned, member.pending_revocation):
        for topic_id, partitions in assignment.items():
            owned.setdefault(topic_id, set()).update(partitions)
    target = group.target.get(member.member_id, {})
    return ctx.r(
        "Member",
        member_id=member.member_id,
        instance_id=member.instance_id,
        rack_id=member.rack_id,
        member_epoch=member.member_epoch,
        client_id=member.client_id,
        client_host=member.client_host,
        subscribed_topic_names=member.subscribed_topic_names,
        subscribed_topic_regex=member.subscribed_topic_regex,
        assignment=ctx.r("Assignment", topic_partitions=_partitions(ctx, owned.items())),
        target_assignment=ctx.r("Assignment", topic_partitions=_partitions(ctx, target.items())),
        member_type=0 if member.uses_classic_protocol else 1,
    )


def _partitions(ctx: RequestContext, items: Iterable[tuple[uuid.UUID, Iterable[int]]]) -> tuple[Any, ...]:
    image = ctx.cluster.image
    out = []
    for topic_id, partitions in items:
        topic = image.topics.get(topic_id)
        if topic is None:
            continue
        out.append(
            ctx.r(
                "TopicPartitions",
                topic_id=topic_id,
                topic_name=topic.name,
                partitions=tuple(sorted(partitions)),
            )
        )
    return tuple(out)
