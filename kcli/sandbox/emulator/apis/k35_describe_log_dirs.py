"""DescribeLogDirs (35), versions 1-5 (brokers only): this broker's log dirs and partition sizes.

Behavior:
- Auth: DESCRIBE on the cluster; otherwise the result list is empty (v3+: CLUSTER_AUTHORIZATION_FAILED).
- One result per log dir of the broker (kcli.sandbox.emulator.logdirs), each listing the replicas it holds:
  the bytes of its segments on disk (kcli.sandbox.emulator.data) and its offset lag behind the high
  watermark (a replica a reassignment is adding shows what it copied so far and what it lacks).
- A replica moving to another dir (AlterReplicaLogDirs) shows there too as the future replica
  (IsFutureKey), with its bytes and its lag behind the current replica.
- Each dir's total and usable bytes are its file system's (as Kafka's FileStore figures).
- Topics null -> every partition; else the named ones (unknown ones left out).

- A dir is cordoned when the broker's cordoned.log.dirs lists its path (KIP-1066).

Version notes: v2 flexible; v3 top-level error code; v4 total and usable bytes; v5 IsCordoned.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.configview import broker_value
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.logdirs import LogDir, replica_directory
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.DESCRIBE_LOG_DIRS, (1, 5), listeners=Listener.BROKER)
async def handle_describe_log_dirs(ctx: RequestContext, request: Any) -> Any:
    """Describe this broker's log directories."""
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.answer("DescribeLogDirsResponse", ErrorCode.cluster_authorization_failed, None, results=())
    cluster = ctx.cluster
    logs = cluster.partition_logs
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
            current = replica_directory(cluster, p, broker_id)
            if current not in known:
                current = dirs[0].directory_id
            key = (p.topic_id, p.partition_id, broker_id)
            size = logs.replicas.replica_size(*key)
            used[current] += size
            placed[current].setdefault(topic.name, []).append(
                ctx.r(
                    "DescribeLogDirsPartition",
                    partition_index=p.partition_id,
                    partition_size=size,
                    offset_lag=logs.copies.lag(*key),
                    is_future_key=False,
                )
            )
            move = cluster.log_dir_moves.future(p.topic_id, p.partition_id, broker_id)
            future = logs.copies.future_size(*key)
            if move is not None and move.target in known:
                copied, lag = future if future is not None else (0, logs.replicas.get(*key).end_offset)  # type: ignore[union-attr]
                used[move.target] += copied
                placed[move.target].setdefault(topic.name, []).append(
                    ctx.r(
                        "DescribeLogDirsPartition",
                        partition_index=p.partition_id,
                        partition_size=copied,
                        offset_lag=lag,
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
            total_bytes=_disk(d.path)[0],
            usable_bytes=_disk(d.path)[1],
            is_cordoned=str(d.path) in cordoned,
        )
        for d in dirs
    )
    return ctx.answer("DescribeLogDirsResponse", 0, None, results=results)


def _disk(path: Path) -> tuple[int, int]:
    """(total, usable) bytes of the file system holding `path`."""
    try:
        usage = shutil.disk_usage(path)
    except OSError:
        return 0, 0
    return usage.total, usage.free
