"""CreateTopics (19), versions 2-7: new topics with their partitions and configs, in one batch.

Behavior:
- Auth: CREATE on the cluster or on the topic, else TOPIC_AUTHORIZATION_FAILED.
- Validation per topic: duplicates in the request -> INVALID_REQUEST; bad names ->
  INVALID_TOPIC_EXCEPTION; existing -> TOPIC_ALREADY_EXISTS; partitions/replication factor of 0 or
  below (other than -1 = default) -> INVALID_PARTITIONS / INVALID_REPLICATION_FACTOR; a factor above
  the registered brokers -> INVALID_REPLICATION_FACTOR; assignments with counts, or naming unknown
  or repeated brokers -> INVALID_REQUEST / INVALID_REPLICA_ASSIGNMENT; bad configs -> INVALID_CONFIG.
- validate_only answers as if created and changes nothing.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v5 returns partitions, replication factor and configs; v7 topic ids.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ConfigResourceType, ResourceType
from kcli.metadata import records as _records
from kcli.sandbox.emulator.configalter import validate_topic_config
from kcli.sandbox.emulator.configview import ConfigProblem, topic_entries
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.placement import assign, partition_records
from kcli.sandbox.emulator.registry import api

# Record constructors take kio's phantom int types; plain ints are what they hold at runtime.
R: Any = _records

_LEGAL = re.compile(r"^[a-zA-Z0-9._-]+$")


class TopicProblem(Exception):
    def __init__(self, code: int, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_topic_name(name: str) -> None:
    """Kafka's Topic.validate rules."""
    if not name:
        raise TopicProblem(ErrorCode.invalid_topic_exception, "Topic name is illegal, it can't be empty")
    if name in (".", ".."):
        raise TopicProblem(ErrorCode.invalid_topic_exception, 'Topic name cannot be "." or ".."')
    if len(name) > 249:
        raise TopicProblem(
            ErrorCode.invalid_topic_exception,
            f"Topic name is illegal, it can't be longer than 249 characters, topic name: {name}",
        )
    if not _LEGAL.match(name):
        raise TopicProblem(
            ErrorCode.invalid_topic_exception,
            f"Topic name \"{name}\" is illegal, it contains a character other than ASCII alphanumerics, '.', '_' and '-'",
        )


def default_replication_factor(ctx: RequestContext) -> int:
    return ctx.cluster.settings.replication_factor or min(3, len(ctx.cluster.settings.broker_ids()))


@api(ApiKey.CREATE_TOPICS, (2, 7), forward=True)
async def handle_create_topics(ctx: RequestContext, request: Any) -> Any:
    """Create topics."""
    names = [t.name for t in request.topics]
    duplicates = {n for n in names if names.count(n) > 1}
    cluster_ok = ctx.authorize(AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME)
    results = []
    records: list[Any] = []
    for topic in request.topics:
        try:
            if topic.name in duplicates:
                raise TopicProblem(
                    ErrorCode.invalid_request, f"Duplicate topic name {topic.name} in the request."
                )
            if not cluster_ok and not ctx.authorize(AclOperation.CREATE, ResourceType.TOPIC, topic.name):
                raise TopicProblem(ErrorCode.topic_authorization_failed, "Authorization failed.")
            new = _plan(ctx, topic)
        except TopicProblem as problem:
            results.append(_result(ctx, topic.name, None, problem.code, problem.message))
            continue
        except ConfigProblem as problem:
            results.append(_result(ctx, topic.name, None, problem.code, problem.message))
            continue
        records.extend(new)
        topic_id = new[0].topic_id
        results.append(_result(ctx, topic.name, new, 0, None, topic_id=topic_id))
    if records and not request.validate_only:
        await ctx.cluster.commit(records)
    return ctx.r("CreateTopicsResponse", throttle_time=ZERO, topics=tuple(results))


