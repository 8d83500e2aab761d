"""The transaction coordinator over in-memory logs: producer ids and epochs, a commit's markers, an
abort of a transaction past its timeout, and the state read back from __transaction_state."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from kio.schema.errors import ErrorCode

from kcli.ops.java_order import topic_partition_hash
from kcli.sandbox.emulator.groups.java_order import partition_set_order
from kcli.sandbox.emulator.groups.txn_coordinator import TxnCoordinator, TxnSettings
from kcli.sandbox.emulator.groups.txn_state import TxnState
from tests.groups.memory_logs import MemoryLogs

E = ErrorCode


class Markers:
    def __init__(self) -> None:
        self.written: list[tuple[str, int, int, int, bool, int]] = []
        self.refusals = 0

    async def __call__(self, topic: str, partition: int, **marker: Any) -> ErrorCode:
        if self.refusals:
            self.refusals -= 1
            return E.not_leader_or_follower
        self.written.append(
            (
                topic,
                partition,
                marker["producer_id"],
                marker["producer_epoch"],
                marker["commit"],
                marker["transaction_version"],
            )
        )
        return E.none


def make(logs: MemoryLogs, markers: Markers, **settings: Any) -> TxnCoordinator:
    ids = itertools.count(1000)

    async def producer_ids() -> int:
        return next(ids)

    config = TxnSettings(**settings)
    return TxnCoordinator(
        lambda: logs,
        lambda: config,
        producer_ids=producer_ids,
        markers=markers,
        coordinator_epoch=lambda p: 0,
    )


async def settled(coordinator: TxnCoordinator, txn_id: str, state: TxnState) -> None:
    deadline = asyncio.get_running_loop().time() + 5
    while coordinator.describe(txn_id).state is not state:
        assert asyncio.get_running_loop().time() < deadline, f"{txn_id} never became {state.label}"
        await asyncio.sleep(0.02)


def test_a_commit_writes_its_markers_and_the_log_keeps_the_state() -> None:
    async def scenario() -> None:
        logs, markers = MemoryLogs(), Markers()
        coordinator = make(logs, markers)
        assert await coordinator.init_producer_id("", 60_000, None) == (E.invalid_request, -1, -1)
        assert (await coordinator.init_producer_id("t", 0, None))[0] is E.invalid_transaction_timeout
        assert await coordinator.init_producer_id("t", 60_000, None) == (E.none, 1000, 0)
        parts = {("a", 0), ("a", 1)}
        assert await coordinator.add_partitions("t", 1000, 0, parts, 0) is E.none
        assert await coordinator.add_partitions("t", 1000, 7, parts, 0) is E.producer_fenced
        assert coordinator.verify("t", 1000, 0, {("a", 0), ("b", 0)}) == {
            ("a", 0): E.none,
            ("b", 0): E.transaction_abortable,
        }
        described = coordinator.describe("t")
        assert (described.state, described.partitions) == (TxnState.ONGOING, (("a", 0), ("a", 1)))
        markers.refusals = 1  # a partition leader refuses once: the marker is sent again
        assert (await coordinator.end_txn("t", 1000, 0, True, 0))[0] is E.none
        await settled(coordinator, "t", TxnState.COMPLETE_COMMIT)
        assert sorted(markers.written) == [("a", 0, 1000, 0, True, 0), ("a", 1, 1000, 0, True, 0)]
        # a second InitProducerId bumps the epoch; the old epoch is fenced
        assert await coordinator.init_producer_id("t", 60_000, None) == (E.none, 1000, 1)
        assert (await coordinator.end_txn("t", 1000, 0, False, 0))[0] is E.producer_fenced
        coordinator.close()
        again = make(logs, Markers())
        reread = again.describe("t")
        assert (reread.producer_id, reread.producer_epoch, reread.state) == (1000, 1, TxnState.EMPTY)
        listed, unknown = again.list(list(range(50)), set(), {"Empty", "Bogus"}, -1, None)
        assert [t.transactional_id for t in listed] == ["t"] and unknown == ["Bogus"]
        again.close()

    asyncio.run(scenario())


def test_a_transactions_partitions_keep_the_order_they_joined_in() -> None:
    """Two partitions of one HashSet bucket are described in the order they joined, as on a real 4.4.0
    broker: the topic's partition (AddPartitionsToTxn), then the group's (TxnOffsetCommit v5)."""
    topic, offsets = ("kcli-fidelity-groups-96c13c07-t", 0), ("__consumer_offsets", 12)
    bucket = [(h ^ (h >> 16)) & 15 for h in (topic_partition_hash(*topic), topic_partition_hash(*offsets))]
    assert bucket[0] == bucket[1] and offsets < topic  # sorting would put __consumer_offsets first

    async def scenario() -> None:
        coordinator = make(MemoryLogs(), Markers())
        assert await coordinator.init_producer_id("t", 60_000, None) == (E.none, 1000, 0)
        assert await coordinator.add_partitions("t", 1000, 0, {topic}, 2) is E.none
        assert await coordinator.add_partitions("t", 1000, 0, {offsets, topic}, 2) is E.none
        described = coordinator.describe("t").partitions
        assert described == (topic, offsets)
        assert partition_set_order(described) == [topic, offsets]
        coordinator.close()

    asyncio.run(scenario())


def test_a_transaction_past_its_timeout_is_aborted_with_a_new_epoch() -> None:
    async def scenario() -> None:
        logs, markers = MemoryLogs(), Markers()
        coordinator = make(logs, markers, abort_interval_ms=20)
        await coordinator.init_producer_id("slow", 50, None)
        assert await coordinator.add_partitions("slow", 1000, 0, {("a", 0)}, 2) is E.none
        await settled(coordinator, "slow", TxnState.COMPLETE_ABORT)
        assert markers.written == [("a", 0, 1000, 1, False, 2)]
        # the producer's own EndTxn with its old epoch reads as a retry of that abort (Kafka's
        # retryOnEpochBump): an abort succeeds, a commit is in the wrong state
        assert (await coordinator.end_txn("slow", 1000, 0, False, 2))[0] is E.none
        assert (await coordinator.end_txn("slow", 1000, 0, True, 2))[0] is E.invalid_txn_state
        coordinator.close()

    asyncio.run(scenario())
