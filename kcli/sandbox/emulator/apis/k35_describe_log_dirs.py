"""DescribeLogDirs (35), versions 1-5 (brokers only): this broker's log dirs and partition sizes.

Behavior:
- Auth: DESCRIBE on the cluster; otherwise the result list is empty (v3+: CLUSTER_AUTHORIZATION_FAILED).
- One result per log dir of the broker (kcli.sandbox.emulator.logdirs), each listing the replicas it holds.
  Sizes are simulated (1-9 MiB per partition, stable); a replica being added by a reassignment
  reports the bytes copied so far and its remaining lag, so progress is visible.
- A replica moving to another dir (AlterReplicaLogDirs) shows there too as the future replica
  (IsFutureKey), with the bytes copied so far.
- Topics null -> every partition; else the named ones (unknown ones left out).

- A dir is cordoned when the broker's cordoned.log.dirs lists its path (KIP-1066).

Version notes: v2 flexible; v3 top-level error code; v4 total and usable bytes; v5 IsCordoned.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.configview import broker_value
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.logdirs import LogDir, replica_directory
from kcli.sandbox.emulator.reassign import partition_size
from kcli.sandbox.emulator.registry import Listener, api

TOTAL_BYTES = 1 << 40  # a 1 TiB simulated disk
RECORD_BYTES = 1024  # simulated bytes per record, for offset lag


@api(ApiKey.DESCRIBE_LOG_DIRS, (1, 5), listeners=Listener.BROKER)
async def handle_describe_log_dirs(ctx: RequestContext, request: Any) -> Any:
    """Describe this broker's log directories."""
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.answer("DescribeLogDirsResponse", ErrorCode.cluster_authorization_failed, None, results=())
    cluster = ctx.cluster
    broker_id = ctx.node.node_id
    dirs = cluster.log_dirs.get(broker_id) or (
        LogDir(directory_id=ctx.node.directory_id, path=cluster.settings.directory / str(broker_id)),
    )
    known = {d.directory_id for d in dirs}
    wanted = {t.topic: set(t.partitions) for t in request.topics} if request.topics is not None else None
    # directory id -> topic name -> partition entries
    placed: dict[Any, dict[str, list[Any]]] = {d.directory_id: {} for d in dirs}
    used: dict[Any, int] = dict.fromkeys(known, 0)
    for topic in sorted(cluster.image.topics.values(), key=lambda t: t.name):
        if wanted is not None and topic.name not in wanted:
            continue
        for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id):
            if broker_id not in p.replicas or (
                wanted is not None and p.partition_id not in wanted[topic.name]
            ):
                continue
            full = partition_size(topic.name, p.partition_id)
            current = replica_directory(cluster, p, broker_id)
            if current not in known:
                current = dirs[0].directory_id
            size = cluster.reassignments.copied_bytes(topic.name, p, broker_id)
            used[current] += size
            placed[current].setdefault(topic.name, []).append(
                ctx.r(
                    "DescribeLogDirsPartition",
                    partition_index=p.partition_id,
                    partition_size=size,
                    offset_lag=(full - size) // RECORD_BYTES,
                    is_future_key=False,
                )
            )
            move = cluster.log_dir_moves.future(p.topic_id, p.partition_id, broker_id)
            if move is not None and move.target in known:
                copied = int(min(move.copied, move.size))
                used[move.target] += copied
                placed[move.target].setdefault(topic.name, []).append(
                    ctx.r(
                        "DescribeLogDirsPartition",
                        partition_index=p.partition_id,
                        partition_size=copied,
                        offset_lag=(move.size - copied) // RECORD_BYTES,
                        is_future_key=True,
                    )
                )
    cordoned = {d.strip() for d in (broker_value(cluster, broker_id, "cordoned.log.dirs") or "").split(",")}
    results = tuple(
        ctx.r(
            "DescribeLogDirsResult",
            error_code=0,
            log_dir=str(d.path),
            topics=tuple(
                ctx.r("DescribeLogDirsTopic", name=name, partitions=tuple(partitions))
                for name, partitions in placed[d.directory_id].items()
            ),
            total_bytes=TOTAL_BYTES,
            usable_bytes=TOTAL_BYTES - used[d.directory_id],
            is_cordoned=str(d.path) in cordoned,
        )
        for d in dirs
    )
    return ctx.answer("DescribeLogDirsResponse", 0, None, results=results)
