"""Fetch (1), versions 4-18 (brokers only): consumers read the partitions they lead, in fetch sessions.

Behavior:
- Auth: READ on each topic, else TOPIC_AUTHORIZATION_FAILED for its partitions.
- Fetch sessions (KIP-227) as kcli.sandbox.emulator.data.fetch_sessions keeps them: a session error
  is the whole response's error, with no partitions; an incremental response holds only the
  partitions with something to say.
- Each partition reads whole batches from FetchOffset up to the high watermark (read_committed: the
  last stable offset, with the aborted transactions of what is returned), at most its
  PartitionMaxBytes and the request's MaxBytes in all; the first partition with data may exceed
  them by one batch (KIP-74).
- The answer waits until MinBytes are there or MaxWait passes (a new append wakes it).
- Errors per partition: UNKNOWN_TOPIC_OR_PARTITION (v13+: UNKNOWN_TOPIC_ID), NOT_LEADER_OR_FOLLOWER
  with the current leader (KIP-951), OFFSET_OUT_OF_RANGE, FENCED_LEADER_EPOCH / UNKNOWN_LEADER_EPOCH;
  offsets of an errored partition are -1.
- LastFetchedEpoch (v12+) the leader's log does not hold up to FetchOffset is answered with the
  DivergingEpoch to truncate to, and no records.

Version notes: v5 log start offset; v7 sessions; v9 CurrentLeaderEpoch; v11 rack id; v12 flexible,
LastFetchedEpoch; v13 topic ids; v16 NodeEndpoints.
"""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from dataclasses import dataclass, field
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.kafka import AclOperation, ApiKey, ResourceType
from kcli.sandbox.emulator import partition_answers as pa
from kcli.sandbox.emulator.context import ZERO, RequestContext
from kcli.sandbox.emulator.data.fetch_sessions import Answered, PartitionKey, Wanted
from kcli.sandbox.emulator.data.interface import Isolation, LogError
from kcli.sandbox.emulator.registry import Listener, api


@dataclass(slots=True)
class Read:
    """One partition's answer."""

    key: PartitionKey
    topic: str | None
    partition: int
    error: int = 0
    high_watermark: int = -1
    last_stable_offset: int = -1
    log_start_offset: int = -1
    records: bytes = b""
    aborted: list[tuple[int, int]] | None = None
    diverging: tuple[int, int] | None = None
    leader: tuple[int, int] | None = None
    extra: dict[str, Any] = field(default_factory=dict)


@api(ApiKey.FETCH, (4, 18), listeners=Listener.BROKER)
async def handle_fetch(ctx: RequestContext, request: Any) -> Any:
    """Read records."""
    by_id = ctx.version >= 13
    names: dict[str, tuple[str | None, uuid.UUID | None]] = {}
    wanted: list[tuple[PartitionKey, Wanted]] = []
    for topic in request.topics:
        key = str(topic.topic_id) if by_id else topic.topic
        names[key] = (None, topic.topic_id) if by_id else (topic.topic, None)
        for p in topic.partitions:
            wanted.append(
                (
                    (key, int(p.partition)),
                    Wanted(
                        fetch_offset=int(p.fetch_offset),
                        max_bytes=int(p.partition_max_bytes),
                        current_leader_epoch=int(getattr(p, "current_leader_epoch", -1)),
                        last_fetched_epoch=int(getattr(p, "last_fetched_epoch", -1)),
                    ),
                )
            )
    forgotten = [
        (str(f.topic_id) if by_id else f.topic, int(index))
        for f in getattr(request, "forgotten_topics_data", ()) or ()
        for index in f.partitions
    ]
    session_id = int(getattr(request, "session_id", 0))
    epoch = int(getattr(request, "session_epoch", -1))
    context = (
        pa.plane(ctx).fetch_sessions(ctx.node.node_id).context(session_id, epoch, wanted, forgotten)
        if ctx.version >= 7
        else None
    )
    if context is not None and context.error:
        return ctx.r(
            "FetchResponse", throttle_time=ZERO, error_code=context.error, session_id=0, responses=()
        )
    partitions = context.partitions if context is not None else wanted
    isolation = Isolation(int(getattr(request, "isolation_level", 0)))
    reads = await _wait_for_data(ctx, request, partitions, names, isolation)
    keep = (
        context.finish(
            Answered(
                r.key, r.error, r.high_watermark, r.log_start_offset, bool(r.records), r.diverging is not None
            )
            for r in reads
        )
        if context is not None
        else {r.key for r in reads}
    )
    return _response(ctx, [r for r in reads if r.key in keep], by_id, context.session_id if context else 0)


