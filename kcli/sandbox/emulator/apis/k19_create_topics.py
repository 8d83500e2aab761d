"""CreateTopics (19), versions 2-7: new topics with their partitions and configs, in one batch.

Behavior (the order and words of Kafka 4.4's ControllerApis and ReplicationControlManager):
- A name given twice in the request -> one INVALID_REQUEST "Duplicate topic name." for it, after the
  other topics' results. Auth: CREATE on the cluster or on the topic, else TOPIC_AUTHORIZATION_FAILED.
- Then per topic: an invalid name (Topic.validate) or one that collides with an existing topic's
  through '.'/'_' -> INVALID_TOPIC_EXCEPTION; an existing topic -> TOPIC_ALREADY_EXISTS; a null
  config value or a bad config -> INVALID_CONFIG (a key given twice: the last value).
- A manual assignment with a replication factor or a partition count other than -1 ->
  INVALID_REQUEST; an empty replica list, an unknown or repeated broker, replica counts that differ,
  a partition twice or partitions that are not 0..n-1 -> INVALID_REPLICA_ASSIGNMENT.
- Without one: replication factor or partition count 0 or below -1 -> INVALID_REPLICATION_FACTOR /
  INVALID_PARTITIONS; -1 takes the broker's default.replication.factor / num.partitions; a factor
  above the registered brokers -> INVALID_REPLICATION_FACTOR.
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
    def __init__(self, code: int, message: str | None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def check_topic_name(name: str) -> None:
    """Kafka's Topic.validate, with its words."""
    reason = None
    if not name:
        reason = "the empty string is not allowed"
    elif name in (".", ".."):
        reason = f"'{name}' is not allowed"
    elif len(name) > 249:
        reason = f"the length of '{name}' is longer than the max allowed length 249"
    elif not _LEGAL.match(name):
        reason = f"'{name}' contains one or more characters other than ASCII alphanumerics, '.', '_' and '-'"
    if reason is not None:
        raise TopicProblem(ErrorCode.invalid_topic_exception, f"Topic name is invalid: {reason}")


def _collision(ctx: RequestContext, name: str) -> None:
    """A name that differs from an existing topic's only in '.' and '_' (they share metric names)."""
    if "." not in name and "_" not in name:
        return
    unified = name.replace(".", "_")
    for other in ctx.cluster.image.topic_ids:
        if other != name and other.replace(".", "_") == unified:
            raise TopicProblem(
                ErrorCode.invalid_topic_exception, f"Topic '{name}' collides with existing topic: {other}"
            )


def broker_default(ctx: RequestContext, key: str, fallback: int) -> int:
    """A broker setting CreateTopics falls back on (default.replication.factor, num.partitions)."""
    from kcli.sandbox.emulator.configview import broker_value

    value = broker_value(ctx.cluster, ctx.cluster.active_controller_id, key)
    try:
        return int(value) if value is not None else fallback
    except ValueError:
        return fallback


@api(ApiKey.CREATE_TOPICS, (2, 7), forward=True)
async def handle_create_topics(ctx: RequestContext, request: Any) -> Any:
    """Create topics."""
    names = [t.name for t in request.topics]
    duplicates = {n for n in names if names.count(n) > 1}
    cluster_ok = ctx.authorize(AclOperation.CREATE, ResourceType.CLUSTER, CLUSTER_NAME)
    results = []
    records: list[Any] = []
    for topic in request.topics:
        if topic.name in duplicates:
            continue
        try:
            if not cluster_ok and not ctx.authorize(AclOperation.CREATE, ResourceType.TOPIC, topic.name):
                raise TopicProblem(ErrorCode.topic_authorization_failed, "Authorization failed.")
            new = _plan(ctx, topic)
        except (TopicProblem, ConfigProblem) as problem:
            results.append(_result(ctx, topic.name, None, problem.code, problem.message))
            continue
        records.extend(new)
        results.append(_result(ctx, topic.name, new, 0, None, topic_id=new[0].topic_id))
    for name in dict.fromkeys(n for n in names if n in duplicates):
        results.append(_result(ctx, name, None, ErrorCode.invalid_request, "Duplicate topic name."))
    if records and not request.validate_only:
        await ctx.cluster.commit(records)
    return ctx.r("CreateTopicsResponse", throttle_time=ZERO, topics=tuple(results))


def _plan(ctx: RequestContext, topic: Any) -> list[Any]:
    check_topic_name(topic.name)
    _collision(ctx, topic.name)
    cluster = ctx.cluster
    if cluster.image.topic(topic.name) is not None:
        raise TopicProblem(ErrorCode.topic_already_exists, f"Topic '{topic.name}' already exists.")
    configs = _configs(topic)
    assignment = _assigned(ctx, topic) if topic.assignments else _placed(ctx, topic)
    topic_id = uuid.uuid4()
    return [
        R.TopicRecord(name=topic.name, topic_id=topic_id),
        *configs,
        *partition_records(cluster, topic_id, assignment),
    ]


