"""RemoveRaftVoter (81), version 0: drop a voter from the metadata quorum (KIP-853).

Behavior:
- Auth, ClusterId and kraft.version as AddRaftVoter.
- An id (and directory id) not in the voter set -> VOTER_NOT_FOUND; the last voter cannot be
  removed (INVALID_REQUEST). Removing the active controller hands leadership to another voter.
- The new voter set is written as a VotersRecord control record.
- Brokers forward it to the active controller in an Envelope (KIP-590).
"""

from __future__ import annotations

from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import ApiKey
from kcli.metadata.uuids import kafka_uuid
from kcli.sandbox.emulator.apis.k80_add_raft_voter import check_cluster
from kcli.sandbox.emulator.context import RequestContext
from kcli.sandbox.emulator.registry import api


@api(ApiKey.REMOVE_RAFT_VOTER, (0, 0), forward=True)
async def handle_remove_raft_voter(ctx: RequestContext, request: Any) -> Any:
    """Remove a voter."""
    code, message = check_cluster(ctx, request.cluster_id)
    cluster = ctx.cluster
    directory = cluster.voters.get(request.voter_id)
    if not code:
        # Id and directory id must both match, as VoterSet.removeVoter compares whole ReplicaKeys:
        # a zero directory id (None here) matches no voter that has one.
        if directory is None or request.voter_directory_id != directory:
            code, message = (
                ErrorCode.voter_not_found,
                f"The voter id {request.voter_id} with directory id {kafka_uuid(request.voter_directory_id)} is not part of the set of voters.",
            )
        elif len(cluster.voters) == 1:
            code, message = ErrorCode.invalid_request, "Cannot remove the last voter of the quorum."
    if not code:
        await cluster.change_voters(remove=request.voter_id)
    return ctx.answer("RemoveRaftVoterResponse", code, message)
