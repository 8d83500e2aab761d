"""kafka-reassign-partitions.sh: Kafka's ReassignPartitionsUnitTest, ported.

Kafka's unit test calls the tool's functions with a mock admin client. Where the function shows on
the command line (generate, execute, verify, list, the errors), the case runs `kcli
reassign-partitions` against a sandbox holding the mock's topics; Kafka's brokers 0-3 are the
sandbox's brokers 1-4. Pure functions (ordering, the verify lines, throttle lists) are checked
against kcli's functions of the same job.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.kafka_parity.conftest import NOWHERE, kcli, runtime_error, usage_error

KAFKA_TOOL = "kafka-reassign-partitions.sh"
KAFKA_TEST_CLASS = "ReassignPartitionsUnitTest"
KAFKA_SOURCE = "tools/src/test/java/org/apache/kafka/tools/reassign/ReassignPartitionsUnitTest.java"
KAFKA_METHODS = [
    "testCompareTopicPartitions",
    "testCompareTopicPartitionReplicas",
    "testPartitionReassignStatesToString",
    "testFindPartitionReassignmentStates",
    "testFindLogDirMoveStates",
    "testReplicaMoveStatesToString",
    "testGetReplicaAssignments",
    "testGetBrokerRackInformation",
    "testParseGenerateAssignmentArgs",
    "testGenerateAssignmentFailsWithoutEnoughReplicas",
    "testGenerateAssignmentWithInvalidPartitionsFails",
    "testGenerateAssignmentWithInconsistentRacks",
    "testGenerateAssignmentWithFewerBrokers",
    "testCurrentPartitionReplicaAssignmentToString",
    "testMoveMap",
    "testParseExecuteAssignmentArgs",
    "testExecuteWithInvalidPartitionsFails",
    "testExecuteWithInvalidBrokerIdFails",
    "testModifyBrokerInterBrokerThrottle",
    "testModifyLogDirThrottle",
    "testCurReassignmentsToString",
    "testModifyTopicThrottles",
    "testAlterReplicaLogDirs",
    "testPropagateInvalidJsonError",
    "testGetReplicaToLogDir",
]
NOT_PORTED: dict[str, str] = {}

USAGE_EXIT = "a malformed input file is a usage error: exit 2 with one line (kafka-reassign-partitions: 1)"
DESCRIBE_LOG_DIRS = 35
LEADER_RATE, FOLLOWER_RATE = "leader.replication.throttled.rate", "follower.replication.throttled.rate"
LOG_DIR_RATE = "replica.alter.log.dirs.io.max.bytes.per.second"
LEADER_REPLICAS, FOLLOWER_REPLICAS = (
    "leader.replication.throttled.replicas",
    "follower.replication.throttled.replicas",
)


def k(broker: int) -> int:
    """Kafka's broker id in the mock -> the sandbox's."""
    return broker + 1


# Records in each partition: 8 producer batches (~120 KB). A new replica copies a batch on credit and
# waits for the throttle to pay it, so at --throttle 1 a move never completes and at 1000 B/s it takes
# minutes: the moves stay in progress until cancelled, as the mock's reassignments do (an empty
# partition would complete at once). Unthrottled, it is copied within a tick.
RECORDS = 1_000


@pytest.fixture(scope="module")
def own(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """Four brokers with two log dirs each, and the mock's topics foo (2 partitions) and bar (1)."""
    from kcli.sandbox.emulator.handle import Sandbox
    from tests.dataplane.filling import fill
    from tests.reassign.peer import create_topic

    with Sandbox(
        directory=tmp_path_factory.mktemp("reassign-unit"), controllers=1, brokers=4, log_dirs=2
    ) as sb:
        create_topic(sb.bootstrap_servers, "foo", [[k(0), k(1), k(2)], [k(1), k(2), k(3)]])
        create_topic(sb.bootstrap_servers, "bar", [[k(2), k(3), k(0)]])
        fill(sb, "foo", [0, 1], RECORDS)
        fill(sb, "bar", [0], RECORDS)
        yield sb


def reassign(sb: Any, *args: str) -> Any:
    return kcli("reassign-partitions", "--bootstrap-server", sb.bootstrap_servers, *args)


def write(tmp_path: Path, name: str, document: object) -> str:
    path = tmp_path / name
    path.write_text(document if isinstance(document, str) else json.dumps(document))
    return str(path)


