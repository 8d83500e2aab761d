"""WriteTxnMarkers (27), versions 1-2: commit or abort markers written to partitions (KIP-664's abort).

Behavior:
- Brokers only; ALTER on the cluster, else CLUSTER_ACTION (CLUSTER_AUTHORIZATION_FAILED for every
  partition); what kafka-transactions.sh abort sends to a partition's leader.
- Each marker goes to the partition's leader; a __consumer_offsets partition completes the
  producer's transactional offsets through the group coordinator (its NOT_COORDINATOR-like errors
  are NOT_LEADER_OR_FOLLOWER); an unknown partition is UNKNOWN_TOPIC_OR_PARTITION; a stale epoch
  INVALID_PRODUCER_EPOCH, an old coordinator epoch TRANSACTION_COORDINATOR_FENCED.

Version notes: v1 flexible (v0 is not served by Kafka 4.x); v2 the transaction version of the marker.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import Listener, api


@api(ApiKey.WRITE_TXN_MARKERS, (1, 2), listeners=Listener.BROKER)
async def handle_write_txn_markers(ctx: RequestContext, request: Any) -> Any:
    """Write each marker to each of its partitions."""
    allowed = ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME) or ctx.authorize(
        AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, CLUSTER_NAME
    )
    markers = []
    for marker in request.markers:
        topics = []
        for topic in marker.topics:
            partitions = []
            for index in topic.partition_indexes:
                if not allowed:
                    code: Any = ErrorCode.cluster_authorization_failed
                else:
                    code = await coordination.write_marker(
                        ctx.cluster,
                        topic.name,
                        int(index),
                        producer_id=int(marker.producer_id),
                        producer_epoch=int(marker.producer_epoch),
                        commit=bool(marker.transaction_result),
                        coordinator_epoch=int(marker.coordinator_epoch),
                        transaction_version=int(getattr(marker, "transaction_version", 0)),
                    )
                partitions.append(
                    ctx.r("WritableTxnMarkerPartitionResult", partition_index=index, error_code=code)
                )
            topics.append(
                ctx.r("WritableTxnMarkerTopicResult", name=topic.name, partitions=tuple(partitions))
            )
        markers.append(ctx.r("WritableTxnMarkerResult", producer_id=marker.producer_id, topics=tuple(topics)))
    return ctx.r("WriteTxnMarkersResponse", markers=tuple(markers))
