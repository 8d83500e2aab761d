"""Offset RPCs: partition leaders (Metadata, 3), ListOffsets (2), OffsetFetch (9), OffsetCommit (8),
and Fetch (1) of the record at an offset.

Behavior (as Kafka's Admin client):
- ListOffsets v1-v11 goes to each partition's leader (from Metadata), one request per leader,
  concurrently, isolation READ_UNCOMMITTED (the log end offset is the high watermark). Leadership
  errors (NOT_LEADER_OR_FOLLOWER, LEADER_NOT_AVAILABLE, UNKNOWN_TOPIC_OR_PARTITION, ...) are
  retried after a fresh Metadata until the deadline; other errors are answers for that partition.
  Special timestamps: -1 latest, -2 earliest, -3 max-timestamp (v7), -4 earliest-local (v8),
  -5 latest-tiered (v9), -6 earliest-pending-upload (v11). An offset of -1 means none (a timestamp
  after the last record).
- OffsetFetch v8-v9 asks each coordinator for many groups in one request (KIP-709), every
  partition (topics null); a negative committed offset is no offset.
- OffsetCommit v2-v9 as the Admin client's alterConsumerGroupOffsets: no generation, no member
  (the group must be empty); errors per partition.
- Fetch v4-v12 of a few bytes at an offset (for the age of the record there, `--time-lag`):
  one request per leader, max_wait 0, READ_UNCOMMITTED.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.api.coordinators import Retry, backoff, ms_left, nested, on_coordinators, retry_for
from kcli.client.errors import KafkaError, RequestTimedOut, code_of, error_info
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin
    from kcli.ops.groups.model import CommittedOffset, Node

LATEST, EARLIEST, MAX_TIMESTAMP, EARLIEST_LOCAL, LATEST_TIERED, EARLIEST_PENDING_UPLOAD = (
    -1,
    -2,
    -3,
    -4,
    -5,
    -6,
)
# the ListOffsets version each special timestamp needs
_SPEC_VERSION = {MAX_TIMESTAMP: 7, EARLIEST_LOCAL: 8, LATEST_TIERED: 9, EARLIEST_PENDING_UPLOAD: 11}
UNKNOWN_TOPIC_OR_PARTITION = code_of("UNKNOWN_TOPIC_OR_PARTITION")
_LEADERSHIP = frozenset(
    code_of(name)
    for name in (
        "NOT_LEADER_OR_FOLLOWER",
        "LEADER_NOT_AVAILABLE",
        "FENCED_LEADER_EPOCH",
        "UNKNOWN_LEADER_EPOCH",
        "REPLICA_NOT_AVAILABLE",
        "OFFSET_NOT_AVAILABLE",
        "KAFKA_STORAGE_ERROR",
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Leaders:
    """Each partition's leader (-1: none), every partition of each topic asked, and unknown topics."""

    leader: dict[TopicPartition, int]
    partitions: dict[str, tuple[int, ...]]
    missing: tuple[str, ...]
    internal: frozenset[str] = frozenset()  # the internal topics among them (__consumer_offsets, ...)


@dataclass(frozen=True, slots=True, kw_only=True)
class ListedOffset:
    offset: int  # -1: none (no record at or after the timestamp)
    timestamp: int = -1
    leader_epoch: int | None = None