def plan(*entries: tuple[str, int, list[int]]) -> dict[str, Any]:
    return {"version": 1, "partitions": [{"topic": t, "partition": p, "replicas": r} for t, p, r in entries]}


def assignments(text: str, heading: str) -> dict[tuple[str, int], list[int]]:
    """The JSON printed after `heading` (generate/execute output) as {(topic, partition): replicas}."""
    lines = text.splitlines()
    index = lines.index(heading)
    document = next(json.loads(line) for line in lines[index + 1 :] if line.startswith("{"))
    return {(p["topic"], p["partition"]): p["replicas"] for p in document["partitions"]}


def broker_configs(sb: Any, broker: int) -> dict[str, str]:
    from tests.reassign.peer import broker_configs as read

    return dict(read(sb.bootstrap_servers, broker))


def topic_configs(sb: Any, topic: str) -> dict[str, str]:
    from tests.reassign.peer import topic_configs as read

    return dict(read(sb.bootstrap_servers, topic))


# ---------------------------------------------------------------- pure functions


def test_ReassignPartitionsUnitTest_testCompareTopicPartitions() -> None:
    from kcli.ops.reassign.model import TopicPartition, sort_key

    assert sort_key(TopicPartition("abc", 0)) < sort_key(TopicPartition("abc", 1))
    assert not sort_key(TopicPartition("def", 0)) < sort_key(TopicPartition("abc", 1))


def test_ReassignPartitionsUnitTest_testCompareTopicPartitionReplicas() -> None:
    """Replicas order by broker first, then topic and partition (the verify lines' order)."""
    from kcli.ops.reassign.model import TopicPartition
    from kcli.ops.reassign.verify import log_dir_states

    wanted = {
        (TopicPartition("abc", 0), 1): "/d",
        (TopicPartition("def", 0), 0): "/d",
        (TopicPartition("cde", 0), 0): "/d",
    }
    order = [(s.partition.topic, s.broker) for s in log_dir_states(wanted, {})]
    assert order == [("cde", 0), ("def", 0), ("abc", 1)]


def _verify_lines(states: Any, moves: Any = ()) -> list[str]:
    from kcli.ops.reassign.verify import VerifyResult
    from kcli.render.reassign import verify_text
    from kcli.workflows.reassign.verify import VerifyReport

    return list(
        verify_text(VerifyReport(result=VerifyResult(states=states, any_ongoing=True), log_dirs=moves))
    )


def test_ReassignPartitionsUnitTest_testPartitionReassignStatesToString() -> None:
    from kcli.ops.reassign.model import OngoingReassignment, TopicPartition
    from kcli.ops.reassign.verify import partition_states

    foo0, foo1, bar0 = TopicPartition("foo", 0), TopicPartition("foo", 1), TopicPartition("bar", 0)
    states = partition_states(
        {foo0: (1, 2, 3), foo1: (1, 2, 4), bar0: (1, 2, 4)},
        current={foo0: (1, 2, 3), foo1: (1, 2, 3), bar0: (1, 2, 3)},
        ongoing={
            tp: OngoingReassignment(partition=tp, replicas=(1, 2, 3, 4), adding=(4,), removing=(3,))
            for tp in (foo1, bar0)
        },
    )
    assert _verify_lines(states)[:4] == [
        "Status of partition reassignment:",
        "Reassignment of partition bar-0 is still in progress.",
        "Reassignment of partition foo-0 is completed.",
        "Reassignment of partition foo-1 is still in progress.",
    ]


