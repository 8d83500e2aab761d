"""AlterReplicaLogDirs (34), versions 1-2 (brokers only): move replicas between this broker's log dirs.

Behavior (ReplicaManager.alterReplicaLogDirs):
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED for every partition.
- A path that is not one of this broker's log dirs -> LOG_DIR_NOT_FOUND; an unknown topic or
  partition -> UNKNOWN_TOPIC_OR_PARTITION; a partition with no replica on this broker ->
  REPLICA_NOT_AVAILABLE (what Kafka answers until the replica exists, so tools retry).
- Otherwise NONE: asking for the replica's current dir cancels a running move; another dir starts
  a move whose future replica copies at replica.alter.log.dirs.io.max.bytes.per.second
  (kcli.sandbox.emulator.logdirs). A partition named twice takes the last path, as Kafka's map does.
- Not forwarded: the broker moves its own data; the controller only learns the new directory
  when the move completes (a PartitionChangeRecord, as AssignReplicasToDirs makes it).

Version notes: v1 is the oldest Kafka 4.x accepts; v2 is flexible.
"""

from __future__ import annotations

import os
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.registry import Listener, api


def _normal(path: str) -> str:
    return os.path.normpath(os.path.abspath(path))


@api(ApiKey.ALTER_REPLICA_LOG_DIRS, (1, 2), listeners=Listener.BROKER)
async def handle_alter_replica_log_dirs(ctx: RequestContext, request: Any) -> Any:
    """Move replicas of this broker to other log dirs."""
    cluster = ctx.cluster
    broker_id = ctx.node.node_id
    allowed = ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME)
    dirs = {_normal(str(d.path)): d.directory_id for d in cluster.log_dirs.get(broker_id, ())}
    wanted: dict[tuple[str, int], str] = {}
    for entry in request.dirs:
        for topic in entry.topics:
            for partition in topic.partitions:
                wanted[(str(topic.name), int(partition))] = str(entry.path)
    codes: dict[str, list[tuple[int, int]]] = {}
    for (name, partition_id), path in wanted.items():
        code = 0
        target = dirs.get(_normal(path))
        topic = cluster.image.topic(name)
        partition = topic.partitions.get(partition_id) if topic is not None else None
        if not allowed:
            code = ErrorCode.cluster_authorization_failed
        elif target is None:
            code = ErrorCode.log_dir_not_found
        elif partition is None:
            code = ErrorCode.unknown_topic_or_partition
        elif broker_id not in partition.replicas:
            code = ErrorCode.replica_not_available
        else:
            await cluster.log_dir_moves.request(name, partition, broker_id, target)
        codes.setdefault(name, []).append((partition_id, code))
    results = tuple(
        ctx.r(
            "AlterReplicaLogDirTopicResult",
            topic_name=name,
            partitions=tuple(
                ctx.r("AlterReplicaLogDirPartitionResult", partition_index=p, error_code=code)
                for p, code in partitions
            ),
        )
        for name, partitions in codes.items()
    )
    return ctx.r("AlterReplicaLogDirsResponse", throttle_time=ZERO, results=results)