async def _wait_for_data(
    ctx: RequestContext,
    request: Any,
    partitions: list[tuple[PartitionKey, Wanted]],
    names: dict[str, tuple[str | None, uuid.UUID | None]],
    isolation: Isolation,
) -> list[Read]:
    logs = pa.plane(ctx)
    loop = asyncio.get_running_loop()
    max_wait = request.max_wait.total_seconds()
    deadline = loop.time() + max(0.0, max_wait)
    while True:
        changed = logs.changed()
        reads = _read_all(ctx, request, partitions, names, isolation)
        size = sum(len(r.records) for r in reads)
        left = deadline - loop.time()
        if size >= int(request.min_bytes) or left <= 0 or any(r.error or r.diverging for r in reads):
            return reads
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(changed.wait(), left)


def _read_all(
    ctx: RequestContext,
    request: Any,
    partitions: list[tuple[PartitionKey, Wanted]],
    names: dict[str, tuple[str | None, uuid.UUID | None]],
    isolation: Isolation,
) -> list[Read]:
    remaining = int(getattr(request, "max_bytes", 2**31 - 1))
    first = True
    out = []
    for key, want in partitions:
        name, topic_id = names.get(key[0], (None, None)) if key[0] in names else _from_key(ctx, key[0])
        read = _read_one(ctx, key, name, topic_id, want, isolation, min(want.max_bytes, remaining), first)
        if read.records:
            first = False
            remaining = max(0, remaining - len(read.records))
        out.append(read)
    return out


def _from_key(ctx: RequestContext, key: str) -> tuple[str | None, uuid.UUID | None]:
    """A session's partition the request did not name: the key is its topic name, or its id's text."""
    with contextlib.suppress(ValueError):
        return None, uuid.UUID(key)
    return key, None


def _read_one(
    ctx: RequestContext,
    key: PartitionKey,
    name: str | None,
    topic_id: uuid.UUID | None,
    want: Wanted,
    isolation: Isolation,
    limit: int,
    first: bool,
) -> Read:
    topic, missing = pa.topic_of(ctx, name, topic_id)
    read = Read(key=key, topic=topic or name, partition=key[1])
    if topic is None:
        read.error, read.aborted = missing, []
        return read
    if not ctx.authorize(AclOperation.READ, ResourceType.TOPIC, topic):
        read.error, read.aborted = ErrorCode.topic_authorization_failed, []
        return read
    logs = pa.plane(ctx)
    node = ctx.node.node_id
    followers = ctx.version >= 11  # a consumer with a rack id may read from followers (KIP-392)
    fenced = pa.fenced(ctx, topic, key[1], want.current_leader_epoch)
    try:
        if fenced:
            raise LogError(fenced, "")
        if want.last_fetched_epoch >= 0:
            diverging = _diverging(ctx, topic, key[1], want, node, followers)
            if diverging is not None:
                read.high_watermark, read.last_stable_offset, read.log_start_offset, read.diverging = (
                    diverging
                )
                return read
        budget = max(limit, 1) if limit > 0 or first else 1
        result = logs.read(
            topic, key[1], want.fetch_offset, budget, isolation, node=node, from_follower=followers
        )
    except LogError as error:
        read.error = error.code
        read.aborted = None  # a read error carries null; an unknown or refused topic an empty list
        if error.code in (ErrorCode.not_leader_or_follower, ErrorCode.fenced_leader_epoch):
            read.leader = pa.current_leader(ctx, topic, key[1])
        return read
    read.high_watermark = result.offsets.high_watermark
    read.last_stable_offset = result.offsets.last_stable_offset
    read.log_start_offset = result.offsets.log_start_offset
    records = result.records
    if records and len(records) > limit and not first:
        records = b""  # only the first partition with data may pass the limits (KIP-74)
    read.records = records
    if isolation is Isolation.READ_COMMITTED:
        read.aborted = [(a.producer_id, a.first_offset) for a in result.aborted] if records else []
    return read


