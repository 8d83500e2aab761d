"""The group coordinator service: which partition holds a group, and the checks before its shard runs.

Behavior (Kafka 4.4's GroupCoordinatorService):
- A group lives in __consumer_offsets partition abs(groupId.hashCode()) % offsets.topic.num.partitions
  (Java's String.hashCode over UTF-16 code units).
- JoinGroup, SyncGroup, Heartbeat and LeaveGroup with an empty group id are INVALID_GROUP_ID;
  JoinGroup's session timeout must lie within group.min/max.session.timeout.ms (INVALID_SESSION_TIMEOUT).
- A heartbeat of a group still loading answers NONE; LeaveGroup of an unknown group answers
  UNKNOWN_MEMBER_ID per member.
- Every offsets.retention.check.interval.ms the offsets past offsets.retention.minutes go, and the
  empty groups left with none (tombstones in their partitions).
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import Callable
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.ops.java_order import string_hash
from kcli.sandbox.emulator.data.interface import PartitionLogs
from kcli.sandbox.emulator.groups.classic import JoinAnswer, SyncAnswer
from kcli.sandbox.emulator.groups.classic_ops import JoinRequest, SyncRequest
from kcli.sandbox.emulator.groups.consumer import ConsumerGroup
from kcli.sandbox.emulator.groups.consumer_ops import HeartbeatAnswer, HeartbeatRequest, validate_heartbeat
from kcli.sandbox.emulator.groups.model import CoordinatorError, Reply, Result, TopicsView
from kcli.sandbox.emulator.groups.offsets import FetchedPartition
from kcli.sandbox.emulator.groups.runtime import LoopTimer, Producer, Runtime
from kcli.sandbox.emulator.groups.settings import GroupSettings
from kcli.sandbox.emulator.groups.shard import CommitRequest, DescribedGroup, GroupShard, ListedGroup

E = ErrorCode
OFFSETS_TOPIC = "__consumer_offsets"
log = logging.getLogger("kcli.sandbox")


def partition_for(key: str, partitions: int) -> int:
    """Utils.abs(key.hashCode()) % partitions (Utils.abs maps Integer.MIN_VALUE to 0)."""
    hashed = string_hash(key)
    return (0 if hashed == -(1 << 31) else abs(hashed)) % partitions


class GroupCoordinator:
    """Every group shard of one emulated cluster, over its __consumer_offsets partitions."""

    def __init__(
        self,
        logs: Callable[[], PartitionLogs],
        topics: TopicsView,
        settings: Callable[[], GroupSettings],
        *,
        clock: Any = None,
    ) -> None:
        self.settings = settings
        self.topics = topics
        self.runtime: Runtime[GroupShard] = Runtime(OFFSETS_TOPIC, logs, self._shard, clock=clock)
        self.runtime.on_load = lambda partition, shard: self._start_cleanup()
        self._cleanup: asyncio.Task[None] | None = None

    def _shard(self, partition: int, timer: LoopTimer) -> GroupShard:
        return GroupShard(
            partition, timer=timer, clock=self.runtime.clock, settings=self.settings, topics=self.topics
        )

    def partition_for(self, group_id: str) -> int:
        return partition_for(group_id, self.settings().offsets_topic_partitions)

    # ---------------------------------------------------------------- classic groups

    async def join(self, request: JoinRequest) -> JoinAnswer:
        if not request.group_id:
            return JoinAnswer(error=E.invalid_group_id, member_id=request.member_id)
        settings = self.settings()
        if not (
            settings.classic_min_session_timeout_ms
            <= request.session_timeout_ms
            <= settings.classic_max_session_timeout_ms
        ):
            return JoinAnswer(error=E.invalid_session_timeout, member_id=request.member_id)
        try:
            reply: Reply[JoinAnswer] = await self.runtime.write(
                self.partition_for(request.group_id), lambda shard: shard.classic.join(request)
            )
        except CoordinatorError as error:
            return JoinAnswer(error=error.code, member_id=request.member_id)
        return await _settled(reply)

    async def sync(self, request: SyncRequest) -> SyncAnswer:
        if not request.group_id:
            return SyncAnswer(error=E.invalid_group_id)
        try:
            reply: Reply[SyncAnswer] = await self.runtime.write(
                self.partition_for(request.group_id), lambda shard: shard.classic.sync(request)
            )
        except CoordinatorError as error:
            return SyncAnswer(error=error.code)
        return await _settled(reply)

    async def heartbeat(
        self, group_id: str, member_id: str, instance_id: str | None, generation: int
    ) -> ErrorCode:
        if not group_id:
            return E.invalid_group_id
        partition = self.partition_for(group_id)
        try:
            return self.runtime.read(
                partition, lambda shard: shard.classic.heartbeat(group_id, member_id, instance_id, generation)
            )
        except CoordinatorError as error:
            return E.none if error.code is E.coordinator_load_in_progress else error.code

    async def leave(
        self, group_id: str, members: list[tuple[str, str | None]]
    ) -> tuple[ErrorCode, list[tuple[str, str | None, ErrorCode]]]:
        if not group_id:
            return E.invalid_group_id, []
        try:
            answers = await self.runtime.write(
                self.partition_for(group_id), lambda shard: shard.classic.leave(group_id, members)
            )
        except CoordinatorError as error:
            if error.code is E.unknown_member_id:
                return E.none, [(m, i, E.unknown_member_id) for m, i in members]
            return error.code, []
        return E.none, answers

    # ---------------------------------------------------------------- offsets

    async def commit(
        self, request: CommitRequest
    ) -> list[tuple[str, uuid.UUID, list[tuple[int, ErrorCode]]]]:
        """OffsetCommit or TxnOffsetCommit: per-partition errors (CoordinatorError: the whole request)."""
        producer = None
        if request.producer_id != -1:
            producer = Producer(request.producer_id, request.producer_epoch)
        return await self.runtime.write(
            self.partition_for(request.group_id), lambda shard: shard.commit(request), producer=producer
        )

    def fetch(
        self,
        group_id: str,
        topics: list[tuple[str, uuid.UUID, list[int]]] | None,
        *,
        require_stable: bool,
        member_id: str | None = None,
        member_epoch: int = -1,
    ) -> list[tuple[str, list[FetchedPartition]]]:
        return self.runtime.read(
            self.partition_for(group_id),
            lambda shard: shard.fetch(
                group_id,
                topics,
                require_stable=require_stable,
                member_id=member_id,
                member_epoch=member_epoch,
            ),
        )

    async def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> list[tuple[str, list[tuple[int, ErrorCode]]]]:
        return await self.runtime.write(
            self.partition_for(group_id), lambda shard: shard.delete_offsets(group_id, topics)
        )

    async def complete_transaction(
        self,
        partition: int,
        *,
        producer_id: int,
        producer_epoch: int,
        coordinator_epoch: int,
        commit: bool,
        transaction_version: int,
    ) -> None:
        await self.runtime.complete_transaction(
            partition,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            coordinator_epoch=coordinator_epoch,
            commit=commit,
            transaction_version=transaction_version,
        )

    # ---------------------------------------------------------------- groups

    def list_groups(self, partitions: list[int], states: list[str], types: list[str]) -> list[ListedGroup]:
        out: list[ListedGroup] = []
        for partition in partitions:
            out.extend(self.runtime.read(partition, lambda shard: shard.list_groups(states, types)))
        return out

    def describe(self, group_ids: list[str], version: int) -> list[DescribedGroup]:
        out = []
        for group_id in group_ids:
            shard = self.runtime.shard(self.partition_for(group_id))
            out.extend(shard.describe([group_id], version))
        return out

    async def delete_groups(self, group_ids: list[str]) -> list[tuple[str, ErrorCode]]:
        by_partition: dict[int, list[str]] = {}
        for group_id in group_ids:
            by_partition.setdefault(self.partition_for(group_id), []).append(group_id)
        answers: dict[str, ErrorCode] = {}
        for partition, ids in by_partition.items():
            try:
                deleted = await self.runtime.write(partition, _deleting(ids))
            except CoordinatorError as error:
                answers.update(dict.fromkeys(ids, error.code))
            else:
                answers.update(deleted)
        return [(g, answers[g]) for g in group_ids]

    # ---------------------------------------------------------------- KIP-848

    async def consumer_heartbeat(self, request: HeartbeatRequest) -> HeartbeatAnswer:
        """ConsumerGroupHeartbeat (CoordinatorError: the error and message to answer)."""
        validate_heartbeat(request, self.settings().consumer_assignors)
        return await self.runtime.write(
            self.partition_for(request.group_id), lambda shard: shard.consumer.heartbeat(request)
        )

    def consumer_group(self, group_id: str) -> ConsumerGroup:
        """The consumer group (CoordinatorError GROUP_ID_NOT_FOUND when it is not one)."""
        return self.runtime.read(self.partition_for(group_id), lambda shard: shard.consumer.get(group_id))

    def _start_cleanup(self) -> None:
        if self._cleanup is None:
            self._cleanup = asyncio.ensure_future(self._clean())

    async def _clean(self) -> None:
        """Every offsets.retention.check.interval.ms: offsets past retention go, and the empty groups
        left without offsets (Kafka's cleanupGroupMetadata)."""
        while True:
            await asyncio.sleep(self.settings().offsets_retention_check_ms / 1000)
            for partition, _shard in list(self.runtime.loaded_shards()):
                try:
                    await self.runtime.write(partition, _expiring)
                except CoordinatorError as error:
                    log.warning("__consumer_offsets-%d: offset cleanup failed: %s", partition, error)

    def close(self) -> None:
        if self._cleanup is not None:
            self._cleanup.cancel()
            self._cleanup = None
        self.runtime.close()


def _expiring(shard: GroupShard) -> Result[None]:
    return Result(records=shard.expire_offsets())


def _deleting(ids: list[str]) -> Callable[[GroupShard], Result[list[tuple[str, ErrorCode]]]]:
    return lambda shard: shard.delete_groups(ids)


async def _settled(reply: Reply[Any]) -> Any:
    """Wait for a parked answer (a JoinGroup of a rebalance, a SyncGroup awaiting its leader)."""
    if reply.done:
        return reply.value()

    future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def settle(value: Any) -> None:
        if not future.done():
            future.set_result(value)

    reply.then(settle)
    return await future
