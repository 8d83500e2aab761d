"""DescribeQuorum (55), versions 0-2: the __cluster_metadata-0 Raft quorum.

Behavior:
- Auth: DESCRIBE on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- Only __cluster_metadata partition 0 exists (else UNKNOWN_TOPIC_OR_PARTITION).
- Voters are the quorum's voter set (AddRaftVoter/RemoveRaftVoter change it); observers are the
  brokers and any controller that is not a voter. Log end offsets, last fetch and caught-up
  timestamps come from each node's replication of the log; a stopped node's stay where it stopped.
- Brokers forward it to the active controller (KIP-590).

Version notes: v1 timestamps; v2 directory ids, error messages and the nodes' listeners (KIP-853).
"""

from __future__ import annotations

import uuid
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.node import now_ms
from kcli.sandbox.emulator.registry import api

METADATA_TOPIC = "__cluster_metadata"


@api(ApiKey.DESCRIBE_QUORUM, (0, 2), forward=True)
async def handle_describe_quorum(ctx: RequestContext, request: Any) -> Any:
    """Describe the metadata quorum."""
    if not ctx.authorize(AclOperation.DESCRIBE, ResourceType.CLUSTER, CLUSTER_NAME):
        return ctx.r(
            "DescribeQuorumResponse",
            error_code=ErrorCode.cluster_authorization_failed,
            error_message="Authorization failed.",
            topics=(),
            nodes=(),
        )
    cluster = ctx.cluster
    stamp = now_ms()
    topics = []
    for topic in request.topics:
        partitions = []
        for wanted in topic.partitions:
            if topic.topic_name != METADATA_TOPIC or wanted.partition_index != 0:
                partitions.append(
                    ctx.r(
                        "PartitionData",
                        partition_index=wanted.partition_index,
                        error_code=ErrorCode.unknown_topic_or_partition,
                        error_message=None,
                        leader_id=-1,
                        leader_epoch=-1,
                        high_watermark=-1,
                        current_voters=(),
                        observers=(),
                    )
                )
                continue
            voters = [_replica(ctx, node_id, stamp) for node_id in sorted(cluster.voters)]
            observers = [
                _replica(ctx, n.node_id, stamp)
                for n in sorted(cluster.nodes.values(), key=lambda n: n.node_id)
                if n.node_id not in cluster.voters and (n.running or n.log_end_offset > 0)
            ]
            partitions.append(
                ctx.r(
                    "PartitionData",
                    partition_index=0,
                    error_code=0,
                    error_message=None,
                    leader_id=cluster.active_controller_id,
                    leader_epoch=cluster.leader_epoch,
                    high_watermark=cluster.metalog.high_watermark,
                    current_voters=tuple(voters),
                    observers=tuple(observers),
                )
            )
        topics.append(ctx.r("TopicData", topic_name=topic.topic_name, partitions=tuple(partitions)))
    nodes = []
    if ctx.version >= 2:
        for node_id in sorted(cluster.voters):
            node = cluster.nodes.get(node_id)
            if node is None:
                continue
            listener = ctx.r("Listener", name="CONTROLLER", host=node.host, port=node.port)
            nodes.append(ctx.r("Node", node_id=node_id, listeners=(listener,)))
    return ctx.r(
        "DescribeQuorumResponse", error_code=0, error_message=None, topics=tuple(topics), nodes=tuple(nodes)
    )


def _replica(ctx: RequestContext, node_id: int, stamp: int) -> Any:
    cluster = ctx.cluster
    node = cluster.nodes.get(node_id)
    directory = cluster.voters.get(node_id) or (node.directory_id if node else uuid.UUID(int=0))
    if node is None:
        return ctx.r(
            "ReplicaState",
            replica_id=node_id,
            replica_directory_id=directory,
            log_end_offset=-1,
            last_fetch_timestamp=-1,
            last_caught_up_timestamp=-1,
        )
    leader = node_id == cluster.active_controller_id
    return ctx.r(
        "ReplicaState",
        replica_id=node_id,
        replica_directory_id=directory,
        log_end_offset=node.log_end_offset,
        last_fetch_timestamp=stamp if leader else node.last_fetch_ms,
        last_caught_up_timestamp=stamp if leader else node.last_caught_up_ms,
    )
