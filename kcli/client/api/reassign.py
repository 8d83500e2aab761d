"""Partition reassignment RPCs: ListPartitionReassignments (46) and AlterPartitionReassignments (45).

Behavior:
- Both go to Target.CONTROLLER: the active controller with --bootstrap-controller (KIP-919), any
  broker otherwise (which forwards to the controller).
- List: `partitions` None asks for every ongoing reassignment; otherwise only those named.
- Alter: replicas None cancels a partition's reassignment. Per-partition errors come back as
  values (ResourceError), keyed by partition; a top-level error fails every partition of the call.
Version notes: Alter v0-v1 (v1 = 4.1, KIP-860, AllowReplicationFactorChange; v0 is used when the
server has no v1, the tool having refused replication factor changes itself); List v0.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from kcli.kafka import ApiKey
from kcli.ops.reassign.model import OngoingReassignment, TopicPartition
from kcli.ops.resource_error import ResourceError

if TYPE_CHECKING:
    from kcli.client.admin import Admin


def timeout_value(ms: int) -> Any:
    from kio.static.primitive import i32Timedelta

    return i32Timedelta.parse(datetime.timedelta(milliseconds=ms))


def _by_topic(partitions: Sequence[TopicPartition]) -> dict[str, list[int]]:
    grouped: dict[str, list[int]] = {}
    for tp in partitions:
        grouped.setdefault(tp.topic, []).append(tp.partition)
    return grouped


async def list_reassignments(
    admin: Admin, partitions: Sequence[TopicPartition] | None = None, *, timeout_ms: int = 30000
) -> dict[TopicPartition, OngoingReassignment]:
    """Ongoing reassignments (all of them, or of `partitions`), keyed by partition."""
    from kcli.client.admin import Target
    from kcli.client.api.wire import make, nested, request_cls
    from kcli.client.errors import check

    def build(version: int) -> Any:
        cls = request_cls("list_partition_reassignments", version)
        topic_cls = nested(cls, "ListPartitionReassignmentsTopics")
        topics = (
            None
            if partitions is None
            else tuple(
                make(topic_cls, name=t, partition_indexes=tuple(ps))
                for t, ps in _by_topic(partitions).items()
            )
        )
        return make(cls, timeout=timeout_value(timeout_ms), topics=topics)

    response = await admin.call(
        ApiKey.LIST_PARTITION_REASSIGNMENTS, build, versions=(0, 0), target=Target.CONTROLLER
    )
    check(int(response.error_code), response.error_message, what="ListPartitionReassignments")
    out: dict[TopicPartition, OngoingReassignment] = {}
    for topic in response.topics:
        for p in topic.partitions:
            tp = TopicPartition(str(topic.name), int(p.partition_index))
            out[tp] = OngoingReassignment(
                partition=tp,
                replicas=tuple(int(b) for b in p.replicas),
                adding=tuple(int(b) for b in p.adding_replicas),
                removing=tuple(int(b) for b in p.removing_replicas),
            )
    return out


async def alter_reassignments(
    admin: Admin,
    targets: Mapping[TopicPartition, tuple[int, ...] | None],
    *,
    allow_replication_factor_change: bool,
    timeout_ms: int = 60000,
) -> dict[TopicPartition, ResourceError | None]:
    """Start (replicas) or cancel (None) reassignments; the error of each partition, or None."""
    from kcli.client.admin import Target
    from kcli.client.api.wire import make, nested, request_cls, resource_error

    grouped: dict[str, list[tuple[int, tuple[int, ...] | None]]] = {}
    for tp, replicas in targets.items():
        grouped.setdefault(tp.topic, []).append((tp.partition, replicas))

    def build(version: int) -> Any:
        cls = request_cls("alter_partition_reassignments", version)
        topic_cls = nested(cls, "ReassignableTopic")
        part_cls = nested(cls, "ReassignablePartition")
        return make(
            cls,
            timeout=timeout_value(timeout_ms),
            allow_replication_factor_change=allow_replication_factor_change,
            topics=tuple(
                topic_cls(
                    name=topic,
                    partitions=tuple(part_cls(partition_index=p, replicas=r) for p, r in parts),
                )
                for topic, parts in grouped.items()
            ),
        )

    response = await admin.call(
        ApiKey.ALTER_PARTITION_REASSIGNMENTS, build, versions=(0, 1), target=Target.CONTROLLER
    )
    top = resource_error(int(response.error_code), response.error_message)
    if top is not None:
        return dict.fromkeys(targets, top)
    out: dict[TopicPartition, ResourceError | None] = {}
    for topic in response.responses:
        for p in topic.partitions:
            out[TopicPartition(str(topic.name), int(p.partition_index))] = resource_error(
                int(p.error_code), p.error_message
            )
    for tp in targets:
        out.setdefault(
            tp, ResourceError(code=-1, name="MISSING_RESULT", message="the server did not report on it")
        )
    return out


async def alter_configs_on_controller(
    admin: Admin, items: Sequence[tuple[Any, Any]]
) -> list[ResourceError | None]:
    """IncrementalAlterConfigs of (Entity, ConfigChanges) pairs in ONE request to the active controller."""
    from kcli.client.api.configs import incremental_alter_configs

    return await incremental_alter_configs(admin, items, validate_only=False, to_controller=True)