def _plan(ctx: RequestContext, topic: Any) -> list[Any]:
    check_topic_name(topic.name)
    cluster = ctx.cluster
    if cluster.image.topic(topic.name) is not None:
        raise TopicProblem(ErrorCode.topic_already_exists, f"Topic '{topic.name}' already exists.")
    brokers = cluster.live_broker_ids()
    if topic.assignments:
        if topic.num_partitions != -1 or topic.replication_factor != -1:
            raise TopicProblem(
                ErrorCode.invalid_request,
                "Both numPartitions or replicationFactor and replicasAssignments were set. Both cannot be used at the same time.",
            )
        assignment = []
        for index, a in enumerate(sorted(topic.assignments, key=lambda a: a.partition_index)):
            if a.partition_index != index:
                raise TopicProblem(
                    ErrorCode.invalid_replica_assignment,
                    "Partitions should be a consecutive 0-based integer sequence",
                )
            replicas = list(a.broker_ids)
            if not replicas or len(set(replicas)) != len(replicas):
                raise TopicProblem(
                    ErrorCode.invalid_replica_assignment,
                    f"Duplicate brokers not allowed in replica assignment: {replicas} for partition id {index}.",
                )
            unknown = [b for b in replicas if b not in cluster.image.brokers]
            if unknown:
                raise TopicProblem(
                    ErrorCode.invalid_replica_assignment,
                    f"The manual partition assignment includes broker {unknown[0]}, but no such broker is registered.",
                )
            assignment.append(replicas)
    else:
        partitions = topic.num_partitions
        factor = topic.replication_factor
        if partitions == -1:
            partitions = 1
        if factor == -1:
            factor = default_replication_factor(ctx)
        if partitions <= 0:
            raise TopicProblem(
                ErrorCode.invalid_partitions, "Number of partitions was set to an invalid non-positive value."
            )
        if factor <= 0:
            raise TopicProblem(
                ErrorCode.invalid_replication_factor,
                "Replication factor must be larger than 0, or -1 to use the default value.",
            )
        if factor > len(brokers):
            raise TopicProblem(
                ErrorCode.invalid_replication_factor,
                f"Unable to replicate the partition {factor} time(s): The target replication factor of {factor} "
                f"cannot be reached because only {len(brokers)} broker(s) are registered.",
            )
        start = len(cluster.image.topics) % max(len(brokers), 1)
        assignment = assign(brokers, partitions, factor, start=start)
    configs: list[Any] = []
    seen: set[str] = set()
    for config in topic.configs:
        if config.name in seen:
            raise ConfigProblem(ErrorCode.invalid_request, f"Duplicate configuration key {config.name}")
        seen.add(config.name)
        validate_topic_config(config.name, config.value)
        if config.value is not None:
            configs.append(
                R.ConfigRecord(
                    resource_type=ConfigResourceType.TOPIC,
                    resource_name=topic.name,
                    name=config.name,
                    value=config.value,
                )
            )
    topic_id = uuid.uuid4()
    return [
        R.TopicRecord(name=topic.name, topic_id=topic_id),
        *configs,
        *partition_records(cluster, topic_id, assignment),
    ]


def _result(
    ctx: RequestContext,
    name: str,
    new: list[Any] | None,
    code: int,
    message: str | None,
    topic_id: Any = None,
) -> Any:
    partitions = [r for r in new or () if type(r).__record_name__ == "PartitionRecord"]
    configs: tuple[Any, ...] | None = None
    if new is not None and ctx.version >= 5:
        set_here = {r.name: r.value for r in new if type(r).__record_name__ == "ConfigRecord"}
        configs = tuple(
            ctx.r("CreatableTopicConfigs", **entry.wire_fields)
            for entry in topic_entries(ctx.cluster, ctx.node.node_id, set_here)
        )
    return ctx.r(
        "CreatableTopicResult",
        name=name,
        topic_id=topic_id or uuid.UUID(int=0),
        error_code=code,
        error_message=message,
        topic_config_error_code=0,
        num_partitions=len(partitions) if new is not None else -1,
        replication_factor=len(partitions[0].replicas) if partitions else -1,
        configs=configs,
    )
