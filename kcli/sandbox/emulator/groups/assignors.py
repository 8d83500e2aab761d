"""The server-side assignors of KIP-848 groups: uniform (the default) and range.

Behavior:
- uniform: every subscribed partition goes to one member, the counts differing by at most one where
  the members share one subscription; a partition stays with the member that has it in the current
  target while that member's share allows (Kafka's UniformHomogeneousAssignmentBuilder). Members of
  different subscriptions get the partitions of their topics, each to the least loaded subscriber.
- range: for each topic, its subscribers in member id order get consecutive ranges, the first
  `partitions % members` one partition more (the classic RangeAssignor's shape).
Members and topics are taken in a sorted order (Kafka iterates hash maps), so ties may fall to
another member than on a Kafka node; counts and stickiness are Kafka's.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass

Target = dict[uuid.UUID, frozenset[int]]


class AssignorError(Exception):
    """A subscription the assignor cannot satisfy (a topic without metadata)."""


@dataclass(frozen=True, slots=True)
class MemberSpec:
    subscribed: frozenset[uuid.UUID]
    current: Mapping[uuid.UUID, frozenset[int]]  # this member's current target assignment


def assign(
    name: str, members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int]
) -> dict[str, Target]:
    """The new target assignment of every member with assignor `name`; `partitions`: counts by topic id."""
    if not members:
        return {}
    if name == "range":
        return _range(members, partitions)
    return _uniform(members, partitions)


def _check(members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int]) -> None:
    for spec in members.values():
        for topic_id in spec.subscribed:
            if partitions.get(topic_id, -1) < 0:
                raise AssignorError(
                    f"Members are subscribed to topic {topic_id} which doesn't exist in the topic metadata."
                )


def _uniform(members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int]) -> dict[str, Target]:
    _check(members, partitions)
    subscriptions = {spec.subscribed for spec in members.values()}
    if len(subscriptions) == 1:
        return _uniform_homogeneous(members, partitions, next(iter(subscriptions)))
    return _uniform_heterogeneous(members, partitions)


def _uniform_homogeneous(
    members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int], topics: frozenset[uuid.UUID]
) -> dict[str, Target]:
    if not topics:
        return {m: {} for m in members}
    order = sorted(topics, key=str)
    owned = {(t, p) for spec in members.values() for t, ps in spec.current.items() if t in topics for p in ps}
    unassigned = [(t, p) for t in order for p in range(partitions[t]) if (t, p) not in owned]
    total = sum(partitions[t] for t in topics)
    minimum, extra = divmod(total, len(members))
    assignment: dict[str, dict[uuid.UUID, set[int]]] = {}
    unfilled: list[tuple[str, int]] = []
    names = sorted(members)
    for index, member_id in enumerate(names):
        quota = minimum
        has_extra = extra > 0
        if has_extra:
            quota += 1
        kept: dict[uuid.UUID, set[int]] = {}
        for topic_id in sorted(members[member_id].current, key=str):
            if topic_id not in topics:
                continue
            for partition in sorted(members[member_id].current[topic_id]):
                if quota > 0:
                    quota -= 1
                    kept.setdefault(topic_id, set()).add(partition)
                else:
                    unassigned.append((topic_id, partition))
        if quota > 0 and has_extra and len(names) - index > extra:
            quota -= 1
            has_extra = False
        if quota > 0:
            unfilled.append((member_id, quota))
        if has_extra:
            extra -= 1
        assignment[member_id] = kept
    position = 0
    for member_id, quota in unfilled:
        for _ in range(quota):
            if position >= len(unassigned):
                break
            topic_id, partition = unassigned[position]
            position += 1
            assignment[member_id].setdefault(topic_id, set()).add(partition)
    if position < len(unassigned):
        raise AssignorError("Partitions were left unassigned")
    return {m: {t: frozenset(ps) for t, ps in a.items()} for m, a in assignment.items()}


def _uniform_heterogeneous(
    members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int]
) -> dict[str, Target]:
    assignment: dict[str, dict[uuid.UUID, set[int]]] = {m: {} for m in members}
    load = dict.fromkeys(members, 0)
    topics = sorted({t for spec in members.values() for t in spec.subscribed}, key=str)
    for topic_id in topics:
        subscribers = sorted(m for m, spec in members.items() if topic_id in spec.subscribed)
        share = -(-partitions[topic_id] // len(subscribers))
        taken: set[int] = set()
        for member_id in subscribers:  # stickiness: keep up to a fair share of this topic
            kept = sorted(members[member_id].current.get(topic_id, ()))[:share]
            for partition in kept:
                if partition < partitions[topic_id] and partition not in taken:
                    taken.add(partition)
                    assignment[member_id].setdefault(topic_id, set()).add(partition)
                    load[member_id] += 1
        for partition in range(partitions[topic_id]):
            if partition in taken:
                continue
            member_id = min(subscribers, key=lambda m: (load[m], m))
            assignment[member_id].setdefault(topic_id, set()).add(partition)
            load[member_id] += 1
    return {m: {t: frozenset(ps) for t, ps in a.items()} for m, a in assignment.items()}


def _range(members: Mapping[str, MemberSpec], partitions: Mapping[uuid.UUID, int]) -> dict[str, Target]:
    _check(members, partitions)
    assignment: dict[str, dict[uuid.UUID, frozenset[int]]] = {m: {} for m in members}
    topics = sorted({t for spec in members.values() for t in spec.subscribed}, key=str)
    for topic_id in topics:
        subscribers = sorted(m for m, spec in members.items() if topic_id in spec.subscribed)
        quota, extra = divmod(partitions[topic_id], len(subscribers))
        start = 0
        for index, member_id in enumerate(subscribers):
            size = quota + (1 if index < extra else 0)
            if size:
                assignment[member_id][topic_id] = frozenset(range(start, start + size))
            start += size
    return assignment