def _diverging(
    ctx: RequestContext, topic: str, partition: int, want: Wanted, node: int, followers: bool
) -> tuple[int, int, int, tuple[int, int]] | None:
    """(high watermark, last stable offset, log start, (epoch, end offset)) when the fetcher's last
    fetched epoch is not in the leader's log up to its fetch offset (Kafka's Partition.readRecords);
    OFFSET_OUT_OF_RANGE when the leader cannot place that epoch or the offset is below its log start."""
    logs = pa.plane(ctx)
    epoch, end = logs.end_offset_for_epoch(topic, partition, want.last_fetched_epoch)
    offsets = logs.offsets(topic, partition, node=node, from_follower=followers)
    if epoch < 0 or end < 0:
        raise LogError(
            ErrorCode.offset_out_of_range,
            f"Could not determine the end offset of the last fetched epoch Optional[{want.last_fetched_epoch}] "
            "from the request",
        )
    if want.fetch_offset < offsets.log_start_offset:
        raise LogError(ErrorCode.offset_out_of_range, "below the log start")
    if epoch < want.last_fetched_epoch or end < want.fetch_offset:
        return offsets.high_watermark, offsets.last_stable_offset, offsets.log_start_offset, (epoch, end)
    return None


def _response(ctx: RequestContext, reads: list[Read], by_id: bool, session_id: int) -> Any:
    topics: dict[str, list[Any]] = {}
    order: list[tuple[str, Read]] = []
    leaders: list[int] = []
    for read in reads:
        if read.key[0] not in topics:
            topics[read.key[0]] = []
            order.append((read.key[0], read))
        values: dict[str, Any] = {
            "partition_index": read.partition,
            "error_code": read.error,
            "high_watermark": read.high_watermark,
            "last_stable_offset": read.last_stable_offset,
            "log_start_offset": read.log_start_offset,
            "aborted_transactions": None
            if read.aborted is None
            else tuple(ctx.r("AbortedTransaction", producer_id=p, first_offset=o) for p, o in read.aborted),
            "preferred_read_replica": -1,
            "records": read.records,
        }
        if read.diverging is not None:
            values["diverging_epoch"] = ctx.r(
                "EpochEndOffset", epoch=read.diverging[0], end_offset=read.diverging[1]
            )
        if read.leader is not None and ctx.version >= 12:
            leaders.append(read.leader[0])
            values["current_leader"] = ctx.r(
                "LeaderIdAndEpoch", leader_id=read.leader[0], leader_epoch=read.leader[1]
            )
        topics[read.key[0]].append(ctx.r("PartitionData", **values))
    responses = tuple(
        ctx.r(
            "FetchableTopicResponse",
            topic=None if by_id else (read.topic or key),
            topic_id=uuid.UUID(key) if by_id else None,
            partitions=tuple(topics[key]),
        )
        for key, read in order
    )
    return ctx.r(
        "FetchResponse",
        throttle_time=ZERO,
        error_code=0,
        session_id=session_id,
        responses=responses,
        node_endpoints=pa.node_endpoints(ctx, "NodeEndpoint", leaders) if ctx.version >= 16 else (),
    )