async def leaders(admin: Admin, topics: Sequence[str] | None) -> Leaders:
    """Metadata v1-v12 of `topics` (None: every topic): leaders, partition numbers, unknown topics."""
    from kcli.client.admin import Target
    from kcli.client.errors import check
    from kcli.client.protocol import make, request_class

    wanted = None if topics is None else list(dict.fromkeys(topics))

    def build(version: int) -> Any:
        cls = request_class("metadata", version)
        (topic_cls,) = nested(cls, "MetadataRequestTopic")
        return make(
            cls,
            topics=None if wanted is None else tuple(make(topic_cls, name=t, topic_id=None) for t in wanted),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
            include_cluster_authorized_operations=False,
        )

    response = await admin.call(ApiKey.METADATA, build, versions=(1, 12), target=Target.ANY)
    leader: dict[TopicPartition, int] = {}
    partitions: dict[str, tuple[int, ...]] = {}
    missing: list[str] = []
    internal: set[str] = set()
    for topic in response.topics:
        name, code = str(topic.name), int(topic.error_code)
        if code == UNKNOWN_TOPIC_OR_PARTITION:
            missing.append(name)
            continue
        check(code, None, what=f"Metadata for topic {name}")
        numbers = sorted(int(p.partition_index) for p in topic.partitions)
        partitions[name] = tuple(numbers)
        if getattr(topic, "is_internal", False):
            internal.add(name)
        for p in topic.partitions:
            leader[TopicPartition(name, int(p.partition_index))] = int(p.leader_id)
    if wanted is not None:
        missing += [t for t in wanted if t not in partitions and t not in missing]
    return Leaders(leader=leader, partitions=partitions, missing=tuple(missing), internal=frozenset(internal))


async def list_offsets(
    admin: Admin,
    specs: Mapping[TopicPartition, int],
    *,
    deadline: float,
    known_leaders: Mapping[TopicPartition, int] | None = None,
) -> dict[TopicPartition, ListedOffset | KcliError]:
    """ListOffsets of each partition at its timestamp spec (LATEST, EARLIEST, ... or epoch ms)."""
    results: dict[TopicPartition, ListedOffset | KcliError] = {}
    pending = dict(specs)
    where = dict(known_leaders) if known_leaders is not None else None
    attempt = 0
    while pending:
        if where is None or any(tp not in where for tp in pending):
            found = await leaders(admin, sorted({tp.topic for tp in pending}))
            where = found.leader
        by_leader: dict[int, list[TopicPartition]] = {}
        for tp in pending:
            node = where.get(tp, None)
            if node is None:
                results[tp] = KafkaError(UNKNOWN_TOPIC_OR_PARTITION, None, what=f"ListOffsets of {tp}")
            elif node < 0:
                by_leader.setdefault(-1, []).append(tp)
            else:
                by_leader.setdefault(node, []).append(tp)
        leaderless = by_leader.pop(-1, [])
        answers = await asyncio.gather(
            *(_list_at(admin, node, tps, pending, deadline) for node, tps in by_leader.items())
        )
        retry = {tp: pending[tp] for tp in leaderless}
        for answer in answers:
            for tp, value in answer.items():
                if isinstance(value, Retry):
                    retry[tp] = pending[tp]
                else:
                    results[tp] = value
        for tp in pending:
            if tp not in retry and tp not in results:
                results[tp] = KafkaError(UNKNOWN_TOPIC_OR_PARTITION, None, what=f"ListOffsets of {tp}")
        pending, where = retry, None
        attempt += 1
        if pending and not await backoff(admin, attempt, deadline):
            for tp in pending:
                results[tp] = RequestTimedOut(
                    f"ListOffsets of {tp}: the partition has no leader that answers"
                )
            break
    return results


async def _list_at(
    admin: Admin,
    node: int,
    partitions: list[TopicPartition],
    specs: Mapping[TopicPartition, int],
    deadline: float,
) -> dict[TopicPartition, ListedOffset | KcliError | Retry]:
    from kio.static.primitive import i8, i32, i64

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    lowest = max([1, *(_SPEC_VERSION.get(specs[tp], 1) for tp in partitions)])
    grouped: dict[str, list[TopicPartition]] = {}
    for tp in partitions:
        grouped.setdefault(tp.topic, []).append(tp)

    def build(version: int) -> Any:
        cls = request_class("list_offsets", version)
        topic_cls, partition_cls = nested(cls, "ListOffsetsTopic", "ListOffsetsPartition")
        topics = tuple(
            topic_cls(
                name=topic,
                partitions=tuple(
                    make(
                        partition_cls,
                        partition_index=i32(tp.partition),
                        current_leader_epoch=i32(-1),
                        timestamp=i64(specs[tp]),
                        max_num_offsets=i32(1),
                    )
                    for tp in tps
                ),
            )
            for topic, tps in grouped.items()
        )
        return make(
            cls,
            replica_id=i32(-1),
            isolation_level=i8(0),
            topics=topics,
            timeout=request_timeout(ms_left(deadline)),
        )

    try:
        response = await admin.call(
            ApiKey.LIST_OFFSETS,
            build,
            versions=(lowest, 11),
            target=Target.node(node),
            timeout_ms=ms_left(deadline),
        )
    except KcliError as error:
        return dict.fromkeys(partitions, error)
    out: dict[TopicPartition, ListedOffset | KcliError | Retry] = {}
    for topic in response.topics:
        for p in topic.partitions:
            tp = TopicPartition(str(topic.name), int(p.partition_index))
            code = int(p.error_code)
            if code in _LEADERSHIP or (code != 0 and error_info(code).retriable):
                out[tp] = Retry(True)
            elif code:
                out[tp] = KafkaError(code, None, what=f"ListOffsets of {tp}")
            else:
                epoch = int(getattr(p, "leader_epoch", -1))
                out[tp] = ListedOffset(
                    offset=int(p.offset),
                    timestamp=int(p.timestamp),
                    leader_epoch=epoch if epoch >= 0 else None,
                )
    return out