def test_ReassignPartitionsUnitTest_testReplicaMoveStatesToString() -> None:
    from kcli.ops.reassign.model import TopicPartition
    from kcli.ops.reassign.verify import ReplicaDirState, log_dir_states

    tp = TopicPartition
    wanted = {
        (tp("bar", 0), 0): "/tmp/kafka-logs0",
        (tp("foo", 0), 0): "/tmp/kafka-logs1",
        (tp("foo", 1), 0): "/tmp/kafka-logs1",
        (tp("quux", 0), 0): "/tmp/kafka-logs1",
        (tp("quux", 1), 1): "/tmp/kafka-logs1",
        (tp("quux", 2), 1): "/tmp/kafka-logs1",
    }
    observed = {
        (tp("bar", 0), 0): ReplicaDirState(current="/tmp/kafka-logs0", future=None),
        (tp("foo", 0), 0): ReplicaDirState(current="/tmp/kafka-logs0", future="/tmp/kafka-logs1"),
        (tp("foo", 1), 0): ReplicaDirState(current="/tmp/kafka-logs0", future=None),
        (tp("quux", 1), 1): ReplicaDirState(current="/tmp/kafka-logs0", future="/tmp/kafka-logs2"),
        (tp("quux", 2), 1): ReplicaDirState(current=None, future=None, broker_has_offline_dir=True),
    }
    assert [s.line for s in log_dir_states(wanted, observed)] == [
        "Reassignment of replica bar-0-0 completed successfully.",
        "Reassignment of replica foo-0-0 is still in progress.",
        "Partition foo-1 on broker 0 is not being moved from log dir /tmp/kafka-logs0 to /tmp/kafka-logs1.",
        "Partition quux-0 cannot be found in any live log directory on broker 0.",
        "Partition quux-1 on broker 1 is being moved to log dir /tmp/kafka-logs2 instead of /tmp/kafka-logs1.",
        "Partition quux-2 is not found in any live log dir on broker 1. There is likely an offline log directory on the broker.",
    ]


def test_ReassignPartitionsUnitTest_testMoveMap() -> None:
    from kcli.ops.reassign.json_format import parse_reassignment
    from kcli.ops.reassign.model import OngoingReassignment, TopicPartition
    from kcli.ops.reassign.throttle import (
        PartitionMove,
        follower_throttles,
        leader_throttles,
        log_dir_moving_brokers,
        move_map,
        reassigning_brokers,
    )

    def ongoing(p: int, replicas: list[int], adding: list[int], removing: list[int]) -> OngoingReassignment:
        return OngoingReassignment(
            partition=TopicPartition("foo", p),
            replicas=tuple(replicas),
            adding=tuple(adding),
            removing=tuple(removing),
        )

    current_reassignments = [
        ongoing(0, [1, 2, 3, 4], [4], [3]),
        ongoing(1, [4, 5, 6, 7, 8], [7, 8], [4, 5]),
        *(ongoing(p, [1, 2, 3, 4], [3, 4], [1, 2]) for p in (2, 3, 4, 5)),
    ]
    tp = TopicPartition
    proposed = {tp("foo", 0): (1, 2, 5), tp("foo", 2): (3, 4), tp("foo", 3): (5, 6), tp("foo", 4): (3,),
                tp("foo", 5): (3, 4, 5, 6), tp("bar", 0): (1, 2, 3)}  # fmt: skip
    current = {**{tp("foo", p): (1, 2, 3, 4) for p in (0, 2, 3, 4, 5)}, tp("foo", 1): (4, 5, 6, 7, 8),
               tp("bar", 0): (2, 3, 4), tp("baz", 0): (1, 2, 3)}  # fmt: skip
    moves = move_map(current_reassignments, proposed, current)

    def move(sources: set[int], destinations: set[int]) -> PartitionMove:
        return PartitionMove(sources=frozenset(sources), destinations=frozenset(destinations))

    assert moves["foo"] == {
        0: move({1, 2, 3}, {5}),
        1: move({4, 5, 6}, {7, 8}),
        2: move({1, 2}, {3, 4}),
        3: move({1, 2}, {5, 6}),
        4: move({1, 2}, {3}),
        5: move({1, 2}, {3, 4, 5, 6}),
    }
    assert moves["bar"] == {0: move({2, 3, 4}, {1})}
    assert leader_throttles(moves) == {
        "foo": "0:1,0:2,0:3,1:4,1:5,1:6,2:1,2:2,3:1,3:2,4:1,4:2,5:1,5:2",
        "bar": "0:2,0:3,0:4",
    }
    assert follower_throttles(moves) == {
        "foo": "0:5,1:7,1:8,2:3,2:4,3:5,3:6,4:3,5:3,5:4,5:5,5:6",
        "bar": "0:1",
    }
    assert reassigning_brokers(moves) == {1, 2, 3, 4, 5, 6, 7, 8}
    moving = parse_reassignment(
        '{"partitions":[{"topic":"quux","partition":0,"replicas":[0],"log_dirs":["/a"]},'
        '{"topic":"quux","partition":1,"replicas":[2],"log_dirs":["/b"]}]}'
    )
    assert log_dir_moving_brokers(moving.entries) == {0, 2}


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsUnitTest_testParseGenerateAssignmentArgs(tmp_path: Path) -> None:
    from kcli.ops.reassign.json_format import parse_broker_list, parse_topics_to_move

    foo = write(tmp_path, "foo.json", '{"topics": [{"topic": "foo"}], "version":1}')
    for brokers in ("1,1,2", "5,2,3,4,5"):
        result = kcli("reassign-partitions", "--bootstrap-server", NOWHERE, "--generate", "--topics-to-move-json-file", foo,
                      "--broker-list", brokers)  # fmt: skip
        usage_error(result, "Broker list contains duplicate entries")
    assert parse_broker_list("5,2,3,4") == [5, 2, 3, 4]
    twice = write(tmp_path, "twice.json", '{"topics": [{"topic": "foo"},{"topic": "foo"}], "version":1}')
    result = kcli("reassign-partitions", "--bootstrap-server", NOWHERE, "--generate", "--topics-to-move-json-file", twice,
                  "--broker-list", "5,2,3,4")  # fmt: skip
    usage_error(result, "List of topics to reassign contains duplicate entries")
    assert parse_topics_to_move('{"topics": [{"topic": "foo"},{"topic": "bar"}], "version":1}') == [
        "foo",
        "bar",
    ]


