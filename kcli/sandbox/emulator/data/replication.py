"""A follower replica catching up with its leader, by the rules of Kafka's replica fetcher.

Behavior:
- The follower asks from its log end with the epoch of its last batch. When the leader's log does
  not hold that (offset, epoch) (its end offset for the epoch is lower, or it knows the epoch only
  under a smaller number), the follower truncates to where the two agree (truncateToEndOffset) and
  asks again; a follower whose log end is below the leader's log start starts over there
  (truncateFullyAndStartAt). Then it appends the leader's batches verbatim.
- The follower's log start follows the leader's.
- `budget` bounds the bytes copied in one call (a throttled reassignment copies a little per
  tick); at least one batch is copied when any is missing.
"""

from __future__ import annotations

from kcli.sandbox.emulator.data.partition_log import PartitionLog
from kcli.sandbox.emulator.data.records import headers_in

MAX_ROUNDS = 64  # divergence resolves in a few rounds; more means a bug, not a slow peer
CHUNK_BYTES = 8 * 1024 * 1024
FAR = 2**62


class ReplicationError(Exception):
    """A follower that cannot converge on its leader's log."""


def diverged_at(follower: PartitionLog, leader: PartitionLog) -> int | None:
    """Where the follower must truncate to before it can fetch, or None when its log is a prefix."""
    end = follower.end_offset
    if end <= follower.log_start_offset or not follower.epochs:
        return None
    last = follower.epoch_at(end - 1)
    if last < 0:
        return None
    epoch, leader_end = leader.end_offset_for_epoch(last)
    if epoch == last and leader_end >= end:
        return None
    if epoch < 0 or leader_end < 0:
        return leader.log_start_offset
    if epoch == last:
        return min(leader_end, end)
    return min(follower.end_offset_for_epoch(epoch)[1], leader_end)


def catch_up(follower: PartitionLog, leader: PartitionLog, *, budget: int = FAR) -> tuple[int, int | None]:
    """Copy what the follower lacks (at most about `budget` bytes); (bytes copied, offset truncated
    to when the follower's log had diverged, else None)."""
    truncated: int | None = None
    for _ in range(MAX_ROUNDS):
        cut = diverged_at(follower, leader)
        if cut is None:
            break
        truncated = _truncate(follower, cut, leader)
    else:
        raise ReplicationError(f"{follower.directory} does not converge on {leader.directory}")
    if follower.end_offset < leader.log_start_offset or follower.end_offset > leader.end_offset:
        follower.start_over_at(leader.log_start_offset)
        truncated = leader.log_start_offset
    copied = 0
    while follower.end_offset < leader.end_offset and copied < budget:
        data = leader.read(follower.end_offset, min(CHUNK_BYTES, budget - copied), leader.end_offset)
        if not data:
            break
        follower.append_replicated(data, headers_in(data, check_crc=False))
        copied += len(data)
    follower.advance_log_start(leader.log_start_offset)
    return copied, truncated


def _truncate(follower: PartitionLog, offset: int, leader: PartitionLog) -> int:
    if offset < leader.log_start_offset:
        follower.start_over_at(leader.log_start_offset)
        return leader.log_start_offset
    return follower.truncate_to(offset)
