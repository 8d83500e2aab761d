"""The emulator's group coordinator, transaction coordinator and delegation-token answers beside a real
Kafka 4.4.0 cluster's, answer by answer (FindCoordinator, the classic protocol, OffsetCommit/Fetch/Delete,
DescribeGroups, ListGroups, DeleteGroups, ConsumerGroupHeartbeat/Describe, InitProducerId,
AddPartitionsToTxn, AddOffsetsToTxn, TxnOffsetCommit, EndTxn, DescribeTransactions, ListTransactions,
DescribeProducers, the delegation-token APIs), collected by test_sandbox_vs_kafka.py so that they run on
its real cluster.

Each scenario sends the same requests, in the same order, to both sides (group and transaction requests
to the side's own coordinator, found with FindCoordinator) and compares every field of every answer,
error messages included. What is replaced on both sides before comparing (and nothing else): the member
ids a coordinator draws (`<client id>-<uuid>`, numbered in order of appearance), producer ids (numbered),
topic ids (by the topic's name), the coordinator's node id and address, and transaction start times (the
brokers' clocks). Both sides run a scenario at once: a classic group's first rebalance waits
group.initial.rebalance.delay.ms (3 s) on each.

Not compared here, and why: the share and streams group APIs (the real cluster has share.version and
streams.version on, the emulator answers as a node with them off: checked by hand against a real node
with both downgraded, see kcli/sandbox/emulator/groups_off.py), a classic member joining a consumer group
(Kafka converts the group online; the emulator answers INCONSISTENT_GROUP_PROTOCOL), and delegation tokens
over SASL (the real cluster is PLAINTEXT; tests/peers/java/test_groups.py logs in with a token).
"""

from __future__ import annotations

import concurrent.futures
import re
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.fidelity import group_calls as q
from tests.fidelity.group_calls import TXN_KEY, Side