@pytest.mark.kafka_difference(USAGE_EXIT)
def test_ReassignPartitionsUnitTest_testParseExecuteAssignmentArgs(tmp_path: Path) -> None:
    from kcli.ops.reassign.json_format import parse_reassignment
    from kcli.ops.reassign.model import TopicPartition

    def execute(document: str) -> Any:
        path = write(tmp_path, "plan.json", document)
        return kcli(
            "reassign-partitions",
            "--bootstrap-server",
            NOWHERE,
            "--execute",
            "--reassignment-json-file",
            path,
        )

    usage_error(execute('{"version":1,"partitions":[]}'), "Partition reassignment list cannot be empty")
    usage_error(
        execute('{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[0,1],"log_dirs":["any","any"]},'
                '{"topic":"foo","partition":0,"replicas":[2,3,4],"log_dirs":["any","any","any"]}]}'),
        "Partition reassignment contains duplicate topic partitions",
    )  # fmt: skip
    usage_error(
        execute('{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[0,1],"log_dirs":["/abc","/def"]},'
                '{"topic":"foo","partition":0,"replicas":[2,3],"log_dirs":["/abc","/def"]}]}'),
        "Partition reassignment contains duplicate topic partitions",
    )  # fmt: skip
    usage_error(
        execute('{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[0,0],"log_dirs":["/abc","/def"]},'
                '{"topic":"foo","partition":1,"replicas":[2,3],"log_dirs":["/abc","/def"]}]}'),
        "Partition replica lists may not contain duplicate entries",
    )  # fmt: skip
    anywhere = parse_reassignment(
        '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2,3],"log_dirs":["any","any","any"]},'
        '{"topic":"foo","partition":1,"replicas":[3,4,5],"log_dirs":["any","any","any"]}]}'
    )
    assert anywhere.targets == {TopicPartition("foo", 0): (1, 2, 3), TopicPartition("foo", 1): (3, 4, 5)}
    assert not any(e.has_log_dir_moves() for e in anywhere.entries)
    placed = parse_reassignment(
        '{"version":1,"partitions":[{"topic":"foo","partition":0,"replicas":[1,2,3],"log_dirs":["/tmp/a","/tmp/b","/tmp/c"]}]}'
    )
    assert placed.targets == {TopicPartition("foo", 0): (1, 2, 3)}
    assert [(b, d) for e in placed.entries for b, d in zip(e.replicas, e.log_dirs or (), strict=True)] == [
        (1, "/tmp/a"), (2, "/tmp/b"), (3, "/tmp/c")
    ]  # fmt: skip


@pytest.mark.kafka_difference(
    "invalid JSON is reported in kcli's words with its line and column (Kafka: Jackson's message)"
)
def test_ReassignPartitionsUnitTest_testPropagateInvalidJsonError(tmp_path: Path) -> None:
    path = write(tmp_path, "plan.json", "{invalid_json")
    result = kcli(
        "reassign-partitions", "--bootstrap-server", NOWHERE, "--execute", "--reassignment-json-file", path
    )
    usage_error(result, "The input string is not a valid JSON")
    assert "line 1" in result.stderr


