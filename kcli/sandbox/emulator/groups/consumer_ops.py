"""KIP-848's ConsumerGroupHeartbeat: joining, reconciling, leaving and the sessions of consumer groups.

Behavior (Kafka 4.4's GroupMetadataManager, consumer groups):
- Epoch 0 joins (a new group is created; an empty classic group becomes a consumer group), -1 leaves,
  -2 is a static member's temporary leave; another epoch must be the member's (or its previous one
  with a subset of its partitions, when the answer of a bump was lost), else FENCED_MEMBER_EPOCH.
- A changed subscription (topic names, a regex, the preferred server assignor) or a change of the
  subscribed topics' partitions bumps the group epoch; the target assignment follows the group epoch
  at most once per group.consumer.assignment.interval.ms (the first one at once); the member then
  moves to the target: partitions it must give up are revoked first (the member is
  UNREVOKED_PARTITIONS and must drop them within its rebalance timeout), partitions another member
  still owns are given once released (UNRELEASED_PARTITIONS).
- The session expires without a heartbeat for consumer.session.timeout.ms (the group's config, else
  the broker's); an expired or fenced member is removed and the group epoch bumped.
- Classic-protocol members of consumer groups (KIP-848 online migration) are not served: a classic
  JoinGroup to a non-empty consumer group is INCONSISTENT_GROUP_PROTOCOL here.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from collections.abc import Callable, Iterable, MutableMapping
from dataclasses import dataclass, replace
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import consumer_records as C
from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.assignors import AssignorError, MemberSpec, assign
from kcli.sandbox.emulator.groups.classic import ClassicGroup
from kcli.sandbox.emulator.groups.consumer import (
    LEAVE_GROUP_MEMBER_EPOCH,
    LEAVE_GROUP_STATIC_MEMBER_EPOCH,
    ConsumerGroup,
    ConsumerMember,
    MemberState,
)
from kcli.sandbox.emulator.groups.model import Clock, CoordinatorError, ListedGroup, Result, Timer, TopicsView
from kcli.sandbox.emulator.groups.reconcile import Owned, is_subset, reconcile
from kcli.sandbox.emulator.groups.settings import GroupSettings

E = ErrorCode


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartbeatRequest:
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    subscribed_topic_names: list[str] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    owned: Owned | None
    client_id: str
    client_host: str
    version: int


@dataclass(frozen=True, slots=True, kw_only=True)
class HeartbeatAnswer:
    member_id: str
    member_epoch: int
    heartbeat_interval_ms: int = 0
    assignment: dict[uuid.UUID, list[int]] | None = None


def session_key(group_id: str, member_id: str) -> str:
    return f"session-{group_id}-{member_id}"


def rebalance_key(group_id: str, member_id: str) -> str:
    return f"rebalance-{group_id}-{member_id}"


def validate_heartbeat(request: HeartbeatRequest, assignors: tuple[str, ...]) -> None:
    """The request checks Kafka's GroupCoordinatorService makes before the shard sees it."""
    if request.version >= 1 or request.member_epoch > 0 or request.member_epoch == LEAVE_GROUP_MEMBER_EPOCH:
        _not_blank(request.member_id, "MemberId can't be empty.")
    _not_blank(request.group_id, "GroupId can't be empty.")
    _not_blank(request.instance_id, "InstanceId can't be empty.")
    _not_blank(request.rack_id, "RackId can't be empty.")
    if request.member_epoch == 0:
        if request.rebalance_timeout_ms == -1:
            raise CoordinatorError(E.invalid_request, "RebalanceTimeoutMs must be provided in first request.")
        if request.owned is None or request.owned:
            raise CoordinatorError(E.invalid_request, "TopicPartitions must be empty when (re-)joining.")
        if request.subscribed_topic_names is None and request.subscribed_topic_regex is None:
            raise CoordinatorError(
                E.invalid_request,
                "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
            )
    elif request.member_epoch == LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        if request.instance_id is None:
            raise CoordinatorError(E.invalid_request, "InstanceId can't be null.")
    elif request.member_epoch < LEAVE_GROUP_STATIC_MEMBER_EPOCH:
        raise CoordinatorError(E.invalid_request, "MemberEpoch is invalid.")
    if request.server_assignor is not None and request.server_assignor not in assignors:
        raise CoordinatorError(
            E.unsupported_assignor,
            f"ServerAssignor {request.server_assignor} is not supported. Supported assignors: {', '.join(assignors)}.",
        )
    if request.subscribed_topic_regex:
        try:
            re.compile(request.subscribed_topic_regex)
        except re.error as error:
            raise CoordinatorError(
                E.invalid_regular_expression,
                f"SubscribedTopicRegex `{request.subscribed_topic_regex}` is not a valid regular expression: {error}.",
            ) from None


