"""FindCoordinator (10), versions 0-6: the broker that coordinates a group or a transactional id.

Behavior:
- Brokers only. Key type 0 (group) needs DESCRIBE on the group (GROUP_AUTHORIZATION_FAILED), 1
  (transaction) DESCRIBE on the transactional id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED); key type 2
  (share coordinator) is INVALID_REQUEST below v6 and, the emulator keeping no share group state,
  COORDINATOR_NOT_AVAILABLE at v6 (the answer of a broker whose share coordinator is not running).
- The coordinator is the live leader of the key's partition of __consumer_offsets (__transaction_state);
  a missing internal topic is created as Kafka's auto topic creation does and the answer is
  COORDINATOR_NOT_AVAILABLE until it has a leader. An error answers node -1, host "", port -1.

Version notes: v1 throttle time, error message (the error's default message, "NONE" on success);
v3 flexible; v4 batched keys (CoordinatorKeys, one Coordinator each, no error message); v6 share keys.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import coordination
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.groups.coordinator import OFFSETS_TOPIC, partition_for
from kcli.sandbox.emulator.groups.model import default_message
from kcli.sandbox.emulator.registry import Listener, api

GROUP, TRANSACTION, SHARE = 0, 1, 2


@api(ApiKey.FIND_COORDINATOR, (0, 6), listeners=Listener.BROKER)
async def handle_find_coordinator(ctx: RequestContext, request: Any) -> Any:
    """Find the coordinator of each key."""
    key_type = int(getattr(request, "key_type", 0))
    if ctx.version >= 4:
        coordinators = []
        for key in request.coordinator_keys:
            code, node, host, port = await _coordinator(ctx, key_type, key)
            coordinators.append(
                ctx.r(
                    "Coordinator",
                    key=key,
                    node_id=node,
                    host=host,
                    port=port,
                    error_code=code,
                    error_message="",
                )
            )
        return ctx.r("FindCoordinatorResponse", throttle_time=ZERO, coordinators=tuple(coordinators))
    code, node, host, port = await _coordinator(ctx, key_type, request.key)
    message = "NONE" if code == ErrorCode.none else default_message(code)
    return ctx.answer("FindCoordinatorResponse", code, message, node_id=node, host=host, port=port)


async def _coordinator(ctx: RequestContext, key_type: int, key: str) -> tuple[int, int, str, int]:
    none = (-1, "", -1)
    if key_type == GROUP and not ctx.authorize(AclOperation.DESCRIBE, ResourceType.GROUP, key):
        return (ErrorCode.group_authorization_failed, *none)
    if key_type == TRANSACTION and not ctx.authorize(
        AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key
    ):
        return (ErrorCode.transactional_id_authorization_failed, *none)
    if key_type == SHARE or key_type not in (GROUP, TRANSACTION):
        code = (
            ErrorCode.coordinator_not_available
            if key_type == SHARE and ctx.version >= 6
            else ErrorCode.invalid_request
        )
        return (code, *none)
    cluster = ctx.cluster
    topic = OFFSETS_TOPIC if key_type == GROUP else coordination.TRANSACTIONS_TOPIC
    found = cluster.image.topic(topic)
    if found is None:
        await coordination.ensure_internal_topic(cluster, topic)
        return (ErrorCode.coordinator_not_available, *none)
    partitions = len(found.partitions)
    leader = coordination.coordinator_of(cluster, topic, partition_for(key, partitions))
    if leader is None:
        return (ErrorCode.coordinator_not_available, *none)
    host, port = cluster.advertised(leader)
    return ErrorCode.none, leader, host, port
