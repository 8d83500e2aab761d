"""AddRaftVoter (80), versions 0-1: make a controller a voter of the metadata quorum (KIP-853).

Behavior:
- Auth: ALTER on the cluster, else CLUSTER_AUTHORIZATION_FAILED.
- ClusterId, when set, must be this cluster's (INCONSISTENT_CLUSTER_ID); kraft.version must be 1
  (UNSUPPORTED_VERSION); an existing voter -> DUPLICATE_VOTER; the node must be a running
  controller of this sandbox whose directory id matches, else INVALID_REQUEST.
- The new voter set is written as a VotersRecord control record.
- Brokers forward it to the active controller in an Envelope (KIP-590).

Version notes: v1 adds AckWhenCommitted.
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import CLUSTER_NAME, AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


def check_cluster(ctx: RequestContext, cluster_id: str | None) -> tuple[int, str | None]:
    """(code, message) for the common voter-change checks (0 when they pass)."""
    if not ctx.authorize(AclOperation.ALTER, ResourceType.CLUSTER, CLUSTER_NAME):
        return ErrorCode.cluster_authorization_failed, "Authorization failed."
    if cluster_id is not None and cluster_id != ctx.cluster.cluster_id:
        return (
            ErrorCode.inconsistent_cluster_id,
            f"The cluster id {cluster_id} does not match {ctx.cluster.cluster_id}.",
        )
    if ctx.cluster.kraft_version < 1:
        return (
            ErrorCode.unsupported_version,
            "Cluster doesn't support adding voter because the kraft.version feature is 0",
        )
    return 0, None


@api(ApiKey.ADD_RAFT_VOTER, (0, 1), forward=True)
async def handle_add_raft_voter(ctx: RequestContext, request: Any) -> Any:
    """Add a voter."""
    code, message = check_cluster(ctx, request.cluster_id)
    cluster = ctx.cluster
    node = cluster.nodes.get(request.voter_id)
    if not code:
        if request.voter_id in cluster.voters:
            code, message = (
                ErrorCode.duplicate_voter,
                f"The voter id {request.voter_id} is already part of the set of voters.",
            )
        elif node is None or node.is_broker or not node.running:
            code, message = (
                ErrorCode.invalid_request,
                f"Node {request.voter_id} is not a running controller of this cluster.",
            )
        elif request.voter_directory_id is not None and request.voter_directory_id != node.directory_id:
            code, message = (
                ErrorCode.invalid_request,
                f"Directory id {request.voter_directory_id} does not match node {request.voter_id}.",
            )
    if not code and node is not None:
        await cluster.change_voters(add=(request.voter_id, node.directory_id))
    return ctx.answer("AddRaftVoterResponse", code, message)
