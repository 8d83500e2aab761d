"""Metadata (3), versions 0-13 (brokers only): brokers, cluster id, controller id, topics.

Behavior:
- Topics null -> every topic the caller may DESCRIBE; [] -> none; named or by id (v12) -> those,
  unknown ones with UNKNOWN_TOPIC_OR_PARTITION (UNKNOWN_TOPIC_ID for ids), unauthorized ones with
  TOPIC_AUTHORIZATION_FAILED (by id: with the id and a null name, as Kafka does: ids are not secret).
  A non-zero topic id selects by id whatever the name holds: the Java client sends "" beside it.
  Topics are never auto-created (auto.create.topics.enable=false).
- Only unfenced brokers are listed; offline replicas are replicas on fenced or unregistered brokers.
- ControllerId is a live broker (brokers forward controller requests, KIP-590).

Performance: v10-13 responses are encoded by kcli.sandbox.emulator.fastcodec from per-topic cached bytes.

Version notes: v1 controller id and is_internal; v2 cluster id; v5 offline replicas; v7 leader
epoch; v8 authorized operations; v9+ flexible; v10 topic ids; v13 top-level error code.
"""

from __future__ import annotations

import uuid
from typing import Any, TypeGuard

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import fastcodec
from kcli.sandbox.emulator.authorizer import authorized_operations
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.image import Topic
from kcli.sandbox.emulator.registry import Listener, api
from kcli.sandbox.emulator.wire import PreEncoded

AUTHORIZED_OPERATIONS_UNSET = -(2**31)


@api(ApiKey.METADATA, (0, 13), listeners=Listener.BROKER)
async def handle_metadata(ctx: RequestContext, request: Any) -> Any:
    """Describe brokers and topics."""
    cluster = ctx.cluster
    image = cluster.image
    brokers = []
    for broker in sorted(image.brokers.values(), key=lambda b: b.broker_id):
        if broker.fenced:
            continue
        host, port = cluster.advertised(broker.broker_id)
        brokers.append(
            ctx.r("MetadataResponseBroker", node_id=broker.broker_id, host=host, port=port, rack=broker.rack)
        )
    live = {b.broker_id for b in image.brokers.values() if not b.fenced}
    with_ops = bool(getattr(request, "include_topic_authorized_operations", False))
    if 10 <= ctx.version <= 13 and not with_ops:
        return _fast(ctx, request, live)
    topics: list[Any] = []
    if request.topics is None:
        for each in image.topics.values():
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, each.name):
                topics.append(_topic(ctx, each, live, with_ops))
    else:
        for wanted in request.topics:
            topic_id = getattr(wanted, "topic_id", None)
            name = wanted.name
            if _by_id(topic_id):
                topic = image.topics.get(topic_id)
                if topic is None:
                    topics.append(_error(ctx, ErrorCode.unknown_topic_id, None, topic_id))
                    continue
                if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, topic.name):
                    topics.append(_error(ctx, ErrorCode.topic_authorization_failed, None, topic_id))
                    continue
            else:
                topic = image.topic(name or "")
                if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name or ""):
                    topics.append(_error(ctx, ErrorCode.topic_authorization_failed, name, None))
                    continue
                if topic is None:
                    topics.append(_error(ctx, ErrorCode.unknown_topic_or_partition, name, None))
                    continue
            topics.append(_topic(ctx, topic, live, with_ops))
    return ctx.r(
        "MetadataResponse",
        throttle_time=ZERO,
        brokers=tuple(brokers),
        cluster_id=cluster.cluster_id,
        controller_id=cluster.client_controller_id(),
        topics=tuple(topics),
        cluster_authorized_operations=AUTHORIZED_OPERATIONS_UNSET,
        error_code=0,
    )


def _by_id(topic_id: Any) -> TypeGuard[uuid.UUID]:
    """Kafka selects by id when the request carries a non-zero topic id (kio reads the zero id as None)."""
    return topic_id is not None and topic_id.int != 0


def _error(ctx: RequestContext, code: int, name: str | None, topic_id: Any) -> Any:
    return ctx.r(
        "MetadataResponseTopic",
        error_code=code,
        name=name,
        topic_id=topic_id or uuid.UUID(int=0),
        is_internal=False,
        partitions=(),
        topic_authorized_operations=AUTHORIZED_OPERATIONS_UNSET,
    )