MEMBER_ID = re.compile(r"^.+-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
NODE_FIELDS = {"node_id", "host", "port"}
TIMES = {"transaction_start_time"}
OFFSETS_PARTITIONS = 50  # offsets.topic.num.partitions and transaction.state.log.num.partitions
Steps = list[tuple[str, Any]]


class Names:
    """One side's replacements (the module docstring's list)."""

    def __init__(self, side: Side) -> None:
        self.side = side
        self.members: dict[str, str] = {}
        self.producers: dict[int, str] = {}

    def __call__(self, value: Any, key: str | None = None) -> Any:
        if isinstance(value, dict):
            return {k: self(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [self(v, key) for v in value]
        if key in NODE_FIELDS:
            return "<coordinator>"
        if key in TIMES and isinstance(value, int) and value >= 0:
            return "<time>"
        if key == "producer_id" and isinstance(value, int) and value >= 0:
            return self.producers.setdefault(value, f"producer-{len(self.producers) + 1}")
        if isinstance(value, uuid.UUID):
            return self.side.topic_names.get(value, value)
        if isinstance(value, str) and MEMBER_ID.match(value):
            return self.members.setdefault(value, f"member-{len(self.members) + 1}")
        return value


def _mine(answer: Any, base: str) -> Any:
    """A ListGroups/ListTransactions answer cut to this scenario's names, sorted."""
    for key, name in (("groups", "group_id"), ("transaction_states", "transactional_id")):
        if key in answer:
            answer = dict(answer)
            answer[key] = sorted((g for g in answer[key] if g[name].startswith(base)), key=lambda g: g[name])
    return answer


def _beside(group: str, name: str) -> str:
    """`name` numbered so that it lives in `group`'s partition of __consumer_offsets (or of
    __transaction_state, as many): asked of `group`'s coordinator, it is coordinated there too on each side
    (the real controller places the partitions' leaders at random)."""
    from kcli.sandbox.emulator.groups.coordinator import partition_for

    wanted = partition_for(group, OFFSETS_PARTITIONS)
    return next(f"{name}-{i}" for i in range(10_000) if partition_for(f"{name}-{i}", OFFSETS_PARTITIONS) == wanted)


def _by_group(answer: Any) -> Any:
    """A DeleteGroups answer sorted: a real broker answers the groups of one partition in either order."""
    return {**answer, "results": sorted(answer["results"], key=lambda r: r["group_id"])}


def _settle(side: Side, call: Callable[[], Any], done: Callable[[Any], bool]) -> Any:
    deadline = time.monotonic() + 30
    while True:
        answer = call()
        if done(answer) or time.monotonic() > deadline:
            return answer  # unsettled, it differs from the other side's: the comparison says where
        time.sleep(0.1)


# ---- scenarios ------------------------------------------------------------------------------------------


def find_coordinators(side: Side, base: str) -> Steps:
    side.coordinator(f"{base}-warm")
    side.coordinator(f"{base}-warm", TXN_KEY)
    return [
        ("groups, batched (v4)", side.call(q.find(4, [f"{base}-a", f"{base}-b", ""]))),
        ("transactional ids, batched (v4)", side.call(q.find(4, [f"{base}-t", ""], TXN_KEY))),
        ("one group (v3)", side.call(q.find(3, [f"{base}-a"]))),
        ("an empty group id (v3)", side.call(q.find(3, [""]))),
    ]


def classic_group(side: Side, base: str) -> Steps:
    topic, group = f"{base}-t", f"{base}-g"
    side.create_topic(topic, 2)
    c = side.coordinator(group)
    steps: Steps = []
    first = side.call(q.join(group), c)
    steps.append(("join without a member id", first))
    member = first["member_id"]
    joined = side.call(q.join(group, member), c)
    steps.append(("join (after the initial rebalance delay)", joined))
    generation = joined["generation_id"]
    steps += [
        ("sync", side.call(q.sync(group, member, generation, {member: b"assigned"}), c)),
        ("heartbeat", side.call(q.heartbeat(group, member, generation), c)),
        ("heartbeat of an old generation", side.call(q.heartbeat(group, member, generation - 1), c)),
        (
            "commit",
            side.call(q.commit(group, member, generation, {topic: {0: 5, 1: 7}, f"{base}-no": {0: 1}}), c),
        ),
        (
            "commit of an old generation",
            side.call(q.commit(group, member, generation - 1, {topic: {0: 6}}), c),
        ),
        ("commit of an unknown member", side.call(q.commit(group, "nobody", generation, {topic: {0: 6}}), c)),
        ("fetch", side.call(q.fetch({group: {topic: [0, 1, 5]}}), c)),
        ("fetch all", side.call(q.fetch({group: None}), c)),
        ("describe", side.call(q.describe([group]), c)),
        ("list stable classic groups", _mine(side.call(q.list_groups(["Stable"], ["classic"]), c), base)),
        ("list consumer groups", _mine(side.call(q.list_groups([], ["consumer"]), c), base)),
        ("delete a group with a member", side.call(q.delete_groups([group]), c)),
        ("leave", side.call(q.leave(group, [member, "nobody"]), c)),
        ("describe once empty", side.call(q.describe([group]), c)),
        ("list empty groups", _mine(side.call(q.list_groups(["Empty"], []), c), base)),
        ("delete offsets", side.call(q.delete_offsets(group, {topic: [0, 3], f"{base}-no": [0]}), c)),
        ("fetch after deleting", side.call(q.fetch({group: None}), c)),
        ("delete", side.call(q.delete_groups([group]), c)),
        ("describe once deleted", side.call(q.describe([group]), c)),
    ]
    return steps


def classic_errors(side: Side, base: str) -> Steps:
    group, simple = f"{base}-g", f"{base}-simple"
    side.create_topic(f"{base}-t", 1)
    c, s = side.coordinator(group), side.coordinator(simple)
    steps: Steps = [
        ("join with too short a session", side.call(q.join(group, session_ms=1000), c)),
        ("join with an unknown member id", side.call(q.join(group, "nobody"), c)),
        ("sync to no group", side.call(q.sync(group, "nobody", 1, {}), c)),
        ("heartbeat to no group", side.call(q.heartbeat(group, "nobody", 1), c)),
        ("leave no group", side.call(q.leave(group, ["nobody"]), c)),
        (
            "commit with a generation to no group",
            side.call(q.commit(group, "m", 3, {f"{base}-t": {0: 1}}), c),
        ),
        (
            "commit without a generation (a simple group)",
            side.call(q.commit(simple, "", -1, {f"{base}-t": {0: 9}}), s),
        ),
        ("describe the simple group", side.call(q.describe([simple]), s)),
        ("join the simple group", side.call(q.join(simple, "nobody"), s)),
        ("describe no group", side.call(q.describe([group]), c)),
        (
            "delete the simple group and no group",
            _by_group(side.call(q.delete_groups([simple, _beside(simple, f"{base}-none")]), s)),
        ),
        ("fetch no group", side.call(q.fetch({group: None}), c)),
    ]
    others = sorted(set(side.address) - {c})
    if others:
        steps.append(("join at a broker that is not the coordinator", side.call(q.join(group), others[0])))
    return steps


def consumer_group(side: Side, base: str, member: str) -> Steps:
    topic, group = f"{base}-t", f"{base}-g"
    side.create_topic(topic, 2)
    c = side.coordinator(group)
    topic_id = side.topic_ids[topic]
    steps: Steps = [
        ("join without a subscription", side.call(q.consumer_heartbeat(group, member, 0), c)),
        (
            "join with an unknown assignor",
            side.call(q.consumer_heartbeat(group, member, 0, topics=[topic], assignor="nope"), c),
        ),
        ("join with a bad regex", side.call(q.consumer_heartbeat(group, member, 0, regex="["), c)),
    ]
    joined = side.call(q.consumer_heartbeat(group, member, 0, topics=[topic]), c)
    steps.append(("join", joined))
    epoch = joined["member_epoch"]
    steps += [
        (
            "heartbeat owning the assignment",
            side.call(q.consumer_heartbeat(group, member, epoch, owned=[(topic_id, [0, 1])]), c),
        ),
        ("heartbeat of an unknown member", side.call(q.consumer_heartbeat(group, "nobody", 3), c)),
        ("heartbeat of a future epoch", side.call(q.consumer_heartbeat(group, member, epoch + 5), c)),
        ("describe", side.call(q.describe_consumer_groups([group, _beside(group, f"{base}-none")]), c)),
        ("describe as a classic group", side.call(q.describe([group]), c)),
        ("list consumer groups", _mine(side.call(q.list_groups([], ["consumer"]), c), base)),
        ("commit with the member epoch", side.call(q.commit(group, member, epoch, {topic: {0: 3, 1: 4}}), c)),
        ("commit with a stale epoch", side.call(q.commit(group, member, epoch - 1, {topic: {0: 3}}), c)),
        ("fetch as the member", side.call(q.fetch({group: None}, member=(member, epoch)), c)),
        ("fetch as a stale member", side.call(q.fetch({group: None}, member=(member, epoch + 1)), c)),
        ("a classic heartbeat to the consumer group", side.call(q.heartbeat(group, member, epoch), c)),
        ("delete a group with a member", side.call(q.delete_groups([group]), c)),
        ("leave", side.call(q.consumer_heartbeat(group, member, -1), c)),
        ("describe once empty", side.call(q.describe_consumer_groups([group]), c)),
        ("delete", side.call(q.delete_groups([group]), c)),
    ]
    return steps


def transactions(side: Side, base: str) -> Steps:
    topic, txn, group = f"{base}-t", f"{base}-txn", f"{base}-g"
    side.create_topic(topic, 1)
    c, g = side.coordinator(txn, TXN_KEY), side.coordinator(group)
    steps: Steps = [
        ("init with a zero timeout", side.call(q.init_producer_id(txn, 0), c)),
        ("init past transaction.max.timeout.ms", side.call(q.init_producer_id(txn, 900_001), c)),
    ]
    # a real coordinator may still be loading __transaction_state's partition: retried, as clients do
    init = _settle(
        side,
        lambda: side.call(q.init_producer_id(txn), c),
        lambda a: a["error_code"] != q.LOAD_IN_PROGRESS,
    )
    steps.append(("init", init))
    producer = (init["producer_id"], init["producer_epoch"])
    steps += [
        (
            "add an unknown topic",
            side.call(q.add_partitions(txn, producer, {topic: [0], f"{base}-no": [0]}), c),
        ),
        ("add the partition", side.call(q.add_partitions(txn, producer, {topic: [0]}), c)),
        ("add with a wrong epoch", side.call(q.add_partitions(txn, (producer[0], 5), {topic: [0]}), c)),
        ("add offsets", side.call(q.add_offsets(txn, producer, group), c)),
        (
            "commit offsets in the transaction",
            side.call(q.txn_commit(txn, producer, group, {topic: {0: 4}}), g),
        ),
        ("fetch stable offsets", side.call(q.fetch({group: None}, stable=True), g)),
        ("fetch offsets", side.call(q.fetch({group: None}), g)),
        ("describe", side.call(q.describe_transactions([txn]), c)),
        ("list ongoing", _mine(side.call(q.list_transactions(["Ongoing"], [producer[0]]), c), base)),
        ("list with an unknown state", _mine(side.call(q.list_transactions(["Bogus"], []), c), base)),
        ("describe producers", side.call(q.describe_producers(topic, [0, 7]), side.leader(topic, 0))),
        ("commit", side.call(q.end_txn(txn, producer, True), c)),
    ]
    steps.append(
        (
            "described once complete",
            _settle(
                side,
                lambda: side.call(q.describe_transactions([txn]), c),
                lambda a: a["transaction_states"][0]["transaction_state"] == "CompleteCommit",
            ),
        )
    )
    steps += [
        ("fetch the committed offsets", side.call(q.fetch({group: None}, stable=True), g)),
        ("commit again (a retry)", side.call(q.end_txn(txn, producer, True), c)),
        ("abort a committed transaction", side.call(q.end_txn(txn, producer, False), c)),
    ]
    again = side.call(q.init_producer_id(txn), c)
    steps += [
        ("init again", again),
        ("end with the old epoch", side.call(q.end_txn(txn, producer, True), c)),
        ("describe the empty transaction", side.call(q.describe_transactions([txn]), c)),
        ("describe an unknown id", side.call(q.describe_transactions([_beside(txn, f"{base}-none")]), c)),
    ]
    return steps


def delegation_tokens(side: Side, base: str) -> Steps:
    return [
        ("create over PLAINTEXT", side.call(q.create_token())),
        ("describe over PLAINTEXT", side.call(q.describe_tokens())),
        ("renew over PLAINTEXT", side.call(q.renew_token(b"no such token"))),
        ("expire over PLAINTEXT", side.call(q.expire_token(b"no such token"))),
    ]


SCENARIOS: dict[str, Callable[..., Steps]] = {
    "find coordinators": find_coordinators,
    "classic group": classic_group,
    "classic errors": classic_errors,
    "consumer group": consumer_group,
    "transactions": transactions,
    "delegation tokens": delegation_tokens,
}


@pytest.fixture(scope="module")
def group_sides(sides: tuple[Any, Any]) -> Iterator[tuple[Side, Side]]:
    pair = (Side(sides[0]), Side(sides[1]))
    yield pair
    for side in pair:
        side.close()


def _run(side: Side, scenario: str, base: str, extra: tuple[Any, ...]) -> list[tuple[str, Any]]:
    names = Names(side)
    try:
        return [(label, names(answer)) for label, answer in SCENARIOS[scenario](side, base, *extra)]
    finally:
        side.delete_topics([n for n in side.topic_ids if n.startswith(base)])
        side.close()


@pytest.mark.parametrize("scenario", list(SCENARIOS), ids=list(SCENARIOS))
def test_group_coordinator_answers_as_kafka(group_sides: tuple[Side, Side], scenario: str) -> None:
    base = f"kcli-fidelity-groups-{uuid.uuid4().hex[:8]}"
    extra: tuple[Any, ...] = (str(uuid.uuid4()),) if scenario == "consumer group" else ()
    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        real, emulated = pool.map(lambda side: _run(side, scenario, base, extra), group_sides)
    assert [label for label, _ in emulated] == [label for label, _ in real]
    for (label, expected), (_, seen) in zip(real, emulated, strict=True):
        assert seen == expected, f"{scenario}: {label}:\n real    {expected}\n sandbox {seen}"
