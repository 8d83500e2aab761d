"""The records of KIP-848 consumer groups: what a change writes, and how reading one back applies it.

Each consumer group lives in its __consumer_offsets partition as one ConsumerGroupMetadata (the group
epoch), one TargetAssignmentMetadata (the assignment epoch), and per member a MemberMetadata (its
subscription), a TargetAssignmentMember and a CurrentMemberAssignment; a member leaves with three
tombstones, a group with tombstones of all of them (Kafka's GroupCoordinatorRecordHelpers).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, MutableMapping
from typing import Any

from kcli.sandbox.emulator.groups import generated_records
from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.consumer import Assignment, ConsumerGroup, ConsumerMember

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
G: Any = generated_records


def member_removal(group_id: str, member_id: str) -> list[R.CoordinatorRecord]:
    return [
        R.keyed(G.ConsumerGroupCurrentMemberAssignmentKeyV0, group_id=group_id, member_id=member_id),
        R.keyed(G.ConsumerGroupTargetAssignmentMemberKeyV0, group_id=group_id, member_id=member_id),
        R.keyed(G.ConsumerGroupMemberMetadataKeyV0, group_id=group_id, member_id=member_id),
    ]


def subscription(group_id: str, member: ConsumerMember) -> R.CoordinatorRecord:
    value = G.ConsumerGroupMemberMetadataValueV0(
        instance_id=member.instance_id,
        rack_id=member.rack_id,
        client_id=member.client_id,
        client_host=member.client_host,
        subscribed_topic_names=member.subscribed_topic_names,
        subscribed_topic_regex=member.subscribed_topic_regex,
        rebalance_timeout_ms=member.rebalance_timeout_ms,
        server_assignor=member.server_assignor,
        classic_member_metadata=None,
    )
    return R.keyed(G.ConsumerGroupMemberMetadataKeyV0, value, group_id=group_id, member_id=member.member_id)


def current_assignment(group_id: str, member: ConsumerMember) -> R.CoordinatorRecord:
    value = G.ConsumerGroupCurrentMemberAssignmentValueV0(
        member_epoch=member.member_epoch,
        previous_member_epoch=member.previous_member_epoch,
        state=int(member.state),
        assigned_partitions=topic_partitions(member.assigned),
        partitions_pending_revocation=topic_partitions(member.pending_revocation),
    )
    return R.keyed(
        G.ConsumerGroupCurrentMemberAssignmentKeyV0, value, group_id=group_id, member_id=member.member_id
    )


def target_member(
    group_id: str, member_id: str, target: Mapping[uuid.UUID, frozenset[int]]
) -> R.CoordinatorRecord:
    value = G.ConsumerGroupTargetAssignmentMemberValueV0(
        topic_partitions=tuple(
            G.TopicPartition(topic_id=t, partitions=tuple(sorted(ps))) for t, ps in target.items()
        )
    )
    return R.keyed(G.ConsumerGroupTargetAssignmentMemberKeyV0, value, group_id=group_id, member_id=member_id)


def target_metadata(group_id: str, epoch: int, timestamp_ms: int) -> R.CoordinatorRecord:
    value = G.ConsumerGroupTargetAssignmentMetadataValueV0(
        assignment_epoch=epoch, assignment_timestamp=timestamp_ms
    )
    return R.keyed(G.ConsumerGroupTargetAssignmentMetadataKeyV0, value, group_id=group_id)


def group_epoch(group_id: str, epoch: int, metadata_hash: int) -> R.CoordinatorRecord:
    value = G.ConsumerGroupMetadataValueV0(epoch=epoch, metadata_hash=metadata_hash)
    return R.keyed(G.ConsumerGroupMetadataKeyV0, value, group_id=group_id)


def partition_metadata_tombstone(group_id: str) -> R.CoordinatorRecord:
    return R.keyed(G.ConsumerGroupPartitionMetadataKeyV0, group_id=group_id)


def regular_expression(
    group_id: str, regex: str, topics: list[str], timestamp_ms: int
) -> R.CoordinatorRecord:
    value = G.ConsumerGroupRegularExpressionValueV0(topics=tuple(topics), version=0, timestamp=timestamp_ms)
    return R.keyed(G.ConsumerGroupRegularExpressionKeyV0, value, group_id=group_id, regular_expression=regex)


def group_removal(group: ConsumerGroup) -> list[R.CoordinatorRecord]:
    """Tombstones of a whole group, in Kafka's order."""
    gid = group.group_id
    out = [
        R.keyed(G.ConsumerGroupCurrentMemberAssignmentKeyV0, group_id=gid, member_id=m) for m in group.members
    ]
    out += [
        R.keyed(G.ConsumerGroupTargetAssignmentMemberKeyV0, group_id=gid, member_id=m) for m in group.members
    ]
    out.append(R.keyed(G.ConsumerGroupTargetAssignmentMetadataKeyV0, group_id=gid))
    out += [R.keyed(G.ConsumerGroupMemberMetadataKeyV0, group_id=gid, member_id=m) for m in group.members]
    out += [
        R.keyed(G.ConsumerGroupRegularExpressionKeyV0, group_id=gid, regular_expression=r)
        for r in group.resolved_regexes
    ]
    out.append(partition_metadata_tombstone(gid))
    out.append(R.keyed(G.ConsumerGroupMetadataKeyV0, group_id=gid))
    return out