def _not_blank(value: str | None, message: str) -> None:
    if value is not None and not value.strip():
        raise CoordinatorError(E.invalid_request, message)


class ConsumerGroups:
    """The consumer-group operations of one shard over its groups (a dict shared with classic groups)."""

    def __init__(
        self,
        groups: MutableMapping[str, Any],
        *,
        timer: Timer,
        clock: Clock,
        settings: Callable[[], GroupSettings],
        topics: TopicsView,
    ) -> None:
        self.groups = groups
        self.timer = timer
        self.clock = clock
        self.settings = settings
        self.topics = topics

    # ---------------------------------------------------------------- lookups

    def get(self, group_id: str) -> ConsumerGroup:
        group = self.groups.get(group_id)
        if group is None:
            raise CoordinatorError(E.group_id_not_found, f"Group {group_id} not found.")
        if not isinstance(group, ConsumerGroup):
            raise CoordinatorError(E.group_id_not_found, f"Group {group_id} is not a consumer group.")
        return group

    def _get_or_create(
        self, group_id: str, create: bool, records: list[R.CoordinatorRecord]
    ) -> ConsumerGroup:
        group = self.groups.get(group_id)
        if group is None:
            if not create:
                raise CoordinatorError(E.group_id_not_found, f"Consumer group {group_id} not found.")
            return ConsumerGroup(group_id=group_id)
        if isinstance(group, ConsumerGroup):
            return group
        if create and isinstance(group, ClassicGroup) and group.is_empty:
            records.append(R.group_tombstone(group_id))
            return ConsumerGroup(group_id=group_id)
        if create and isinstance(group, ClassicGroup):
            raise CoordinatorError(
                E.group_id_not_found,
                f"Cannot upgrade classic group {group_id} to consumer group because the online upgrade is disabled.",
            )
        raise CoordinatorError(E.group_id_not_found, f"Group {group_id} is not a consumer group.")

    def drop_if_empty(self, group_id: str, records: list[R.CoordinatorRecord]) -> bool:
        """A classic JoinGroup replaces an empty consumer group: its tombstones; a non-empty one refuses."""
        group = self.groups.get(group_id)
        if not isinstance(group, ConsumerGroup):
            return False
        if not group.is_empty:
            raise CoordinatorError(E.inconsistent_group_protocol)
        records.extend(self.tombstones(group))
        del self.groups[group_id]
        return True

    # ---------------------------------------------------------------- heartbeat

    def heartbeat(self, request: HeartbeatRequest) -> Result[HeartbeatAnswer]:
        if request.member_epoch in (LEAVE_GROUP_MEMBER_EPOCH, LEAVE_GROUP_STATIC_MEMBER_EPOCH):
            return self._leave(request)
        records: list[R.CoordinatorRecord] = []
        now = self.clock.now_ms()
        settings = self.settings()
        group = self._get_or_create(request.group_id, request.member_epoch == 0, records)
        member_id = request.member_id or str(uuid.uuid4())
        full_group = len(group.members) >= settings.consumer_max_size
        if (
            full_group
            and group.static_member(request.instance_id) is None
            and request.member_id not in group.members
        ):
            raise CoordinatorError(
                E.group_max_size_reached,
                f"The consumer group has reached its maximum capacity of {settings.consumer_max_size} members.",
            )
        member = self._member(group, request, member_id, records)
        names = request.subscribed_topic_names
        updated = replace(
            member,
            instance_id=request.instance_id if request.instance_id is not None else member.instance_id,
            rack_id=request.rack_id if request.rack_id is not None else member.rack_id,
            rebalance_timeout_ms=request.rebalance_timeout_ms
            if request.rebalance_timeout_ms != -1
            else member.rebalance_timeout_ms,
            server_assignor=request.server_assignor
            if request.server_assignor is not None
            else member.server_assignor,
            subscribed_topic_names=tuple(sorted(set(names)))
            if names is not None
            else member.subscribed_topic_names,
            subscribed_topic_regex=request.subscribed_topic_regex
            if request.subscribed_topic_regex is not None
            else member.subscribed_topic_regex,
            client_id=request.client_id,
            client_host=request.client_host,
            classic=None,
        )
        names_changed = False
        if (
            updated.subscription_fields() != member.subscription_fields()
            or member.member_id not in group.members
        ):
            records.append(C.subscription(group.group_id, updated))
            names_changed = updated.subscribed_topic_names != member.subscribed_topic_names
        regex_changed = self._resolve_regex(group, member, updated, records)
        members_after = {**group.members, updated.member_id: updated}
        members_before = group.members if member.member_id in group.members else {**group.members}
        assignor_changed = (group.preferred_assignor(members_before) or settings.consumer_assignors[0]) != (
            group.preferred_assignor(members_after) or settings.consumer_assignors[0]
        )
        subscription_changed = names_changed or regex_changed
        group_epoch = group.group_epoch
        metadata_hash = self._hash(group, members_after)
        if subscription_changed or assignor_changed or metadata_hash != group.metadata_hash:
            group_epoch += 1
            records.append(C.group_epoch(group.group_id, group_epoch, metadata_hash))
            if group.has_subscription_metadata_record:
                records.append(C.partition_metadata_tombstone(group.group_id))
        target_epoch, target = self._target(group, group_epoch, members_after, updated, records, now)
        reconciled = reconcile(
            updated,
            target_epoch=target_epoch,
            target=target,
            subscribed=self._subscribed_ids(group, updated),
            subscription_changed=subscription_changed,
            owned=request.owned,
            partition_epoch=group.partition_epoch,
        )
        if (
            reconciled.assignment_fields() != member.assignment_fields()
            or member.member_id not in group.members
        ):
            records.append(C.current_assignment(group.group_id, reconciled))
            if reconciled.state is MemberState.UNREVOKED_PARTITIONS:
                self._schedule_rebalance_timeout(group.group_id, reconciled)
            else:
                self.timer.cancel(rebalance_key(group.group_id, reconciled.member_id))
        self._schedule_session(group.group_id, reconciled.member_id)
        full = (
            request.rebalance_timeout_ms != -1
            and (names is not None or request.subscribed_topic_regex is not None)
            and request.owned is not None
        )
        assignment = None
        if request.member_epoch == 0 or full or reconciled.assigned != member.assigned:
            assignment = {t: sorted(ps) for t, ps in reconciled.assigned.items()}
        answer = HeartbeatAnswer(
            member_id=reconciled.member_id,
            member_epoch=reconciled.member_epoch,
            heartbeat_interval_ms=settings.heartbeat_interval_ms(group.group_id),
            assignment=assignment,
        )
        return Result(records=records, response=answer)

    def _member(
        self,
        group: ConsumerGroup,
        request: HeartbeatRequest,
        member_id: str,
        records: list[R.CoordinatorRecord],
    ) -> ConsumerMember:
        joining = request.member_epoch == 0
        if request.instance_id is None:
            member = group.member(member_id, create=joining)
            if member is None:
                raise CoordinatorError(
                    E.unknown_member_id, f"Member {member_id} is not a member of group {group.group_id}."
                )
            self._check_epoch(member, request.member_epoch, request.owned)
            return member
        existing = group.static_member(request.instance_id)
        if joining:
            if existing is None:
                member = group.member(member_id, create=True)
                assert member is not None
                return member
            if existing.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
                raise CoordinatorError(
                    E.unreleased_instance_id,
                    f"Static member {member_id} with instance id {request.instance_id} cannot join the group because"
                    f" the instance id is owned by {existing.member_id} member.",
                )
            new = replace(existing, member_id=member_id, member_epoch=0, previous_member_epoch=0)
            records.extend(C.member_removal(group.group_id, existing.member_id))
            records.append(C.subscription(group.group_id, new))
            records.append(
                C.target_member(group.group_id, new.member_id, group.target.get(existing.member_id, {}))
            )
            records.append(C.current_assignment(group.group_id, new))
            return new
        if existing is None:
            raise CoordinatorError(E.unknown_member_id, f"Instance id {request.instance_id} is unknown.")
        if existing.member_id != member_id:
            raise CoordinatorError(
                E.fenced_instance_id,
                f"Static member {member_id} with instance id {request.instance_id} was fenced by member {existing.member_id}.",
            )
        self._check_epoch(existing, request.member_epoch, request.owned)
        return existing

    @staticmethod
    def _check_epoch(member: ConsumerMember, epoch: int, owned: Owned | None) -> None:
        if epoch == 0:
            return
        if epoch > member.member_epoch:
            raise CoordinatorError(
                E.fenced_member_epoch,
                f"The consumer group member has a greater member epoch ({epoch}) than the one known by the group"
                f" coordinator ({member.member_epoch}). The member must abandon all its partitions and rejoin.",
            )
        if epoch < member.member_epoch and (
            epoch != member.previous_member_epoch or not is_subset(owned, member.assigned)
        ):
            raise CoordinatorError(
                E.fenced_member_epoch,
                f"The consumer group member has a smaller member epoch ({epoch}) than the one known by the group"
                f" coordinator ({member.member_epoch}). The member must abandon all its partitions and rejoin.",
            )

    def _resolve_regex(
        self,
        group: ConsumerGroup,
        old: ConsumerMember,
        new: ConsumerMember,
        records: list[R.CoordinatorRecord],
    ) -> bool:
        """A new regex is resolved against the topics at once (Kafka resolves it asynchronously)."""
        if new.subscribed_topic_regex == old.subscribed_topic_regex or not new.subscribed_topic_regex:
            return new.subscribed_topic_regex != old.subscribed_topic_regex
        regex = new.subscribed_topic_regex
        if regex not in group.resolved_regexes:
            pattern = re.compile(regex)
            topics = sorted(
                t for t in self.topics.topic_names() if pattern.fullmatch(t) and not t.startswith("__")
            )
            records.append(C.regular_expression(group.group_id, regex, topics, self.clock.now_ms()))
            group.resolved_regexes[regex] = frozenset(topics)
        return True

    def _subscribed_ids(self, group: ConsumerGroup, member: ConsumerMember) -> set[uuid.UUID]:
        names = set(member.subscribed_topic_names)
        if member.subscribed_topic_regex:
            names |= group.resolved_regexes.get(member.subscribed_topic_regex, frozenset())
        return {topic_id for name in names if (topic_id := self.topics.topic_id(name)) is not None}

    def _hash(self, group: ConsumerGroup, members: dict[str, ConsumerMember]) -> int:
        """A hash of the subscribed topics' ids and partition counts (Kafka: xxh3 of the same facts)."""
        digest = hashlib.blake2b(digest_size=8)
        for name in sorted(group.subscribed_topics(members)):
            topic_id = self.topics.topic_id(name)
            if topic_id is None:
                continue
            digest.update(f"{name}\0{topic_id}\0{self.topics.partition_count(topic_id)}\0".encode())
        if digest.digest() == hashlib.blake2b(digest_size=8).digest():
            return 0
        return int.from_bytes(digest.digest(), "big", signed=True)

    def _target(
        self,
        group: ConsumerGroup,
        group_epoch: int,
        members: dict[str, ConsumerMember],
        member: ConsumerMember,
        records: list[R.CoordinatorRecord],
        now: int,
    ) -> tuple[int, dict[uuid.UUID, frozenset[int]]]:
        if group.assignment_epoch >= group_epoch:
            return group.assignment_epoch, dict(group.target.get(member.member_id, {}))
        interval = self.settings().consumer_assignment_interval_ms
        if group.assignment_timestamp and interval and now < group.assignment_timestamp + interval:
            return group.assignment_epoch, dict(group.target.get(member.member_id, {}))
        specs = {}
        partitions: dict[uuid.UUID, int] = {}
        for member_id, m in members.items():
            subscribed = set()
            for name in {
                *m.subscribed_topic_names,
                *group.resolved_regexes.get(m.subscribed_topic_regex or "", ()),
            }:
                topic_id = self.topics.topic_id(name)
                if topic_id is not None:
                    subscribed.add(topic_id)
                    partitions[topic_id] = self.topics.partition_count(topic_id)
            current = group.target.get(member_id)
            if current is None and m.instance_id is not None:  # a replaced static member keeps its target
                current = group.target.get(group.static_members.get(m.instance_id, ""), {})
            specs[member_id] = MemberSpec(frozenset(subscribed), current or {})
        name = group.preferred_assignor(members) or self.settings().consumer_assignors[0]
        try:
            new_target = assign(name, specs, partitions)
        except AssignorError as error:
            raise CoordinatorError(
                E.unknown_server_error,
                f"Failed to compute a new target assignment for epoch {group_epoch}: {error}",
            ) from None
        for member_id, target in new_target.items():
            if group.target.get(member_id) != target:
                records.append(C.target_member(group.group_id, member_id, target))
        records.append(C.target_metadata(group.group_id, group_epoch, now))
        return group_epoch, dict(new_target.get(member.member_id, {}))

    # ---------------------------------------------------------------- reconciliation

    # ---------------------------------------------------------------- leaving, fencing

    def _leave(self, request: HeartbeatRequest) -> Result[HeartbeatAnswer]:
        group = self.get(request.group_id)
        answer = HeartbeatAnswer(member_id=request.member_id, member_epoch=request.member_epoch)
        if request.instance_id is None:
            member = group.members.get(request.member_id)
            if member is None:
                raise CoordinatorError(
                    E.unknown_member_id,
                    f"Member {request.member_id} is not a member of group {group.group_id}.",
                )
            return self.fence(group, [member], answer)
        member = group.static_member(request.instance_id)
        if member is None:
            raise CoordinatorError(E.unknown_member_id, f"Instance id {request.instance_id} is unknown.")
        if member.member_id != request.member_id:
            raise CoordinatorError(
                E.fenced_instance_id,
                f"Static member {request.member_id} with instance id {request.instance_id} was fenced by member {member.member_id}.",
            )
        if request.member_epoch != LEAVE_GROUP_STATIC_MEMBER_EPOCH:
            return self.fence(group, [member], answer)
        leaving = replace(
            member,
            member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH,
            pending_revocation={},
            assigned={t: dict.fromkeys(ps, 0) for t, ps in member.assigned.items()},
        )
        return Result(
            records=[C.current_assignment(group.group_id, leaving)],
            response=HeartbeatAnswer(
                member_id=member.member_id, member_epoch=LEAVE_GROUP_STATIC_MEMBER_EPOCH
            ),
        )

    def fence(
        self, group: ConsumerGroup, members: Iterable[ConsumerMember], answer: Any = None
    ) -> Result[Any]:
        """Remove members (left, expired, fenced) and bump the group epoch."""
        leaving = list(members)
        if not leaving:
            return Result(response=answer)
        records: list[R.CoordinatorRecord] = []
        for member in leaving:
            records.extend(C.member_removal(group.group_id, member.member_id))
        remaining = {k: v for k, v in group.members.items() if k not in {m.member_id for m in leaving}}
        epoch = group.group_epoch + 1
        records.append(C.group_epoch(group.group_id, epoch, self._hash(group, remaining)))
        if not remaining:
            records.append(C.target_metadata(group.group_id, epoch, 0))
        for member in leaving:
            self.timer.cancel(session_key(group.group_id, member.member_id))
            self.timer.cancel(rebalance_key(group.group_id, member.member_id))
        return Result(records=records, response=answer)

    def _fence_by_id(self, group_id: str, member_id: str, epoch: int | None = None) -> Result[Any]:
        group = self.groups.get(group_id)
        if not isinstance(group, ConsumerGroup):
            return Result()
        member = group.members.get(member_id)
        if member is None or (epoch is not None and member.member_epoch != epoch):
            return Result()
        return self.fence(group, [member])

    def _schedule_session(self, group_id: str, member_id: str) -> None:
        timeout = self.settings().session_timeout_ms(group_id)
        self.timer.schedule(
            session_key(group_id, member_id), timeout, lambda: self._fence_by_id(group_id, member_id)
        )

    def _schedule_rebalance_timeout(self, group_id: str, member: ConsumerMember) -> None:
        member_id, epoch = member.member_id, member.member_epoch
        self.timer.schedule(
            rebalance_key(group_id, member_id),
            member.rebalance_timeout_ms,
            lambda: self._fence_by_id(group_id, member_id, epoch),
        )

    def replay(self, record: R.CoordinatorRecord) -> None:
        C.replay(self.groups, record)

    # ---------------------------------------------------------------- what the shard asks

    def tombstones(self, group: ConsumerGroup) -> list[R.CoordinatorRecord]:
        for member_id in group.members:
            self.timer.cancel(session_key(group.group_id, member_id))
            self.timer.cancel(rebalance_key(group.group_id, member_id))
        return C.group_removal(group)

    def validate_commit(self, group: ConsumerGroup, request: Any, transactional: bool) -> None:
        epoch = request.generation
        if epoch < 0 and not group.members:
            return
        if transactional and epoch == -1 and request.member_id == "" and request.instance_id is None:
            return
        member = group.members.get(request.member_id)
        if member is None:
            raise CoordinatorError(
                E.unknown_member_id, f"Member {request.member_id} is not a member of group {group.group_id}."
            )
        if not transactional and request.version < 9:
            raise CoordinatorError(
                E.unsupported_version,
                "OffsetCommit version 9 or above must be used by members using the consumer group protocol",
            )
        if epoch == member.member_epoch:
            return
        if epoch > member.member_epoch:
            raise CoordinatorError(
                E.stale_member_epoch,
                f"Received member epoch {epoch} is newer than current member epoch {member.member_epoch}.",
            )
        for topic, topic_id, partitions in request.topics:
            for partition, *_ in partitions:
                assigned_at = member.assignment_epoch(topic_id, partition)
                if assigned_at is None:
                    raise CoordinatorError(
                        E.stale_member_epoch,
                        f"Partition {topic}-{partition} is not assigned or pending revocation for member.",
                    )
                if epoch < assigned_at:
                    raise CoordinatorError(
                        E.stale_member_epoch,
                        f"Received member epoch {epoch} is older than assignment epoch {assigned_at} for partition {topic}-{partition}.",
                    )

    def validate_fetch(self, group: ConsumerGroup, member_id: str | None, epoch: int) -> None:
        if member_id is None and epoch < 0:
            return
        member = group.members.get(member_id or "")
        if member is None:
            raise CoordinatorError(
                E.unknown_member_id, f"Member {member_id} is not a member of group {group.group_id}."
            )
        if epoch != member.member_epoch:
            raise CoordinatorError(
                E.stale_member_epoch,
                f"The received member epoch {epoch} does not match the expected member epoch {member.member_epoch}.",
            )

    @staticmethod
    def validate_delete(group: ConsumerGroup) -> None:
        if not group.is_empty:
            raise CoordinatorError(E.non_empty_group)

    def listed(self, group: ConsumerGroup) -> Any:
        return ListedGroup(
            group_id=group.group_id, protocol_type="consumer", state=group.state.value, type="consumer"
        )

    @staticmethod
    def expiration_base(group: ConsumerGroup) -> Callable[[Any], int | None]:
        return lambda offset: offset.commit_timestamp_ms

    @staticmethod
    def is_empty(group: ConsumerGroup) -> bool:
        return group.is_empty

    def loaded(self, group: ConsumerGroup) -> None:
        for member_id, member in group.members.items():
            self._schedule_session(group.group_id, member_id)
            if member.state is MemberState.UNREVOKED_PARTITIONS:
                self._schedule_rebalance_timeout(group.group_id, member)
