"""What the data-plane APIs (Produce, Fetch, ListOffsets, OffsetForLeaderEpoch, DeleteRecords) answer alike.

- A partition addressed by name or (Produce and Fetch v13+) by topic id; an unknown one is
  UNKNOWN_TOPIC_OR_PARTITION, an unknown id UNKNOWN_TOPIC_ID.
- A request's CurrentLeaderEpoch older than the partition's is FENCED_LEADER_EPOCH, newer
  UNKNOWN_LEADER_EPOCH (KIP-320); -1 is not checked.
- NOT_LEADER_OR_FOLLOWER answers carry the leader the client should go to (KIP-951: CurrentLeader
  per partition, and the leaders' endpoints once per response).
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from kio.schema.errors import ErrorCode

if TYPE_CHECKING:
    from kcli.sandbox.emulator.context import RequestContext
    from kcli.sandbox.emulator.data.plane import DataPlane

NULL_ID = uuid.UUID(int=0)


def plane(ctx: RequestContext) -> DataPlane:
    data: DataPlane = ctx.cluster.partition_logs
    return data


def topic_of(ctx: RequestContext, name: str | None, topic_id: uuid.UUID | None) -> tuple[str | None, int]:
    """(the topic's name, 0) or (None, the error): by id when one is given, else by name."""
    image = ctx.cluster.image
    if topic_id is not None and topic_id.int != 0:
        topic = image.topics.get(topic_id)
        return (topic.name, 0) if topic is not None else (None, ErrorCode.unknown_topic_id)
    if name is not None and image.topic(name) is not None:
        return name, 0
    return None, ErrorCode.unknown_topic_or_partition


def partition_of(ctx: RequestContext, topic: str, partition: int) -> Any:
    found = ctx.cluster.image.topic(topic)
    return found.partitions.get(partition) if found is not None else None


def fenced(ctx: RequestContext, topic: str, partition: int, current_leader_epoch: int) -> int:
    """The error of a request's CurrentLeaderEpoch against the partition's (0 when it holds)."""
    if current_leader_epoch < 0:
        return 0
    info = partition_of(ctx, topic, partition)
    if info is None:
        return 0
    if current_leader_epoch < info.leader_epoch:
        return ErrorCode.fenced_leader_epoch
    if current_leader_epoch > info.leader_epoch:
        return ErrorCode.unknown_leader_epoch
    return 0


def current_leader(ctx: RequestContext, topic: str, partition: int) -> tuple[int, int]:
    """(leader id, leader epoch) of a partition, (-1, -1) when it has none."""
    info = partition_of(ctx, topic, partition)
    if info is None or info.leader < 0:
        return -1, -1
    return info.leader, info.leader_epoch


def node_endpoints(ctx: RequestContext, struct: str, leaders: Iterable[int]) -> tuple[Any, ...]:
    """The endpoints of `leaders` (KIP-951's NodeEndpoints), by id."""
    out = []
    for leader in sorted(set(leaders)):
        registration = ctx.cluster.image.brokers.get(leader)
        if leader < 0 or registration is None:
            continue
        host, port = ctx.cluster.advertised(leader)
        out.append(ctx.r(struct, node_id=leader, host=host, port=port, rack=registration.rack))
    return tuple(out)
