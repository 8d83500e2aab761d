"""The classic group protocol on the coordinator, over in-memory logs: joins, syncs, sessions, leaves,
commits, and the state read back from the log."""

from __future__ import annotations

import asyncio
import uuid

from kio.schema.errors import ErrorCode

from kcli.sandbox.emulator.groups.classic_ops import JoinRequest, SyncRequest
from kcli.sandbox.emulator.groups.consumer_protocol import encode_subscription
from kcli.sandbox.emulator.groups.shard import CommitRequest
from tests.groups.conftest import make_coordinator

E = ErrorCode
ZERO = uuid.UUID(int=0)


def join(
    group: str,
    member: str = "",
    *,
    instance: str | None = None,
    version: int = 9,
    session: int = 10_000,
    rebalance: int = 5000,
) -> JoinRequest:
    return JoinRequest(
        group_id=group,
        member_id=member,
        instance_id=instance,
        protocol_type="consumer",
        protocols=(("range", encode_subscription(["t"])),),
        session_timeout_ms=session,
        rebalance_timeout_ms=rebalance,
        client_id="client",
        client_host="/127.0.0.1",
        version=version,
    )


def commit(group: str, member: str, generation: int, offset: int, version: int = 9) -> CommitRequest:
    return CommitRequest(
        group_id=group,
        member_id=member,
        instance_id=None,
        generation=generation,
        retention_ms=-1,
        topics=[("t", ZERO, [(0, offset, -1, "meta")])],
        version=version,
    )


def test_a_member_joins_syncs_commits_and_the_log_rebuilds_it() -> None:
    async def scenario() -> None:
        coordinator, logs, topics = make_coordinator()
        first = await coordinator.join(join("g"))
        assert first.error is E.member_id_required and first.member_id.startswith("client-")
        joined = await coordinator.join(join("g", first.member_id))
        assert (joined.error, joined.generation_id, joined.leader, joined.protocol_name) == (
            E.none,
            1,
            first.member_id,
            "range",
        )
        assert [m[0] for m in joined.members] == [first.member_id]
        synced = await coordinator.sync(
            SyncRequest(
                group_id="g",
                member_id=first.member_id,
                instance_id=None,
                generation_id=1,
                protocol_type="consumer",
                protocol_name="range",
                assignments=((first.member_id, b"assigned"),),
            )
        )
        assert (synced.error, synced.assignment) == (E.none, b"assigned")
        assert await coordinator.heartbeat("g", first.member_id, None, 1) is E.none
        assert await coordinator.heartbeat("g", first.member_id, None, 7) is E.illegal_generation
        answers = await coordinator.commit(commit("g", first.member_id, 1, 42))
        assert answers == [("t", ZERO, [(0, E.none)])]
        assert coordinator.fetch("g", [("t", ZERO, [0, 1])], require_stable=True)[0][1][0].offset == 42
        (described,) = coordinator.describe(["g"], 5)
        assert (described.state, described.protocol, described.members[0].assignment) == (
            "Stable",
            "range",
            b"assigned",
        )

        reopened, _, _ = make_coordinator(logs, topics)
        (again,) = reopened.describe(["g"], 5)
        assert (again.state, again.members[0].member_id, again.members[0].assignment) == (
            "Stable",
            first.member_id,
            b"assigned",
        )
        fetched = reopened.fetch("g", None, require_stable=False)
        assert [(t, [(p.partition, p.offset, p.metadata) for p in ps]) for t, ps in fetched] == [
            ("t", [(0, 42, "meta")])
        ]
        coordinator.close()
        reopened.close()

    asyncio.run(scenario())