def replay(groups: MutableMapping[str, Any], record: R.CoordinatorRecord) -> None:
    """Apply one consumer group record to the shard's groups."""
    key, value, kind = record.key, record.value, record.type
    group_id = key.group_id
    group = groups.get(group_id)
    if group is not None and not isinstance(group, ConsumerGroup):
        if value is None:
            return
        raise RuntimeError(f"a consumer group record for the classic group {group_id}")
    if group is None:
        if value is None:
            return
        group = groups[group_id] = ConsumerGroup(group_id=group_id)
    if kind == R.TYPE_CONSUMER_GROUP_METADATA:
        if value is None:
            del groups[group_id]
        else:
            group.group_epoch, group.metadata_hash = int(value.epoch), int(value.metadata_hash)
    elif kind == R.TYPE_CONSUMER_GROUP_PARTITION_METADATA:
        group.has_subscription_metadata_record = value is not None
    elif kind == R.TYPE_CONSUMER_GROUP_MEMBER_METADATA:
        group.replay_member_metadata(key.member_id, value)
    elif kind == R.TYPE_CONSUMER_GROUP_TARGET_ASSIGNMENT_METADATA:
        if value is None:
            group.assignment_epoch, group.assignment_timestamp = -1, 0
        else:
            group.assignment_epoch = int(value.assignment_epoch)
            group.assignment_timestamp = int(value.assignment_timestamp)
    elif kind == R.TYPE_CONSUMER_GROUP_TARGET_ASSIGNMENT_MEMBER:
        group.replay_target(key.member_id, value)
    elif kind == R.TYPE_CONSUMER_GROUP_CURRENT_MEMBER_ASSIGNMENT:
        group.replay_current_assignment(key.member_id, value)
    elif kind == R.TYPE_CONSUMER_GROUP_REGULAR_EXPRESSION:
        if value is None:
            group.resolved_regexes.pop(key.regular_expression, None)
        else:
            group.resolved_regexes[key.regular_expression] = frozenset(value.topics)


def topic_partitions(assignment: Assignment) -> tuple[G.TopicPartitions, ...]:
    """An assignment as the records hold it (partitions with their assignment epochs)."""
    out = []
    for topic_id, epochs in assignment.items():
        partitions = sorted(epochs)
        out.append(
            G.TopicPartitions(
                topic_id=topic_id,
                partitions=tuple(partitions),
                assignment_epochs=tuple(epochs[p] for p in partitions),
            )
        )
    return tuple(out)