def test_ReassignPartitionsUnitTest_testGetBrokerRackInformation() -> None:
    """Rack-aware placement needs every chosen broker to have a rack (the sandbox gives all or none)."""
    from kcli.errors import KcliError
    from kcli.ops.reassign.model import BrokerInfo
    from kcli.ops.reassign.original import resolve_rack_awareness

    brokers = {
        0: BrokerInfo(broker_id=0, rack="rack0"),
        1: BrokerInfo(broker_id=1, rack="rack1"),
        2: BrokerInfo(broker_id=2),
    }
    assert resolve_rack_awareness([brokers[0], brokers[1]], disable_rack_aware=False) is True
    assert resolve_rack_awareness([brokers[0], brokers[1]], disable_rack_aware=True) is False
    with pytest.raises(KcliError, match=r"^Not all brokers have rack information"):
        resolve_rack_awareness([brokers[1], brokers[2]], disable_rack_aware=False)
    assert resolve_rack_awareness([brokers[1], brokers[2]], disable_rack_aware=True) is False


# ---------------------------------------------------------------- against the sandbox


def test_ReassignPartitionsUnitTest_testGetReplicaAssignments(own: Any, tmp_path: Path) -> None:
    topics = write(tmp_path, "topics.json", {"version": 1, "topics": [{"topic": "foo"}]})
    result = reassign(own, "--generate", "--topics-to-move-json-file", topics, "--broker-list", "1,2,3,4")
    assert result.code == 0, result.stderr
    assert assignments(result.stdout, "Current partition replica assignment") == {
        ("foo", 0): [k(0), k(1), k(2)],
        ("foo", 1): [k(1), k(2), k(3)],
    }
    missing = write(
        tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1), k(2)]), ("foo", 10, [k(0), k(1), k(2)]))
    )
    runtime_error(
        reassign(own, "--execute", "--reassignment-json-file", missing), "Unable to find partition: foo-10"
    )


def test_ReassignPartitionsUnitTest_testGenerateAssignmentFailsWithoutEnoughReplicas(
    own: Any, tmp_path: Path
) -> None:
    topics = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}, {"topic": "bar"}]})
    result = reassign(
        own, "--generate", "--topics-to-move-json-file", topics, "--broker-list", f"{k(0)},{k(1)}"
    )
    runtime_error(
        result, "The target replication factor of 3 cannot be reached because only 2 broker(s) are registered"
    )


def test_ReassignPartitionsUnitTest_testGenerateAssignmentWithInvalidPartitionsFails(
    own: Any, tmp_path: Path
) -> None:
    topics = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}, {"topic": "quux"}]})
    result = reassign(
        own, "--generate", "--topics-to-move-json-file", topics, "--broker-list", f"{k(0)},{k(1)}"
    )
    runtime_error(result, "Topic quux not found")


def test_ReassignPartitionsUnitTest_testGenerateAssignmentWithInconsistentRacks(
    own: Any, tmp_path: Path
) -> None:
    """The rack check itself is testGetBrokerRackInformation's; here --disable-rack-aware still reports foo as it is."""
    topics = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}]})
    result = reassign(
        own,
        "--generate",
        "--topics-to-move-json-file",
        topics,
        "--broker-list",
        "1,2,3,4",
        "--disable-rack-aware",
    )
    assert result.code == 0, result.stderr
    assert assignments(result.stdout, "Current partition replica assignment") == {
        ("foo", 0): [k(0), k(1), k(2)],
        ("foo", 1): [k(1), k(2), k(3)],
    }


def test_ReassignPartitionsUnitTest_testGenerateAssignmentWithFewerBrokers(own: Any, tmp_path: Path) -> None:
    goal = [k(0), k(1), k(3)]
    topics = write(tmp_path, "topics.json", {"topics": [{"topic": "foo"}, {"topic": "bar"}]})
    result = reassign(
        own, "--generate", "--topics-to-move-json-file", topics, "--broker-list", ",".join(map(str, goal))
    )
    assert result.code == 0, result.stderr
    assert assignments(result.stdout, "Current partition replica assignment") == {
        ("foo", 0): [k(0), k(1), k(2)],
        ("foo", 1): [k(1), k(2), k(3)],
        ("bar", 0): [k(2), k(3), k(0)],
    }
    proposed = assignments(result.stdout, "Proposed partition reassignment configuration")
    assert all(set(replicas) <= set(goal) for replicas in proposed.values()), proposed


