"""Records of partitions: their offset range (ListOffsets), and deleting records below an offset (DeleteRecords).

Behavior:
- both go to each partition's leader (Metadata of the topics first), one request per leader,
  concurrently; a partition without a leader, of an unknown topic, or whose leader fails, is
  returned as that partition's error, not raised;
- offsets: the log start offset (timestamp -2, EARLIEST) and the high watermark (-1, LATEST,
  READ_UNCOMMITTED): the records DeleteRecords can delete lie between them;
- DeleteRecords is sent once per leader, never retried after sending.
Version notes: ListOffsets v1-v11 (v0's answer is a list of offsets), DeleteRecords v0-v2.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kcli.client.errors import code_of, error_info
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.reassign.model import TopicPartition

if TYPE_CHECKING:
    from kcli.client.admin import Admin

EARLIEST, LATEST = -2, -1
UNKNOWN_TOPIC_OR_PARTITION = code_of("UNKNOWN_TOPIC_OR_PARTITION")
LEADER_NOT_AVAILABLE = code_of("LEADER_NOT_AVAILABLE")


@dataclass(frozen=True, slots=True, kw_only=True)
class PartitionAnswer:
    """One partition's answer: a value (offset or low watermark), or an error code and text."""

    partition: TopicPartition
    value: int = -1
    error_code: int = 0
    error: str | None = None  # why, in one line (a leader that could not be reached included)


async def leaders(admin: Admin, partitions: Sequence[TopicPartition]) -> dict[TopicPartition, int]:
    """The leader of each of `partitions` the cluster has (-1: none now); unknown ones are left out."""
    from kcli.client.admin import Target
    from kcli.client.api.wire import make, nested, request_cls

    topics = sorted({tp.topic for tp in partitions})

    def build(version: int) -> Any:
        cls = request_cls("metadata", version)
        topic_cls = nested(cls, "MetadataRequestTopic")
        return make(
            cls,
            topics=tuple(make(topic_cls, name=t, topic_id=None) for t in topics),
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=False,
            include_cluster_authorized_operations=False,
        )

    response = await admin.call(ApiKey.METADATA, build, versions=(1, 12), target=Target.ANY)
    found: dict[TopicPartition, int] = {}
    for topic in response.topics:
        for p in topic.partitions if not int(topic.error_code) else ():
            found[TopicPartition(str(topic.name), int(p.partition_index))] = int(p.leader_id)
    return {tp: found[tp] for tp in partitions if tp in found}


def _grouped(partitions: Sequence[TopicPartition]) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for tp in partitions:
        out.setdefault(tp.topic, []).append(tp.partition)
    return out


async def _per_leader(
    admin: Admin,
    partitions: Sequence[TopicPartition],
    send: Any,
) -> dict[TopicPartition, PartitionAnswer]:
    """Send `send(leader, partitions)` to each leader concurrently; partitions without one fail."""
    from kcli.client.errors import error_info

    led = await leaders(admin, partitions)
    out: dict[TopicPartition, PartitionAnswer] = {}
    by_leader: dict[int, list[TopicPartition]] = {}
    for tp in partitions:
        leader = led.get(tp)
        if leader is None or leader < 0:
            code = UNKNOWN_TOPIC_OR_PARTITION if leader is None else LEADER_NOT_AVAILABLE
            out[tp] = PartitionAnswer(partition=tp, error_code=code, error=error_info(code).name)
        else:
            by_leader.setdefault(leader, []).append(tp)

    async def one(leader: int, mine: list[TopicPartition]) -> None:
        try:
            out.update(await send(leader, mine))
        except KcliError as error:
            out.update({tp: PartitionAnswer(partition=tp, error_code=-1, error=error.line()) for tp in mine})

    await asyncio.gather(*(one(leader, mine) for leader, mine in by_leader.items()))
    return {tp: out[tp] for tp in partitions}


async def list_offsets(
    admin: Admin, partitions: Sequence[TopicPartition], timestamp: int
) -> dict[TopicPartition, PartitionAnswer]:
    """The offset of each partition at `timestamp` (EARLIEST: the log start, LATEST: the high watermark)."""
    from kcli.client.admin import Target
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls

    async def send(leader: int, mine: list[TopicPartition]) -> dict[TopicPartition, PartitionAnswer]:
        def build(version: int) -> Any:
            cls = request_cls("list_offsets", version)
            topic_cls, partition_cls = nested(cls, "ListOffsetsTopic"), nested(cls, "ListOffsetsPartition")
            return make(
                cls,
                replica_id=-1,
                isolation_level=0,
                topics=tuple(
                    make(
                        topic_cls,
                        name=t,
                        partitions=tuple(
                            make(partition_cls, partition_index=p, timestamp=timestamp) for p in ps
                        ),
                    )
                    for t, ps in _grouped(mine).items()
                ),
                timeout=timeout_value(30000),
            )

        response = await admin.call(ApiKey.LIST_OFFSETS, build, versions=(1, 11), target=Target.node(leader))
        return _answers(response, "offset")

    return await _per_leader(admin, partitions, send)


async def delete_records(
    admin: Admin, offsets: Mapping[TopicPartition, int], *, timeout_ms: int = 30000
) -> dict[TopicPartition, PartitionAnswer]:
    """DeleteRecords below each offset (-1: the high watermark); the new low watermark of each."""
    from kcli.client.admin import Target
    from kcli.client.api.reassign import timeout_value
    from kcli.client.api.wire import make, nested, request_cls

    async def send(leader: int, mine: list[TopicPartition]) -> dict[TopicPartition, PartitionAnswer]:
        def build(version: int) -> Any:
            cls = request_cls("delete_records", version)
            topic_cls, partition_cls = (
                nested(cls, "DeleteRecordsTopic"),
                nested(cls, "DeleteRecordsPartition"),
            )
            return make(
                cls,
                topics=tuple(
                    make(
                        topic_cls,
                        name=t,
                        partitions=tuple(
                            make(partition_cls, partition_index=p, offset=offsets[TopicPartition(t, p)])
                            for p in ps
                        ),
                    )
                    for t, ps in _grouped(mine).items()
                ),
                timeout=timeout_value(timeout_ms),
            )

        response = await admin.call(
            ApiKey.DELETE_RECORDS, build, versions=(0, 2), target=Target.node(leader), idempotent=False
        )
        return _answers(response, "low_watermark")

    return await _per_leader(admin, list(offsets), send)


def _answers(response: Any, field: str) -> dict[TopicPartition, PartitionAnswer]:
    """Each partition's answer in a response of topics and their partitions: its `field`, or its error."""
    answers = {}
    for topic in response.topics:
        for p in topic.partitions:
            tp = TopicPartition(str(topic.name), int(p.partition_index))
            code = int(p.error_code)
            answers[tp] = PartitionAnswer(
                partition=tp,
                value=int(getattr(p, field)),
                error_code=code,
                error=error_info(code).name if code else None,
            )
    return answers