def _configs(topic: Any) -> list[Any]:
    """The topic's ConfigRecords (a key given twice: its last value), or ConfigProblem."""
    nulls = [c.name for c in topic.configs if c.value is None]
    if nulls:
        raise ConfigProblem(
            ErrorCode.invalid_config, f"Null value not supported for topic configs: {','.join(nulls)}"
        )
    values = {c.name: c.value for c in topic.configs}
    for name, value in values.items():
        validate_topic_config(name, value)
    return [
        R.ConfigRecord(
            resource_type=ConfigResourceType.TOPIC, resource_name=topic.name, name=name, value=value
        )
        for name, value in values.items()
    ]


def _assigned(ctx: RequestContext, topic: Any) -> list[list[int]]:
    """A manual assignment, checked as ReplicationControlManager.validateManualPartitionAssignment."""
    if topic.replication_factor != -1:
        raise TopicProblem(
            ErrorCode.invalid_request,
            "A manual partition assignment was specified, but replication factor was not set to -1.",
        )
    if topic.num_partitions != -1:
        raise TopicProblem(
            ErrorCode.invalid_request,
            "A manual partition assignment was specified, but numPartitions was not set to -1.",
        )
    found: dict[int, list[int]] = {}
    factor: int | None = None
    for a in topic.assignments:
        if a.partition_index in found:
            raise TopicProblem(
                ErrorCode.invalid_replica_assignment,
                f"Found multiple manual partition assignments for partition {a.partition_index}",
            )
        replicas = list(a.broker_ids)
        check_assignment(ctx, replicas, factor)
        factor = len(replicas)
        found[a.partition_index] = replicas
    if sorted(found) != list(range(len(found))):
        raise TopicProblem(
            ErrorCode.invalid_replica_assignment,
            "partitions should be a consecutive 0-based integer sequence",
        )
    return [found[index] for index in range(len(found))]


def check_assignment(ctx: RequestContext, replicas: list[int], factor: int | None) -> None:
    """One partition's replica list of a manual assignment (CreateTopics and CreatePartitions)."""
    if not replicas:
        raise TopicProblem(
            ErrorCode.invalid_replica_assignment,
            "The manual partition assignment includes an empty replica list.",
        )
    previous = None
    for broker in sorted(replicas):
        if broker not in ctx.cluster.image.brokers:
            raise TopicProblem(
                ErrorCode.invalid_replica_assignment,
                f"The manual partition assignment includes broker {broker}, but no such broker is registered.",
            )
        if broker == previous:
            raise TopicProblem(
                ErrorCode.invalid_replica_assignment,
                f"The manual partition assignment includes the broker {broker} more than once.",
            )
        previous = broker
    if factor is not None and len(replicas) != factor:
        raise TopicProblem(
            ErrorCode.invalid_replica_assignment,
            f"The manual partition assignment includes a partition with {len(replicas)} replica(s), but this "
            f"is not consistent with previous partitions, which have {factor} replica(s).",
        )


def _placed(ctx: RequestContext, topic: Any) -> list[list[int]]:
    """Replicas placed by the controller for a partition count and replication factor (-1: the defaults)."""
    if topic.replication_factor < -1 or topic.replication_factor == 0:
        raise TopicProblem(
            ErrorCode.invalid_replication_factor,
            "Replication factor must be larger than 0, or -1 to use the default value.",
        )
    if topic.num_partitions < -1 or topic.num_partitions == 0:
        raise TopicProblem(
            ErrorCode.invalid_partitions, "Number of partitions was set to an invalid non-positive value."
        )
    partitions = (
        topic.num_partitions if topic.num_partitions != -1 else broker_default(ctx, "num.partitions", 1)
    )
    factor = (
        topic.replication_factor
        if topic.replication_factor != -1
        else broker_default(ctx, "default.replication.factor", 1)
    )
    brokers = ctx.cluster.live_broker_ids()
    if factor > len(brokers):
        raise TopicProblem(
            ErrorCode.invalid_replication_factor,
            f"Unable to replicate the partition {factor} time(s): The target replication factor of {factor} "
            f"cannot be reached because only {len(brokers)} broker(s) are registered or some brokers have all "
            "their log directories cordoned.",
        )
    start = len(ctx.cluster.image.topics) % max(len(brokers), 1)
    return assign(brokers, partitions, factor, start=start)


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