def test_ReassignPartitionsUnitTest_testExecuteWithInvalidPartitionsFails(own: Any, tmp_path: Path) -> None:
    path = write(tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1)]), ("quux", 0, [k(2), k(3), k(0)])))
    runtime_error(reassign(own, "--execute", "--reassignment-json-file", path), "Topic quux not found")


def test_ReassignPartitionsUnitTest_testExecuteWithInvalidBrokerIdFails(own: Any, tmp_path: Path) -> None:
    path = write(tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1), k(2)]), ("foo", 1, [k(2), k(3), 5])))
    runtime_error(reassign(own, "--execute", "--reassignment-json-file", path), "Unknown broker id 5")


_TO_CANCEL: list[tuple[Any, str]] = []


def request_cancel_at_teardown(sb: Any, path: str) -> None:
    """A throttled reassignment never finishes here: cancel it when the case ends, whatever happened."""
    _TO_CANCEL.append((sb, path))


@pytest.fixture(autouse=True)
def _cancel_leftovers() -> Iterator[None]:
    yield
    while _TO_CANCEL:
        sb, path = _TO_CANCEL.pop()
        reassign(sb, "--cancel", "--reassignment-json-file", path)


def _wait_idle(sb: Any) -> None:
    """Until no reassignment runs (the sandbox copies unthrottled partitions within seconds)."""
    import time

    deadline = time.monotonic() + 30
    while "No partition reassignments found." not in reassign(sb, "--list").stdout:
        assert time.monotonic() < deadline, "a reassignment did not finish"
        time.sleep(0.2)


def test_ReassignPartitionsUnitTest_testFindPartitionReassignmentStates(own: Any, tmp_path: Path) -> None:
    _wait_idle(own)
    with_quux = write(
        tmp_path, "quux.json", plan(("foo", 0, [k(0), k(1), k(3)]), ("quux", 0, [k(1), k(2), k(3)]))
    )
    rollback = str(tmp_path / "rollback.json")
    runtime_error(
        reassign(own, "--execute", "--reassignment-json-file", with_quux, "--rollback-file", rollback),
        "Topic quux not found",
    )
    moving = write(tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1), k(3)])))
    started = reassign(
        own, "--execute", "--reassignment-json-file", moving, "--throttle", "1", "--rollback-file", rollback
    )
    assert started.code == 0, started.stderr
    request_cancel_at_teardown(own, moving)
    both = write(tmp_path, "both.json", plan(("foo", 0, [k(0), k(1), k(3)]), ("foo", 1, [k(1), k(2), k(3)])))
    verified = reassign(own, "--verify", "--reassignment-json-file", both, "--preserve-throttles")
    assert verified.stdout.splitlines()[:3] == [
        "Status of partition reassignment:",
        "Reassignment of partition foo-0 is still in progress.",
        "Reassignment of partition foo-1 is completed.",
    ]
    cancelled = reassign(own, "--cancel", "--reassignment-json-file", moving)
    assert cancelled.code == 0, cancelled.stderr
    assert "Successfully cancelled partition reassignment for: foo-0" in cancelled.stdout
    verified = reassign(own, "--verify", "--reassignment-json-file", both)
    assert verified.stdout.splitlines()[:3] == [
        "Status of partition reassignment:",
        f"There is no active reassignment of partition foo-0, but replica set is {k(0)},{k(1)},{k(2)} rather than "
        f"{k(0)},{k(1)},{k(3)}.",
        "Reassignment of partition foo-1 is completed.",
    ]


def test_ReassignPartitionsUnitTest_testCurrentPartitionReplicaAssignmentToString(
    own: Any, hooks: Any, tmp_path: Path
) -> None:
    """The current assignment before an execute: each replica's real log dir, "any" where unknown
    (here broker 4 cannot describe its log dirs), only for the partitions being moved."""
    from kcli.sandbox.emulator.context import ZERO

    async def unknown_on_4(context: Any, request: Any) -> Any:
        if context.node.node_id != k(3):
            return None
        return context.r("DescribeLogDirsResponse", throttle_time=ZERO, error_code=0, results=())

    hooks(own, DESCRIBE_LOG_DIRS, unknown_on_4)
    _wait_idle(own)
    path = write(tmp_path, "plan.json", plan(("foo", 1, [k(1), k(2), k(3)]), ("bar", 0, [k(2), k(3), k(0)])))
    rollback = tmp_path / "rollback.json"
    result = reassign(own, "--execute", "--reassignment-json-file", path, "--rollback-file", str(rollback))
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[:2] == ["Current partition replica assignment", ""]
    assert lines[3:5] == ["", "Save this to use as the --reassignment-json-file option during rollback"]
    document = json.loads(lines[2])
    assert [(p["topic"], p["partition"]) for p in document["partitions"]] == [("bar", 0), ("foo", 1)]
    for entry in document["partitions"]:
        for broker, log_dir in zip(entry["replicas"], entry["log_dirs"], strict=True):
            if broker == k(3):
                assert log_dir == "any"
            else:
                assert log_dir != "any" and Path(log_dir).name.startswith(str(broker)), (broker, log_dir)
    _wait_idle(own)


