"""The classic group protocol: JoinGroup, SyncGroup, Heartbeat, LeaveGroup and their timeouts.

Behavior (Kafka 4.4's GroupMetadataManager, classic groups):
- JoinGroup with an unknown member id creates the group when it does not exist (an empty KIP-848
  group is replaced by a classic one); v4+ first answers MEMBER_ID_REQUIRED with a new id (KIP-394),
  the member joins again with it; a static member (KIP-345) with a known instance id takes over
  the old member id, which is fenced (FENCED_INSTANCE_ID).
- The first rebalance of an empty group waits group.initial.rebalance.delay.ms for more members,
  extended while new ones arrive, up to the rebalance timeout; later rebalances complete when every
  member rejoined or at the rebalance timeout, when those that did not are removed.
- Completing the join starts the next generation: the leader gets every member's metadata, the
  others none; SyncGroup from the leader stores the assignment (a GroupMetadata record) and only
  once it is durable answers every member; members that do not sync within the rebalance timeout
  are removed and the group rebalances again.
- A member's session expires when no heartbeat, commit or join arrives within its session timeout
  (a new member: group.classic new member join timeout while it waits in its first join).
- LeaveGroup (v3+ many members, by member id or, member id unknown, by instance id) removes them
  and rebalances.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups import records as R
from kcli.sandbox.emulator.groups.classic import (
    ClassicGroup,
    ClassicMember,
    JoinAnswer,
    Protocols,
    S,
    SyncAnswer,
    empty_record,
    metadata_record,
)
from kcli.sandbox.emulator.groups.model import (
    EMPTY,
    UNKNOWN_MEMBER_ID,
    Clock,
    CoordinatorError,
    Reply,
    Result,
    Timer,
)
from kcli.sandbox.emulator.groups.settings import GroupSettings

E = ErrorCode


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinRequest:
    group_id: str
    member_id: str
    instance_id: str | None
    protocol_type: str
    protocols: Protocols
    session_timeout_ms: int
    rebalance_timeout_ms: int
    client_id: str
    client_host: str
    version: int
    reason: str | None = None

    @property
    def requires_known_member_id(self) -> bool:  # JoinGroupRequest.requiresKnownMemberId
        return self.version >= 4

    @property
    def supports_skipping_assignment(self) -> bool:
        return self.version >= 9


@dataclass(frozen=True, slots=True, kw_only=True)
class SyncRequest:
    group_id: str
    member_id: str
    instance_id: str | None
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    assignments: tuple[tuple[str, bytes], ...]


def heartbeat_key(group_id: str, member_id: str) -> str:
    return f"heartbeat-{group_id}-{member_id}"


def join_key(group_id: str) -> str:
    return f"join-{group_id}"


def sync_key(group_id: str) -> str:
    return f"sync-{group_id}"


class ClassicGroups:
    """The classic-group operations of one shard over its groups (a dict shared with KIP-848 groups)."""

    def __init__(
        self,
        groups: MutableMapping[str, Any],
        *,
        timer: Timer,
        clock: Clock,
        settings: Callable[[], GroupSettings],
        drop_consumer_group: Callable[[str, list[R.CoordinatorRecord]], bool],
    ) -> None:
        self.groups = groups
        self.timer = timer
        self.clock = clock
        self.settings = settings
        self._drop_consumer_group = drop_consumer_group

    # ---------------------------------------------------------------- lookups

    def get(self, group_id: str, *, create: bool = False) -> ClassicGroup:
        """The classic group (created when asked and absent); GROUP_ID_NOT_FOUND otherwise."""
        group = self.groups.get(group_id)
        if group is None:
            if not create:
                raise CoordinatorError(E.group_id_not_found, f"Classic group {group_id} not found.")
            group = self.groups[group_id] = ClassicGroup(
                group_id=group_id, state_timestamp=self.clock.now_ms()
            )
            return group
        if not isinstance(group, ClassicGroup):
            raise CoordinatorError(E.group_id_not_found, f"Group {group_id} is not a classic group.")
        return group

    def _find(self, group_id: str) -> ClassicGroup | None:
        try:
            return self.get(group_id)
        except CoordinatorError:
            return None

    # ---------------------------------------------------------------- JoinGroup

    def join(self, request: JoinRequest) -> Result[Reply[JoinAnswer]]:
        reply: Reply[JoinAnswer] = Reply()
        records: list[R.CoordinatorRecord] = []
        self._drop_consumer_group(request.group_id, records)
        is_new = request.group_id not in self.groups
        unknown = request.member_id == UNKNOWN_MEMBER_ID
        try:
            group = self.get(request.group_id, create=unknown)
        except CoordinatorError:
            reply.settle(JoinAnswer(error=E.unknown_member_id, member_id=request.member_id))
            return Result(response=reply)
        result: Result[Any]
        if not self._accepts(group, request.member_id):
            group.remove(request.member_id)
            reply.settle(JoinAnswer(error=E.group_max_size_reached))
            result = EMPTY
        elif unknown:
            result = self._join_new(request, group, reply)
        else:
            result = self._join_existing(request, group, reply)
        if is_new and result is EMPTY:
            records.append(empty_record(group))
            return Result(records=records, response=reply, replay=False)
        return Result(records=[*records, *result.records], response=reply, replay=False, after=result.after)

    def _accepts(self, group: ClassicGroup, member_id: str) -> bool:
        limit = self.settings().classic_max_size
        if group.is_(S.EMPTY, S.DEAD):
            return True
        member = group.members.get(member_id)
        if group.is_(S.PREPARING_REBALANCE):
            return (member is not None and member.awaiting_join) or group.awaiting_joins < limit
        return member is not None or len(group.members) < limit

    def _join_new(self, request: JoinRequest, group: ClassicGroup, reply: Reply[JoinAnswer]) -> Result[Any]:
        if group.is_(S.DEAD):
            reply.settle(JoinAnswer(error=E.coordinator_not_available))
            return EMPTY
        if not group.supports(request.protocol_type, (name for name, _ in request.protocols)):
            reply.settle(JoinAnswer(error=E.inconsistent_group_protocol))
            return EMPTY
        member_id = group.new_member_id(request.client_id, request.instance_id)
        if request.instance_id is not None:
            existing = group.static_members.get(request.instance_id)
            if existing is not None:
                return self._replace_static(request, group, existing, member_id, reply)
            return self._add_member(request, group, member_id, reply)
        if request.requires_known_member_id:
            group.pending_join.add(member_id)
            self.timer.schedule(
                heartbeat_key(group.group_id, member_id),
                request.session_timeout_ms,
                lambda: self._expire_heartbeat(group.group_id, member_id),
            )
            reply.settle(JoinAnswer(error=E.member_id_required, member_id=member_id))
            return EMPTY
        return self._add_member(request, group, member_id, reply)

    def _join_existing(
        self, request: JoinRequest, group: ClassicGroup, reply: Reply[JoinAnswer]
    ) -> Result[Any]:
        member_id = request.member_id
        if group.is_(S.DEAD):
            reply.settle(JoinAnswer(error=E.coordinator_not_available, member_id=member_id))
            return EMPTY
        if not group.supports(request.protocol_type, (name for name, _ in request.protocols)):
            reply.settle(JoinAnswer(error=E.inconsistent_group_protocol, member_id=member_id))
            return EMPTY
        if member_id in group.pending_join:
            return self._add_member(request, group, member_id, reply)
        try:
            group.validate_member(member_id, request.instance_id)
        except CoordinatorError as error:
            reply.settle(JoinAnswer(error=error.code, member_id=member_id))
            return EMPTY
        member = group.members[member_id]
        same = member.protocols == request.protocols
        if group.is_(S.PREPARING_REBALANCE):
            return self._update_member(request, group, member, reply)
        if group.is_(S.COMPLETING_REBALANCE):
            if same:  # a retry of the join whose answer was lost: this generation again
                view = group.leader_view() if group.is_leader(member_id) else ()
                reply.settle(group.answer_for(member_id, members=view))
                return EMPTY
            return self._update_member(request, group, member, reply)
        if group.is_(S.STABLE):
            if group.is_leader(member_id) or not same:
                return self._update_member(request, group, member, reply)
            reply.settle(group.answer_for(member_id))
            return EMPTY
        reply.settle(JoinAnswer(error=E.unknown_member_id, member_id=member_id))
        return EMPTY

    def _add_member(
        self, request: JoinRequest, group: ClassicGroup, member_id: str, reply: Reply[JoinAnswer]
    ) -> Result[Any]:
        member = ClassicMember(
            member_id=member_id,
            instance_id=request.instance_id,
            client_id=request.client_id,
            client_host=request.client_host,
            rebalance_timeout_ms=request.rebalance_timeout_ms,
            session_timeout_ms=request.session_timeout_ms,
            protocol_type=request.protocol_type,
            protocols=request.protocols,
            is_new=True,
        )
        if group.is_(S.PREPARING_REBALANCE) and group.previous_state is S.EMPTY:
            group.new_member_added = True
        group.add(member, reply)
        self._reschedule(group, member, self.settings().classic_new_member_join_timeout_ms)
        return self._rebalance_or_complete(group)

    def _update_member(
        self, request: JoinRequest, group: ClassicGroup, member: ClassicMember, reply: Reply[JoinAnswer]
    ) -> Result[Any]:
        group.update(
            member, request.protocols, request.rebalance_timeout_ms, request.session_timeout_ms, reply
        )
        return self._rebalance_or_complete(group)

    def _replace_static(
        self, request: JoinRequest, group: ClassicGroup, old_id: str, new_id: str, reply: Reply[JoinAnswer]
    ) -> Result[Any]:
        assert request.instance_id is not None
        leader_before = group.leader_id
        member = group.replace_static(request.instance_id, old_id, new_id)
        self._reschedule(group, member)
        group.update(
            member, request.protocols, request.rebalance_timeout_ms, request.session_timeout_ms, reply
        )
        if group.is_(S.STABLE):
            if (group.protocol_name or "") != group.select_protocol():
                return self._rebalance_or_complete(group)
            assignment = {m.member_id: m.assignment for m in group.members.values()}

            def answer() -> None:
                if request.supports_skipping_assignment:
                    leader = group.is_leader(new_id)
                    view = group.leader_view() if leader else ()
                    group.complete_join(
                        member, group.answer_for(new_id, members=view, skip_assignment=leader)
                    )
                else:
                    group.complete_join(member, group.answer_for(new_id, leader=leader_before or ""))

            return Result(records=[metadata_record(group, assignment)], replay=False, after=[answer])
        if group.is_(S.COMPLETING_REBALANCE):
            return self._prepare_rebalance(group)
        return self._complete_if_ready(group)

    # ---------------------------------------------------------------- rebalancing

    def _rebalance_or_complete(self, group: ClassicGroup) -> Result[Any]:
        if group.can_rebalance():
            return self._prepare_rebalance(group)
        return self._complete_if_ready(group)

    def _complete_if_ready(self, group: ClassicGroup) -> Result[Any]:
        if not group.is_(S.PREPARING_REBALANCE) or group.previous_state is S.EMPTY or not group.all_joined():
            return EMPTY
        return self._complete_join(group)

    def _prepare_rebalance(self, group: ClassicGroup) -> Result[Any]:
        if group.is_(S.COMPLETING_REBALANCE):
            self._propagate_error(group, E.rebalance_in_progress)
        group.pending_sync.clear()
        self.timer.cancel(sync_key(group.group_id))
        initial = group.is_(S.EMPTY)
        if initial:
            delay = self.settings().classic_initial_rebalance_delay_ms
            remaining = max(group.rebalance_timeout_ms() - delay, 0)
            group_id = group.group_id
            self.timer.schedule(
                join_key(group_id), delay, lambda: self._initial_rebalance_done(group_id, delay, remaining)
            )
        group.transition(S.PREPARING_REBALANCE, self.clock.now_ms())
        if initial:
            return EMPTY
        if group.all_joined():
            return self._complete_join(group)
        group_id = group.group_id
        self.timer.schedule(
            join_key(group_id), group.rebalance_timeout_ms(), lambda: self._complete_join_of(group_id)
        )
        return EMPTY

    def _initial_rebalance_done(self, group_id: str, delay_ms: int, remaining_ms: int) -> Result[Any]:
        group = self._find(group_id)
        if group is None:
            return EMPTY
        if group.new_member_added and remaining_ms != 0:
            group.new_member_added = False
            next_delay = min(self.settings().classic_initial_rebalance_delay_ms, remaining_ms)
            next_remaining = max(remaining_ms - delay_ms, 0)
            self.timer.schedule(
                join_key(group_id),
                next_delay,
                lambda: self._initial_rebalance_done(group_id, next_delay, next_remaining),
            )
            return EMPTY
        return self._complete_join(group)

    def _complete_join_of(self, group_id: str) -> Result[Any]:
        group = self._find(group_id)
        return EMPTY if group is None else self._complete_join(group)

    def _complete_join(self, group: ClassicGroup) -> Result[Any]:
        self.timer.cancel(join_key(group.group_id))
        for member in group.not_yet_rejoined():
            if member.instance_id is None:
                group.remove(member.member_id)
                self.timer.cancel(heartbeat_key(group.group_id, member.member_id))
        if group.is_(S.DEAD):
            return EMPTY
        if not group.elect_joined_leader() and group.members:
            group_id = group.group_id  # nobody rejoined: wait for the sessions to expire them
            self.timer.schedule(
                join_key(group_id), group.rebalance_timeout_ms(), lambda: self._complete_join_of(group_id)
            )
            return EMPTY
        group.init_next_generation(self.clock.now_ms())
        if group.is_(S.EMPTY):
            return Result(records=[metadata_record(group, {})], replay=False)
        for member in list(group.members.values()):
            view = group.leader_view() if group.is_leader(member.member_id) else ()
            group.complete_join(member, group.answer_for(member.member_id, members=view))
            self._reschedule(group, member)
            member.is_new = False
            group.pending_sync.add(member.member_id)
        group_id, generation = group.group_id, group.generation_id
        self.timer.schedule(
            sync_key(group_id), group.rebalance_timeout_ms(), lambda: self._expire_sync(group_id, generation)
        )
        return EMPTY

    def _expire_sync(self, group_id: str, generation: int) -> Result[Any]:
        group = self._find(group_id)
        if (
            group is None
            or generation != group.generation_id
            or not group.is_(S.COMPLETING_REBALANCE, S.STABLE)
        ):
            return EMPTY
        if not group.pending_sync:
            return EMPTY
        for member_id in list(group.pending_sync):
            group.remove(member_id)
            self.timer.cancel(heartbeat_key(group_id, member_id))
        return self._prepare_rebalance(group)

    # ---------------------------------------------------------------- sessions

    def _reschedule(self, group: ClassicGroup, member: ClassicMember, timeout_ms: int | None = None) -> None:
        group_id, member_id = group.group_id, member.member_id
        self.timer.schedule(
            heartbeat_key(group_id, member_id),
            member.session_timeout_ms if timeout_ms is None else timeout_ms,
            lambda: self._expire_heartbeat(group_id, member_id),
        )

    def keep_alive(self, group: ClassicGroup, member_id: str) -> None:
        """An offset commit of a member of a Stable or rebalancing group renews its session."""
        member = group.members.get(member_id)
        if member is not None:
            self._reschedule(group, member)

    def _expire_heartbeat(self, group_id: str, member_id: str) -> Result[Any]:
        group = self._find(group_id)
        if group is None or group.is_(S.DEAD):
            return EMPTY
        if member_id in group.pending_join:
            group.remove(member_id)
            return (
                self._complete_join(group)
                if group.is_(S.PREPARING_REBALANCE) and group.all_joined()
                else EMPTY
            )
        member = group.members.get(member_id)
        if member is None or member.satisfied_heartbeat():
            return EMPTY
        return self._remove_member(group, member)

    def _remove_member(self, group: ClassicGroup, member: ClassicMember) -> Result[Any]:
        group.complete_join(member, JoinAnswer(error=E.unknown_member_id))
        group.remove(member.member_id)
        if group.is_(S.STABLE, S.COMPLETING_REBALANCE):
            return self._rebalance_or_complete(group)
        if group.is_(S.PREPARING_REBALANCE) and group.all_joined():
            return self._complete_join(group)
        return EMPTY

    # ---------------------------------------------------------------- SyncGroup

    def sync(self, request: SyncRequest) -> Result[Reply[SyncAnswer]]:
        reply: Reply[SyncAnswer] = Reply()
        group = self.groups.get(request.group_id)
        if not isinstance(group, ClassicGroup) or group.is_empty:
            reply.settle(SyncAnswer(error=E.unknown_member_id))
            return Result(response=reply)
        error = self._sync_error(group, request)
        if error is not None:
            reply.settle(SyncAnswer(error=error))
            return Result(response=reply)
        if group.is_(S.PREPARING_REBALANCE):
            reply.settle(SyncAnswer(error=E.rebalance_in_progress))
            return Result(response=reply)
        member = group.members[request.member_id]
        if group.is_(S.STABLE):
            self._synced(group, request.member_id)
            reply.settle(
                SyncAnswer(
                    protocol_type=group.protocol_type,
                    protocol_name=group.protocol_name,
                    assignment=member.assignment,
                )
            )
            return Result(response=reply)
        member.sync_reply = reply  # CompletingRebalance: answered with the leader's assignment
        self._synced(group, request.member_id)
        if not group.is_leader(request.member_id):
            return Result(response=reply)
        assignment = dict(request.assignments)
        for member_id in group.members:
            assignment.setdefault(member_id, b"")
        generation = request.generation_id

        def stored() -> None:
            if group.is_(S.COMPLETING_REBALANCE) and generation == group.generation_id:
                for m in group.members.values():
                    m.assignment = assignment.get(m.member_id, b"")
                self._propagate(group, E.none)
                group.transition(S.STABLE, self.clock.now_ms())

        return Result(
            records=[metadata_record(group, assignment)], response=reply, replay=False, after=[stored]
        )

    def _sync_error(self, group: ClassicGroup, request: SyncRequest) -> ErrorCode | None:
        if group.is_(S.DEAD):
            return E.coordinator_not_available
        try:
            group.validate_member(request.member_id, request.instance_id)
        except CoordinatorError as error:
            return error.code
        if request.generation_id != group.generation_id:
            return E.illegal_generation
        if _inconsistent(request.protocol_type, group.protocol_type) or _inconsistent(
            request.protocol_name, group.protocol_name
        ):
            return E.inconsistent_group_protocol
        return None

    def _synced(self, group: ClassicGroup, member_id: str) -> None:
        group.pending_sync.discard(member_id)
        if group.is_(S.DEAD, S.EMPTY, S.PREPARING_REBALANCE) or not group.pending_sync:
            self.timer.cancel(sync_key(group.group_id))

    def _propagate_error(self, group: ClassicGroup, error: ErrorCode) -> None:
        for member in group.members.values():
            member.assignment = b""
        self._propagate(group, error)

    def _propagate(self, group: ClassicGroup, error: ErrorCode) -> None:
        ok = error is E.none
        for member in group.members.values():
            answer = SyncAnswer(
                error=error,
                protocol_type=group.protocol_type if ok else None,
                protocol_name=group.protocol_name if ok else None,
                assignment=member.assignment,
            )
            if group.complete_sync(member, answer):
                self._reschedule(group, member)

    # ---------------------------------------------------------------- Heartbeat, LeaveGroup

    def heartbeat(
        self, group_id: str, member_id: str, instance_id: str | None, generation_id: int
    ) -> ErrorCode:
        group = self.groups.get(group_id)
        if not isinstance(group, ClassicGroup):
            raise CoordinatorError(E.unknown_member_id, f"Group {group_id} not found.")
        if group.is_(S.DEAD):
            raise CoordinatorError(E.coordinator_not_available)
        group.validate_member(member_id, instance_id)
        if generation_id != group.generation_id:
            raise CoordinatorError(E.illegal_generation)
        if group.is_(S.EMPTY):
            return E.unknown_member_id
        self._reschedule(group, group.members[member_id])
        return E.rebalance_in_progress if group.is_(S.PREPARING_REBALANCE) else E.none

    def leave(
        self, group_id: str, members: list[tuple[str, str | None]]
    ) -> Result[list[tuple[str, str | None, ErrorCode]]]:
        group = self.groups.get(group_id)
        if not isinstance(group, ClassicGroup):
            raise CoordinatorError(E.unknown_member_id, f"Group {group_id} not found.")
        if group.is_(S.DEAD):
            raise CoordinatorError(E.coordinator_not_available)
        answers: list[tuple[str, str | None, ErrorCode]] = []
        for member_id, instance_id in members:
            if member_id == UNKNOWN_MEMBER_ID:
                if instance_id is not None and instance_id in group.static_members:
                    self._remove_current(group, group.static_members[instance_id])
                    answers.append((member_id, instance_id, E.none))
                else:
                    answers.append((member_id, instance_id, E.unknown_member_id))
            elif member_id in group.pending_join:
                group.remove(member_id)
                self.timer.cancel(heartbeat_key(group_id, member_id))
                answers.append((member_id, instance_id, E.none))
            else:
                try:
                    group.validate_member(member_id, instance_id)
                except CoordinatorError as error:
                    answers.append((member_id, instance_id, error.code))
                    continue
                self._remove_current(group, member_id)
                answers.append((member_id, instance_id, E.none))
        result: Result[Any] = EMPTY
        if any(code is E.none for _, _, code in answers):
            if group.is_(S.STABLE, S.COMPLETING_REBALANCE):
                result = self._rebalance_or_complete(group)
            elif group.is_(S.PREPARING_REBALANCE):
                result = self._complete_if_ready(group)
        return Result(records=result.records, response=answers, replay=False, after=result.after)

    def _remove_current(self, group: ClassicGroup, member_id: str) -> None:
        member = group.members[member_id]
        self.timer.cancel(heartbeat_key(group.group_id, member_id))
        group.complete_join(member, JoinAnswer(error=E.unknown_member_id))
        group.remove(member_id)

    # ---------------------------------------------------------------- records

    def cancel_timers(self, group: ClassicGroup) -> None:
        self.timer.cancel(join_key(group.group_id))
        self.timer.cancel(sync_key(group.group_id))
        for member_id in [*group.members, *group.pending_join]:
            self.timer.cancel(heartbeat_key(group.group_id, member_id))

    def loaded(self, group: ClassicGroup) -> None:
        """A group replayed from the log: its members' sessions start now."""
        for member in group.members.values():
            self._reschedule(group, member)


def _inconsistent(asked: str | None, current: str | None) -> bool:
    return asked is not None and asked != current
