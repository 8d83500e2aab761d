"""The metadata quorum on the wire: DescribeQuorum (55), AddRaftVoter (80), RemoveRaftVoter (81).

Behavior:
- All three go to the active controller with --bootstrap-controller, through any broker otherwise
  (brokers forward them to the controller).
- DescribeQuorum names topic __cluster_metadata partition 0; the cluster id comes from the
  admin's bootstrap (DescribeCluster), as kafka-metadata-quorum.sh asks DescribeCluster first.
- `watch` keeps describing until cancelled; each refresh has its own deadline, and an Admin that
  failed is opened again (rebootstrap) on the next refresh, so a failover does not end the watch.

Version notes: DescribeQuorum v1 adds LastFetchTimestamp/LastCaughtUpTimestamp, v2 (3.9) adds
ReplicaDirectoryId and Nodes (voter endpoints). AddRaftVoter v1 (4.2) adds AckWhenCommitted.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
import uuid
from collections.abc import AsyncGenerator
from datetime import timedelta
from typing import TYPE_CHECKING, Any

from kcli.client.errors import check, code_of
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.quorum import ControllerToAdd, QuorumEndpoint, QuorumInfo, ReplicaState

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.client.config import ClientConfig

METADATA_TOPIC = "__cluster_metadata"
DUPLICATE_VOTER = code_of("DUPLICATE_VOTER")
VOTER_NOT_FOUND = code_of("VOTER_NOT_FOUND")


def _build_describe(version: int) -> Any:
    from kcli.client.protocol import request_class

    cls = request_class("describe_quorum", version)
    module = sys.modules[cls.__module__]
    partition = module.PartitionData(partition_index=0)
    return cls(topics=(module.TopicData(topic_name=METADATA_TOPIC, partitions=(partition,)),))


def _timestamp(value: Any) -> int | None:
    if value is None:
        return None
    value = int(value)
    return None if value < 0 else value


def _replica(state: Any) -> ReplicaState:
    return ReplicaState(
        replica_id=int(state.replica_id),
        directory_id=getattr(state, "replica_directory_id", None),
        log_end_offset=int(state.log_end_offset),
        last_fetch_timestamp=_timestamp(getattr(state, "last_fetch_timestamp", None)),
        last_caught_up_timestamp=_timestamp(getattr(state, "last_caught_up_timestamp", None)),
    )


def quorum_from_response(response: Any, *, cluster_id: str | None, node: str | None = None) -> QuorumInfo:
    """Map a DescribeQuorumResponse (v0-v2) to a QuorumInfo, raising on any error code."""
    check(
        int(response.error_code), getattr(response, "error_message", None), what="DescribeQuorum", node=node
    )
    partition = None
    for topic in response.topics:
        if str(topic.topic_name) == METADATA_TOPIC:
            partition = next((p for p in topic.partitions if int(p.partition_index) == 0), None)
    if partition is None:
        raise KcliError(f"DescribeQuorum response has no {METADATA_TOPIC}-0 partition", hint=node)
    check(
        int(partition.error_code), getattr(partition, "error_message", None), what="DescribeQuorum", node=node
    )
    nodes = {
        int(n.node_id): tuple(
            QuorumEndpoint(listener=str(li.name), host=str(li.host), port=int(li.port)) for li in n.listeners
        )
        for n in getattr(response, "nodes", ())
    }
    return QuorumInfo(
        cluster_id=cluster_id,
        leader_id=int(partition.leader_id),
        leader_epoch=int(partition.leader_epoch),
        high_watermark=int(partition.high_watermark),
        voters=tuple(_replica(v) for v in partition.current_voters),
        observers=tuple(_replica(o) for o in partition.observers),
        nodes=nodes,
    )


async def describe(admin: Admin, *, timeout_ms: int | None = None) -> QuorumInfo:
    from kcli.client.admin import Target

    response = await admin.call(
        ApiKey.DESCRIBE_QUORUM,
        _build_describe,
        versions=(0, 2),
        target=Target.CONTROLLER,
        timeout_ms=timeout_ms,
    )
    return quorum_from_response(response, cluster_id=admin.cluster_id)


async def add_controller(admin: Admin, controller: ControllerToAdd) -> None:
    """AddRaftVoter for the controller read from its own config (KIP-853)."""
    from kio.static.primitive import i32, i32Timedelta, u16

    from kcli.client.admin import Target
    from kcli.client.protocol import request_class

    timeout_ms = admin.config.default_api_timeout_ms

    def build(version: int) -> Any:
        cls = request_class("add_raft_voter", version)
        listener = sys.modules[cls.__module__].Listener
        return cls(
            cluster_id=admin.cluster_id,
            timeout=i32Timedelta.parse(timedelta(milliseconds=timeout_ms)),
            voter_id=i32(controller.node_id),
            voter_directory_id=controller.directory_id,
            listeners=tuple(
                listener(name=e.listener, host=e.host, port=u16(e.port)) for e in controller.endpoints
            ),
        )

    key = (controller.node_id, controller.directory_id)
    was_voter = key in await _voter_keys(admin)
    response = await admin.call(
        ApiKey.ADD_RAFT_VOTER, build, versions=(0, 1), target=Target.CONTROLLER, idempotent=False
    )
    code = int(response.error_code)
    if code == DUPLICATE_VOTER and not was_voter and key in await _voter_keys(admin):
        # A first attempt answered REQUEST_TIMED_OUT while its VotersRecord was committing (the
        # controller's step 9) and was retried: the voter this call added is what the retry found.
        return
    check(code, response.error_message, what=f"AddRaftVoter of controller {controller.node_id}")


async def _voter_keys(admin: Admin) -> set[tuple[int, uuid.UUID | None]]:
    """(id, directory id) of every voter of the metadata quorum now."""
    info = await describe(admin)
    return {(voter.replica_id, voter.directory_id) for voter in info.voters}


async def remove_controller(admin: Admin, node_id: int, directory_id: uuid.UUID) -> None:
    from kio.static.primitive import i32

    from kcli.client.admin import Target
    from kcli.client.protocol import request_class

    def build(version: int) -> Any:
        return request_class("remove_raft_voter", version)(
            cluster_id=admin.cluster_id, voter_id=i32(node_id), voter_directory_id=directory_id
        )

    key = (node_id, directory_id)
    was_voter = key in await _voter_keys(admin)
    response = await admin.call(
        ApiKey.REMOVE_RAFT_VOTER, build, versions=(0, 0), target=Target.CONTROLLER, idempotent=False
    )
    code = int(response.error_code)
    if code == VOTER_NOT_FOUND and was_voter and key not in await _voter_keys(admin):
        return  # a timed-out first attempt removed it; its retry found it gone (as for AddRaftVoter)
    check(code, response.error_message, what=f"RemoveRaftVoter of controller {node_id}")


async def watch(
    config: ClientConfig, *, interval_s: float, refresh_timeout_ms: int
) -> AsyncGenerator[QuorumInfo | KcliError, None]:
    """Describe the quorum every `interval_s` seconds until cancelled; failures are yielded, not raised.

    Each refresh, bootstrap included, runs on the client's own deadlines of refresh_timeout_ms, so a
    failed one says what failed (every bootstrap address refusing, say) rather than only that time ran out.
    """
    import dataclasses

    from kcli.client.admin import Admin

    refresh_config = dataclasses.replace(config, default_api_timeout_ms=refresh_timeout_ms)
    backstop_s = refresh_timeout_ms / 1000 + 2.0  # only if the client's own deadlines fail to fire
    admin: Admin | None = None
    try:
        while True:
            item: QuorumInfo | KcliError
            try:
                if admin is None:
                    admin = Admin(refresh_config)
                    await asyncio.wait_for(admin.__aenter__(), backstop_s)
                item = await asyncio.wait_for(describe(admin, timeout_ms=refresh_timeout_ms), backstop_s)
            except KcliError as error:
                if config.recovery_strategy == "none" and admin is not None and admin.description is not None:
                    raise  # a fresh Admin would bootstrap again, which metadata.recovery.strategy=none forbids
                item = error
                await _discard(admin)
                admin = None
            except TimeoutError:
                item = KcliError(f"refresh timed out after {refresh_timeout_ms} ms")
                await _discard(admin)
                admin = None
            yield item
            await asyncio.sleep(interval_s)
    finally:
        await _discard(admin)


async def _discard(admin: Admin | None) -> None:
    if admin is not None:
        # Closing a broken admin must not hide the error being reported.
        with contextlib.suppress(Exception):
            await admin.__aexit__(None, None, None)