def _topic(ctx: RequestContext, topic: Topic, live: set[int], with_ops: bool) -> Any:
    partition_cls = ctx.response_module.MetadataResponsePartition
    from kcli.sandbox.emulator.wire import make

    partitions = []
    for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id):
        offline = tuple(b for b in p.replicas if b not in live)
        error = ErrorCode.leader_not_available if p.leader == -1 else 0
        # make drops the fields an older version lacks (leader_epoch before v7).
        partitions.append(
            make(
                partition_cls,
                error_code=error,
                partition_index=p.partition_id,
                leader_id=p.leader,
                leader_epoch=p.leader_epoch,
                replica_nodes=tuple(p.replicas),
                isr_nodes=tuple(p.isr),
                offline_replicas=offline,
            )
        )
    operations = (
        authorized_operations(ctx, ResourceType.TOPIC, topic.name)
        if with_ops
        else AUTHORIZED_OPERATIONS_UNSET
    )
    return ctx.r(
        "MetadataResponseTopic",
        error_code=0,
        name=topic.name,
        topic_id=topic.topic_id,
        is_internal=False,
        partitions=tuple(partitions),
        topic_authorized_operations=operations,
    )


def _topic_bytes(ctx: RequestContext, topic: Topic, live: set[int]) -> bytes:
    """One topic of a v10-13 response, from the cache while the topic and the brokers are unchanged."""
    cluster = ctx.cluster
    stamp = (topic.revision, cluster.image.broker_version)
    key = ("metadata-topic", topic.topic_id)
    cached = cluster.response_cache.get(key)
    if cached is not None and cached[0] == stamp:
        encoded: bytes = cached[1]
        return encoded
    partitions = [
        fastcodec.metadata_partition(
            ErrorCode.leader_not_available if p.leader == -1 else 0,
            p.partition_id,
            p.leader,
            p.leader_epoch,
            p.replicas,
            p.isr,
            [b for b in p.replicas if b not in live],
        )
        for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id)
    ]
    encoded = fastcodec.metadata_topic(0, topic.name, topic.topic_id, partitions, AUTHORIZED_OPERATIONS_UNSET)
    cluster.response_cache[key] = (stamp, encoded)
    return encoded


def _fast(ctx: RequestContext, request: Any, live: set[int]) -> Any:
    """Metadata v10-13 encoded by kcli.sandbox.emulator.fastcodec (100k partitions well under a second)."""
    cluster = ctx.cluster
    image = cluster.image
    null_id = uuid.UUID(int=0)
    brokers = []
    for broker in sorted(image.brokers.values(), key=lambda b: b.broker_id):
        if not broker.fenced:
            host, port = cluster.advertised(broker.broker_id)
            brokers.append((broker.broker_id, host, port, broker.rack))
    topics: list[bytes] = []
    if request.topics is None:
        for each in image.topics.values():
            if ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, each.name):
                topics.append(_topic_bytes(ctx, each, live))
    else:
        for wanted in request.topics:
            topic_id = wanted.topic_id
            name = wanted.name
            if _by_id(topic_id):
                found = image.topics.get(topic_id)
                if found is None or not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, found.name):
                    code = (
                        ErrorCode.unknown_topic_id if found is None else ErrorCode.topic_authorization_failed
                    )
                    topics.append(
                        fastcodec.metadata_topic(code, None, topic_id, (), AUTHORIZED_OPERATIONS_UNSET)
                    )
                    continue
            else:
                found = image.topic(name or "")
                if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.TOPIC, name or ""):
                    topics.append(
                        fastcodec.metadata_topic(
                            ErrorCode.topic_authorization_failed,
                            name,
                            null_id,
                            (),
                            AUTHORIZED_OPERATIONS_UNSET,
                        )
                    )
                    continue
                if found is None:
                    topics.append(
                        fastcodec.metadata_topic(
                            ErrorCode.unknown_topic_or_partition,
                            name,
                            null_id,
                            (),
                            AUTHORIZED_OPERATIONS_UNSET,
                        )
                    )
                    continue
            topics.append(_topic_bytes(ctx, found, live))
    body = fastcodec.metadata_response(
        ctx.version,
        brokers,
        cluster.cluster_id,
        cluster.client_controller_id(),
        topics,
        AUTHORIZED_OPERATIONS_UNSET,
    )
    return PreEncoded(cls=ctx.response_module.MetadataResponse, body=body)
