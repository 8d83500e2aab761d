"""One __consumer_offsets partition's share of the groups: its state, replayed from and written to its log.

Behavior (Kafka 4.4's GroupCoordinatorShard):
- Every record the shard wrote is replayed into its state when the log is read back (`replay`):
  offsets, classic groups (GroupMetadata) and KIP-848 consumer groups; an end-transaction marker
  commits or drops the transactional offsets of its producer.
- OffsetCommit: a group that does not exist is created empty (a "simple" group of offsets) when the
  commit carries no generation; a commit with a generation to a group that does not exist is
  GROUP_ID_NOT_FOUND (v9+) or ILLEGAL_GENERATION; a member's commit checks its generation (classic)
  or member epoch (KIP-848) and keeps a classic session alive.
- DeleteGroups refuses a group with members (NON_EMPTY_GROUP) and writes tombstones of the group and
  every offset; OffsetDelete refuses topics a consuming group is subscribed to (GROUP_SUBSCRIBED_TO_TOPIC).
- ListGroups filters on states (case-insensitive) and types; DescribeGroups describes classic groups
  (a KIP-848 group is GROUP_ID_NOT_FOUND there, "is not a classic group", as Kafka answers v6).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import generated_records as G
from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.classic import ClassicGroup, ClassicMember, S
from kcli.sandbox.emulator.groups.classic_ops import ClassicGroups
from kcli.sandbox.emulator.groups.consumer import ConsumerGroup
from kcli.sandbox.emulator.groups.consumer_ops import ConsumerGroups
from kcli.sandbox.emulator.groups.model import Clock, CoordinatorError, ListedGroup, Result, Timer, TopicsView
from kcli.sandbox.emulator.groups.offsets import NO_PRODUCER, FetchedPartition, OffsetStore
from kcli.sandbox.emulator.groups.settings import GroupSettings

E = ErrorCode
Partitions = list[
    tuple[str, uuid.UUID, list[tuple[int, int, int, str | None]]]
]  # topic, id, (p, offset, epoch, md)


@dataclass(frozen=True, slots=True, kw_only=True)
class CommitRequest:
    group_id: str
    member_id: str
    instance_id: str | None
    generation: int  # generation (classic) or member epoch (KIP-848); -1: none
    retention_ms: int  # -1: the broker's retention
    topics: Partitions
    version: int
    producer_id: int = NO_PRODUCER  # a TxnOffsetCommit's producer
    producer_epoch: int = -1
    transactional_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DescribedMember:
    member_id: str
    instance_id: str | None
    client_id: str
    client_host: str
    metadata: bytes
    assignment: bytes


@dataclass(frozen=True, slots=True, kw_only=True)
class DescribedGroup:
    group_id: str
    error: ErrorCode = E.none
    message: str | None = None
    state: str = "Dead"
    protocol_type: str = ""
    protocol: str = ""
    members: tuple[DescribedMember, ...] = ()


class GroupShard:
    """The groups and offsets of one __consumer_offsets partition."""

    def __init__(
        self,
        partition: int,
        *,
        timer: Timer,
        clock: Clock,
        settings: Callable[[], GroupSettings],
        topics: TopicsView,
    ) -> None:
        self.partition = partition
        self.groups: dict[str, Any] = {}
        self.offsets = OffsetStore()
        self.clock = clock
        self.settings = settings
        self.timer = timer
        self.consumer = ConsumerGroups(
            self.groups, timer=timer, clock=clock, settings=settings, topics=topics
        )
        self.classic = ClassicGroups(
            self.groups,
            timer=timer,
            clock=clock,
            settings=settings,
            drop_consumer_group=self.consumer.drop_if_empty,
        )

    # ---------------------------------------------------------------- replay

    def replay(
        self, record: R.CoordinatorRecord, *, record_offset: int = -1, producer_id: int = NO_PRODUCER
    ) -> None:
        """Apply one record of this partition's log (or of a write the shard makes)."""
        kind = record.type
        if kind == R.TYPE_OFFSET_COMMIT:
            if record.value is not None and record.key.group not in self.groups:
                self.groups[record.key.group] = ClassicGroup(group_id=record.key.group)
            self.offsets.replay(record, record_offset=record_offset, producer_id=producer_id)
        elif kind == R.TYPE_GROUP_METADATA:
            self._replay_classic(record.key.group, record.value)
        else:
            self.consumer.replay(record)

    def replay_marker(self, producer_id: int, commit: bool) -> None:
        self.offsets.replay_marker(producer_id, commit)

    def _replay_classic(self, group_id: str, value: Any) -> None:
        if value is None:
            group = self.groups.pop(group_id, None)
            if isinstance(group, ClassicGroup):
                self.classic.cancel_timers(group)
                group.state = S.DEAD
            return
        protocol_type = value.protocol_type or None
        stamp = int(getattr(value, "current_state_timestamp", -1))
        group = ClassicGroup(
            group_id=group_id,
            state=S.STABLE if value.members else S.EMPTY,
            state_timestamp=None if stamp == -1 else stamp,
            generation_id=int(value.generation),
            protocol_type=protocol_type,
            protocol_name=value.protocol,
            leader_id=value.leader,
        )
        for m in value.members:
            rebalance = int(getattr(m, "rebalance_timeout", -1))
            group.add(
                ClassicMember(
                    member_id=m.member_id,
                    instance_id=getattr(m, "group_instance_id", None),
                    client_id=m.client_id,
                    client_host=m.client_host,
                    rebalance_timeout_ms=int(m.session_timeout) if rebalance == -1 else rebalance,
                    session_timeout_ms=int(m.session_timeout),
                    protocol_type=value.protocol_type,
                    protocols=((value.protocol, bytes(m.subscription)),),
                    assignment=bytes(m.assignment),
                )
            )
        group.subscribed_topics = group.compute_subscribed_topics()
        self.groups[group_id] = group

    def loaded(self) -> None:
        """The whole log was replayed: sessions of the loaded members start."""
        for group in self.groups.values():
            if isinstance(group, ClassicGroup):
                self.classic.loaded(group)
            else:
                self.consumer.loaded(group)

    # ---------------------------------------------------------------- offsets

    def _group_for_commit(self, request: CommitRequest) -> Any:
        group = self.groups.get(request.group_id)
        if group is not None:
            return group
        if request.generation < 0:
            return self.classic.get(request.group_id, create=True)
        if request.producer_id != NO_PRODUCER:
            raise CoordinatorError(E.group_id_not_found if request.version >= 6 else E.illegal_generation)
        if request.version >= 9:
            raise CoordinatorError(E.group_id_not_found, f"Group {request.group_id} not found.")
        raise CoordinatorError(E.illegal_generation)

    def commit(
        self, request: CommitRequest
    ) -> Result[list[tuple[str, uuid.UUID, list[tuple[int, ErrorCode]]]]]:
        """OffsetCommit (and TxnOffsetCommit, with a producer id): the records and per-partition errors."""
        transactional = request.producer_id != NO_PRODUCER
        group = self._group_for_commit(request)
        if isinstance(group, ClassicGroup):
            self._validate_classic_commit(group, request, transactional)
        else:
            self.consumer.validate_commit(group, request, transactional)
        now = self.clock.now_ms()
        expire = None if request.retention_ms == -1 else now + request.retention_ms
        limit = self.settings().offset_metadata_max_bytes
        records: list[R.CoordinatorRecord] = []
        answers = []
        for topic, topic_id, partitions in request.topics:
            errors = []
            for partition, offset, leader_epoch, metadata in partitions:
                if metadata is not None and len(metadata) > limit:
                    errors.append((partition, E.offset_metadata_too_large))
                    continue
                errors.append((partition, E.none))
                records.append(
                    R.offset_commit(
                        request.group_id,
                        topic,
                        partition,
                        offset=offset,
                        leader_epoch=leader_epoch,
                        metadata=metadata or "",
                        commit_timestamp=now,
                        expire_timestamp=None if transactional else expire,
                        topic_id=topic_id,
                    )
                )
            answers.append((topic, topic_id, errors))
        return Result(records=records, response=answers)

    def _validate_classic_commit(
        self, group: ClassicGroup, request: CommitRequest, transactional: bool
    ) -> None:
        if group.is_(S.DEAD):
            raise CoordinatorError(E.coordinator_not_available)
        if request.generation < 0 and group.is_(S.EMPTY):
            return
        if request.generation >= 0 or request.member_id or request.instance_id is not None:
            group.validate_member(request.member_id, request.instance_id)
            if request.generation != group.generation_id:
                raise CoordinatorError(E.illegal_generation)
        elif not transactional and not group.is_(S.EMPTY):
            raise CoordinatorError(E.unknown_member_id)
        if not transactional and group.is_(S.COMPLETING_REBALANCE):
            raise CoordinatorError(E.rebalance_in_progress)
        if not transactional and group.is_(S.STABLE, S.PREPARING_REBALANCE):
            self.classic.keep_alive(group, request.member_id)

    def fetch(
        self,
        group_id: str,
        topics: list[tuple[str, uuid.UUID, list[int]]] | None,
        *,
        require_stable: bool,
        member_id: str | None = None,
        member_epoch: int = -1,
    ) -> list[tuple[str, list[FetchedPartition]]]:
        """OffsetFetch of one group (its topics, or None: all its offsets)."""
        group = self.groups.get(group_id)
        exists = group is not None and not (isinstance(group, ClassicGroup) and group.is_(S.DEAD))
        if exists and isinstance(group, ConsumerGroup):
            self.consumer.validate_fetch(group, member_id, member_epoch)
        if not exists:
            if topics is None:
                return []
            return [(name, [FetchedPartition(partition=p) for p in parts]) for name, _, parts in topics]
        return self.offsets.fetch(group_id, topics, require_stable=require_stable)

    def delete_offsets(
        self, group_id: str, topics: list[tuple[str, list[int]]]
    ) -> Result[list[tuple[str, list[tuple[int, ErrorCode]]]]]:
        group = self.groups.get(group_id)
        if group is None:
            raise CoordinatorError(E.group_id_not_found, f"Group {group_id} not found.")
        if isinstance(group, ClassicGroup):
            if group.is_(S.DEAD):
                raise CoordinatorError(E.group_id_not_found, f"Group {group_id} is in dead state.")
            if (
                group.is_(S.STABLE, S.PREPARING_REBALANCE, S.COMPLETING_REBALANCE)
                and not group.uses_consumer_protocol()
            ):
                raise CoordinatorError(E.non_empty_group)
            subscribed = group.is_subscribed_to
        else:
            subscribed = group.is_subscribed_to
        records = []
        answers = []
        for topic, partitions in topics:
            if subscribed(topic):
                answers.append((topic, [(p, E.group_subscribed_to_topic) for p in partitions]))
                continue
            answers.append((topic, [(p, E.none) for p in partitions]))
            for p in partitions:
                if self.offsets.get(group_id, topic, p) is not None or self.offsets.has_pending(
                    group_id, topic, p
                ):
                    records.append(R.offset_tombstone(group_id, topic, p))
        return Result(records=records, response=answers)

    # ---------------------------------------------------------------- groups

    def list_groups(self, states: list[str], types: list[str]) -> list[ListedGroup]:
        wanted_states = {s.strip().lower() for s in states}
        wanted_types = {t.strip().lower() for t in types}
        out = []
        for group in self.groups.values():
            listed = self._listed(group)
            if wanted_states and listed.state.lower() not in wanted_states:
                continue
            if wanted_types and listed.type.lower() not in wanted_types:
                continue
            out.append(listed)
        return out

    def _listed(self, group: Any) -> ListedGroup:
        if isinstance(group, ClassicGroup):
            return ListedGroup(
                group_id=group.group_id,
                protocol_type=group.protocol_type or "",
                state=group.state.value,
                type="classic",
            )
        return self.consumer.listed(group)

    def describe(self, group_ids: list[str], version: int) -> list[DescribedGroup]:
        out = []
        for group_id in group_ids:
            group = self.groups.get(group_id)
            if not isinstance(group, ClassicGroup):
                message = f"Group {group_id} {'not found' if group is None else 'is not a classic group'}."
                if version >= 6:
                    out.append(DescribedGroup(group_id=group_id, error=E.group_id_not_found, message=message))
                else:
                    out.append(DescribedGroup(group_id=group_id))
                continue
            stable = group.is_(S.STABLE)
            members = tuple(
                DescribedMember(
                    member_id=m.member_id,
                    instance_id=m.instance_id,
                    client_id=m.client_id,
                    client_host=m.client_host,
                    metadata=m.metadata(group.protocol_name) if stable else b"",
                    assignment=m.assignment,
                )
                for m in group.members.values()
            )
            out.append(
                DescribedGroup(
                    group_id=group_id,
                    state=group.state.value,
                    protocol_type=group.protocol_type or "",
                    protocol=(group.protocol_name or "") if stable else "",
                    members=members,
                )
            )
        return out

    def delete_groups(self, group_ids: list[str]) -> Result[list[tuple[str, ErrorCode]]]:
        records: list[R.CoordinatorRecord] = []
        answers = []
        for group_id in group_ids:
            group = self.groups.get(group_id)
            try:
                if group is None:
                    raise CoordinatorError(E.group_id_not_found)
                if isinstance(group, ClassicGroup):
                    if group.is_(S.DEAD):
                        raise CoordinatorError(E.group_id_not_found)
                    if group.is_(S.STABLE, S.PREPARING_REBALANCE, S.COMPLETING_REBALANCE):
                        raise CoordinatorError(E.non_empty_group)
                else:
                    self.consumer.validate_delete(group)
            except CoordinatorError as error:
                answers.append((group_id, error.code))
                continue
            records.extend(self.offsets.tombstones(group_id))
            records.extend(self._tombstones(group))
            answers.append((group_id, E.none))
        return Result(records=records, response=answers)

    def _tombstones(self, group: Any) -> list[R.CoordinatorRecord]:
        if isinstance(group, ClassicGroup):
            self.classic.cancel_timers(group)
            return [R.group_tombstone(group.group_id)]
        return self.consumer.tombstones(group)

    def expire_offsets(self) -> list[R.CoordinatorRecord]:
        """Tombstones of offsets past retention, and of the empty groups left with none (Kafka's
        cleanupGroupMetadata)."""
        now = self.clock.now_ms()
        retention = self.settings().offsets_retention_ms
        records: list[R.CoordinatorRecord] = []
        for group_id, group in list(self.groups.items()):
            subscribed = (
                (lambda topic, g=group: g.subscribed_topics is not None and topic in g.subscribed_topics)
                if isinstance(group, ClassicGroup)
                else group.is_subscribed_to
            )
            expired, all_expired = self.offsets.expired(
                group_id, self._expiration_base(group), subscribed, now, retention
            )
            records.extend(expired)
            if all_expired and self._is_empty(group):
                records.extend(self._tombstones(group))
        return records

    def _expiration_base(self, group: Any) -> Callable[[Any], int | None] | None:
        if isinstance(group, ClassicGroup):
            if group.protocol_type is None:
                return lambda offset: offset.commit_timestamp_ms
            if group.is_(S.EMPTY):
                stamp = group.state_timestamp
                return lambda offset: stamp if stamp is not None else offset.commit_timestamp_ms
            if group.uses_consumer_protocol() and group.subscribed_topics is not None and group.is_(S.STABLE):
                return lambda offset: offset.commit_timestamp_ms
            return None
        return self.consumer.expiration_base(group)

    def _is_empty(self, group: Any) -> bool:
        return group.is_empty if isinstance(group, ClassicGroup) else self.consumer.is_empty(group)


__all__ = ["CommitRequest", "DescribedGroup", "G", "GroupShard", "ListedGroup"]
