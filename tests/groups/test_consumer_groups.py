"""KIP-848 consumer groups on the coordinator: join, the target assignment, revocation before
assignment, leaving, and the group read back from its records."""

from __future__ import annotations

import asyncio

import pytest
from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups.consumer_ops import HeartbeatRequest
from kcli.sandbox.emulator.groups.model import CoordinatorError
from tests.groups.conftest import make_coordinator

E = ErrorCode


def beat(
    member: str,
    epoch: int,
    *,
    topics: list[str] | None = None,
    owned: list | None = None,
    version: int = 1,
    assignor: str | None = None,
    instance: str | None = None,
) -> HeartbeatRequest:
    return HeartbeatRequest(
        group_id="g",
        member_id=member,
        member_epoch=epoch,
        instance_id=instance,
        rack_id=None,
        rebalance_timeout_ms=30_000 if epoch == 0 else -1,
        subscribed_topic_names=topics,
        subscribed_topic_regex=None,
        server_assignor=assignor,
        owned=owned,
        client_id="c",
        client_host="/127.0.0.1",
        version=version,
    )


def test_two_members_share_the_partitions_after_a_revocation() -> None:
    async def scenario() -> None:
        coordinator, logs, topics = make_coordinator(consumer_assignment_interval_ms=0)
        t = topics.add("t", 4)
        a = await coordinator.consumer_heartbeat(beat("a", 0, topics=["t"], owned=[]))
        assert a.member_epoch == 1 and a.assignment == {t: [0, 1, 2, 3]}
        b = await coordinator.consumer_heartbeat(beat("b", 0, topics=["t"], owned=[]))
        assert b.member_epoch == 2 and b.assignment == {}  # its partitions are still a's
        # a must revoke two partitions first: it stays at epoch 1 with the two it keeps
        a2 = await coordinator.consumer_heartbeat(beat("a", 1, owned=[(t, [0, 1, 2, 3])]))
        assert a2.member_epoch == 1 and a2.assignment is not None and len(a2.assignment[t]) == 2
        kept = a2.assignment[t]
        a3 = await coordinator.consumer_heartbeat(beat("a", 1, owned=[(t, kept)]))
        assert a3.member_epoch == 2
        b2 = await coordinator.consumer_heartbeat(beat("b", 2, owned=[]))
        assert b2.member_epoch == 2 and b2.assignment is not None
        assert sorted(b2.assignment[t]) == sorted({0, 1, 2, 3} - set(kept))
        group = coordinator.consumer_group("g")
        assert group.state.value == "Stable" and group.group_epoch == 2
        # the group read back from its records
        again, _, _ = make_coordinator(logs, topics)
        reread = again.consumer_group("g")
        assert (reread.group_epoch, reread.assignment_epoch, sorted(reread.members)) == (2, 2, ["a", "b"])
        assert reread.members["b"].assigned == group.members["b"].assigned
        # a leaves: the group epoch moves on, b gets everything at its next heartbeat
        left = await coordinator.consumer_heartbeat(beat("a", -1))
        assert left.member_epoch == -1
        b3 = await coordinator.consumer_heartbeat(beat("b", 2, owned=[(t, b2.assignment[t])]))
        assert b3.member_epoch == 3 and b3.assignment == {t: [0, 1, 2, 3]}
        coordinator.close()
        again.close()

    asyncio.run(scenario())


def test_heartbeat_checks() -> None:
    async def scenario() -> None:
        coordinator, _, topics = make_coordinator()
        topics.add("t", 1)
        cases = [
            (beat("", 0, topics=["t"], owned=[]), E.invalid_request, "MemberId can't be empty."),
            (
                beat("m", 0, topics=None, owned=[]),
                E.invalid_request,
                "Either SubscribedTopicNames or SubscribedTopicRegex must be non-null when (re-)joining.",
            ),
            (
                beat("m", 0, topics=["t"], owned=None),
                E.invalid_request,
                "TopicPartitions must be empty when (re-)joining.",
            ),
            (
                beat("m", 0, topics=["t"], owned=[], assignor="sticky"),
                E.unsupported_assignor,
                "ServerAssignor sticky is not supported. Supported assignors: uniform, range.",
            ),
            (beat("m", 5, topics=["t"]), E.group_id_not_found, "Consumer group g not found."),
        ]
        for request, code, message in cases:
            with pytest.raises(CoordinatorError) as raised:
                await coordinator.consumer_heartbeat(request)
            assert (raised.value.code, raised.value.message) == (code, message)
        joined = await coordinator.consumer_heartbeat(beat("m", 0, topics=["t"], owned=[]))
        with pytest.raises(CoordinatorError) as raised:
            await coordinator.consumer_heartbeat(beat("m", joined.member_epoch + 1))
        assert raised.value.code is E.fenced_member_epoch
        coordinator.close()

    asyncio.run(scenario())
