"""Streams group RPCs (KIP-1071): StreamsGroupDescribe (89) v0. Streams groups live on the group
coordinators; their offsets are read, altered and deleted with OffsetFetch, OffsetCommit and
OffsetDelete (kcli.client.api.offsets, kcli.client.api.groups), the groups deleted with DeleteGroups.

Version notes: v1 (Kafka 4.4, KIP-1331: the topology description and the assignor's name) is newer
than kio; kcli asks v0, so it cannot show a group's topology description or assignor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from kcli.client.api.coordinators import Retry, on_coordinators, retry_for
from kcli.client.errors import KafkaError
from kcli.errors import KcliError
from kcli.kafka import ApiKey
from kcli.ops.groups.model import GroupState, Node

if TYPE_CHECKING:
    from kcli.client.admin import Admin

Tasks = tuple[
    tuple[str, tuple[int, ...]], ...
]  # (subtopology id, partitions) of active, standby or warmup tasks


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsMember:
    member_id: str
    member_epoch: int
    client_id: str
    host: str
    process_id: str
    topology_epoch: int
    is_classic: bool
    active: Tasks = ()
    standby: Tasks = ()
    warmup: Tasks = ()
    target_active: Tasks = ()
    target_standby: Tasks = ()
    target_warmup: Tasks = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class Subtopology:
    subtopology_id: str
    source_topics: tuple[str, ...] = ()
    repartition_source_topics: tuple[str, ...] = ()
    state_changelog_topics: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class StreamsGroup:
    group_id: str
    state: GroupState
    coordinator: Node
    group_epoch: int
    target_assignment_epoch: int
    topology_epoch: int
    members: tuple[StreamsMember, ...] = ()
    subtopologies: tuple[Subtopology, ...] = field(default_factory=tuple)


async def describe_streams_groups(
    admin: Admin, group_ids: Sequence[str], *, deadline: float
) -> dict[str, StreamsGroup | KcliError]:
    from kcli.client.admin import Target
    from kcli.client.protocol import make, request_class

    async def send(node: Node, batch: list[str]) -> dict[str, StreamsGroup | KcliError | Retry]:
        def build(version: int) -> Any:
            cls = request_class("streams_group_describe", version)
            return make(cls, group_ids=tuple(batch), include_authorized_operations=False)

        response = await admin.call(
            ApiKey.STREAMS_GROUP_DESCRIBE, build, versions=(0, 0), target=Target.node(node.node_id)
        )
        answers: dict[str, StreamsGroup | KcliError | Retry] = {}
        for group in response.groups:
            group_id, code = str(group.group_id), int(group.error_code)
            retry = retry_for(code)
            if retry is not None:
                answers[group_id] = retry
            elif code:
                answers[group_id] = KafkaError(
                    code, group.error_message, what=f"describing streams group {group_id}"
                )
            else:
                answers[group_id] = _streams_group(group, node)
        return answers

    return await on_coordinators(admin, group_ids, send, deadline=deadline)


def _tasks(raw: Any) -> Tasks:
    return tuple((str(t.subtopology_id), tuple(int(p) for p in t.partitions)) for t in raw)


def _streams_group(group: Any, node: Node) -> StreamsGroup:
    topology = group.topology
    subtopologies = tuple(
        Subtopology(
            subtopology_id=str(s.subtopology_id),
            source_topics=tuple(str(t) for t in s.source_topics),
            repartition_source_topics=tuple(str(t.name) for t in s.repartition_source_topics),
            state_changelog_topics=tuple(str(t.name) for t in s.state_changelog_topics),
        )
        for s in ((topology.subtopologies or ()) if topology is not None else ())
    )
    members = tuple(
        StreamsMember(
            member_id=str(m.member_id),
            member_epoch=int(m.member_epoch),
            client_id=str(m.client_id),
            host=str(m.client_host),
            process_id=str(m.process_id),
            topology_epoch=int(m.topology_epoch),
            is_classic=bool(m.is_classic),
            active=_tasks(m.assignment.active_tasks),
            standby=_tasks(m.assignment.standby_tasks),
            warmup=_tasks(m.assignment.warmup_tasks),
            target_active=_tasks(m.target_assignment.active_tasks),
            target_standby=_tasks(m.target_assignment.standby_tasks),
            target_warmup=_tasks(m.target_assignment.warmup_tasks),
        )
        for m in group.members
    )
    return StreamsGroup(
        group_id=str(group.group_id),
        state=GroupState.parse(str(group.group_state)),
        coordinator=node,
        group_epoch=int(group.group_epoch),
        target_assignment_epoch=int(group.assignment_epoch),
        topology_epoch=int(topology.epoch) if topology is not None else -1,
        members=members,
        subtopologies=subtopologies,
    )


async def delete_topics(
    admin: Admin, topics: Sequence[str], *, deadline: float
) -> dict[str, KcliError | None]:
    """DeleteTopics (20) v1-v5 of a streams group's internal topics: each topic's error, or None.

    Sent to any node (a broker forwards it to the controller); kafka-streams-groups deletes a group's
    changelog and repartition topics with it (--delete-all-internal-topics, --delete-internal-topic).
    """
    from kcli.client.admin import Target
    from kcli.client.api.coordinators import ms_left
    from kcli.client.api.offsets import request_timeout
    from kcli.client.protocol import make, request_class

    def build(version: int) -> Any:
        return make(
            request_class("delete_topics", version),
            topic_names=tuple(topics),
            timeout=request_timeout(ms_left(deadline)),
        )

    response = await admin.call(
        ApiKey.DELETE_TOPICS,
        build,
        versions=(1, 5),
        target=Target.ANY,
        timeout_ms=ms_left(deadline),
        idempotent=False,
    )
    return {
        str(r.name): KafkaError(
            int(r.error_code), getattr(r, "error_message", None), what=f"deleting topic {r.name}"
        )
        if int(r.error_code)
        else None
        for r in response.responses
    }
