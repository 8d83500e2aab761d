"""How a KIP-848 member moves towards its target assignment (Kafka's CurrentAssignmentBuilder).

Behavior:
- A Stable member behind the target epoch computes its next assignment: partitions it keeps, those to
  revoke (it stays at its epoch, UNREVOKED_PARTITIONS, until a heartbeat no longer lists them) and
  those to receive, which wait while another member still owns them (UNRELEASED_PARTITIONS); with
  nothing to revoke it moves to the target epoch.
- A changed subscription drops the partitions of topics it no longer subscribes to at once.
- An UNKNOWN member must rejoin with no partitions (else FENCED_MEMBER_EPOCH).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping
from dataclasses import replace

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups.consumer import Assignment, ConsumerMember, MemberState
from kcli.sandbox.emulator.groups.model import CoordinatorError

Owned = list[tuple[uuid.UUID, list[int]]]
PartitionEpoch = Callable[[uuid.UUID, int], int]  # the epoch of the member owning a partition, -1: none


def reconcile(
    member: ConsumerMember,
    *,
    target_epoch: int,
    target: Mapping[uuid.UUID, frozenset[int]],
    subscribed: set[uuid.UUID],
    subscription_changed: bool,
    owned: Owned | None,
    partition_epoch: PartitionEpoch,
) -> ConsumerMember:
    """The member after one step towards `target` (itself when nothing moves)."""
    if not subscription_changed and member.is_reconciled_to(target_epoch):
        return member
    state = member.state

    def step(epoch: int) -> ConsumerMember:
        return _next(member, epoch, target_epoch, target, subscribed, owned, partition_epoch)

    if state is MemberState.STABLE:
        if member.member_epoch != target_epoch:
            return step(member.member_epoch)
        return _drop_unsubscribed(member, subscribed, owned) if subscription_changed else member
    if state is MemberState.UNREVOKED_PARTITIONS:
        if owns_any(owned, member.pending_revocation):
            return _drop_unsubscribed(member, subscribed, owned) if subscription_changed else member
        return step(member.member_epoch)
    if state is MemberState.UNRELEASED_PARTITIONS:
        return step(member.member_epoch)
    if owned is None or owned:
        raise CoordinatorError(
            ErrorCode.fenced_member_epoch,
            "The consumer group member is in a unknown state. The member must abandon all its partitions and rejoin.",
        )
    return step(target_epoch)


def _drop_unsubscribed(
    member: ConsumerMember, subscribed: set[uuid.UUID], owned: Owned | None
) -> ConsumerMember:
    if not subscribed and not member.pending_revocation:
        assigned: dict[uuid.UUID, dict[int, int]] = {}
        pending = {t: dict(ps) for t, ps in member.assigned.items()}
    else:
        assigned = {t: dict(ps) for t, ps in member.assigned.items() if t in subscribed}
        pending = {t: dict(ps) for t, ps in member.pending_revocation.items()}
        for topic_id, partitions in member.assigned.items():
            if topic_id not in subscribed:
                pending.setdefault(topic_id, {}).update(partitions)
    if assigned == member.assigned:
        return member
    epoch = member.member_epoch
    if pending and owns_any(owned, pending):
        return replace(
            member,
            state=MemberState.UNREVOKED_PARTITIONS,
            member_epoch=epoch,
            previous_member_epoch=epoch,
            assigned=assigned,
            pending_revocation=pending,
        )
    return replace(member, member_epoch=epoch, previous_member_epoch=epoch, assigned=assigned)


def _next(
    member: ConsumerMember,
    member_epoch: int,
    target_epoch: int,
    target: Mapping[uuid.UUID, frozenset[int]],
    subscribed: set[uuid.UUID],
    owned: Owned | None,
    partition_epoch: PartitionEpoch,
) -> ConsumerMember:
    unreleased = False
    assigned: dict[uuid.UUID, dict[int, int]] = {}
    revoke: dict[uuid.UUID, dict[int, int]] = {}
    waiting: dict[uuid.UUID, set[int]] = {}
    for topic_id in {*target, *member.assigned}:
        wanted = target.get(topic_id, frozenset()) if topic_id in subscribed else frozenset()
        current = member.assigned.get(topic_id, {})
        keep = {p: e for p, e in current.items() if p in wanted}
        gone = {p: e for p, e in current.items() if p not in keep}
        coming = set(wanted) - set(keep)
        own_pending = member.pending_revocation.get(topic_id, {})
        blocked = {p for p in coming if partition_epoch(topic_id, p) != -1 and p not in own_pending}
        if blocked:
            unreleased = True
            coming -= blocked
        if keep:
            assigned[topic_id] = keep
        if gone:
            revoke[topic_id] = gone
        if coming:
            waiting[topic_id] = coming
    previous = member.member_epoch
    if revoke and owns_any(owned, revoke):
        return replace(
            member,
            state=MemberState.UNREVOKED_PARTITIONS,
            member_epoch=member_epoch,
            previous_member_epoch=previous,
            assigned=assigned,
            pending_revocation=revoke,
        )
    for topic_id, partitions in waiting.items():
        topic = assigned.setdefault(topic_id, {})
        for partition in partitions:
            topic[partition] = target_epoch
    return replace(
        member,
        state=MemberState.UNRELEASED_PARTITIONS if unreleased else MemberState.STABLE,
        member_epoch=target_epoch,
        previous_member_epoch=previous,
        assigned=assigned,
        pending_revocation={},
    )


def owns_any(owned: Owned | None, assignment: Assignment) -> bool:
    """Whether the member still lists any of `assignment` (a heartbeat without the list: it does)."""
    if owned is None:
        return True
    return any(p in assignment.get(topic_id, {}) for topic_id, partitions in owned for p in partitions)


def is_subset(owned: Owned | None, assigned: Assignment) -> bool:
    if owned is None:
        return False
    return all(
        topic_id in assigned and p in assigned[topic_id] for topic_id, partitions in owned for p in partitions
    )