def test_a_rebalance_waits_for_every_member_and_drops_those_that_do_not_rejoin() -> None:
    async def scenario() -> None:
        coordinator, _, _ = make_coordinator()
        a = (await coordinator.join(join("g", version=3))).member_id  # v3: no MEMBER_ID_REQUIRED
        await coordinator.sync(
            SyncRequest(
                group_id="g",
                member_id=a,
                instance_id=None,
                generation_id=1,
                protocol_type=None,
                protocol_name=None,
                assignments=((a, b"x"),),
            )
        )
        b_join = asyncio.ensure_future(coordinator.join(join("g", version=3, rebalance=300)))
        await asyncio.sleep(0.05)
        assert await coordinator.heartbeat("g", a, None, 1) is E.rebalance_in_progress
        a_join = await coordinator.join(join("g", a, version=3, rebalance=300))
        b = await b_join
        assert a_join.generation_id == b.generation_id == 2
        assert a_join.leader == a and len(a_join.members) == 2 and b.members == ()
        # b never syncs: after the rebalance timeout it is removed and the group rebalances again
        await coordinator.sync(
            SyncRequest(
                group_id="g",
                member_id=a,
                instance_id=None,
                generation_id=2,
                protocol_type="consumer",
                protocol_name="range",
                assignments=(),
            )
        )
        coordinator.close()

    asyncio.run(scenario())


def test_session_expiry_removes_a_member_and_the_group_becomes_empty() -> None:
    async def scenario() -> None:
        coordinator, _, _ = make_coordinator(classic_min_session_timeout_ms=10)
        a = (await coordinator.join(join("g", version=3, session=150))).member_id
        await coordinator.sync(
            SyncRequest(
                group_id="g",
                member_id=a,
                instance_id=None,
                generation_id=1,
                protocol_type=None,
                protocol_name=None,
                assignments=(),
            )
        )
        deadline = asyncio.get_running_loop().time() + 5
        while coordinator.describe(["g"], 5)[0].state != "Empty":
            assert asyncio.get_running_loop().time() < deadline, "the session never expired"
            await asyncio.sleep(0.05)
        assert await coordinator.heartbeat("g", a, None, 1) is E.unknown_member_id
        assert await coordinator.delete_groups(["g", "nope"]) == [
            ("g", E.none),
            ("nope", E.group_id_not_found),
        ]
        assert coordinator.describe(["g"], 6)[0].error is E.group_id_not_found
        coordinator.close()

    asyncio.run(scenario())


def test_validation_and_simple_groups() -> None:
    async def scenario() -> None:
        coordinator, _, _ = make_coordinator()
        assert (await coordinator.join(join(""))).error is E.invalid_group_id
        assert (await coordinator.join(join("g", session=100))).error is E.invalid_session_timeout
        assert (await coordinator.join(join("nope", "some-member"))).error is E.unknown_member_id
        # a commit without a generation creates a simple group (offsets only)
        assert (await coordinator.commit(commit("simple", "", -1, 5)))[0][2] == [(0, E.none)]
        assert coordinator.list_groups([coordinator.partition_for("simple")], [], [])[0].state == "Empty"
        for version, code in ((9, E.group_id_not_found), (8, E.illegal_generation)):
            try:
                await coordinator.commit(commit("absent", "m", 3, 1, version=version))
            except Exception as error:  # CoordinatorError
                assert getattr(error, "code", None) is code
            else:
                raise AssertionError("a commit with a generation to no group")
        code, members = await coordinator.leave("absent", [("m", None)])
        assert (code, members) == (E.none, [("m", None, E.unknown_member_id)])
        coordinator.close()

    asyncio.run(scenario())


def test_a_static_member_replaces_its_old_id_and_fences_it() -> None:
    async def scenario() -> None:
        coordinator, _, _ = make_coordinator()
        old = await coordinator.join(join("g", instance="i1"))
        assert old.error is E.none
        await coordinator.sync(
            SyncRequest(
                group_id="g",
                member_id=old.member_id,
                instance_id="i1",
                generation_id=1,
                protocol_type=None,
                protocol_name=None,
                assignments=((old.member_id, b"a"),),
            )
        )
        new = await coordinator.join(join("g", instance="i1"))
        assert new.error is E.none and new.member_id != old.member_id and new.generation_id == 1
        assert await coordinator.heartbeat("g", old.member_id, "i1", 1) is E.fenced_instance_id
        assert await coordinator.heartbeat("g", new.member_id, "i1", 1) is E.none
        assert await coordinator.leave("g", [("", "i1")]) == (E.none, [("", "i1", E.none)])
        coordinator.close()

    asyncio.run(scenario())
