"""DescribeLogDirs (35), versions 1-4 (brokers only): this broker's log dir and partition sizes.

Behavior:
- Auth: DESCRIBE on the cluster; otherwise the result list is empty (v3+: CLUSTER_AUTHORIZATION_FAILED).
- One log dir per broker (DIR/<broker id>) holding every replica assigned to the broker. Sizes are
  simulated (1-9 MiB per partition, stable); a replica being added by a reassignment reports the
  bytes copied so far and its remaining lag, so progress is visible.
- Topics null -> every partition; else the named ones (unknown ones left out).

Version notes: v2 flexible; v3 top-level error code; v4 total and usable bytes.
"""

from __future__ import annotations

from typing import Any

from kcli.sandbox.authorizer import CLUSTER, CLUSTER_NAME, DESCRIBE
from kcli.sandbox.context import ZERO, RequestContext
from kcli.sandbox.reassign import partition_size
from kcli.sandbox.registry import Listener, api

CLUSTER_AUTHORIZATION_FAILED = 31
TOTAL_BYTES = 1 << 40  # a 1 TiB simulated disk
RECORD_BYTES = 1024  # simulated bytes per record, for offset lag


@api(35, "describe_log_dirs", (1, 4), listeners=Listener.BROKER)
async def handle_describe_log_dirs(ctx: RequestContext, request: Any) -> Any:
    """Describe this broker's log directory."""
    if not ctx.authorize(DESCRIBE, CLUSTER, CLUSTER_NAME):
        return ctx.r(
            "DescribeLogDirsResponse", throttle_time=ZERO, error_code=CLUSTER_AUTHORIZATION_FAILED, results=()
        )
    cluster = ctx.cluster
    broker_id = ctx.node.node_id
    wanted = {t.topic: set(t.partitions) for t in request.topics} if request.topics is not None else None
    topics = []
    used = 0
    for topic in sorted(cluster.image.topics.values(), key=lambda t: t.name):
        if wanted is not None and topic.name not in wanted:
            continue
        partitions = []
        for p in sorted(topic.partitions.values(), key=lambda p: p.partition_id):
            if broker_id not in p.replicas or (
                wanted is not None and p.partition_id not in wanted[topic.name]
            ):
                continue
            size = cluster.reassignments.copied_bytes(topic.name, p, broker_id)
            lag = (partition_size(topic.name, p.partition_id) - size) // RECORD_BYTES
            used += size
            partitions.append(
                ctx.r(
                    "DescribeLogDirsPartition",
                    partition_index=p.partition_id,
                    partition_size=size,
                    offset_lag=lag,
                    is_future_key=False,
                )
            )
        if partitions:
            topics.append(ctx.r("DescribeLogDirsTopic", name=topic.name, partitions=tuple(partitions)))
    result = ctx.r(
        "DescribeLogDirsResult",
        error_code=0,
        log_dir=str(cluster.settings.directory / str(broker_id)),
        topics=tuple(topics),
        total_bytes=TOTAL_BYTES,
        usable_bytes=TOTAL_BYTES - used,
        is_cordoned=False,
    )
    return ctx.r("DescribeLogDirsResponse", throttle_time=ZERO, error_code=0, results=(result,))