def test_ReassignPartitionsUnitTest_testGetReplicaToLogDir(own: Any, tmp_path: Path) -> None:
    """Every replica's log dir, as DescribeLogDirs reports it, in the rollback file of an execute."""
    _wait_idle(own)
    path = write(tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1), k(2)]), ("foo", 1, [k(1), k(2), k(3)]),
                                            ("bar", 0, [k(2), k(3), k(0)])))  # fmt: skip
    rollback = tmp_path / "rollback.json"
    result = reassign(own, "--execute", "--reassignment-json-file", path, "--rollback-file", str(rollback))
    assert result.code == 0, result.stderr
    saved = json.loads(rollback.read_text())
    for entry in saved["partitions"]:
        assert all(d != "any" for d in entry["log_dirs"]), entry
        assert len(set(entry["log_dirs"])) == len(entry["replicas"])
    _wait_idle(own)


def test_ReassignPartitionsUnitTest_testModifyBrokerInterBrokerThrottle(own: Any, tmp_path: Path) -> None:
    """--throttle sets the inter-broker rate on the brokers a reassignment moves data between."""
    _wait_idle(own)
    path = write(tmp_path, "plan.json", plan(("foo", 0, [k(0), k(1), k(3)])))
    result = reassign(own, "--execute", "--reassignment-json-file", path, "--throttle", "1000", "--additional",
                      "--rollback-file", str(tmp_path / "rollback.json"))  # fmt: skip
    assert result.code == 0, result.stderr
    request_cancel_at_teardown(own, path)
    assert "The inter-broker throttle limit was set to 1000 B/s" in result.stdout
    for broker in (k(0), k(1), k(2), k(3)):
        configs = broker_configs(own, broker)
        assert configs.get(LEADER_RATE) == configs.get(FOLLOWER_RATE) == "1000", (broker, configs)


def test_ReassignPartitionsUnitTest_testModifyTopicThrottles(own: Any, tmp_path: Path) -> None:
    """The throttled-replicas configs of the moved topics: sources lead, new replicas follow."""
    _wait_idle(own)
    path = write(tmp_path, "plan.json", plan(("bar", 0, [k(2), k(3), k(1)])))
    result = reassign(own, "--execute", "--reassignment-json-file", path, "--throttle", "1",
                      "--rollback-file", str(tmp_path / "rollback.json"))  # fmt: skip
    assert result.code == 0, result.stderr
    request_cancel_at_teardown(own, path)
    configs = topic_configs(own, "bar")
    assert configs.get(LEADER_REPLICAS) == f"0:{k(0)},0:{k(2)},0:{k(3)}"
    assert configs.get(FOLLOWER_REPLICAS) == f"0:{k(1)}"
    cancelled = reassign(own, "--cancel", "--reassignment-json-file", path)
    assert cancelled.code == 0, cancelled.stderr
    assert LEADER_REPLICAS not in topic_configs(own, "bar")


def test_ReassignPartitionsUnitTest_testCurReassignmentsToString(own: Any, tmp_path: Path) -> None:
    _wait_idle(own)
    assert reassign(own, "--list").stdout.strip() == "No partition reassignments found."
    path = write(tmp_path, "plan.json", plan(("foo", 1, [k(1), k(2), k(0)])))
    started = reassign(own, "--execute", "--reassignment-json-file", path, "--throttle", "1",
                       "--rollback-file", str(tmp_path / "rollback.json"))  # fmt: skip
    assert started.code == 0, started.stderr
    request_cancel_at_teardown(own, path)
    listed = reassign(own, "--list")
    assert listed.stdout.strip().splitlines() == [
        "Current partition reassignments:",
        f"foo-1: replicas: {k(1)},{k(2)},{k(0)},{k(3)}. adding: {k(0)}. removing: {k(3)}.",
    ]


