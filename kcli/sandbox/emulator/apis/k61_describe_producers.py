"""DescribeProducers (61), version 0: the producers with state on partitions (KIP-664).

Behavior:
- Brokers only; a topic name Kafka refuses is INVALID_TOPIC_EXCEPTION; READ on the topic
  (TOPIC_AUTHORIZATION_FAILED); unknown topics UNKNOWN_TOPIC_OR_PARTITION; any replica answers (a
  broker without one: NOT_LEADER_OR_FOLLOWER) with the partition's producer state (epoch, last
  sequence and timestamp, coordinator epoch, the offset of its open transaction or -1); the
  emulator's replicas share their leader's state.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.interface import LogError
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DESCRIBE_PRODUCERS, (0, 0), listeners=Listener.BROKER)
async def handle_describe_producers(ctx: RequestContext, request: Any) -> Any:
    """Describe the producers of each partition this broker leads."""
    from kcli.sandbox.emulator.apis.k19_create_topics import TopicProblem, check_topic_name

    image = ctx.cluster.image
    topics = []
    for topic in request.topics:
        problem: tuple[int, str | None] | None = None
        try:
            check_topic_name(topic.name)
        except TopicProblem as error:
            problem = (error.code, error.message)
        if problem is None and not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, topic.name):
            problem = (ErrorCode.topic_authorization_failed, None)
        if problem is None and image.topic(topic.name) is None:
            problem = (ErrorCode.unknown_topic_or_partition, None)
        partitions = [
            _partition(ctx, topic.name, int(index)) if problem is None else _error(ctx, int(index), *problem)
            for index in topic.partition_indexes
        ]
        topics.append(ctx.r("TopicResponse", name=topic.name, partitions=tuple(partitions)))
    return ctx.r("DescribeProducersResponse", throttle_time=ZERO, topics=tuple(topics))


def _partition(ctx: RequestContext, topic: str, index: int) -> Any:
    found = ctx.cluster.image.topic(topic)
    state = found.partitions.get(index) if found is not None else None
    if state is None:
        return _error(ctx, index, ErrorCode.unknown_topic_or_partition, None)
    if ctx.node.node_id not in state.replicas:
        return _error(ctx, index, ErrorCode.not_leader_or_follower, None)
    try:
        producers = coordination.partition_logs(ctx.cluster).producers(topic, index)
    except LogError as error:
        return _error(ctx, index, error.code, None)
    except Exception as error:  # no data plane (CoordinatorError): the partition is not here
        return _error(ctx, index, int(getattr(error, "code", ErrorCode.unknown_server_error)), None)
    states = tuple(
        ctx.r(
            "ProducerState",
            producer_id=p.producer_id,
            producer_epoch=p.producer_epoch,
            last_sequence=p.last_sequence,
            last_timestamp=p.last_timestamp_ms,
            coordinator_epoch=p.coordinator_epoch,
            current_txn_start_offset=p.current_txn_start_offset,
        )
        for p in producers
    )
    return ctx.r(
        "PartitionResponse", partition_index=index, error_code=0, error_message=None, active_producers=states
    )


def _error(ctx: RequestContext, index: int, code: int, message: str | None) -> Any:
    return ctx.r(
        "PartitionResponse",
        partition_index=index,
        error_code=code,
        error_message=message,
        active_producers=(),
    )