async def committed_offsets(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, dict[TopicPartition, CommittedOffset] | KcliError]:
    """Every committed offset of each group (OffsetFetch), or the group's error."""
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("offset_fetch", version)
            (group_cls,) = nested(cls, "OffsetFetchRequestGroup")
            groups = tuple(make(group_cls, group_id=g, member_id=None, topics=None) for g in batch)
            return make(cls, groups=groups, require_stable=False)

        response = await admin.call(
            ApiKey.OFFSET_FETCH, build, versions=(8, 9), target=Target.node(node.node_id)
        )
        answers: dict[str, Any] = {}
        for group in response.groups:
            group_id, code = str(group.group_id), int(group.error_code)
            retry = retry_for(code)
            if retry is not None:
                answers[group_id] = retry
            elif code:
                answers[group_id] = KafkaError(code, None, what=f"fetching the offsets of group {group_id}")
            else:
                answers[group_id] = _committed(group)
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)


def _committed(group: Any) -> dict[TopicPartition, CommittedOffset]:
    from kcli.ops.groups.model import CommittedOffset  # the group model: only where offsets are committed

    out: dict[TopicPartition, CommittedOffset] = {}
    for topic in group.topics:
        for p in topic.partitions:
            offset = int(p.committed_offset)
            if int(p.error_code) != 0 or offset < 0:
                continue
            epoch = int(p.committed_leader_epoch)
            out[TopicPartition(str(topic.name), int(p.partition_index))] = CommittedOffset(
                offset=offset, leader_epoch=epoch if epoch >= 0 else None, metadata=str(p.metadata or "")
            )
    return out


async def commit_offsets(
    admin: Admin, group_id: str, offsets: Mapping[TopicPartition, int], *, deadline: float
) -> dict[TopicPartition, KcliError | None]:
    """OffsetCommit of `offsets` for an empty group: each partition's error, or None."""
    from kio.static.primitive import i32, i64

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    grouped: dict[str, list[TopicPartition]] = {}
    for tp in offsets:
        grouped.setdefault(tp.topic, []).append(tp)

    async def send(node: Node, batch: list[str]) -> dict[str, Any]:
        def build(version: int) -> Any:
            cls = request_class("offset_commit", version)
            topic_cls, partition_cls = nested(cls, "OffsetCommitRequestTopic", "OffsetCommitRequestPartition")
            topics = tuple(
                topic_cls(
                    name=topic,
                    partitions=tuple(
                        make(
                            partition_cls,
                            partition_index=i32(tp.partition),
                            committed_offset=i64(offsets[tp]),
                            committed_leader_epoch=i32(-1),
                            committed_metadata="",
                            commit_timestamp=i64(-1),
                        )
                        for tp in tps
                    ),
                )
                for topic, tps in grouped.items()
            )
            return make(
                cls,
                group_id=group_id,
                generation_id_or_member_epoch=i32(-1),
                generation_id=i32(-1),
                member_id="",
                group_instance_id=None,
                retention_time=i64(-1),
                topics=topics,
            )

        response = await admin.call(
            ApiKey.OFFSET_COMMIT, build, versions=(2, 9), target=Target.node(node.node_id), idempotent=False
        )
        codes = {
            TopicPartition(str(t.name), int(p.partition_index)): int(p.error_code)
            for t in response.topics
            for p in t.partitions
        }
        retry = next((retry_for(c) for c in codes.values() if retry_for(c) is not None), None)
        return {group_id: retry if retry is not None else codes}

    answered = (await on_coordinators(admin, [group_id], send, deadline=deadline))[group_id]
    if isinstance(answered, KcliError):
        return dict.fromkeys(offsets, answered)
    return {
        tp: KafkaError(code, None, what=f"committing the offset of {tp} for group {group_id}")
        if code
        else None
        for tp, code in answered.items()
    }