def _log_dirs_of(sb: Any, broker: int) -> list[str]:
    return [str(d.path) for d in sb.run(lambda cluster: cluster.log_dirs[broker])]


def _dir_of(sb: Any, tmp_path: Path, topic: str, partition: int, broker: int) -> str:
    """The log dir a replica lives in, as the current assignment --generate prints it."""
    topics = write(tmp_path, "dirs-topics.json", {"topics": [{"topic": topic}]})
    result = reassign(sb, "--generate", "--topics-to-move-json-file", topics, "--broker-list", "1,2,3,4")
    lines = result.stdout.splitlines()
    document = json.loads(lines[lines.index("Current partition replica assignment") + 1])
    (entry,) = [p for p in document["partitions"] if p["partition"] == partition]
    return str(entry["log_dirs"][entry["replicas"].index(broker)])


def _other_dir(sb: Any, tmp_path: Path, topic: str, partition: int, broker: int) -> tuple[str, str]:
    """(the replica's log dir, the broker's other one)."""
    here = _dir_of(sb, tmp_path, topic, partition, broker)
    (there,) = [d for d in _log_dirs_of(sb, broker) if d != here]
    return here, there


def test_ReassignPartitionsUnitTest_testModifyLogDirThrottle(own: Any, tmp_path: Path) -> None:
    """--replica-alter-log-dirs-throttle sets its rate on the brokers with a log-dir move only."""
    _wait_idle(own)
    _, target = _other_dir(own, tmp_path, "foo", 0, k(0))
    document = {"version": 1, "partitions": [
        {"topic": "foo", "partition": 0, "replicas": [k(0), k(1), k(2)], "log_dirs": [target, "any", "any"]}]}  # fmt: skip
    path = write(tmp_path, "plan.json", document)
    result = reassign(own, "--execute", "--reassignment-json-file", path, "--replica-alter-log-dirs-throttle", "2000",
                      "--rollback-file", str(tmp_path / "rollback.json"))  # fmt: skip
    assert result.code == 0, result.stderr
    request_cancel_at_teardown(own, path)
    assert "The replica-alter-dir throttle limit was set to 2000 B/s" in result.stdout
    assert broker_configs(own, k(0)).get(LOG_DIR_RATE) == "2000"
    assert LOG_DIR_RATE not in broker_configs(own, k(3))
    assert reassign(own, "--verify", "--reassignment-json-file", path).code == 0


def test_ReassignPartitionsUnitTest_testAlterReplicaLogDirs(own: Any, tmp_path: Path) -> None:
    """A log-dir move is started for a replica that exists; the tool says so per replica."""
    _wait_idle(own)
    _, there = _other_dir(own, tmp_path, "bar", 0, k(0))
    document = {"version": 1, "partitions": [
        {"topic": "bar", "partition": 0, "replicas": [k(2), k(3), k(0)], "log_dirs": ["any", "any", there]}]}  # fmt: skip
    path = write(tmp_path, "plan.json", document)
    result = reassign(
        own, "--execute", "--reassignment-json-file", path, "--rollback-file", str(tmp_path / "rollback.json")
    )
    assert result.code == 0, result.stderr
    assert (
        f"Successfully started moving log directory to {there} for replica bar-0 with broker {k(0)} "
        in result.stdout
    )


def test_ReassignPartitionsUnitTest_testFindLogDirMoveStates(own: Any, tmp_path: Path) -> None:
    """--verify reports each named log dir: a replica where it was asked to be, or one that is not."""
    _wait_idle(own)
    bar_dir = _dir_of(own, tmp_path, "bar", 0, k(2))
    foo_here, foo_there = _other_dir(own, tmp_path, "foo", 1, k(1))
    document = {"version": 1, "partitions": [
        {"topic": "bar", "partition": 0, "replicas": [k(2), k(3), k(0)], "log_dirs": [bar_dir, "any", "any"]},
        {"topic": "foo", "partition": 1, "replicas": [k(1), k(2), k(3)], "log_dirs": [foo_there, "any", "any"]}]}  # fmt: skip
    path = write(tmp_path, "plan.json", document)
    result = reassign(own, "--verify", "--reassignment-json-file", path)
    assert result.code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert f"Reassignment of replica bar-0-{k(2)} completed successfully." in lines
    assert (
        f"Partition foo-1 on broker {k(1)} is not being moved from log dir {foo_here} to {foo_there}."
        in lines
    )
