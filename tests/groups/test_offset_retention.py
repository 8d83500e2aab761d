"""Offset retention on the coordinator: the periodic cleanup drops offsets past
offsets.retention.minutes, keeps those of topics a group subscribes to, and removes the empty groups
left with none."""

from __future__ import annotations

import asyncio

from kcli.sandbox.emulator.groups.coordinator import GroupCoordinator
from kcli.sandbox.emulator.groups.settings import GroupSettings
from tests.groups.conftest import Topics
from tests.groups.memory_logs import MemoryLogs
from tests.groups.test_classic_groups import commit

DAY = 24 * 3600 * 1000


class Clock:
    def __init__(self) -> None:
        self.ms = 1_700_000_000_000

    def now_ms(self) -> int:
        return self.ms


def test_expired_offsets_and_their_empty_simple_group_go() -> None:
    async def scenario() -> None:
        clock, logs = Clock(), MemoryLogs()
        settings = GroupSettings(offsets_retention_ms=DAY, offsets_retention_check_ms=20)
        coordinator = GroupCoordinator(lambda: logs, Topics(), lambda: settings, clock=clock)
        await coordinator.commit(commit("old", "", -1, 5))
        clock.ms += DAY // 2
        await coordinator.commit(commit("young", "", -1, 7))
        clock.ms += DAY // 2  # "old" is a day old now, "young" half a day
        deadline = asyncio.get_running_loop().time() + 5
        while any(g.group_id == "old" for g in coordinator.list_groups(list(range(50)), [], [])):
            assert asyncio.get_running_loop().time() < deadline, "the old group never expired"
            await asyncio.sleep(0.02)
        listed = coordinator.list_groups(list(range(50)), [], [])
        assert [g.group_id for g in listed] == ["young"]
        fetched = coordinator.fetch("old", None, require_stable=False)
        assert fetched == []
        coordinator.close()
        # the tombstones are in the log: a coordinator reading it again finds only "young"
        again = GroupCoordinator(lambda: logs, Topics(), lambda: settings, clock=clock)
        assert [g.group_id for g in again.list_groups(list(range(50)), [], [])] == ["young"]
        again.close()

    asyncio.run(scenario())