async def fetch_at(
    admin: Admin, positions: Mapping[TopicPartition, int], *, deadline: float, max_bytes: int = 4096
) -> dict[TopicPartition, bytes | KcliError]:
    """The record batches a leader returns from each partition's offset (a few KiB: the first batch)."""
    found = await leaders(admin, sorted({tp.topic for tp in positions}))
    by_leader: dict[int, list[TopicPartition]] = {}
    out: dict[TopicPartition, bytes | KcliError] = {}
    for tp in positions:
        node = found.leader.get(tp, -1)
        if node < 0:
            out[tp] = KafkaError(code_of("LEADER_NOT_AVAILABLE"), None, what=f"Fetch of {tp}")
        else:
            by_leader.setdefault(node, []).append(tp)
    answers = await asyncio.gather(
        *(_fetch_from(admin, node, tps, positions, max_bytes, deadline) for node, tps in by_leader.items())
    )
    for answer in answers:
        out.update(answer)
    return out


async def _fetch_from(
    admin: Admin,
    node: int,
    partitions: list[TopicPartition],
    positions: Mapping[TopicPartition, int],
    max_bytes: int,
    deadline: float,
) -> dict[TopicPartition, bytes | KcliError]:
    import datetime

    from kio.static.primitive import i8, i32, i32Timedelta, i64

    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    grouped: dict[str, list[TopicPartition]] = {}
    for tp in partitions:
        grouped.setdefault(tp.topic, []).append(tp)

    def build(version: int) -> Any:
        cls = request_class("fetch", version)
        topic_cls, partition_cls = nested(cls, "FetchTopic", "FetchPartition")
        topics = tuple(
            topic_cls(
                topic=topic,
                partitions=tuple(
                    make(
                        partition_cls,
                        partition=i32(tp.partition),
                        current_leader_epoch=i32(-1),
                        fetch_offset=i64(positions[tp]),
                        last_fetched_epoch=i32(-1),
                        log_start_offset=i64(-1),
                        partition_max_bytes=i32(max_bytes),
                    )
                    for tp in tps
                ),
            )
            for topic, tps in grouped.items()
        )
        return make(
            cls,
            cluster_id=None,
            replica_id=i32(-1),
            max_wait=i32Timedelta.parse(datetime.timedelta(0)),
            min_bytes=i32(0),
            max_bytes=i32(max_bytes * len(partitions)),
            isolation_level=i8(0),
            session_id=i32(0),
            session_epoch=i32(-1),
            topics=topics,
            forgotten_topics_data=(),
            rack_id="",
        )

    try:
        response = await admin.call(
            ApiKey.FETCH, build, versions=(4, 12), target=Target.node(node), timeout_ms=ms_left(deadline)
        )
    except KcliError as error:
        return dict.fromkeys(partitions, error)
    out: dict[TopicPartition, bytes | KcliError] = {}
    for topic in response.responses:
        for p in topic.partitions:
            tp = TopicPartition(str(topic.topic), int(p.partition_index))
            code = int(p.error_code)
            out[tp] = KafkaError(code, None, what=f"Fetch of {tp}") if code else bytes(p.records or b"")
    return out


def request_timeout(ms: int) -> Any:
    import datetime

    from kio.static.primitive import i32Timedelta

    return i32Timedelta.parse(datetime.timedelta(milliseconds=min(ms, 2**31 - 1)))
